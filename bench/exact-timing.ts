import { evaluateExact } from '../src/evaluate.js';
import type { Scenario } from '../src/model/types.js';

/** The fastest of `repeats` exact solves of a scenario after one warm-up solve, in milliseconds. */
export function fastestExactSolve(scenario: Scenario, repeats: number): number {
  evaluateExact(scenario);
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    evaluateExact(scenario);
    fastest = Math.min(fastest, performance.now() - t0);
  }
  return fastest;
}
