/**
 * Small dense linear systems A x = b: exactly over whole numbers (or fractions, brought to whole
 * numbers), or approximately in doubles. Absorbing chains need them for expected times: the Trench
 * Crusade sequence solves one per block, in doubles while its policy search explores and exactly for the
 * answers it reports; the d20 turns chain one per wounds level.
 */
import { type Fraction, fraction, lcm } from './fraction.js';

export interface IntegerSolution {
  /** x_i = num[i] / den, den > 0. */
  readonly num: bigint[];
  readonly den: bigint;
}

/**
 * Exact solution with integer entries, by Bareiss' fraction-free elimination: every intermediate entry
 * is a minor of A, so the numbers grow linearly instead of exponentially and no gcd is ever taken. The
 * solution comes back over one common denominator (det A; by Cramer's rule every x_i * det A is an
 * integer).
 */
export function solveIntegerSystem(a: readonly ArrayLike<bigint>[], b: ArrayLike<bigint>): IntegerSolution {
  const n = b.length;
  const m: bigint[][] = a.map((row, i) => [...Array.from(row), b[i]!]);
  let prev = 1n;
  let sign = 1n;
  for (let k = 0; k < n; k++) {
    let pivot = k;
    while (pivot < n && m[pivot]![k] === 0n) pivot++;
    if (pivot === n) throw new Error('internal: singular linear system');
    if (pivot !== k) {
      [m[k], m[pivot]] = [m[pivot]!, m[k]!];
      sign = -sign;
    }
    const rowK = m[k]!;
    const pkk = rowK[k]!;
    for (let i = k + 1; i < n; i++) {
      const rowI = m[i]!;
      const pik = rowI[k]!;
      for (let j = k + 1; j <= n; j++) rowI[j] = (rowI[j]! * pkk - pik * rowK[j]!) / prev;
      rowI[k] = 0n;
    }
    prev = pkk;
  }
  // m[n-1][n-1] is det A up to the sign of the row swaps.
  let det = n > 0 ? m[n - 1]![n - 1]! * sign : 1n;
  const x = new Array<bigint>(n).fill(0n);
  for (let i = n - 1; i >= 0; i--) {
    const row = m[i]!;
    let acc = row[n]! * det;
    for (let j = i + 1; j < n; j++) acc -= row[j]! * x[j]!;
    if (acc % row[i]! !== 0n) throw new Error('internal: inexact division in a linear system');
    x[i] = acc / row[i]!;
  }
  if (det < 0n) {
    det = -det;
    for (let i = 0; i < n; i++) x[i] = -x[i]!;
  }
  return { num: x, den: det };
}

/** Exact solution with fraction entries: each equation multiplied by its denominators' lcm, then solveIntegerSystem. */
export function solveFractionSystem(a: readonly (readonly Fraction[])[], b: readonly Fraction[]): Fraction[] {
  const rows: bigint[][] = [];
  const rhs: bigint[] = [];
  a.forEach((row, i) => {
    let scale = b[i]!.den;
    for (const v of row) scale = lcm(scale, v.den);
    rows.push(row.map((v) => v.num * (scale / v.den)));
    rhs.push(b[i]!.num * (scale / b[i]!.den));
  });
  const { num, den } = solveIntegerSystem(rows, rhs);
  return num.map((x) => fraction(x, den));
}

/** Solution in doubles, by Gaussian elimination with partial pivoting. */
export function solveFloatSystem(a: readonly ArrayLike<number>[], b: ArrayLike<number>): Float64Array {
  const n = b.length;
  const m = a.map((row) => Float64Array.from(row));
  const rhs = Float64Array.from(b);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[piv]![col]!)) piv = r;
    [m[col], m[piv]] = [m[piv]!, m[col]!];
    [rhs[col], rhs[piv]] = [rhs[piv]!, rhs[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / m[col]![col]!;
      if (f === 0) continue;
      for (let k = col; k < n; k++) m[r]![k]! -= f * m[col]![k]!;
      rhs[r]! -= f * rhs[col]!;
    }
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let acc = rhs[i]!;
    for (let j = i + 1; j < n; j++) acc -= m[i]![j]! * x[j]!;
    x[i] = acc / m[i]![i]!;
  }
  return x;
}
