import type { KindExact, KindLayout } from '../../model/types.js';
import { exactAnswer } from './exact.js';
import type { OneRollScenario, TrenchCrusadeScenario } from './fields.js';
import { attackKind, duelKind, fallKind, injuryKind, sequenceKind } from './kinds.js';
import { duelAnswer } from './duel/exact.js';
import { type DuelScenario, describeDuel, duelPlanOf } from './duel/sides.js';
import { sequenceExact } from './sequence/exact.js';
import type { SequenceScenario } from './sequence/model.js';

function oneRoll<K extends OneRollScenario['kind']>(kind: KindLayout<TrenchCrusadeScenario<K>>): KindExact<TrenchCrusadeScenario<K>> {
  return { ...kind, exact: (s) => exactAnswer(s, kind.layout(s).outcomes) };
}

export const injuryExact = oneRoll(injuryKind);
export const attackExact = oneRoll(attackKind);
export const fallExact = oneRoll(fallKind);
export const sequenceExactKind: KindExact<SequenceScenario> = { ...sequenceKind, exact: sequenceExact };
export const duelExactKind: KindExact<DuelScenario> = { ...duelKind, exact: (s) => duelAnswer(duelPlanOf(s), describeDuel(s)) };

/** Each kind's layout and exact engine: all an exact worker loads of this system (no simulator). */
export const trenchCrusadeExactKinds: readonly KindExact<TrenchCrusadeScenario>[] = [injuryExact, attackExact, fallExact, sequenceExactKind, duelExactKind];
