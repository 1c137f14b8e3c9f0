import type { DiffGridPart } from '../../model/types.js';

/**
 * The situations `injury-lab diff` compares two Trench Crusade rule sets over: every armour and shield
 * pair (a pair one side forbids is skipped and listed), injury dice -1 to +3, Tough or not, Down or
 * not; for one injury roll, one attack (attack dice -1 to +2 as well) and a sequence of attacks (the
 * sequence's defaults: 10 attacks, markers spent by its default policy).
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

export const trenchCrusadeDiffGrid: readonly DiffGridPart[] = [
  { scenario: { kind: 'injury' }, vary: common },
  { scenario: { kind: 'attack' }, vary: [...common, { field: 'attackDice', from: -1, to: 2 }] },
  { scenario: { kind: 'sequence' }, vary: common },
];
