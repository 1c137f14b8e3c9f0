import { describe, expect, it } from 'vitest';
import { keepDice, type KeepMode } from '../src/exact/keep.js';
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
