import { chiSquareUpperTail } from './normal.js';

/** Pearson's chi-square goodness-of-fit test of observed counts against known probabilities. */
export interface GoodnessOfFit {
  readonly statistic: number;
  /** Cells after pooling, minus one. */
  readonly df: number;
  /** P(chi-square_df >= statistic); 0 when an impossible cell was observed, 1 when df is 0. */
  readonly pValue: number;
  /** Cells tested after pooling the sparse ones. */
  readonly cells: number;
  /** Indices of cells with probability 0 that were observed anyway: a certain failure. */
  readonly impossible: readonly number[];
}

/**
 * Smallest expected count of a cell. Below about 5 the chi-square approximation to Pearson's statistic
 * is poor (Cochran's rule), and a rare outcome seen once where 0.01 was expected would read as a huge
 * deviation, so such cells are pooled into one.
 */
export const MIN_EXPECTED = 5;

/**
 * Chi-square goodness of fit. `probabilities` sum to 1; a cell of probability exactly 0 must have count
 * 0, else the fit fails outright (no statistic can weigh the impossible). Cells expected fewer than
 * MIN_EXPECTED times are pooled together, and the pool, if still short, with the smallest other cell.
 */
export function chiSquareGoodnessOfFit(observed: ArrayLike<number>, probabilities: readonly number[]): GoodnessOfFit {
  let n = 0;
  for (let i = 0; i < probabilities.length; i++) n += observed[i]!;
  const impossible: number[] = [];
  const cells: { observed: number; expected: number }[] = [];
  const pool = { observed: 0, expected: 0 };
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i]!;
    const o = observed[i]!;
    if (p === 0) {
      if (o !== 0) impossible.push(i);
      continue;
    }
    const e = n * p;
    if (e < MIN_EXPECTED) {
      pool.observed += o;
      pool.expected += e;
    } else {
      cells.push({ observed: o, expected: e });
    }
  }
  if (pool.expected > 0) {
    if (pool.expected < MIN_EXPECTED && cells.length > 0) {
      let smallest = 0;
      for (let i = 1; i < cells.length; i++) if (cells[i]!.expected < cells[smallest]!.expected) smallest = i;
      const [cell] = cells.splice(smallest, 1);
      pool.observed += cell!.observed;
      pool.expected += cell!.expected;
    }
    cells.push(pool);
  }
  let statistic = 0;
  for (const c of cells) statistic += ((c.observed - c.expected) * (c.observed - c.expected)) / c.expected;
  const df = Math.max(0, cells.length - 1);
  const pValue = impossible.length > 0 ? 0 : df === 0 ? 1 : chiSquareUpperTail(statistic, df);
  return { statistic, df, pValue, cells: cells.length, impossible };
}
