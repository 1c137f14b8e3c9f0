import { trenchCrusadeDiffGrid } from './diff-grid.js';
import { trenchCrusadeRuleSpec, trenchCrusadeIncreasing, trenchCrusadeResultTables } from './rule-spec.js';
import { wholeKind } from '../../model/kind.js';
import type { KindSpec, SystemSpec } from '../../model/types.js';
import { showValue } from '../../errors.js';
import { trenchCrusadeFields, type TrenchCrusadeScenario } from './fields.js';
import { TRENCH_CRUSADE } from './kinds.js';
import { attackExact, duelExactKind, fallExact, injuryExact, sequenceExactKind } from './exact-kinds.js';
import { battleSimulation, attackSimulation, duelSimulation, fallSimulation, injurySimulation, sequenceSimulation } from './simulation.js';
import { DUEL_SIDES } from '../duel-report.js';
import { type DuelScenario, checkDuel, checkDuelSize, duelSideFields } from './duel/sides.js';
import { checkSequence } from './sequence/check.js';
import { BATTLE_KIND, BATTLE_SIDES } from './battle/kind.js';
import { battleKindSideFields } from './battle/fields.js';
import { DEFAULT_EDITION, EDITION_SOURCES, TRENCH_CRUSADE_EDITIONS } from './tables.js';


// Each kind reads its own scenario type; parseScenario guarantees the registry hands it only that.
export const trenchCrusadeKinds: readonly KindSpec<TrenchCrusadeScenario>[] = [
  wholeKind(injurySimulation, injuryExact, 'One injury roll against the target'),
  wholeKind(attackSimulation, attackExact, 'A success roll and, on a hit, the injury roll (a critical adds injury dice)'),
  wholeKind(fallSimulation, fallExact, 'A fall: no roll under 3 inches, else an injury roll with +1 injury dice per full 3 inches'),
  { ...wholeKind(sequenceSimulation, sequenceExactKind, 'Up to N attacks on one target whose blood markers, Down and Tough carry over; blood-marker policies incl. the optimal one'), fightsOn: true },
  {
    fightsOn: true,
    ...wholeKind(duelSimulation, duelExactKind, 'Two models (a and b) take turns to attack each other until one is Out of Action or the rounds run out; each may spend the markers on the other'),
    sides: { keys: DUEL_SIDES, fields: duelSideFields, example: 'armour=machine,tough=true,policy=injury' },
  },
  {
    ...battleSimulation,
    fightsOn: true,
    description: 'Two warbands (a and b) fight a whole game, as `injury-lab battle` plays it: simulated only',
    needsProfiles: 'its warbands from a profiles file, roster or catalogue',
    sides: {
      keys: BATTLE_SIDES,
      fields: battleKindSideFields,
      example: 'warband=Trench Pilgrim with Rifle x6, Castigator with Great Hammer/Maul,tactic=charge',
      unprofiled: true,
      what: "One side: its warband (entries of the scenario's profiles, roster or catalogue), its plan and what it does with the blood markers on its enemies",
    },
  },
];

/** Combinations the rule table forbids, checked after the field schema has passed. */
function checkCombination(s: TrenchCrusadeScenario): string | undefined {
  // A duel's fields are its sides': each side's attacks are checked as the sequence they are.
  if (s.kind === 'duel') return checkDuel(s as DuelScenario, checkCombination);
  // A battle's attacks are each checked as the sequence they are when its warbands are read (src/input/battle-core.ts).
  if (s.kind === BATTLE_KIND) return undefined;
  const edition = s.edition;
  const rules = s.rules;
  const file = EDITION_SOURCES[edition].source;
  if (s.shield && s.armour === 'machine' && rules.shield.withMachineArmour === 'forbidden') {
    return `shield: true cannot be combined with armour "machine" in the ${edition} edition (Machine Armour "cannot be combined with a Trench Shield", 001_920d0edf0f4b2e8e.txt; rule shield.withMachineArmour is "forbidden"); allowed: shield with none, standard or reinforced armour`;
  }
  // Fields a kind does not read are absent: `in` asks whether this kind has them.
  if ('bloodbath' in s && s.bloodbath && !rules.bloodbath.available) {
    return `bloodbath: true is not a rule of the ${edition} edition (${file} has no Bloodbath; rule bloodbath.available is false); allowed in editions: playtest, core`;
  }
  // Only the playtest's one-line Bloodbath can be read with a separate die; core spells out one pool.
  const bloodbathDie = 'bloodbathDie' in s ? s.bloodbathDie : undefined;
  if (bloodbathDie === 'separate' && !rules.bloodbath.separateDie) {
    const why = rules.bloodbath.available
      ? `${file} makes the Bloodbath one pool: "roll 3D6 … pick the 3 highest or 3 lowest dice"`
      : `${file} has no Bloodbath`;
    return `bloodbathDie: ${showValue(bloodbathDie)} is not allowed in the ${edition} edition (${why}; rule bloodbath.separateDie is false); allowed: pooled (separate: playtest only)`;
  }
  if (s.deadly && !rules.deadly.available) {
    return `deadly: true is not a rule of the ${edition} edition (the Deadly keyword is in 004_8876b2fc69d19d53.txt; rule deadly.available is false); allowed in editions: core`;
  }
  if (s.deadlyBloodbathKeep !== rules.deadly.withBloodbathDice && !rules.deadly.available) {
    return `deadlyBloodbathKeep: ${showValue(s.deadlyBloodbathKeep)} is not allowed in the ${edition} edition (Deadly is a core keyword, 004_8876b2fc69d19d53.txt); allowed: ${rules.deadly.withBloodbathDice}`;
  }
  if ('blessingMarkersSpent' in s && s.blessingMarkersSpent > 0 && !rules.blessings.available) {
    return `blessingMarkersSpent: ${showValue(s.blessingMarkersSpent)} is not allowed in the ${edition} edition (Blessing Markers are a core rule, 004_8876b2fc69d19d53.txt; rule blessings.available is false); allowed: 0`;
  }
  if (s.kind === 'fall' && !rules.fall.available) {
    return `kind: "fall" is not a rule of the ${edition} edition (${file} has no falling rule; rule fall.available is false); allowed in editions: comprehensive, core`;
  }
  if (s.tough && s.firstOutOfActionNoEffect) {
    return `firstOutOfActionNoEffect: true cannot be combined with tough: true (each saves the first Out of Action, and no rule file says which comes first; ruling T28); allowed: one of them`;
  }
  if (s.toughUsed && !s.tough && !s.firstOutOfActionNoEffect) {
    return `toughUsed: true needs tough: true or firstOutOfActionNoEffect: true (only a model with a save can have used it); allowed: toughUsed false, or one of them true`;
  }
  return s.kind === 'sequence' ? checkSequence(s) : undefined;
}

export const trenchCrusade: SystemSpec<TrenchCrusadeScenario> = {
  id: TRENCH_CRUSADE,
  title: 'Trench Crusade (2D6 keep two, injury dice)',
  editions: TRENCH_CRUSADE_EDITIONS,
  defaultEdition: DEFAULT_EDITION,
  kinds: trenchCrusadeKinds,
  fields: trenchCrusadeFields,
  rules: { spec: trenchCrusadeRuleSpec, increasing: trenchCrusadeIncreasing, resultTables: trenchCrusadeResultTables },
  diffGrid: trenchCrusadeDiffGrid,
  checkCombination,
  checkSize: (s) => (s.kind === 'duel' ? checkDuelSize(s as DuelScenario) : undefined),
};
