import { describe, expect, it } from 'vitest';
import { keepDice, keptSumCounts, type KeepMode } from '../src/exact/keep.js';
import { Dist } from '../src/exact/dist.js';

/** Brute force twin: enumerate every ordered roll, sort, keep, count. */
function bfKeep(pool: number, keep: number, sides: number, mode: KeepMode): Map<number, bigint> {
  const counts = new Map<number, bigint>();
  const dice = new Array<number>(pool).fill(1);
  const total = sides ** pool;
  for (let i = 0; i < total; i++) {
    let x = i;
    for (let d = 0; d < pool; d++) {
      dice[d] = (x % sides) + 1;
      x = Math.floor(x / sides);
    }
    const sorted = [...dice].sort((a, b) => (mode === 'highest' ? b - a : a - b));
    let s = 0;
    for (let j = 0; j < Math.min(keep, pool); j++) s += sorted[j]!;
    counts.set(s, (counts.get(s) ?? 0n) + 1n);
  }
  return counts;
}

function asMap(d: Dist<number>): Map<number, bigint> {
  return new Map(d.weights);
}

/**
 * A second twin for pools too large to enumerate: walk the faces from the kept end and decide how many
 * dice show each one, C(remaining, c) orderings at a time, placing every die (O(pool^2) per face). This
 * was keepDice's own algorithm before the walk learnt to stop once the kept dice are placed; it shares
 * nothing with that shortcut, and is itself checked against bfKeep below.
 */
function walkKeep(pool: number, keep: number, sides: number, mode: KeepMode): bigint[] {
  const kept = Math.min(keep, pool);
  const maxSum = kept * sides;
  const binomial = (n: number, r: number): bigint => {
    let v = 1n;
    for (let i = 0; i < r; i++) v = (v * BigInt(n - i)) / BigInt(i + 1);
    return v;
  };
  // layer[m][s]: number of ways to have placed m dice with kept sum s.
  let layer: bigint[][] = [];
  for (let m = 0; m <= pool; m++) layer.push(new Array<bigint>(maxSum + 1).fill(0n));
  layer[0]![0] = 1n;
  for (let step = 0; step < sides; step++) {
    const face = mode === 'highest' ? sides - step : step + 1;
    const next: bigint[][] = [];
    for (let m = 0; m <= pool; m++) next.push(new Array<bigint>(maxSum + 1).fill(0n));
    for (let m = 0; m <= pool; m++) {
      for (let s = 0; s <= maxSum; s++) {
        const ways = layer[m]![s]!;
        if (ways === 0n) continue;
        const remaining = pool - m;
        // The last face must take every remaining die, otherwise the roll would be incomplete.
        for (let c = step === sides - 1 ? remaining : 0; c <= remaining; c++) {
          const sum = s + face * (Math.min(m + c, kept) - Math.min(m, kept));
          next[m + c]![sum]! += ways * binomial(remaining, c);
        }
      }
    }
    layer = next;
  }
  return layer[pool]!;
}

function countsOf(m: Map<number, bigint>, size: number): bigint[] {
  const out = new Array<bigint>(size).fill(0n);
  for (const [sum, w] of m) out[sum] = w;
  return out;
}

describe('keepDice', () => {
  for (const mode of ['highest', 'lowest'] as const) {
    for (let pool = 0; pool <= 6; pool++) {
      for (let keep = 0; keep <= Math.min(pool + 1, 4); keep++) {
        it(`d6: keep ${keep} ${mode} of ${pool} equals brute force`, () => {
          expect(asMap(keepDice(pool, keep, 6, mode))).toEqual(bfKeep(pool, keep, 6, mode));
        });
      }
    }
    for (let pool = 1; pool <= 3; pool++) {
      it(`d20: keep 1 ${mode} of ${pool} equals brute force`, () => {
        expect(asMap(keepDice(pool, 1, 20, mode))).toEqual(bfKeep(pool, 1, 20, mode));
      });
    }
  }

  it('3 dice keep 2 highest: a total of 12 has probability 16/216', () => {
    // 12 needs two sixes among the kept pair: exactly two sixes (3 positions x 5 other faces = 15)
    // or three sixes (1), so 16 of the 216 ordered rolls.
    const d = keepDice(3, 2, 6, 'highest');
    expect(d.total).toBe(216n);
    expect(d.weight(12)).toBe(16n);
  });

  it('keep 2 of 12 d6 has total weight 6^12', () => {
    expect(keepDice(12, 2, 6, 'highest').total).toBe(6n ** 12n);
  });
});

describe('walkKeep (the twin for large pools) equals brute force', () => {
  for (const mode of ['highest', 'lowest'] as const) {
    it(`d6 pools up to 6, keep up to 4, ${mode}; d20 pools up to 3, keep 1`, () => {
      for (let pool = 0; pool <= 6; pool++)
        for (let keep = 0; keep <= Math.min(pool + 1, 4); keep++)
          expect(walkKeep(pool, keep, 6, mode)).toEqual(countsOf(bfKeep(pool, keep, 6, mode), 6 * Math.min(keep, pool) + 1));
      for (let pool = 1; pool <= 3; pool++) expect(walkKeep(pool, 1, 20, mode)).toEqual(countsOf(bfKeep(pool, 1, 20, mode), 21));
    });
  }
});

describe('keptSumCounts (the counts behind keepDice, for pools of a hundred dice and more)', () => {
  for (const lowest of [false, true]) {
    for (let keep = 1; keep <= 4; keep++) {
      it(`keep ${keep} ${lowest ? 'lowest' : 'highest'} of every d6 pool up to 16 equals walkKeep`, () => {
        for (let pool = 0; pool <= 16; pool++) expect(keptSumCounts(pool, keep, lowest)).toEqual(walkKeep(pool, keep, 6, lowest ? 'lowest' : 'highest'));
      });
    }
    it(`keep 1 and 2 ${lowest ? 'lowest' : 'highest'} of every d20 pool up to 6 equals walkKeep`, () => {
      for (let pool = 0; pool <= 6; pool++)
        for (const keep of [1, 2]) expect(keptSumCounts(pool, keep, lowest, 20)).toEqual(walkKeep(pool, keep, 20, lowest ? 'lowest' : 'highest'));
    });
  }

  it('large pools still total 6^pool and agree with walkKeep at 40 dice', () => {
    expect(keptSumCounts(40, 2, false)).toEqual(walkKeep(40, 2, 6, 'highest'));
    const big = keptSumCounts(150, 3, true);
    expect(big.reduce((a, b) => a + b, 0n)).toBe(6n ** 150n);
  });

  it('3 dice keep 2 highest: 12 in 16 of 216 rolls (two sixes in 3 x 5 ways, or three)', () => {
    expect(keptSumCounts(3, 2, false)[12]).toBe(16n);
  });
});

describe('toNumber', () => {
  it('converts huge fractions to doubles (within an ulp or two)', async () => {
    const { fraction, toNumber } = await import('../src/exact/fraction.js');
    // (6^200 + 1) / (3 * 6^200) is 1/3 to far more than double precision; 6^200 overflows a double.
    const big = 6n ** 200n;
    expect(toNumber(fraction(big + 1n, 3n * big))).toBeCloseTo(1 / 3, 15);
    expect(toNumber(fraction(-5n, 18n))).toBe(-5 / 18);
    expect(toNumber(fraction(1n, big)) / 6 ** -200).toBeCloseTo(1, 12);
  });
});
