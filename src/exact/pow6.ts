/**
 * Exact non-negative values num / 6^exp. Every probability of a game rolled only with d6 is a count over
 * a power of six, so sums and products of them stay in this form and never need a gcd: cheaper than
 * Fraction when many are combined and compared, as the optimal-policy search does.
 */
export interface Pow6 {
  readonly num: bigint;
  readonly exp: number;
}

export const P6_ZERO: Pow6 = { num: 0n, exp: 0 };
export const P6_ONE: Pow6 = { num: 1n, exp: 0 };

const pow6: bigint[] = [1n];
function six(e: number): bigint {
  while (pow6.length <= e) pow6.push(pow6[pow6.length - 1]! * 6n);
  return pow6[e]!;
}

export function p6Add(a: Pow6, b: Pow6): Pow6 {
  if (a.num === 0n) return b;
  if (b.num === 0n) return a;
  return a.exp >= b.exp ? { num: a.num + b.num * six(a.exp - b.exp), exp: a.exp } : { num: b.num + a.num * six(b.exp - a.exp), exp: b.exp };
}

/** w / 6^e times a. */
export function p6Scale(w: bigint, e: number, a: Pow6): Pow6 {
  return { num: w * a.num, exp: e + a.exp };
}

export function p6Compare(a: Pow6, b: Pow6): number {
  const l = a.exp >= b.exp ? a.num : a.num * six(b.exp - a.exp);
  const r = b.exp >= a.exp ? b.num : b.num * six(a.exp - b.exp);
  return l < r ? -1 : l > r ? 1 : 0;
}
