import { Dist } from './dist.js';

export type KeepMode = 'highest' | 'lowest';

const binomialCache: bigint[][] = [];

/** C(n, r) for the small r used here (r < keep), cached: the same few are asked for again and again. */
function choose(n: number, r: number): bigint {
  let row = binomialCache[n];
  if (!row) binomialCache[n] = row = [];
  const hit = row[r];
  if (hit !== undefined) return hit;
  let v = 1n;
  for (let i = 0; i < r; i++) v = (v * BigInt(n - i)) / BigInt(i + 1);
  row[r] = v;
  return v;
}

/**
 * Number of ordered rolls of `pool` dice with `sides` faces (d6 unless told) for each sum of the `keep`
 * highest (or lowest) dice: index = sum, total sides^pool. With fewer dice than `keep` all of them count.
 *
 * Rather than enumerating sides^pool rolls, walk the faces from the best kept value down and decide how
 * many dice show each face; the state is (dice placed, kept sum), and while fewer than `keep` dice are
 * placed every one of them is kept. The walk stops as soon as the kept dice are complete, because the
 * dice left over can then show any lower face: (face - 1)^rest ways, summed in closed form by the
 * binomial theorem. So the cost is O(sides * keep^2 * maxSum) whatever the pool, which matters to the
 * Trench Crusade sequence chain: a hoarding policy can roll a hundred dice or more.
 */
export function keptSumCounts(pool: number, keep: number, lowest: boolean, sides = 6): bigint[] {
  checkRoll(pool, keep, sides);
  const kept = Math.min(keep, pool);
  const size = sides * kept + 1;
  const out = new Array<bigint>(size).fill(0n);
  if (kept === 0) {
    out[0] = BigInt(sides) ** BigInt(pool);
    return out;
  }
  // cur[j][s]: ways to have placed j dice (all of them kept, j < kept) on the faces above, summing to s.
  let cur: bigint[][] = [];
  for (let j = 0; j < kept; j++) cur.push(new Array<bigint>(size).fill(0n));
  cur[0]![0] = 1n;
  for (let face = sides; face >= 1; face--) {
    const next: bigint[][] = [];
    for (let j = 0; j < kept; j++) next.push(new Array<bigint>(size).fill(0n));
    for (let j = 0; j < kept; j++) {
      const row = cur[j]!;
      const rem = pool - j;
      const need = kept - j;
      // All dice showing `face` or higher are kept once `need` of the remaining show it; the rest then
      // show any lower face: sum over c >= need of C(rem, c) (face-1)^(rem-c) = face^rem - the c < need terms.
      let finish = BigInt(face) ** BigInt(rem);
      for (let c = 0; c < need; c++) finish -= choose(rem, c) * BigInt(face - 1) ** BigInt(rem - c);
      for (let s = 0; s < size; s++) {
        const ways = row[s]!;
        if (ways === 0n) continue;
        out[s + need * face]! += ways * finish;
        // Fewer than `need` show this face: they are kept, and the walk goes on to lower faces.
        if (face > 1) for (let c = 0; c < need; c++) next[j + c]![s + c * face]! += ways * choose(rem, c);
      }
    }
    cur = next;
  }
  if (!lowest) return out;
  // Turning every die over (x -> sides + 1 - x) swaps highest and lowest: sum_lowest = (sides + 1) * kept - sum_highest.
  const mirrored = new Array<bigint>(size).fill(0n);
  for (let s = kept; s < size; s++) mirrored[(sides + 1) * kept - s] = out[s]!;
  return mirrored;
}

/**
 * As keptSumCounts, with one die of the pool put aside showing the top face (`sides`) and only the other
 * pool - 1 rolled (a Tank-Splitter Sword's "put one dice aside and turn it so that it shows a 6"): index =
 * sum, total sides^(pool - 1). Kept highest, that die is always among the kept (no die beats it): it and
 * the keep - 1 highest of the rest. Kept lowest, the keep lowest of the rest are never above it, so they
 * are the kept dice; only when the rest are fewer than `keep` is it kept too, with all of them.
 */
export function keptSumCountsWithTopFace(pool: number, keep: number, lowest: boolean, sides = 6): bigint[] {
  checkRoll(pool, keep, sides);
  if (pool < 1) throw new RangeError('a pool with a die put aside needs at least 1 die');
  const rest = pool - 1;
  const kept = Math.min(keep, pool);
  const out = new Array<bigint>(sides * kept + 1).fill(0n);
  const topKept = !lowest ? kept > 0 : rest < kept;
  const counts = keptSumCounts(rest, !lowest && kept > 0 ? kept - 1 : kept, lowest, sides);
  counts.forEach((w, s) => {
    out[s + (topKept ? sides : 0)]! += w;
  });
  return out;
}

/** Distribution of the sum of the `keep` highest (or lowest) of `pool` dice with `sides` faces; weights count ordered rolls (total sides^pool). */
export function keepDice(pool: number, keep: number, sides: number, mode: KeepMode): Dist<number> {
  const counts = keptSumCounts(pool, keep, mode === 'lowest', sides);
  return new Dist(counts.map((w, sum) => [sum, w] as const));
}

function checkRoll(pool: number, keep: number, sides: number): void {
  if (!Number.isInteger(pool) || pool < 0) throw new RangeError(`pool must be a whole number >= 0, got ${pool}`);
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep must be a whole number >= 0, got ${keep}`);
  if (!Number.isInteger(sides) || sides < 1) throw new RangeError(`sides must be a whole number >= 1, got ${sides}`);
}
