import type { BattlePriceResult } from '../../pricing/battle-prices.js';
import type { PriceResult } from '../../pricing/price.js';
import { csvText } from './csv.js';
import type { WideCsv } from './wide-csv.js';

/**
 * `price --wide`: the pairwise matrix the ratings are fitted to, as the matrix a spreadsheet user pastes.
 * One row and one column per entry, both in the price table's order (most mispriced first), so a row
 * sits where the table puts its verdict. The corner cell names the two ("entry \ against"); a cell is
 * the row entry's share against the column entry, the very number the JSON answer and the chart's heat
 * map hold, written with every digit as every CSV of this tool writes numbers. The diagonal is empty
 * (no entry meets itself in the matrix), and so is a pair that was not played.
 */

const CORNER = 'entry \\ against';

/** The matrix of `names` (in this order) with `shareOf(row, column)` in the cells, empty where undefined. */
function pairwiseCsv(names: readonly string[], shareOf: (row: string, column: string) => number | undefined): string {
  const rows: unknown[][] = [[CORNER, ...names]];
  for (const row of names) rows.push([row, ...names.map((column) => (column === row ? '' : (shareOf(row, column) ?? '')))]);
  return csvText(rows);
}

/**
 * By duels: cell (i, j) is w_ij of src/pricing/duel-matrix.ts, the mean over the two orders of who goes
 * first of P(i wins) + P(undecided)/2, exactly as a fraction and then as the nearest double (the matrix's
 * `wins`, which the fit reads and the chart's heat map shows). Every pair of the field is played.
 */
export function priceWide(r: PriceResult): WideCsv {
  const index = new Map(r.matrix.names.map((name, i) => [name, i]));
  const text = pairwiseCsv(
    r.entries.map((e) => e.name),
    (row, column) => r.matrix.wins[index.get(row)!]![index.get(column)!],
  );
  return {
    text,
    note:
      "wide CSV: rows and columns the entries, in the table's order; cells the row entry's share of its exact duels against the column entry, " +
      'the mean over the two orders of who goes first of P(row wins) + P(undecided)/2 ' +
      "(the JSON's duels.pairs share, 1 minus it where the row is the pair's b; the chart's heat map); the diagonal empty",
  };
}

/**
 * By battles: cell (i, j) is `shares[i][j]` of src/pricing/battle-prices.ts, i's warband (the copies the
 * ducats buy) against j's: P(win) + P(draw)/2 over the match-up's battles, simulated; the JSON's `shares`
 * and the chart's heat map. An entry out of the field (too dear for the ducats, unpriced) plays no pair:
 * its row and column are empty, as the table still lists it.
 */
export function battlePriceWide(r: BattlePriceResult): WideCsv {
  const index = new Map(r.field.map((f, i) => [f.name, i]));
  const text = pairwiseCsv(
    r.entries.map((e) => e.name),
    (row, column) => {
      const i = index.get(row);
      const j = index.get(column);
      return i === undefined || j === undefined ? undefined : r.shares[i]![j];
    },
  );
  const out = r.entries.length - r.field.length;
  return {
    text,
    note:
      `wide CSV: rows and columns the entries, in the table's order; cells the row entry's share of its battles against the column entry, each side the copies ${r.ducats} ducats buy, ` +
      "P(row wins) + P(draw)/2 over the match-up's simulated battles (the JSON's shares; the chart's heat map); the diagonal empty" +
      (out > 0 ? `, and the row and column of each entry out of the field (${out}: it plays no one)` : ''),
  };
}
