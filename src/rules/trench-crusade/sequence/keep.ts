/**
 * Kept-dice sums for the sequence chain, which needs them for pools of up to a hundred or more dice
 * (every marker a hoarding policy might spend). src/exact/keep.ts walks every way the pool can split
 * over the faces, O(pool^2) per face; here the walk stops as soon as the kept dice are placed, because
 * the dice left over can then show any lower face: (face - 1)^rest ways, summed in closed form by the
 * binomial theorem. The cost no longer grows with the pool. test/tc-sequence-keep.test.ts checks it
 * against keepDice with exact equality.
 */

const binomialCache: bigint[][] = [];

/** C(n, r) for the small r used here (r < keep <= 4). */
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
 * Number of ordered rolls of `pool` d6 for each sum of the `keep` highest (or lowest) dice: index = sum,
 * total 6^pool. With fewer dice than `keep` all of them count.
 */
export function keptSumCounts(pool: number, keep: number, lowest: boolean): bigint[] {
  const kept = Math.min(keep, pool);
  const size = 6 * kept + 1;
  const out = new Array<bigint>(size).fill(0n);
  if (kept === 0) {
    out[0] = 6n ** BigInt(pool);
    return out;
  }
  // cur[j][s]: ways to have placed j dice (all of them kept, j < kept) on the faces above, summing to s.
  let cur: bigint[][] = [];
  for (let j = 0; j < kept; j++) cur.push(new Array<bigint>(size).fill(0n));
  cur[0]![0] = 1n;
  for (let face = 6; face >= 1; face--) {
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
  // Turning every die over (x -> 7 - x) swaps highest and lowest: sum_lowest = 7 * kept - sum_highest.
  const mirrored = new Array<bigint>(size).fill(0n);
  for (let s = kept; s < size; s++) mirrored[7 * kept - s] = out[s]!;
  return mirrored;
}
