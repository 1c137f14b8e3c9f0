/**
 * What the attack kernel's rules cost beyond its dice (issue 39): in this thread, the core `attack`
 * kernel against two loops that roll the same dice from the same generator and follow no rule. One
 * rolls the success roll's 2D6 and, when it hits (7+), the injury roll's 2D6, as the kernel and a
 * player do; the other rolls its ~3.2 dice a trial with no condition. The hit is a coin the branch
 * predictor cannot learn (58% hits), so the first loop is what die-by-die rolling allows at best, and
 * the raw dice loop of the per-worker figures is the second.
 */
import { parseScenario } from '../src/input/scenario.js';
import { compileKernel } from '../src/sim/chunks.js';
import { Rng } from '../src/sim/rng.js';

export interface BranchBound {
  /** Attacks per second of the kernel, the dice rolled only on a hit, and the same dice with no condition. */
  readonly kernel: number;
  readonly diceOnHit: number;
  readonly diceUnconditional: number;
}

const TRIALS = 2e7;

function fastest(repeats: number, run: () => void): number {
  let best = 0;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    run();
    best = Math.max(best, TRIALS / ((performance.now() - t0) / 1000));
  }
  return best;
}

export function branchBound(repeats: number): BranchBound {
  const { kernel, tallyLength } = compileKernel({ type: 'scenario', scenario: parseScenario({ system: 'trench-crusade', edition: 'core', kind: 'attack' }, 'bench') });
  const rng = new Rng();
  rng.reseed(1, 0);
  const tally = new Float64Array(tallyLength);
  let sink = 0;
  const diceOnHit = () => {
    for (let t = 0; t < TRIALS; t++) {
      const success = rng.d6() + rng.d6();
      sink += success;
      if (success >= 7) sink += rng.d6() + rng.d6();
    }
  };
  const unconditional = () => {
    // 3.2 dice a trial: three, and a fourth every fifth trial (the kernel's 2 + 2 x 0.58 = 3.17).
    for (let t = 0; t < TRIALS; t++) sink += rng.d6() + rng.d6() + rng.d6() + (t % 5 === 0 ? rng.d6() : 0);
  };
  const figures = {
    kernel: fastest(repeats + 1, () => kernel.run(rng, TRIALS, tally)),
    diceOnHit: fastest(repeats + 1, diceOnHit),
    diceUnconditional: fastest(repeats + 1, unconditional),
  };
  // Read, so that no loop above is optimised away.
  if (sink < 0) throw new Error('unreachable');
  return figures;
}
