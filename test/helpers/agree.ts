import { evaluateExact } from '../../src/evaluate.js';
import { parseScenario } from '../../src/input/scenario.js';
import { type Scenario } from '../../src/model/types.js';
import { tallyLength } from '../../src/model/tally.js';
import { resolveKind } from '../../src/rules/registry.js';
import { runInThread } from '../../src/sim/chunks.js';
import { CHUNK_SIZE } from '../../src/sim/protocol.js';
import { crossCheck } from '../../src/stats/cross-check.js';

/**
 * What `check` finds wrong between the exact engine and the simulator for one scenario (raw fields or
 * parsed): the simulator's kernel is played in this thread (the same chunks the pool plays) for
 * `trials` trials from `seed`, and every outcome, mean and histogram bin is compared with the exact
 * answer at check's significance. Empty when the two engines agree.
 */
export function simulatorDisagreements(fields: Scenario | Record<string, unknown>, seed: number, trials = 200_000): string[] {
  const s = parseScenario(fields);
  const { kind } = resolveKind(s);
  const layout = kind.layout(s);
  const tally = runInThread(kind.simulator(s), tallyLength(layout), { trials, seed, chunkSize: CHUNK_SIZE });
  return [...crossCheck(evaluateExact(s).answer, { layout, trials, tally }).failures];
}
