/**
 * The `turns` simulator: turn after turn, one attack action, then the target's recovery. The action is
 * the `attack` simulator's, rolled die by die the way players resolve it (../simulate.ts); the recovery
 * comes from the rule tables (./rules.ts). Nothing here comes from the exact chain.
 */
import type { SimKernel } from '../../../model/types.js';
import type { D20WarbandScenario } from '../fields.js';
import { attackActionOf, type ActionTarget } from '../simulate.js';
import { INCAPACITATED, NONE, STATE_SEVERITY } from '../tables.js';
import { histogramOffset, meanOffset, tallyOffsets } from '../../../model/tally.js';
import { INCAPACITATED_AT, attacksMadeMean, stateHistogramId, turnsLayout, turnsMean } from './layout.js';
import { betweenAttacks } from './rules.js';

/** Safety stop for one unlimited trial; never reached when the layout asks for the expectation. */
const MAX_UNLIMITED_TURNS = 10_000_000;

export function turnsSimulator(s: D20WarbandScenario<'turns'>): SimKernel {
  const layout = turnsLayout(s);
  const turns = s.turns;
  const mode = s.targetTurn;
  const action = attackActionOf(s);
  const startState = STATE_SEVERITY[s.state];
  const startWounds = s.wounds;
  const unlimited = layout.means.some((m) => m.id === turnsMean.id);

  // Where each part goes, from the layout's one owner (src/model/tally.ts). The by-turn histograms
  // follow one another, each one bin per outcome.
  const outcomes = layout.outcomes.length;
  const outcomesAt = tallyOffsets(layout).outcomes;
  const madeAt = meanOffset(layout, attacksMadeMean.id);
  const turnsAt = unlimited ? meanOffset(layout, turnsMean.id) : -1;
  const incapAt = histogramOffset(layout, INCAPACITATED_AT);
  const lostAt = histogramOffset(layout, 'woundsLost');
  const byTurnAt = histogramOffset(layout, stateHistogramId(1));

  // The target, updated by `action` (one object per kernel, never reallocated).
  const target: ActionTarget = { state: NONE, wounds: 0, made: 0 };

  /** Index in the attack kind's outcomes. */
  function outcomeIndex(): number {
    if (target.state === NONE) return target.wounds < startWounds ? 1 : 0;
    return target.state + 1;
  }

  return {
    run(rng, trials, tally) {
      for (let trial = 0; trial < trials; trial++) {
        target.state = startState;
        target.wounds = startWounds;
        target.made = 0;
        let outAt = 0;
        let t = 1;
        for (; t <= turns; t++) {
          if (t > 1) target.state = betweenAttacks(target.state, mode);
          action(rng, target);
          tally[byTurnAt + (t - 1) * outcomes + outcomeIndex()]! += 1;
          if (target.state === INCAPACITATED) {
            outAt = t;
            for (let rest = t + 1; rest <= turns; rest++) tally[byTurnAt + (rest - 1) * outcomes + INCAPACITATED + 1]! += 1;
            break;
          }
        }
        const made = target.made;
        tally[outcomesAt + outcomeIndex()]! += 1;
        tally[madeAt]! += made;
        tally[madeAt + 1]! += made * made;
        tally[incapAt + (outAt > 0 ? outAt - 1 : turns)]! += 1;
        tally[lostAt + startWounds - target.wounds]! += 1;
        if (!unlimited) continue;
        if (outAt === 0) {
          for (t = turns + 1; t <= MAX_UNLIMITED_TURNS; t++) {
            target.state = betweenAttacks(target.state, mode);
            action(rng, target);
            if (target.state === INCAPACITATED) break;
          }
          outAt = t;
        }
        tally[turnsAt]! += outAt;
        tally[turnsAt + 1]! += outAt * outAt;
      }
    },
  };
}
