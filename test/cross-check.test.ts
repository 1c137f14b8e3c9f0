import { describe, expect, it } from 'vitest';
import { fraction, ONE, ZERO } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import type { Dice, ExactAnswer, ReportLayout, SimKernel } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { crossCheck, FAMILY_ALPHA } from '../src/stats/cross-check.js';
import { summarize } from '../src/stats/summary.js';

/**
 * A fake kind: one d6, outcomes "1".."6" and "7" (impossible), the mean face, and a histogram of
 * odd/even. The exact answer is a fair die's, worked by hand: 1/6 per face, 0 for "7", mean 7/2,
 * odd and even 1/2 each. Kernels are run in this thread (runInThread plays the same chunks as the pool),
 * so a deliberately broken one needs no registry entry.
 */
const layout: ReportLayout = {
  outcomes: ['1', '2', '3', '4', '5', '6', '7'],
  means: [{ id: 'face', jsonKey: 'expectedFace', label: 'face' }],
  histograms: [{ id: 'parity', label: 'parity', bins: ['odd', 'even'] }],
};
const sixth = fraction(1, 6);
const fairDie: ExactAnswer = {
  outcomes: [sixth, sixth, sixth, sixth, sixth, sixth, ZERO],
  means: [fraction(7, 2)],
  histograms: [[fraction(1, 2), fraction(1, 2)]],
};

/** A d6 kernel whose `face` function turns the roll into the reported face. */
function d6Kernel(face: (roll: number, rng: Dice) => number, meanOf: (f: number) => number = (f) => f): SimKernel {
  return {
    run(rng, trials, tally) {
      for (let t = 0; t < trials; t++) {
        const f = face(rng.d6(), rng);
        const v = meanOf(f);
        tally[f - 1]! += 1;
        tally[7]! += v;
        tally[8]! += v * v;
        tally[9 + (f % 2 === 1 ? 0 : 1)]! += 1;
      }
    },
  };
}

function check(kernel: SimKernel, trials = 1_000_000, seed = 1) {
  const tally = runInThread(kernel, tallyLength(layout), { trials, seed, chunkSize: CHUNK_SIZE });
  return crossCheck(fairDie, { layout, trials, tally });
}

describe('crossCheck', () => {
  it('passes a fair die, with the family split over the outcome fit, the mean and the histogram', () => {
    const r = check(d6Kernel((roll) => roll));
    expect(r.failures).toEqual([]);
    expect(r.passed).toBe(true);
    expect(r.tests).toBe(3);
    expect(r.testAlpha).toBeCloseTo(FAMILY_ALPHA / 3, 20);
    expect(r.outcomeFit.df).toBe(5);
    for (const o of r.outcomes.slice(0, 6)) {
      expect(o.ciLow).toBeLessThan(1 / 6);
      expect(o.ciHigh).toBeGreaterThan(1 / 6);
    }
  });

  it('catches a die with a wrong face (a 6 that reads as 5)', () => {
    const r = check(d6Kernel((roll) => (roll === 6 ? 5 : roll)));
    expect(r.passed).toBe(false);
    expect(r.failures.some((f) => f.startsWith('outcomes: chi-square'))).toBe(true);
    expect(r.outcomes[5]!.z).toBeLessThan(-100);
    expect(r.means[0]!.z).toBeLessThan(-100);
  });

  it('catches a bias of one part in fifty on one face at a million trials', () => {
    // One 6 in 50 rerolled: P(6) = 1/6 * 49/50 + 1/6 * 1/50 * 1/6, about 0.1639 instead of 0.1667.
    const r = check(d6Kernel((roll, rng) => (roll === 6 && rng.die(50) === 1 ? rng.d6() : roll)));
    expect(r.passed).toBe(false);
  });

  it('fails at once on an outcome of exact probability 0', () => {
    // A 7 about once in 100,000 trials, some ten times in the run: too few to move any chi-square
    // statistic, but impossible by the exact answer.
    const r = check(d6Kernel((roll, rng) => (roll === 6 && rng.die(16_667) === 1 ? 7 : roll)));
    expect(r.passed).toBe(false);
    expect(r.failures[0]).toMatch(/^outcomes: "7" has exact probability 0 but came up \d+ times in 1000000 trials$/);
  });

  it('catches a wrong mean even when the outcomes are right', () => {
    const r = check(d6Kernel((roll) => roll, (f) => (f === 6 ? 7 : f)));
    expect(r.outcomeFit.pValue).toBeGreaterThan(r.testAlpha);
    expect(r.passed).toBe(false);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^face: mean /);
  });

  it('catches a wrong histogram even when the outcomes are right', () => {
    const broken: SimKernel = {
      run(rng, trials, tally) {
        for (let t = 0; t < trials; t++) {
          const f = rng.d6();
          tally[f - 1]! += 1;
          tally[7]! += f;
          tally[8]! += f * f;
          tally[9 + (f <= 2 ? 0 : 1)]! += 1; // "odd" counts faces 1-2: a third, not a half
        }
      },
    };
    const r = check(broken);
    expect(r.passed).toBe(false);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^parity: chi-square/);
  });

  it('accepts a certain outcome seen every time, and fails one missed once', () => {
    const certain: ReportLayout = { outcomes: ['a', 'b'], means: [], histograms: [] };
    const exact: ExactAnswer = { outcomes: [ONE, ZERO], means: [], histograms: [] };
    expect(crossCheck(exact, { layout: certain, trials: 10, tally: Float64Array.of(10, 0) }).passed).toBe(true);
    expect(crossCheck(exact, { layout: certain, trials: 10, tally: Float64Array.of(9, 1) }).passed).toBe(false);
  });
});

describe('summarize', () => {
  it('reads outcomes, means and histograms from their places in the tally', () => {
    const trials = 100_000;
    const tally = runInThread(d6Kernel((roll) => roll), tallyLength(layout), { trials, seed: 2, chunkSize: CHUNK_SIZE });
    const s = summarize({ layout, trials, tally });
    expect(s.outcomes.map((o) => o.outcome)).toEqual(layout.outcomes);
    expect(s.outcomes.reduce((a, o) => a + o.count, 0)).toBe(trials);
    expect(s.means[0]).toMatchObject({ id: 'face', jsonKey: 'expectedFace' });
    expect(s.means[0]!.ciLow).toBeLessThan(3.5);
    expect(s.means[0]!.ciHigh).toBeGreaterThan(3.5);
    expect(s.histograms[0]!.bins.map((b) => b.bin)).toEqual(['odd', 'even']);
    expect(s.histograms[0]!.bins[0]!.count + s.histograms[0]!.bins[1]!.count).toBe(trials);
  });
});

describe('a real kind through the pool', () => {
  it('Trench Crusade core injury with +1 injury dice against standard armour agrees with its exact answer', async () => {
    const { simulate, closePool } = await import('../src/pool/simulate.js');
    const scenario = parseScenario({ system: 'trench-crusade', kind: 'injury', injuryDice: 1, armour: 'standard' });
    try {
      const run = await simulate(scenario, { trials: 1_000_000, seed: 1, workers: 2 });
      const r = crossCheck(resolveKind(scenario).kind.exact!(scenario), run);
      expect(r.failures).toEqual([]);
    } finally {
      await closePool();
    }
  });
});
