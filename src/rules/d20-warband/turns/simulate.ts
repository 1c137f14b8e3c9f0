/**
 * The `turns` simulator: turn after turn, one attack action rolled die by die the way players resolve
 * it, then the target's recovery. It shares the rule tables (../tables.ts, ./rules.ts) with the exact
 * chain and nothing else; in particular it does not call the `attack` kind's exact chain.
 */
import type { Scenario, SimKernel } from '../../../model/types.js';
import { needOnDie, rollD20, rollsNothing } from '../simulate.js';
import type { Rng } from '../../../sim/rng.js';
import {
  CHECK_DAZED_MAX,
  CHECK_STUNNED_MAX,
  DAZED,
  INCAPACITATED,
  NATURAL_FAIL_MAX,
  NATURAL_SUCCESS,
  NONE,
  STAGGERED,
  STATE_SEVERITY,
  STUNNED,
  modifierValue,
  statValue,
  type Severity,
  type TargetState,
} from '../tables.js';
import { turnsLayout, turnsMean } from './layout.js';
import { betweenAttacks, type TargetTurn } from './rules.js';

/** Safety stop for one unlimited trial; never reached when the layout asks for the expectation. */
const MAX_UNLIMITED_TURNS = 10_000_000;

export function turnsSimulator(s: Scenario): SimKernel {
  const layout = turnsLayout(s);
  const turns = s.turns as number;
  const mode = s.targetTurn as TargetTurn;
  const melee = s.attackType === 'melee';
  const attacks = s.attacks as number;
  const explode = s.explode === true;
  const advantage = s.advantage === true;
  const disadvantage = s.disadvantage === true;
  const modifier = s.modifier as number;
  // A stat check passes on a natural 20, fails on 1-4, else needs the stat less its improvement; a "-"
  // stat reads 20 after one point of improvement, and rolls nothing without one.
  const stat = statValue(s.stat)!;
  const attackNeed = stat - modifier;
  const defenceStat = statValue(s.defence);
  const defenceImprovement = (s.defenceModifier as number) - modifierValue(s.pierce);
  const defenceRolls = !rollsNothing(defenceStat, defenceImprovement);
  const defenceNeed = needOnDie(defenceStat, defenceImprovement);
  const injuryAdd = modifierValue(s.injury) + (s.attackModifierToInjury === true ? modifier : 0);
  const atOnce = s.injuryTiming !== 'end-of-action';
  const stunnedDefends = s.stunnedDefends !== false;
  const staggerPersists = s.staggerPersists !== false;
  const startState = STATE_SEVERITY[s.state as TargetState];
  const startWounds = s.wounds as number;
  const unlimited = layout.means.some((m) => m.id === turnsMean.id);

  const outcomes = layout.outcomes.length;
  const meansAt = outcomes;
  const incapAt = meansAt + 2 * layout.means.length;
  const lostAt = incapAt + turns + 1;
  const byTurnAt = lostAt + startWounds + 1;

  const roll = rollD20;

  // The target, updated by `action` (kernel locals, never reallocated).
  let state: Severity = NONE;
  let wounds = 0;
  let made = 0;

  /** One attack action on the target as it is now. */
  function action(rng: Rng): void {
    const begin = state;
    const staggeredAll = staggerPersists && begin === STAGGERED;
    let owed = attacks;
    while (owed > 0 && state !== INCAPACITATED) {
      owed--;
      made++;
      const seen = atOnce ? state : begin;
      if (melee && seen === STUNNED) {
        state = INCAPACITATED;
        return;
      }
      const lean = (advantage || seen === DAZED ? 1 : 0) - (disadvantage ? 1 : 0);
      const die = roll(rng, lean);
      if (explode && die === NATURAL_SUCCESS) owed++;
      if (!(die === NATURAL_SUCCESS || (die > NATURAL_FAIL_MAX && die >= attackNeed))) continue;
      if (defenceRolls && (melee || seen !== STUNNED || stunnedDefends)) {
        const d = roll(rng, seen === STAGGERED || staggeredAll ? -1 : 0);
        if (d === NATURAL_SUCCESS || (d > NATURAL_FAIL_MAX && d >= defenceNeed)) continue;
      }
      if (melee && seen === DAZED) {
        state = INCAPACITATED;
        continue;
      }
      if (wounds > 0 && --wounds > 0) continue;
      const v = die + injuryAdd;
      const injury: Severity = v <= CHECK_DAZED_MAX ? DAZED : v <= CHECK_STUNNED_MAX ? STUNNED : INCAPACITATED;
      if (injury > state) state = injury;
    }
  }

  /** Index in the attack kind's outcomes. */
  function outcomeIndex(): number {
    if (state === NONE) return wounds < startWounds ? 1 : 0;
    return state + 1;
  }

  return {
    run(rng, trials, tally) {
      for (let trial = 0; trial < trials; trial++) {
        state = startState;
        wounds = startWounds;
        made = 0;
        let outAt = 0;
        let t = 1;
        for (; t <= turns; t++) {
          if (t > 1) state = betweenAttacks(state, mode);
          action(rng);
          tally[byTurnAt + (t - 1) * outcomes + outcomeIndex()]! += 1;
          if (state === INCAPACITATED) {
            outAt = t;
            for (let rest = t + 1; rest <= turns; rest++) tally[byTurnAt + (rest - 1) * outcomes + INCAPACITATED + 1]! += 1;
            break;
          }
        }
        tally[outcomeIndex()]! += 1;
        tally[meansAt]! += made;
        tally[meansAt + 1]! += made * made;
        tally[incapAt + (outAt > 0 ? outAt - 1 : turns)]! += 1;
        tally[lostAt + startWounds - wounds]! += 1;
        if (!unlimited) continue;
        if (outAt === 0) {
          for (t = turns + 1; t <= MAX_UNLIMITED_TURNS; t++) {
            state = betweenAttacks(state, mode);
            action(rng);
            if (state === INCAPACITATED) break;
          }
          outAt = t;
        }
        tally[meansAt + 2]! += outAt;
        tally[meansAt + 3]! += outAt * outAt;
      }
    },
  };
}
