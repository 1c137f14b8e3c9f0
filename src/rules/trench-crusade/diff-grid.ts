import type { DiffGridPart } from '../../model/types.js';

/**
 * The situations `injury-lab diff` compares two Trench Crusade rule sets over: every armour and shield
 * pair (a pair one side forbids is skipped and listed), injury dice -1 to +3, Tough or not, Down or
 * not; for one injury roll, one attack (attack dice -1 to +2 as well) and a sequence of attacks (the
 * sequence's defaults: 10 attacks, markers spent by its default policy); and duels of four archetypes
 * against each other (10 rounds, a first, no markers spent).
 */
const protection = {
  fields: ['armour', 'shield'],
  name: 'protection',
  values: [
    ['none', false], ['none', true], ['standard', false], ['standard', true],
    ['reinforced', false], ['reinforced', true], ['machine', false], ['machine', true],
  ],
};
const common = [protection, { field: 'injuryDice', from: -1, to: 3 }, { field: 'tough', values: [false, true] }, { field: 'targetDown', values: [false, true] }];

/** A duel's sides: a body and its weapon, from unarmoured to Machine Armour and Tough. */
const archetypes = [
  { name: 'unarmoured', value: {} },
  { name: 'standard + shield', value: { armour: 'standard', shield: true } },
  { name: 'reinforced, +1 dice', value: { armour: 'reinforced', injuryDice: 1 } },
  { name: 'machine + Tough', value: { armour: 'machine', tough: true } },
];

export const trenchCrusadeDiffGrid: readonly DiffGridPart[] = [
  { scenario: { kind: 'injury' }, vary: common },
  { scenario: { kind: 'attack' }, vary: [...common, { field: 'attackDice', from: -1, to: 2 }] },
  { scenario: { kind: 'sequence' }, vary: common },
  { scenario: { kind: 'duel', a: {}, b: {} }, vary: [{ field: 'a', values: archetypes }, { field: 'b', values: archetypes }] },
];
