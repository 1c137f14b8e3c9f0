/**
 * The sequence simulator. It plays each trial the way players would: attack after attack, rolling every
 * die, keeping the best or worst, reading the injury table, placing and spending markers. It shares the
 * rule table (the scenario's `rules`, and ./rules.ts) with the exact chain and nothing else, with one deliberate
 * exception: under the `optimal` policy the attacker looks its decisions up in the table the dynamic
 * programme produced (./optimal-finite.ts, ./optimal-unlimited.ts). That table is a policy, what to spend in which state, not a
 * probability, so a mistake in the chain's probabilities still shows up in `check`; the state packing
 * of ./model.ts is imported only to read that table.
 */
import type { Dice, SimKernel } from '../../../model/types.js';
import { markersLeftAfterRoll, rollAndKeep, successRollNetDice } from '../simulate.js';
import { buildModel, stateIndex, type SequenceScenario } from './model.js';
import { optimalFinite } from './optimal-finite.js';
import { optimalUnlimited } from './optimal-unlimited.js';
import {
  attacksPerActivationOf,
  bloodbathCost,
  markerCapOf,
  unlimitedMarkerLimit,
} from './rules.js';
import { histogramOffset, meanOffset, tallyOffsets } from '../../../model/tally.js';
import { FINAL_MARKERS_HISTOGRAM, OUT_AT_HISTOGRAM, attacksMadeMean, maxFinalMarkers, sequenceLayout, spentMean, toughSavedMean, unlimitedMean } from './layout.js';

/** Safety stop for one unlimited trial; never reached when Out of Action is certain (the layout checks). */
const MAX_UNLIMITED_ATTACKS = 10_000_000;

