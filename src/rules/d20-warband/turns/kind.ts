/**
 * The d20 warband `turns` kind (issue 6): one attacker makes one attack action on one target per turn,
 * for up to T turns, and the target recovers between turns as the injury file says.
 */
import type { KindSpec } from '../../../model/types.js';
import type { D20WarbandScenario } from '../fields.js';
import { turnsExact } from './chain.js';
import { turnsSimulation } from '../simulation.js';

export const turnsKind: KindSpec<D20WarbandScenario<'turns'>> = {
  ...turnsSimulation,
  description: 'One attack action per turn for up to T turns; the target recovers between turns (Stunned to Dazed to Staggered), wounds do not',
  exact: turnsExact,
};
