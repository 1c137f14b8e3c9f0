import { describe, expect, it } from 'vitest';
import { diceKernel } from '../src/sim/dice-kernel.js';
import { runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { Rng } from '../src/sim/rng.js';
import { chiSquareGoodnessOfFit } from '../src/stats/chi-square.js';

/**
 * Unbiased dice. 10^6 draws per die size with fixed seeds, so each test is deterministic. The tolerance
 * is a p-value of at least 1e-6: a fair die fails it with probability 1e-6 for a random seed, so a
 * failure here means bias, not bad luck; a modulo-biased d20 (2^32 mod 20 = 16 faces one value short)
 * is far too slight to show in 10^6 draws, which is why the rejection step is also tested directly.
 */
const DRAWS = 1_000_000;
const TOLERANCE = 1e-6;

function faceCounts(sides: number, seed: number): Float64Array {
  return runInThread(diceKernel(sides, 1), sides, { trials: DRAWS, seed, chunkSize: CHUNK_SIZE });
}

describe('dice from the generator', () => {
  for (const sides of [6, 20, 7]) {
    for (const seed of [1, 2, 20240601]) {
      it(`d${sides}, seed ${seed}: every face, chi-square p >= ${TOLERANCE}`, () => {
        const counts = faceCounts(sides, seed);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(DRAWS);
        const fit = chiSquareGoodnessOfFit(counts, new Array<number>(sides).fill(1 / sides));
        expect(fit.df).toBe(sides - 1);
        expect(fit.pValue).toBeGreaterThanOrEqual(TOLERANCE);
      });
    }
  }

  it('d6 and d20 stay in range and reject the top values of 2^32 rather than fold them', () => {
    // A generator whose next words are the largest 32-bit values: all in the rejected top remainder
    // (2^32 mod 6 = 4, 2^32 mod 20 = 16), so the die must draw again and land on the following word.
    class Scripted extends Rng {
      constructor(private readonly words: number[]) {
        super();
      }
      override nextUint32(): number {
        return this.words.shift()!;
      }
    }
    const top = 2 ** 32 - 1;
    expect(new Scripted([top, top - 3, 0]).d6()).toBe(1);
    expect(new Scripted([top, 2 ** 32 - 16, 2 ** 32 - 17]).d20()).toBe(20);
    // The last accepted value is the highest face, the first the lowest.
    expect(new Scripted([Math.floor(2 ** 32 / 6) * 6 - 1]).d6()).toBe(6);
    expect(new Scripted([Math.floor(2 ** 32 / 20) * 20 - 1]).d20()).toBe(20);
  });

  it('below(t) is true for exactly the draws under t: a quarter of them at 2^30, never at 0, always at 2^32', () => {
    // The same draws two ways: below() against the raw draw it makes.
    const [a, b] = [new Rng(), new Rng()];
    a.reseed(7, 0);
    b.reseed(7, 0);
    let hits = 0;
    let differ = 0;
    for (let i = 0; i < DRAWS; i++) {
      const hit = a.below(2 ** 30);
      if (hit !== b.nextUint32() < 2 ** 30) differ++;
      if (hit) hits++;
    }
    expect(differ).toBe(0);
    // A quarter within the family tolerance: z for p = 1e-6 two-sided is 4.89 standard deviations.
    expect(Math.abs(hits - DRAWS / 4)).toBeLessThan(4.9 * Math.sqrt((DRAWS * 3) / 16));
    for (let i = 0; i < 1000; i++) {
      expect(a.below(0)).toBe(false);
      expect(a.below(2 ** 32)).toBe(true);
    }
  });

  it('is xoshiro128** seeded as documented: known answers', () => {
    // From an independent Python transcription of Blackman & Vigna's xoshiro128starstar.c, seeded with
    // the fmix32 / Weyl procedure of Rng.reseed (written from its comment, not from its code).
    const rng = Rng.forChunk(42, 7);
    expect([1, 2, 3, 4, 5].map(() => rng.nextUint32())).toEqual([935278514, 3759871290, 305312640, 941116384, 2434028009]);
    expect(Rng.forChunk(2 ** 40 + 3, 2 ** 33).nextUint32()).toBe(542218261);
  });

  it('gives each chunk its own stream, a pure function of (seed, chunk)', () => {
    const draw = (seed: number, chunk: number) => {
      const rng = Rng.forChunk(seed, chunk);
      return [rng.nextUint32(), rng.nextUint32(), rng.nextUint32()];
    };
    expect(draw(7, 3)).toEqual(draw(7, 3));
    expect(draw(7, 3)).not.toEqual(draw(7, 4));
    expect(draw(7, 3)).not.toEqual(draw(8, 3));
    // Chunk indices past 2^32 (runs beyond 2^48 trials) still get distinct streams.
    expect(draw(7, 2 ** 32)).not.toEqual(draw(7, 0));
  });
});
