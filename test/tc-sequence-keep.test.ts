import { describe, expect, it } from 'vitest';
import { keepDice } from '../src/exact/keep.js';
import { keptSumCounts } from '../src/rules/trench-crusade/sequence/keep.js';

/** keepDice (itself tested against brute-force enumeration) is the reference; equality is exact. */
function reference(pool: number, keep: number, lowest: boolean): bigint[] {
  const d = keepDice(pool, keep, 6, lowest ? 'lowest' : 'highest');
  const out = new Array<bigint>(6 * Math.min(keep, pool) + 1).fill(0n);
  for (const [sum, w] of d.weights) out[sum] = w;
  return out;
}

describe('keptSumCounts (the sequence chain\'s fast kept-dice sums)', () => {
  for (const lowest of [false, true]) {
    for (let keep = 1; keep <= 4; keep++) {
      it(`keep ${keep} ${lowest ? 'lowest' : 'highest'} of every pool up to 16 equals keepDice`, () => {
        for (let pool = 0; pool <= 16; pool++) expect(keptSumCounts(pool, keep, lowest)).toEqual(reference(pool, keep, lowest));
      });
    }
  }

  it('large pools still total 6^pool and agree with keepDice at 40 dice', () => {
    expect(keptSumCounts(40, 2, false)).toEqual(reference(40, 2, false));
    const big = keptSumCounts(150, 3, true);
    expect(big.reduce((a, b) => a + b, 0n)).toBe(6n ** 150n);
  });

  it('3 dice keep 2 highest: 12 in 16 of 216 rolls (two sixes in 3 x 5 ways, or three)', () => {
    expect(keptSumCounts(3, 2, false)[12]).toBe(16n);
  });
});
