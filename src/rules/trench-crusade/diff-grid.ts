import type { DiffGridPart } from '../../model/types.js';

/**
 * The situations `injury-lab diff` compares two Trench Crusade rule sets over: every armour and shield
 * pair (a pair one side forbids is skipped and listed), injury dice -1 to +3, Tough or not, Down or
 * not; for one injury roll, one attack (attack dice -1 to +2 as well) and a sequence of 10 attacks
 * spending no markers; and duels of four archetypes against each other (10 rounds, a first, neither
 * side spending markers). The sequence and duel fields are stated here rather than left to their
 * defaults so the grid (and docs/variants.md's table of it, which a test keeps in step) means the same
 * cells whatever a default becomes.
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
  { scenario: { kind: 'sequence', attacks: 10, policy: 'none' }, vary: common },
  { scenario: { kind: 'duel', rounds: 10, first: 'a', a: { policy: 'none' }, b: { policy: 'none' } }, vary: [{ field: 'a', values: archetypes }, { field: 'b', values: archetypes }] },
];
