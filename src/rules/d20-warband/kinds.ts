import type { KindLayout } from '../../model/types.js';
import type { D20WarbandScenario, OneActionKind } from './fields.js';
import { attackLayout, checkLayout, injuryRollLayout } from './layout.js';
import { TURNS_KIND } from './sequence/fields.js';
import { turnsLayout } from './sequence/layout.js';
import { duelLayout } from '../duel-report.js';
import { DUEL_KIND } from '../duel-report.js';
import type { D20DuelScenario } from './duel/sides.js';

/**
 * The system's id and each kind's id and layout, declared once: the simulation workers add the
 * simulators (./simulation.ts), the exact workers the exact engines (./exact-kinds.ts), and ./system.ts
 * puts both together with the rest.
 */
export const D20_WARBAND = 'd20-warband';

function oneAction<K extends OneActionKind>(id: K, layout: KindLayout<D20WarbandScenario<K>>['layout']): KindLayout<D20WarbandScenario<K>> {
  return { id, layout };
}

export const checkKind = oneAction('check', checkLayout);
export const attackKind = oneAction('attack', attackLayout);
export const injuryRollKind = oneAction('injury-roll', () => injuryRollLayout);
export const fallKind = oneAction('fall', () => injuryRollLayout);
export const turnsKind: KindLayout<D20WarbandScenario<'turns'>> = { id: TURNS_KIND, layout: turnsLayout };
export const duelKind: KindLayout<D20DuelScenario> = { id: DUEL_KIND, layout: (s) => duelLayout(s.rounds) };
