import { Z95 } from '../stats/index.js';

/**
 * Intervals for differences and ratios of simulated proportions.
 *
 * A sweep simulates every cell with the same seeds (common random numbers), so the estimates of two
 * cells are positively correlated and their difference is far less noisy than either estimate. The
 * tally of a run keeps only counts, not which trials gave what, so that correlation cannot be read from
 * one run. It is read from batches instead: each cell is simulated as B runs with seeds s, s+1, ...,
 * s+B-1, batch k of one cell pairs with batch k of another, and the spread of the B paired differences
 * gives the interval (batch means, Student t with B - 1 degrees of freedom).
 */

export interface Estimate {
  readonly value: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** True when the interval comes from paired batches (common random numbers). */
  readonly paired: boolean;
}

/**
 * Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom, to four decimals, as printed in
 * standard tables (NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.2). The test
 * report-paired.test.ts checks each against a numerical integration of the t density.
 */
const T975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604, 2.1448, 2.1314,
  2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/**
 * t quantile for a two-sided 95% interval. Past 30 degrees of freedom the Cornish-Fisher expansion
 * around the normal quantile is within 2e-4 of the true value (at 30 it gives 2.0421 for 2.0423).
 */
export function t975(df: number): number {
  if (df < 1) return Number.POSITIVE_INFINITY;
  if (df <= T975.length) return T975[Math.floor(df) - 1]!;
  const z = Z95;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

function meanOf(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

function varianceOf(xs: readonly number[], mean: number): number {
  let s = 0;
  for (const x of xs) s += (x - mean) * (x - mean);
  return s / (xs.length - 1);
}

/**
 * b - a from per-batch proportions of equal-sized batches, paired by batch index. With one batch each
 * (or batches of different sizes) there is nothing to pair, and the interval treats the two estimates as
 * independent: then it is conservative, too wide by the amount the common random numbers saved.
 */
export function differenceEstimate(
  a: { readonly batches: readonly number[]; readonly trials: number },
  b: { readonly batches: readonly number[]; readonly trials: number },
): Estimate {
  const pa = meanOf(a.batches);
  const pb = meanOf(b.batches);
  const value = pb - pa;
  const k = a.batches.length;
  if (k >= 2 && k === b.batches.length && a.trials === b.trials) {
    const d = a.batches.map((x, i) => b.batches[i]! - x);
    const half = t975(k - 1) * Math.sqrt(varianceOf(d, value) / k);
    return { value, ciLow: value - half, ciHigh: value + half, paired: true };
  }
  const half = Z95 * Math.sqrt((pa * (1 - pa)) / a.trials + (pb * (1 - pb)) / b.trials);
  return { value, ciLow: value - half, ciHigh: value + half, paired: false };
}

/**
 * b / a by the delta method on the paired batches: the ratio's error is that of the batch residuals
 * b_k - r a_k, divided by the mean of a. Undefined (null) when a never happened.
 */
export function ratioEstimate(
  a: { readonly batches: readonly number[]; readonly trials: number },
  b: { readonly batches: readonly number[]; readonly trials: number },
): Estimate | null {
  const pa = meanOf(a.batches);
  const pb = meanOf(b.batches);
  if (pa === 0) return null;
  const r = pb / pa;
  const k = a.batches.length;
  if (k >= 2 && k === b.batches.length && a.trials === b.trials) {
    const e = a.batches.map((x, i) => b.batches[i]! - r * x);
    const half = (t975(k - 1) * Math.sqrt(varianceOf(e, meanOf(e)) / k)) / pa;
    return { value: r, ciLow: r - half, ciHigh: r + half, paired: true };
  }
  const varA = (pa * (1 - pa)) / a.trials;
  const varB = (pb * (1 - pb)) / b.trials;
  const half = (Z95 * Math.sqrt(varB + r * r * varA)) / pa;
  return { value: r, ciLow: r - half, ciHigh: r + half, paired: false };
}
