import { type Fraction, ZERO, add } from './exact/fraction.js';

/**
 * The running sums every view of a distribution needs, over exact fractions and over simulated counts
 * alike, so "this or worse" means the same thing in `exact`, `simulate`, sweeps, comparisons and charts.
 */

type Addable = Fraction | number;

function plus<T extends Addable>(a: T, b: T): T {
  return (typeof a === 'number' ? a + (b as number) : add(a, b as Fraction)) as T;
}

/** "This or worse": each outcome plus every more severe one (outcomes are listed mildest first). */
export function orWorse<T extends Addable>(values: ArrayLike<T>): T[] {
  const out = new Array<T>(values.length);
  for (let i = values.length - 1; i >= 0; i--) out[i] = i === values.length - 1 ? values[i]! : plus(values[i]!, out[i + 1]!);
  return out;
}

/** "Within n": bin 1, bins 1 and 2, ..., of a when-did-it-happen histogram. */
export function runningTotals<T extends Addable>(values: ArrayLike<T>): T[] {
  const out = new Array<T>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = i === 0 ? values[0]! : plus(out[i - 1]!, values[i]!);
  return out;
}

/** The sum of some fractions; 0 for none. */
export function total(values: readonly Fraction[]): Fraction {
  let sum = ZERO;
  for (const v of values) sum = add(sum, v);
  return sum;
}
