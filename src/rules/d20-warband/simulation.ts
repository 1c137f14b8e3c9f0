import type { KindLayout, KindSimulation } from '../../model/types.js';
import type { D20WarbandScenario, OneActionKind } from './fields.js';
import { attackKind, checkKind, duelKind, fallKind, injuryRollKind, turnsKind } from './kinds.js';
import { d20DuelSimulator } from './duel/simulate.js';
import { type D20DuelScenario, d20DuelPlanOf } from './duel/sides.js';
import { d20WarbandSimulator } from './simulate.js';
import { turnsSimulator } from './sequence/simulate.js';

function oneAction<K extends OneActionKind>(kind: KindLayout<D20WarbandScenario<K>>): KindSimulation<D20WarbandScenario<K>> {
  return { ...kind, simulator: d20WarbandSimulator };
}

export const checkSimulation = oneAction(checkKind);
export const attackSimulation = oneAction(attackKind);
export const injuryRollSimulation = oneAction(injuryRollKind);
export const fallSimulation = oneAction(fallKind);
export const turnsSimulation: KindSimulation<D20WarbandScenario<'turns'>> = { ...turnsKind, simulator: turnsSimulator };
export const duelSimulation: KindSimulation<D20DuelScenario> = { ...duelKind, simulator: (s) => d20DuelSimulator(d20DuelPlanOf(s)) };

/** Each kind's layout and simulator: all a simulation worker loads of this system (no exact engine). */
export const d20WarbandSimulations: readonly KindSimulation<D20WarbandScenario>[] = [checkSimulation, attackSimulation, injuryRollSimulation, fallSimulation, turnsSimulation, duelSimulation];
