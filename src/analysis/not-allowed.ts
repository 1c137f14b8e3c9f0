import type { FieldValue } from '../model/types.js';
import type { Dimension } from './dimension-core.js';

/**
 * The cells of a grid the rules forbid (src/analysis/sweep.ts plans them): what they are, in what order
 * they are listed with the cells computed, and the lines that say which and why. No engine is loaded
 * here, so the CSV and the tables read it without the pools.
 */

/**
 * A cell of the grid whose combination the rules forbid (machine armour with a shield, a fall in the
 * playtest edition): kept in its place as "not allowed", with the rules' reason, and never computed.
 * Its system, kind and edition are the ones its scenario names, for the rows that list it.
 */
/** Where a cell sits in its grid: every cell has it, computed or not allowed. */
export interface GridPoint {
  readonly index: number;
  /** Index into each dimension's values. */
  readonly point: readonly number[];
  /** Label per dimension, in order. */
  readonly labels: readonly string[];
  /** Every varied field with its value in this cell. */
  readonly assignment: Readonly<Record<string, FieldValue>>;
}

export interface NotAllowedCell extends GridPoint {
  readonly system: string;
  readonly kind: string;
  readonly edition: string;
  /** Why not, as the rules' check says it (what a one-off run of the cell would refuse it with). */
  readonly reason: string;
}

/** A cell as its dimensions and labels name it: "edition playtest", "armour+shield machine + shield, injuryDice +1". */
export function describeNotAllowed(dims: readonly Dimension[], cell: Pick<NotAllowedCell, 'labels'>): string {
  return cell.labels.map((label, di) => `${dims[di]!.id} ${label}`).join(', ');
}

/** Cells computed and cells the rules forbid in one list, in grid order: what tables, JSON and CSV list. */
export function inGridOrder<C extends { readonly index?: number }>(cells: readonly C[], notAllowed: readonly NotAllowedCell[] = []): (C | NotAllowedCell)[] {
  if (notAllowed.length === 0) return [...cells];
  return [...cells, ...notAllowed].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
}

/** Whether a cell of inGridOrder's list is one the rules forbid. */
export const isNotAllowed = <C extends object>(cell: C | NotAllowedCell): cell is NotAllowedCell => 'reason' in cell;

/** Cells the rules forbid for one reason, in grid order. */
export interface NotAllowedGroup {
  readonly reason: string;
  readonly cells: readonly NotAllowedCell[];
}

/** The cells the rules forbid, grouped by their reason, in the order each reason first appears. */
export function notAllowedGroups(notAllowed: readonly NotAllowedCell[]): NotAllowedGroup[] {
  const byReason = new Map<string, NotAllowedCell[]>();
  for (const c of notAllowed) byReason.set(c.reason, [...(byReason.get(c.reason) ?? []), c]);
  return [...byReason].map(([reason, cells]) => ({ reason, cells }));
}

/** Past this many cells of one reason, a line names the first few and counts the rest. */
const MOST_CELLS_NAMED = 4;

/**
 * The cells of one reason in a few words: the values they share when they are every cell with those
 * values ("edition playtest", a whole column of the grid), else each cell, the first few of many.
 */
function describeGroup(dims: readonly Dimension[], cells: readonly NotAllowedCell[]): string {
  const shared = dims.map((_, di) => cells.every((c) => c.point[di] === cells[0]!.point[di]));
  const wholeSlice = cells.length === dims.reduce((n, d, di) => n * (shared[di] ? 1 : d.values.length), 1);
  if (wholeSlice && shared.some(Boolean)) {
    return dims.flatMap((d, di) => (shared[di] ? [`${d.id} ${cells[0]!.labels[di]}`] : [])).join(', ');
  }
  const named = cells.slice(0, MOST_CELLS_NAMED).map((c) => describeNotAllowed(dims, c));
  return `${named.join('; ')}${cells.length > MOST_CELLS_NAMED ? ` and ${cells.length - MOST_CELLS_NAMED} more` : ''}`;
}

/**
 * One line per reason the rules forbid cells of a grid, saying which and why: "1 of 3 cells: edition
 * playtest: kind "fall" is not a rule of the playtest edition (...)". The CLI prints them after
 * "skipped", charts' notes after what they left empty.
 */
export function notAllowedLines(dims: readonly Dimension[], notAllowed: readonly NotAllowedCell[], total: number): string[] {
  return notAllowedGroups(notAllowed).map((g) => `${g.cells.length} of ${total} cells: ${describeGroup(dims, g.cells)}: ${g.reason}`);
}
