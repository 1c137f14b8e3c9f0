/**
 * The sequence simulator. It plays each trial the way players would: attack after attack (./attack-roller.ts
 * rolls each), rolling every die, keeping the best or worst, reading the injury table, placing and
 * spending markers. It shares the
 * rule table (the scenario's `rules`, and ./rules.ts) with the exact chain and nothing else, with one deliberate
 * exception: under the `optimal` policy the attacker looks its decisions up in the table the dynamic
 * programme produced (./optimal-finite.ts, ./optimal-unlimited.ts). That table is a policy, what to spend in which state, not a
 * probability, so a mistake in the chain's probabilities still shows up in `check`; the state packing
 * of ./model.ts is imported only to read that table.
 */
import type { Dice, SimKernel } from '../../../model/types.js';
import { markersLeftAfterRoll } from '../simulate.js';
import { AttackRoller, type Lookup } from './attack-roller.js';
import { buildModel, type SequenceScenario } from './model.js';
import { optimalFinite } from './optimal-finite.js';
import { optimalUnlimited } from './optimal-unlimited.js';
import { attacksPerActivationOf, markerCapOf, unlimitedMarkerLimit } from './rules.js';
import { histogramOffset, meanOffset, tallyOffsets } from '../../../model/tally.js';
import { FINAL_MARKERS_HISTOGRAM, OUT_AT_HISTOGRAM, attacksMadeMean, maxFinalMarkers, sequenceLayout, spentMean, toughSavedMean, unlimitedMean } from './layout.js';

/** Safety stop for one unlimited trial; never reached when Out of Action is certain (the layout checks). */
const MAX_UNLIMITED_ATTACKS = 10_000_000;

/**
 * The optimal policy's tables, kept per scenario: a worker compiles the kernel once per task, and the
 * dynamic programme takes a good fraction of a second at N = 50, so each worker computes it once.
 */
const tablesByScenario = new Map<string, { finiteTable: Lookup; unlimitedTable: Lookup | undefined }>();
function optimalTables(s: SequenceScenario, unlimited: boolean, limit: number) {
  const key = JSON.stringify(s);
  let t = tablesByScenario.get(key);
  if (!t) {
    const model = buildModel(s);
    const u = unlimited ? optimalUnlimited(model, limit) : undefined;
    t = { finiteTable: optimalFinite(model), unlimitedTable: u && { stride: u.stride, attack: u.attack, inner: u.inner } };
    if (tablesByScenario.size >= 8) tablesByScenario.clear();
    tablesByScenario.set(key, t);
  }
  return t;
}

export function sequenceSimulator(s: SequenceScenario): SimKernel {
  const rules = s.rules;
  const layout = sequenceLayout(s);
  const n = s.attacks;
  const per = attacksPerActivationOf(s.attacksPerActivation);
  const policy = s.policy;
  const cap = markerCapOf(s.markerCap);
  const m0 = s.bloodMarkers;
  const attackRollMax = s.attackRollMarkers;
  const unlimited = layout.means.some((m) => m.id === unlimitedMean.id);
  // Where each part goes, from the layout's one owner (src/model/tally.ts).
  const outcomesAt = tallyOffsets(layout).outcomes;
  const madeAt = meanOffset(layout, attacksMadeMean.id);
  const spentAt = meanOffset(layout, spentMean.id);
  const savedAt = meanOffset(layout, toughSavedMean.id);
  const unlimitedAt = unlimited ? meanOffset(layout, unlimitedMean.id) : -1;
  const outHistAt = histogramOffset(layout, OUT_AT_HISTOGRAM);
  const markerHistAt = histogramOffset(layout, FINAL_MARKERS_HISTOGRAM);
  const maxFinal = maxFinalMarkers(s);

  const { limit, hoarding } = unlimitedMarkerLimit(rules, policy, m0, attackRollMax, cap, markersLeftAfterRoll(s), s.bloodMarkersMultiplier);
  // A fixed policy whose markers stay bounded by themselves plays the unlimited question on in the
  // same trial; `optimal` (a different, stationary policy) and a hoarding limit need a trial of their own.
  const sameTrial = policy !== 'optimal' && !hoarding;

  let finiteTable: Lookup | undefined;
  let unlimitedTable: Lookup | undefined;
  if (policy === 'optimal') ({ finiteTable, unlimitedTable } = optimalTables(s, unlimited, limit));

  // The target, and the attacks on it, rolled die by die (./attack-roller.ts).
  const target = new AttackRoller(s);
  /** Between the attacker's activations the target has had its own: it stands up and REGENERATEs. */
  const newActivation = () => target.newActivation();
  const attack = (rng: Dice, markerCap: number, table: Lookup | undefined, row: number) => target.attack(rng, markerCap, table, row);
  // RISKY, several rolls per action: a miss forfeits the rest of the string, which is the activation.
  const risky = s.risky && s.attacksPerAction > 1;

  return {
    run(rng, trials, tally) {
      for (let t = 0; t < trials; t++) {
        target.reset(m0);
        let outAt = 0;
        let made = 0;
        let j = 1;
        for (; j <= n; j++) {
          if (per > 0 && j > 1 && (j - 1) % per === 0) newActivation();
          made++;
          if (attack(rng, cap, finiteTable, n - j + 1)) {
            outAt = j;
            break;
          }
          // The string's other rolls are lost: on to the last attack of the activation.
          if (risky && target.missed) j = Math.ceil(j / per) * per;
        }
        const { d, m, spent, saved } = target;
        tally[outcomesAt + (outAt > 0 ? 2 : d)]! += 1;
        tally[madeAt]! += made;
        tally[madeAt + 1]! += made * made;
        tally[spentAt]! += spent;
        tally[spentAt + 1]! += spent * spent;
        tally[savedAt]! += saved;
        tally[savedAt + 1]! += saved;
        tally[outHistAt + (outAt > 0 ? outAt - 1 : n)]! += 1;
        tally[markerHistAt + (outAt > 0 ? 0 : 1 + (m > maxFinal ? maxFinal : m))]! += 1;
        if (!unlimited) continue;

        // Attacks to Out of Action with no limit on attacks.
        let total: number;
        if (sameTrial) {
          total = outAt;
          if (total === 0) {
            // On from the first attack not yet played (a RISKY miss may have skipped past n): the lost
            // rolls of a string count as attacks, and the next string starts where it would have.
            for (; j <= MAX_UNLIMITED_ATTACKS; j++) {
              if (per > 0 && (j - 1) % per === 0) newActivation();
              if (attack(rng, cap, undefined, 0)) break;
              if (risky && target.missed) j = Math.ceil(j / per) * per;
            }
            total = j;
          }
        } else {
          target.reset(m0 < limit ? m0 : limit);
          let phase = 0;
          for (j = 1; j <= MAX_UNLIMITED_ATTACKS; j++) {
            if (per > 0 && j > 1 && phase === 0) newActivation();
            const hitOut = attack(rng, limit, unlimitedTable, phase);
            if (hitOut) break;
            if (risky && target.missed) {
              j += per - 1 - phase;
              phase = 0;
            } else phase = per > 0 ? (phase + 1) % per : 0;
          }
          total = j;
        }
        tally[unlimitedAt]! += total;
        tally[unlimitedAt + 1]! += total * total;
      }
    },
  };
}
