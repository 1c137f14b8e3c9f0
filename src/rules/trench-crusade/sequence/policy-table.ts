/**
 * A deterministic spending rule as two tables: the form the optimal policies take, and what the
 * simulator and the printed description read. Rows are the attacks left in a finite sequence (k = 1..N)
 * or, with unlimited attacks, the attacks already made in the current activation (p = 0..phases-1);
 * within a row the target's states are packed as in ./model.ts.
 */
import { type Decision, blessingLeftOf, downOf, markersOf, stateIndex, toughLeftOf } from './model.js';

export interface PolicyTable {
  /** States per row: (markers tracked + 1) * 8. */
  readonly stride: number;
  /** Markers on the attack roll, at row * stride + idx (idx after standing up). */
  readonly attack: Int32Array;
  /**
   * Injury choice code (see choiceCode in ./model.ts) on a hit (crit 0) or critical (crit 1), at
   * innerIndex(stride, row, left, crit), left the state once the attack roll's markers are spent.
   */
  readonly inner: Int32Array;
}

/** A table of `rows` rows that spends nothing anywhere. */
export function emptyPolicyTable(rows: number, stride: number): PolicyTable {
  return { stride, attack: new Int32Array(rows * stride), inner: new Int32Array(rows * stride * 2) };
}

export const innerIndex = (stride: number, row: number, left: number, crit: number): number => (row * stride + left) * 2 + crit;

/** The decision the table makes in state idx (after standing up) of a row. */
export function tableDecision(table: PolicyTable, row: number, idx: number): Decision {
  const a = table.attack[row * table.stride + idx]!;
  const key = innerIndex(table.stride, row, stateIndex(markersOf(idx) - a, downOf(idx), toughLeftOf(idx), blessingLeftOf(idx)), 0);
  return { a, hit: table.inner[key]!, crit: table.inner[key + 1]! };
}
