import { booleanField, choiceField, integerField, numberField } from '../../../model/fields.js';
import { DEFAULT_ROUNDS, DUEL_KIND, DUEL_SIDES, MAX_ROUNDS } from '../../duel-report.js';
import type { GivenFields } from '../../../model/types.js';

export const MAX_DUEL_ATTACKS = 4;
/** The highest ledge a side may fight by, in inches (the fall kind's highest fall). */
export const MAX_LEDGE_INCHES = 120;

/** What a side does with the blood markers on its opponent (ruling D4). */
export const DUEL_POLICIES = ['none', 'injury', 'hinder', 'optimal'] as const;
export type DuelPolicy = (typeof DUEL_POLICIES)[number];

/**
 * What an `optimal` side plays for (ruling D8): `margin`, P(win) - P(loss) (an undecided duel worth
 * half a win: the game is zero-sum), or `win`, its own chance of winning alone (an undecided duel worth
 * no more than a loss).
 */
export const DUEL_OBJECTIVES = ['margin', 'win'] as const;
export type DuelObjective = (typeof DUEL_OBJECTIVES)[number];

/** Fields of the duel itself, at the scenario's top level (issue 24). */
export const duelFields = [
  choiceField('first', {
    common: true,
    description: 'The side that activates first in every round',
    values: DUEL_SIDES,
    default: 'a',
    kinds: [DUEL_KIND],
  }),
  integerField('rounds', {
    common: true,
    description: 'Rounds of the duel, each one activation of either side (the first side first); a duel still on after them is undecided',
    minimum: 1,
    maximum: MAX_ROUNDS,
    default: DEFAULT_ROUNDS,
    kinds: [DUEL_KIND],
  }),
  choiceField('objective', {
    description: "What a side of policy optimal plays for: margin (P(win) - P(loss), an undecided duel worth half a win; the default: it may win less often than policy injury and lose less often still) or win (its own chance of winning alone, an undecided duel worth no more than a loss)",
    values: DUEL_OBJECTIVES,
    default: 'margin',
    kinds: [DUEL_KIND],
  }),
] as const;

/**
 * Fields only a duel's side has (in `a` and `b`); a side also takes every weapon and model field of the
 * sequence kind, and the target's state fields (./sides.ts lists them all).
 */
export const duelSideOwnFields = [
  choiceField('policy', {
    played: true,
    common: true,
    description: "What this side does with the blood markers on its opponent: none; injury (every one of them as +1 injury dice on each injury roll it makes); hinder (every one of them on the opponent's next success roll, -1 dice each); optimal (as many as, and on what, does best against an opponent who does the same, Bloodbaths included: for the duel's objective, P(win) - P(loss) by default)",
    values: DUEL_POLICIES,
    default: 'none',
    kinds: [DUEL_KIND],
  }),
  booleanField('down', {
    description: 'This side is Down at the start (it stands up when it next activates)',
    default: false,
    kinds: [DUEL_KIND],
  }),
  integerField('attacksPerActivation', {
    description: 'Melee attacks this side makes in each of its activations (default: 1, or the N attacks of an AUTOMATIC N or CLEAVE N weapon, at most 4)',
    minimum: 1,
    maximum: MAX_DUEL_ATTACKS,
    // A weapon of N attacks per action spends an activation on its string, as in a sequence.
    default: (_rules: never, given: GivenFields) =>
      typeof given.attacksPerAction === 'number' && given.attacksPerAction > 1 ? Math.min(given.attacksPerAction, MAX_DUEL_ATTACKS) : 1,
    kinds: [DUEL_KIND],
  }),
  numberField('ledgeInches', {
    description: 'This side fights within 1 inch of a ledge of this drop (core): each time it is taken Down while standing it first makes a success roll, and on a failure Falls that height (the fall kind\'s injury roll) and is then taken Down; 0: no ledge',
    minimum: 0,
    maximum: MAX_LEDGE_INCHES,
    default: 0,
    kinds: [DUEL_KIND],
  }),
] as const;
