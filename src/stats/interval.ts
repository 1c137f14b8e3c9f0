/** A two-sided confidence interval. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/**
 * Wilson score interval for a proportion, `count` successes in `n` trials at quantile `z` (1.96 for
 * 95%). Unlike the Wald interval it keeps its coverage near 0 and 1, where rare injury outcomes live,
 * and it is never empty when count is 0 or n.
 */
export function wilson(count: number, n: number, z: number): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = count / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Mean of a per-trial quantity with its sample variance and normal-approximation interval. */
export interface MeanEstimate extends Interval {
  readonly mean: number;
  /** Sample variance (n - 1 in the denominator); NaN below two trials. */
  readonly variance: number;
}

/**
 * The mean and its interval from the two running sums a kernel keeps (sum and sum of squares), which is
 * all a tally holds: no samples are stored. The mean of millions of trials is normal to within any
 * visible margin (central limit theorem), so mean +- z * s / sqrt(n) is the interval. The variance is
 * computed as (sumSq - sum * mean) / (n - 1): both sums are exact whole numbers, so the subtraction
 * loses only the rounding of sum * mean, a relative 1e-16 of a number of size n * mean^2.
 */
export function meanInterval(sum: number, sumSq: number, n: number, z: number): MeanEstimate {
  if (n <= 0) return { mean: Number.NaN, variance: Number.NaN, low: Number.NaN, high: Number.NaN };
  const mean = sum / n;
  if (n < 2) return { mean, variance: Number.NaN, low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY };
  const variance = Math.max(0, (sumSq - sum * mean) / (n - 1));
  const half = z * Math.sqrt(variance / n);
  return { mean, variance, low: mean - half, high: mean + half };
}
