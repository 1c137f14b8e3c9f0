import type { ReportLayout, SimKernel } from '../model/types.js';
import type { Rng } from './rng.js';

/**
 * The raw dice loop: `count` dice per trial, total counted. It is the practical speed limit for a
 * kernel that rolls the same dice (the benchmark's yardstick) and, with one die per trial, the face
 * counts the generator tests feed to a chi-square test. One loop per die size keeps each call site
 * monomorphic.
 */
export function diceKernel(sides: number, count: number): SimKernel {
  if (sides === 6) {
    return {
      run(rng: Rng, trials: number, tally: Float64Array): void {
        for (let t = 0; t < trials; t++) {
          let total = 0;
          for (let i = 0; i < count; i++) total += rng.d6();
          tally[total - count]! += 1;
        }
      },
    };
  }
  if (sides === 20) {
    return {
      run(rng: Rng, trials: number, tally: Float64Array): void {
        for (let t = 0; t < trials; t++) {
          let total = 0;
          for (let i = 0; i < count; i++) total += rng.d20();
          tally[total - count]! += 1;
        }
      },
    };
  }
  return {
    run(rng: Rng, trials: number, tally: Float64Array): void {
      for (let t = 0; t < trials; t++) {
        let total = 0;
        for (let i = 0; i < count; i++) total += rng.die(sides);
        tally[total - count]! += 1;
      }
    },
  };
}

/** Layout of a dice run: one outcome per possible total, named by the total. */
export function diceLayout(sides: number, count: number): ReportLayout {
  const outcomes: string[] = [];
  for (let total = count; total <= count * sides; total++) outcomes.push(String(total));
  return { outcomes, means: [], histograms: [] };
}
