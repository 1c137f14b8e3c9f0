import { d20WarbandDiffGrid } from './diff-grid.js';
import { d20WarbandRuleSpec, d20WarbandIncreasing, d20WarbandResultTables } from './rule-spec.js';
import { wholeKind } from '../../model/kind.js';
import type { KindSpec, SystemSpec } from '../../model/types.js';
import { showValue } from '../../errors.js';
import { d20WarbandFields, type D20WarbandScenario } from './fields.js';
import { D20_WARBAND } from './kinds.js';
import { attackExact, checkExact, duelExactKind, fallExact, injuryRollExact, turnsExactKind } from './exact-kinds.js';
import { attackSimulation, checkSimulation, duelSimulation, fallSimulation, injuryRollSimulation, turnsSimulation } from './simulation.js';
import { DUEL_SIDES } from '../duel-report.js';
import { type D20DuelScenario, checkD20Duel, d20DuelSideFields } from './duel/sides.js';
import { D20_WARBAND_EDITIONS, DASH, EDITION_ID, STATS_FILE } from './tables.js';


// Each kind reads its own scenario type; parseScenario guarantees the registry hands it only that.
export const d20WarbandKinds: readonly KindSpec<D20WarbandScenario>[] = [
  wholeKind(checkSimulation, checkExact, 'One stat check: d20 at least the stat (natural 1-4 fail, natural 20 succeeds)'),
  wholeKind(attackSimulation, attackExact, "One unit's whole attack on one target: attack checks, critical hits that explode, Defence checks, wounds, Injury Checks"),
  wholeKind(injuryRollSimulation, injuryRollExact, 'One Injury Roll: d20 plus modifiers on the Injury Roll Table'),
  wholeKind(fallSimulation, fallExact, 'A fall: an Injury Roll with +2 per full inch above 2 inches'),
  { ...wholeKind(turnsSimulation, turnsExactKind, 'One attack action per turn for up to T turns; the target recovers between turns (Stunned to Dazed to Staggered), wounds do not'), fightsOn: true },
  {
    fightsOn: true,
    ...wholeKind(duelSimulation, duelExactKind, 'Two units (a and b) take turns to make an attack action on each other until one is Incapacitated or the rounds run out; injuries carry over and recover in each unit\'s own turn, wounds do not'),
    sides: { keys: DUEL_SIDES, fields: d20DuelSideFields, example: 'stat=8,attacks=2,wounds=3' },
  },
];

/** Combinations the field schema cannot express. */
function checkCombination(s: D20WarbandScenario): string | undefined {
  // A duel's fields are its sides': each is checked as the unit it is, named on its side.
  if (s.kind === 'duel') return checkD20Duel(s as D20DuelScenario);
  if ((s.kind === 'attack' || s.kind === 'turns') && s.stat === DASH) {
    return `stat: ${showValue(s.stat)} cannot make an attack (a Ranged stat of "-" "cannot perform Ranged Attacks at all", ${STATS_FILE}); allowed for kind "attack": a whole number from 1 to 20`;
  }
  return undefined;
}

export const d20Warband: SystemSpec<D20WarbandScenario> = {
  id: D20_WARBAND,
  title: 'd20 warband (stat checks, exploding critical hits, wounds and Injury Checks)',
  editions: D20_WARBAND_EDITIONS,
  defaultEdition: EDITION_ID,
  kinds: d20WarbandKinds,
  fields: d20WarbandFields,
  rules: { spec: d20WarbandRuleSpec, increasing: d20WarbandIncreasing, resultTables: d20WarbandResultTables },
  diffGrid: d20WarbandDiffGrid,
  checkCombination,
};