/** A policy's decision table, as the simulator reads it. */
interface Lookup {
  readonly stride: number;
  readonly attack: Int32Array;
  readonly inner: Int32Array;
}

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
  const d0 = s.targetDown === true ? 1 : 0;
  const tl0 = s.tough === true && s.toughUsed !== true ? 1 : 0;
  const blessing = s.blessingPolicy === 'all' ? s.blessingMarkers : 0;
  const bl0 = blessing > 0 ? 1 : 0;
  const attackRollMax = s.attackRollMarkers;
  const attackDiceBase = successRollNetDice(s);
  const attackAdd = s.attackModifier;
  const criticalOnDice = s.criticalOn === 'unmodified';
  // An auto-hit weapon makes no success roll: every attack hits, none is a critical.
  const autoHit = s.autoHit;
  const standfast = s.downBecomesMinor;
  const golem = s.golem;
  const critDice = s.criticalInjuryDice;
  // The weapon's injury dice and those the target's abilities give rolls against it, netted.
  const weaponDice = s.injuryDice + s.targetInjuryDice;
  const downBonus =
    s.downBonus === 'any' || (s.downBonus === 'melee' && s.attackType === 'melee') ? rules.down.injuryDice : 0;
  const deadly = s.deadly === true;
  const separateBloodbathDie = s.bloodbathDie === 'separate';
  const deadlyBloodbathKeep = s.deadlyBloodbathKeep;
  const bbCostUp = bloodbathCost(rules, false);
  const bbCostDown = bloodbathCost(rules, true);
  const table = rules.injuryTable;
  const success = rules.successRoll;
  const minorMarkers = rules.markers.minorHit;
  const injuryDicePerMarker = rules.markers.injuryDicePerMarker;
  const attackDicePerMarker = rules.markers.attackDicePerMarker;
  const blessingDicePerMarker = rules.blessings.injuryDicePerMarker;
  const downMarkers = rules.markers.down;
  const downAgainMarkers = rules.markers.downAgain;
  // FIRE, GAS and SHRAPNEL: markers after every injury roll the target survives.
  const markersAfterRoll = markersLeftAfterRoll(s);

  // Flat modifiers, as the cap reads: penalties summed (and capped), bonuses added after. The weapon
  // may ignore the armour and shield (always, or on a critical hit) or pierce the armour.
  const armour = s.armour;
  const flatModifier = (ignoreArmour: boolean): number => {
    let penalty = s.targetInjuryModifier;
    // IMPERVIOUS armour keeps its modifier when the weapon ignores armour; the shield does not.
    if (!ignoreArmour || s.impervious) {
      const pierced = rules.armour[armour] + s.armourPiercing;
      penalty += pierced < 0 ? pierced : 0;
    }
    if (!ignoreArmour && s.shield === true && armour !== 'machine') penalty += rules.shield.modifier;
    const attackerMod = s.injuryModifier;
    if (attackerMod < 0) penalty += attackerMod;
    const bonus = attackerMod > 0 ? attackerMod : 0;
    return s.modifierCap === 'negative'
      ? Math.max(penalty, rules.modifierCap.size) + bonus
      : s.modifierCap === 'net'
        ? Math.max(penalty + bonus, rules.modifierCap.size)
        : penalty + bonus;
  };
  const addOnHit = flatModifier(s.ignoreArmour);
  const addOnCritical = flatModifier(s.ignoreArmour || s.ignoreArmourOnCritical);

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

  const { limit, hoarding } = unlimitedMarkerLimit(rules, policy, m0, attackRollMax, cap, markersAfterRoll);
  // A fixed policy whose markers stay bounded by themselves plays the unlimited question on in the
  // same trial; `optimal` (a different, stationary policy) and a hoarding limit need a trial of their own.
  const sameTrial = policy !== 'optimal' && !hoarding;

  let finiteTable: Lookup | undefined;
  let unlimitedTable: Lookup | undefined;
  if (policy === 'optimal') ({ finiteTable, unlimitedTable } = optimalTables(s, unlimited, limit));

  const kept = new Int32Array(8);

  /** Sum of the `keep` highest (or lowest) of `dice` d6, rolled one by one (the single-roll simulator's). */
  const rollKeep = (rng: Dice, dice: number, keep: number, lowest: boolean): number =>
    rollAndKeep(rng, dice, keep, !lowest, kept);

  function injuryRoll(rng: Dice, netDice: number, bloodbath: boolean, critical: number): number {
    const add = critical === 1 ? addOnCritical : addOnHit;
    // Deadly rolls its own pool (3 dice); a pooled Bloodbath too; both together deadlyBloodbathKeep.
    // A separate Bloodbath die (playtest option) is added after keeping.
    let start = deadly ? rules.deadly.dice : rules.injuryRoll.dice;
    let extra = 0;
    if (bloodbath) {
      if (separateBloodbathDie) extra = 1;
      else start = deadly ? deadlyBloodbathKeep : rules.bloodbath.dice;
    }
    const dice = start + (netDice < 0 ? -netDice : netDice);
    let total = rollKeep(rng, dice, start, netDice < 0) + add;
    for (let i = 0; i < extra; i++) total += rng.d6();
    return total >= table.outOfAction ? 3 : total >= table.down ? 2 : total >= table.minorHit ? 1 : 0;
  }

  // Trial state, shared by the helpers below (locals of the kernel, never reallocated).
  let m = 0;
  let d = 0;
  let tl = 0;
  let bl = 0;
  let spent = 0;
  let saved = 0;
  // Did the last attack miss its success roll? (A RISKY string then ends.)
  let missed = false;
  // RISKY, several rolls per action: a miss forfeits the rest of the string, which is the activation.
  const risky = s.risky && s.attacksPerAction > 1;
  const regenerate = s.regenerate;
  /** Between the attacker's activations the target has had its own: it stands up and REGENERATEs. */
  function newActivation(): void {
    d = 0;
    m = m > regenerate ? m - regenerate : 0;
  }

  /**
   * One attack. `table`/`row` select the optimal policy's lookup (row: k or the activation phase).
   * Returns true when the target goes Out of Action.
   */
  function attack(rng: Dice, markerCap: number, table: Lookup | undefined, row: number): boolean {
    // Attack-roll markers (playtest), then the success roll.
    let a: number;
    if (table) a = table.attack[row * table.stride + stateIndex(m, d, tl, bl)]!;
    else a = m < attackRollMax ? m : attackRollMax;
    m -= a;
    spent += a;
    const net = attackDiceBase + a * attackDicePerMarker;
    let critical = 0;
    missed = false;
    if (!autoHit) {
      const keptDice = rollKeep(rng, success.dice + (net < 0 ? -net : net), success.dice, net < 0);
      const rolled = keptDice + attackAdd;
      // A critical on the modified total, or on the dice alone with criticalOn "unmodified" (then a hit).
      critical = (criticalOnDice ? keptDice : rolled) >= success.critical ? 1 : 0;
      if (critical === 0 && rolled < success.hit) {
        missed = true;
        return false;
      }
    }
    // The attacker's injury spending.
    let dice = 0;
    let bloodbath = false;
    const cost = d === 1 ? bbCostDown : bbCostUp;
    if (table) {
      const code = table.inner[(row * table.stride + stateIndex(m, d, tl, bl)) * 2 + critical]!;
      dice = code >> 1;
      bloodbath = (code & 1) === 1;
    } else if (policy === 'all') {
      dice = m;
    } else if (policy === 'bloodbath') {
      bloodbath = m >= cost;
    }
    const used = dice + (bloodbath ? cost : 0);
    m -= used;
    spent += used;
    // The target's blessing markers, all on its first injury roll.
    let blessed = 0;
    if (bl === 1) {
      blessed = blessing;
      bl = 0;
    }
    const net2 = weaponDice + dice * injuryDicePerMarker - blessed * blessingDicePerMarker + (critical === 1 ? critDice : 0) + (d === 1 ? downBonus : 0);
    let result = injuryRoll(rng, net2, bloodbath, critical);
    // STANDFAST: the table's Down is a Minor Hit (before Tough, whose Down stays one).
    if (result === 2 && standfast) result = 1;
    // A GOLEM goes out of action only to a Bloodbath; otherwise it goes Down, Tough unused.
    if (result === 3 && golem && !bloodbath) result = 2;
    if (result === 3 && tl === 1) {
      tl = 0;
      saved = 1;
      result = 2;
    }
    if (result === 3) return true;
    m += markersAfterRoll;
    if (result === 1) m += minorMarkers;
    else if (result === 2) {
      m += d === 1 ? downAgainMarkers : downMarkers;
      d = 1;
    }
    if (m > markerCap) m = markerCap;
    return false;
  }

  return {
    run(rng, trials, tally) {
      for (let t = 0; t < trials; t++) {
        m = m0;
        d = d0;
        tl = tl0;
        bl = bl0;
        spent = 0;
        saved = 0;
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
          if (risky && missed) j = Math.ceil(j / per) * per;
        }
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
              if (risky && missed) j = Math.ceil(j / per) * per;
            }
            total = j;
          }
        } else {
          m = m0 < limit ? m0 : limit;
          d = d0;
          tl = tl0;
          bl = bl0;
          let phase = 0;
          for (j = 1; j <= MAX_UNLIMITED_ATTACKS; j++) {
            if (per > 0 && j > 1 && phase === 0) newActivation();
            const hitOut = attack(rng, limit, unlimitedTable, phase);
            if (hitOut) break;
            if (risky && missed) {
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
