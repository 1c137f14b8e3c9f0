import type { KindExact, KindLayout } from '../../model/types.js';
import { exactAnswer } from './exact.js';
import type { D20WarbandScenario, OneActionKind } from './fields.js';
import { attackKind, checkKind, duelKind, fallKind, injuryRollKind, turnsKind } from './kinds.js';
import { d20DuelAnswer } from './duel/exact.js';
import { type D20DuelScenario, d20DuelPlanOf } from './duel/sides.js';
import { turnsExact } from './sequence/chain.js';

function oneAction<K extends OneActionKind>(kind: KindLayout<D20WarbandScenario<K>>): KindExact<D20WarbandScenario<K>> {
  return { ...kind, exact: exactAnswer };
}

export const checkExact = oneAction(checkKind);
export const attackExact = oneAction(attackKind);
export const injuryRollExact = oneAction(injuryRollKind);
export const fallExact = oneAction(fallKind);
export const turnsExactKind: KindExact<D20WarbandScenario<'turns'>> = { ...turnsKind, exact: turnsExact };
export const duelExactKind: KindExact<D20DuelScenario> = { ...duelKind, exact: (s) => d20DuelAnswer(d20DuelPlanOf(s)) };

/** Each kind's layout and exact engine: all an exact worker loads of this system (no simulator). */
export const d20WarbandExactKinds: readonly KindExact<D20WarbandScenario>[] = [checkExact, attackExact, injuryRollExact, fallExact, turnsExactKind, duelExactKind];
