/**
 * Exact solution of a small linear system A x = b with integer entries, by Bareiss' fraction-free
 * elimination: every intermediate entry is a minor of A, so the numbers grow linearly instead of
 * exponentially and no gcd is ever taken. The solution comes back over one common denominator (det A,
 * by Cramer's rule every x_i * det A is an integer).
 */
export interface IntegerSolution {
  /** x_i = num[i] / den, den > 0. */
  readonly num: bigint[];
  readonly den: bigint;
}

export function solveIntegerSystem(a: readonly (readonly bigint[])[], b: readonly bigint[]): IntegerSolution {
  const n = b.length;
  const m: bigint[][] = a.map((row, i) => [...row, b[i]!]);
  let prev = 1n;
  let sign = 1n;
  for (let k = 0; k < n; k++) {
    let pivot = k;
    while (pivot < n && m[pivot]![k] === 0n) pivot++;
    if (pivot === n) throw new Error('internal: singular system in the sequence chain');
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
  let det = m[n - 1]![n - 1]! * sign;
  const x = new Array<bigint>(n).fill(0n);
  for (let i = n - 1; i >= 0; i--) {
    const row = m[i]!;
    let acc = row[n]! * det;
    for (let j = i + 1; j < n; j++) acc -= row[j]! * x[j]!;
    if (acc % row[i]! !== 0n) throw new Error('internal: inexact division in the sequence chain');
    x[i] = acc / row[i]!;
  }
  if (det < 0n) {
    det = -det;
    for (let i = 0; i < n; i++) x[i] = -x[i]!;
  }
  return { num: x, den: det };
}
