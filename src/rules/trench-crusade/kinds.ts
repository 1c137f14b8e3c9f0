import type { KindLayout, ReportLayout } from '../../model/types.js';
import type { OneRollScenario, TrenchCrusadeScenario } from './fields.js';
import { attackLayout, injuryLayout } from './layout.js';
import { SEQUENCE_KIND } from './sequence/fields.js';
import type { SequenceScenario } from './sequence/model.js';
import { sequenceLayout } from './sequence/layout.js';
import { DUEL_KIND } from '../duel-report.js';
import { duelLayout } from '../duel-report.js';
import type { DuelScenario } from './duel/sides.js';
import { BATTLE_KIND } from './battle/kind.js';
import { battlePlanOf, type BattleScenario } from './battle/resolved.js';
import { battleLayoutOf } from './battle/report.js';

/**
 * The system's id and each kind's id and layout, declared once: the simulation workers add the
 * simulators (./simulation.ts), the exact workers the exact engines (./exact-kinds.ts), and ./system.ts
 * puts both together with the rest.
 */
export const TRENCH_CRUSADE = 'trench-crusade';

function oneRoll<K extends OneRollScenario['kind']>(id: K, layout: ReportLayout): KindLayout<TrenchCrusadeScenario<K>> {
  return { id, layout: () => layout };
}

export const injuryKind = oneRoll('injury', injuryLayout);
export const attackKind = oneRoll('attack', attackLayout);
export const fallKind = oneRoll('fall', injuryLayout);
export const sequenceKind: KindLayout<SequenceScenario> = { id: SEQUENCE_KIND, layout: sequenceLayout };
export const duelKind: KindLayout<DuelScenario> = { id: DUEL_KIND, layout: (s) => duelLayout(s.rounds) };
/** A battle's layout: its outcomes, and a mean per entry of each warband (so it follows the warbands read). */
export const battleKind: KindLayout<BattleScenario> = { id: BATTLE_KIND, layout: (s) => battleLayoutOf(battlePlanOf(s.battle)) };
