import type { KindSimulation } from '../../model/types.js';
import type { D20WarbandScenario, OneActionKind } from './fields.js';
import { attackLayout, checkLayout, injuryRollLayout } from './layout.js';
import { d20WarbandSimulator } from './simulate.js';
import { TURNS_KIND } from './turns/fields.js';
import { turnsLayout } from './turns/layout.js';
import { turnsSimulator } from './turns/simulate.js';

/** The system's id, declared once: its SystemSpec and the simulation workers' registry read it here. */
export const D20_WARBAND = 'd20-warband';

function oneAction<K extends OneActionKind>(id: K, layout: KindSimulation<D20WarbandScenario<K>>['layout']): KindSimulation<D20WarbandScenario<K>> {
  return { id, layout, simulator: d20WarbandSimulator };
}

export const checkSimulation = oneAction('check', checkLayout);
export const attackSimulation = oneAction('attack', attackLayout);
export const injuryRollSimulation = oneAction('injury-roll', () => injuryRollLayout);
export const fallSimulation = oneAction('fall', () => injuryRollLayout);
export const turnsSimulation: KindSimulation<D20WarbandScenario<'turns'>> = { id: TURNS_KIND, layout: turnsLayout, simulator: turnsSimulator };

/** Each kind's layout and simulator: all a simulation worker loads of this system (no exact engine). */
export const d20WarbandSimulations: readonly KindSimulation<D20WarbandScenario>[] = [checkSimulation, attackSimulation, injuryRollSimulation, fallSimulation, turnsSimulation];
