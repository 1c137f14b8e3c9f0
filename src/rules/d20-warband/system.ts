import { d20WarbandDiffGrid } from './diff-grid.js';
import { d20WarbandRuleSpec, d20WarbandIncreasing } from './rule-spec.js';
import type { KindSimulation, KindSpec, SystemSpec } from '../../model/types.js';
import { showValue } from '../../errors.js';
import { exactAnswer } from './exact.js';
import { d20WarbandFields, type D20WarbandScenario, type OneActionKind } from './fields.js';
import { D20_WARBAND, attackSimulation, checkSimulation, fallSimulation, injuryRollSimulation } from './simulation.js';
import { turnsKind } from './turns/kind.js';
import { DASH, EDITION_ID, INJURY_FILE, STATS_FILE } from './tables.js';


/** A one-action kind: its simulation (./simulation.ts) and the exact engine. */
function kind<K extends OneActionKind>(simulation: KindSimulation<D20WarbandScenario<K>>, description: string): KindSpec<D20WarbandScenario<K>> {
  return { ...simulation, description, exact: exactAnswer };
}

// Each kind reads its own scenario type; parseScenario guarantees the registry hands it only that.
export const d20WarbandKinds: readonly KindSpec<D20WarbandScenario>[] = [
  kind(checkSimulation, 'One stat check: d20 at least the stat (natural 1-4 fail, natural 20 succeeds)'),
  kind(attackSimulation, "One unit's whole attack on one target: attack checks, critical hits that explode, Defence checks, wounds, Injury Checks"),
  kind(injuryRollSimulation, 'One Injury Roll: d20 plus modifiers on the Injury Roll Table'),
  kind(fallSimulation, 'A fall: an Injury Roll with +2 per full inch above 2 inches'),
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
  id: D20_WARBAND,
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
