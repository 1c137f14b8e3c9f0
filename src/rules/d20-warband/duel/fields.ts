import { choiceField, integerField, numberField } from '../../../model/fields.js';
import { DEFAULT_ROUNDS, DUEL_KIND, DUEL_SIDES, MAX_ROUNDS } from '../../duel-report.js';

/**
 * The d20 warband `duel` kind (issue 24): two units, `a` and `b`, take turns to make an attack action on
 * each other until one is Incapacitated or the rounds run out. Its own fields are declared here once:
 * the duel's (`first`, `rounds`) at the scenario's top level, and the ledge a side may fight by in the
 * side's object. A side also takes the `attack` kind's fields that belong to a unit (./sides.ts).
 */
/** A ledge's drop must be at least this high for the ledge rule (injury file, Injury & Ledges: "a drop of at least 2""). */
export const MAX_LEDGE_INCHES = 100;

/** Fields of the duel itself, at the scenario's top level. */
export const d20DuelFields = [
  choiceField('first', {
    common: true,
    description: 'The unit that takes its turn first in every round',
    values: DUEL_SIDES,
    default: 'a',
    kinds: [DUEL_KIND],
  }),
  integerField('rounds', {
    common: true,
    description: "Rounds of the duel, each one turn of either unit (the first unit's first); a duel still on after them is undecided",
    minimum: 1,
    maximum: MAX_ROUNDS,
    default: DEFAULT_ROUNDS,
    kinds: [DUEL_KIND],
  }),
] as const;

/** Fields only a duel's side has (in `a` and `b`): the ledge it fights by (rulings DW9-DW10). */
export const d20DuelSideOwnFields = [
  integerField('agility', {
    description: "This unit's Agility: the Agility Check it makes when left Dazed or Stunned by a ledge (ledgeInches), d20 at least the stat",
    minimum: 1,
    maximum: 20,
    default: 10,
    kinds: [DUEL_KIND],
  }),
  numberField('ledgeInches', {
    description: 'The drop of a ledge within 1" of this unit (0: none). From 2" up, each time an attack action leaves it Dazed or Stunned it makes an Agility Check and on a failure Falls that height (+2 to the Injury Roll per full inch above 2)',
    minimum: 0,
    maximum: MAX_LEDGE_INCHES,
    default: 0,
    kinds: [DUEL_KIND],
  }),
] as const;
