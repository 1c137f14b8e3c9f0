import { d20WarbandDiffGrid } from './diff-grid.js';
import { d20WarbandRuleSpec, d20WarbandIncreasing } from './rule-spec.js';
import type { KindSpec, ReportLayout, SystemSpec } from '../../model/types.js';
import { showValue } from '../../errors.js';
import { exactAnswer } from './exact.js';
import { d20WarbandFields, type D20WarbandScenario, type OneActionKind } from './fields.js';
import { d20WarbandSimulator } from './simulate.js';
import { turnsKind } from './turns/kind.js';
import { attackLayout, checkLayout, injuryRollLayout } from './layout.js';
import { DASH, EDITION_ID, INJURY_FILE, STATS_FILE } from './tables.js';


function kind<K extends OneActionKind>(id: K, description: string, layout: (s: D20WarbandScenario<K>) => ReportLayout): KindSpec<D20WarbandScenario<K>> {
  return { id, description, layout, exact: exactAnswer, simulator: d20WarbandSimulator };
}

// Each kind reads its own scenario type; parseScenario guarantees the registry hands it only that.
export const d20WarbandKinds: readonly KindSpec<D20WarbandScenario>[] = [
  kind('check', 'One stat check: d20 at least the stat (natural 1-4 fail, natural 20 succeeds)', checkLayout),
  kind(
    'attack',
    "One unit's whole attack on one target: attack checks, critical hits that explode, Defence checks, wounds, Injury Checks",
    attackLayout,
  ),
  kind('injury-roll', 'One Injury Roll: d20 plus modifiers on the Injury Roll Table', () => injuryRollLayout),
  kind('fall', 'A fall: an Injury Roll with +2 per full inch above 2 inches', () => injuryRollLayout),
  turnsKind,
];

/** Combinations the field schema cannot express. */
function checkCombination(s: D20WarbandScenario): string | undefined {
  if ((s.kind === 'attack' || s.kind === 'turns') && s.stat === DASH) {
    return `stat: ${showValue(s.stat)} cannot make an attack (a Ranged stat of "-" "cannot perform Ranged Attacks at all", ${STATS_FILE}); allowed for kind "attack": a whole number from 1 to 20`;
  }
  return undefined;
}

export const d20Warband: SystemSpec<D20WarbandScenario> = {
  id: 'd20-warband',
  title: 'd20 warband (stat checks, exploding critical hits, wounds and Injury Checks)',
  editions: [
    {
      id: EDITION_ID,
      title: 'Stats, Checks & Rolls; Injury',
      // Both files: stats and checks from the first, injury from the second (comma-separated list).
      source: `${STATS_FILE}, ${INJURY_FILE}`,
    },
  ],
  defaultEdition: EDITION_ID,
  kinds: d20WarbandKinds,
  fields: d20WarbandFields,
  rules: { spec: d20WarbandRuleSpec, increasing: d20WarbandIncreasing },
  diffGrid: d20WarbandDiffGrid,
  checkCombination,
};
