import type { DiffGridPart } from '../../model/types.js';

/**
 * The situations `injury-lab diff` compares two d20 warband rule sets over: checks of every stat, with
 * and without advantage; attack actions of one attack over the attacker's stat, the target's Defence
 * (a dash included), Pierce and Wounds; Injury Rolls over their modifier; falls over their height.
 * docs/variants.md prints it as a table, which a test keeps in step.
 */
export const d20WarbandDiffGrid: readonly DiffGridPart[] = [
  { scenario: { kind: 'check' }, vary: [{ field: 'stat', from: 2, to: 20, step: 2 }, { field: 'advantage', values: [false, true] }] },
  {
    scenario: { kind: 'attack', attacks: 1 },
    vary: [
      { field: 'stat', values: [6, 10, 14] },
      { field: 'defence', values: [6, 10, 14, '-'] },
      { field: 'pierce', values: [0, 2] },
      { field: 'wounds', values: [1, 3] },
    ],
  },
  { scenario: { kind: 'injury-roll' }, vary: [{ field: 'modifier', from: -6, to: 6, step: 2 }] },
  { scenario: { kind: 'fall' }, vary: [{ field: 'heightInches', from: 0, to: 10 }] },
];
