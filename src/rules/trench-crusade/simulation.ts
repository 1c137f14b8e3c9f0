import type { KindLayout, KindSimulation } from '../../model/types.js';
import type { OneRollScenario, TrenchCrusadeScenario } from './fields.js';
import { attackKind, battleKind, duelKind, fallKind, injuryKind, sequenceKind } from './kinds.js';
import { duelSimulator } from './duel/simulate.js';
import { type DuelScenario, duelPlanOf } from './duel/sides.js';
import type { SequenceScenario } from './sequence/model.js';
import { sequenceSimulator } from './sequence/simulate.js';
import { trenchCrusadeSimulator } from './simulate.js';
import { battlePlanOf, type BattleScenario } from './battle/resolved.js';
import { battleSimulator } from './battle/simulate.js';

function oneRoll<K extends OneRollScenario['kind']>(kind: KindLayout<TrenchCrusadeScenario<K>>): KindSimulation<TrenchCrusadeScenario<K>> {
  return { ...kind, simulator: (s) => trenchCrusadeSimulator(s) };
}

export const injurySimulation = oneRoll(injuryKind);
export const attackSimulation = oneRoll(attackKind);
export const fallSimulation = oneRoll(fallKind);
export const sequenceSimulation: KindSimulation<SequenceScenario> = { ...sequenceKind, simulator: sequenceSimulator };
export const duelSimulation: KindSimulation<DuelScenario> = { ...duelKind, simulator: (s) => duelSimulator(duelPlanOf(s)) };
export const battleSimulation: KindSimulation<BattleScenario> = { ...battleKind, simulator: (s) => battleSimulator(battlePlanOf(s.battle)) };

/**
 * Each kind's layout and simulator: all a simulation worker loads of this system (the exact engine
 * comes with it only where a simulator plays a policy the exact chain solved: the sequence's optimal).
 */
export const trenchCrusadeSimulations: readonly KindSimulation<TrenchCrusadeScenario>[] = [injurySimulation, attackSimulation, fallSimulation, sequenceSimulation, duelSimulation, battleSimulation];
