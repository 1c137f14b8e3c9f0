import { Dist } from './dist.js';

export type KeepMode = 'highest' | 'lowest';

const binomialRows: bigint[][] = [[1n]];
/** C(n, r) from a cached Pascal triangle (pools are small; the rows are reused across calls). */
function binomial(n: number, r: number): bigint {
  for (let i = binomialRows.length; i <= n; i++) {
    const prev = binomialRows[i - 1]!;
    const row: bigint[] = [1n];
    for (let j = 1; j < i; j++) row.push(prev[j - 1]! + prev[j]!);
    row.push(1n);
    binomialRows.push(row);
  }
  return binomialRows[n]![r]!;
}

/**
 * Distribution of the sum of the `keep` highest (or lowest) of `pool` dice with `sides` faces.
 *
 * Rather than enumerating sides^pool rolls, walk the faces from the best kept value to the worst and
 * decide how many dice show each face. Because the walk starts at the kept end, after placing m dice
 * exactly min(m, keep) of them are kept, so the state is just (dice placed, kept sum). Choosing c of the
 * remaining dice to show a face has C(remaining, c) orderings, which keeps the weights exact counts of
 * ordered rolls: the total is sides^pool. Cost is O(sides * pool^2 * maxSum), far below 6^12 for 2 of 12.
 */
export function keepDice(pool: number, keep: number, sides: number, mode: KeepMode): Dist<number> {
  if (!Number.isInteger(pool) || pool < 0) throw new RangeError(`pool must be a whole number >= 0, got ${pool}`);
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep must be a whole number >= 0, got ${keep}`);
  if (!Number.isInteger(sides) || sides < 1) throw new RangeError(`sides must be a whole number >= 1, got ${sides}`);
  const kept = Math.min(keep, pool);
  const maxSum = kept * sides;
  // layer[m][s]: number of ways to have placed m dice with kept sum s.
  let layer: bigint[][] = [];
  for (let m = 0; m <= pool; m++) layer.push(new Array<bigint>(maxSum + 1).fill(0n));
  layer[0]![0] = 1n;
  for (let step = 0; step < sides; step++) {
    const face = mode === 'highest' ? sides - step : step + 1;
    const next: bigint[][] = [];
    for (let m = 0; m <= pool; m++) next.push(new Array<bigint>(maxSum + 1).fill(0n));
    for (let m = 0; m <= pool; m++) {
      const row = layer[m]!;
      const keptBefore = Math.min(m, kept);
      for (let s = 0; s <= maxSum; s++) {
        const ways = row[s]!;
        if (ways === 0n) continue;
        const remaining = pool - m;
        // The last face must take every remaining die, otherwise the roll would be incomplete.
        const cMin = step === sides - 1 ? remaining : 0;
        for (let c = cMin; c <= remaining; c++) {
          const keptAfter = Math.min(m + c, kept);
          const sum = s + face * (keptAfter - keptBefore);
          next[m + c]![sum]! += ways * binomial(remaining, c);
        }
      }
    }
    layer = next;
  }
  const entries: [number, bigint][] = [];
  layer[pool]!.forEach((w, s) => entries.push([s, w]));
  return new Dist(entries);
}
