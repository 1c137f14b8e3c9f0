import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { compileKernel, playChunks, runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { closePool, simulate, simulateSource, simulateToPrecision } from '../src/pool/simulate.js';

/**
 * The pool runs the compiled worker (dist/workers/simulate.js); `npm test` builds before vitest runs.
 * Trial counts are chosen off chunk boundaries so the short last chunk is always exercised.
 */
afterAll(() => closePool());

const injury = parseScenario({ system: 'trench-crusade', kind: 'injury', injuryDice: 2, armour: 'standard' });
const attack = parseScenario({ system: 'trench-crusade', kind: 'attack', attackDice: 1, injuryDice: -1 });

describe('simulate: a seed means the same numbers on any number of workers', () => {
  it('gives identical tallies for 1, 2 and 3 workers', async () => {
    // Eleven chunks, the last short: each thread plays several, in an order the threads' timing decides.
    const trials = 10 * CHUNK_SIZE + 12345;
    for (const scenario of [injury, attack]) {
      const runs = [];
      for (const workers of [1, 2, 3]) runs.push(await simulate(scenario, { trials, seed: 42, workers }));
      expect(Array.from(runs[1]!.tally)).toEqual(Array.from(runs[0]!.tally));
      expect(Array.from(runs[2]!.tally)).toEqual(Array.from(runs[0]!.tally));
      expect(runs.map((r) => r.workers)).toEqual([1, 2, 3]);
      // Every trial lands in exactly one outcome.
      const outcomes = runs[0]!.layout.outcomes.length;
      expect(runs[0]!.tally.subarray(0, outcomes).reduce((a, b) => a + b, 0)).toBe(trials);
    }
  });

  it('equals the same chunks played in this thread, whichever thread played which chunk', async () => {
    const trials = 7 * CHUNK_SIZE + 3;
    const pooled = await simulate(attack, { trials, seed: 9, workers: 2 });
    const { kernel, tallyLength: length } = compileKernel({ type: 'scenario', scenario: attack });
    expect(Array.from(runInThread(kernel, length, { trials, seed: 9, chunkSize: CHUNK_SIZE }))).toEqual(Array.from(pooled.tally));
    // Chunks played one at a time in reverse order sum to the same tally: chunks are independent streams.
    const reversed = new Float64Array(length);
    for (let chunk = 7; chunk >= 0; chunk--) {
      playChunks(kernel, { seed: 9, firstChunk: chunk, chunkCount: 1, chunkSize: CHUNK_SIZE, totalTrials: trials }, reversed);
    }
    expect(Array.from(reversed)).toEqual(Array.from(pooled.tally));
  });

  it('gives different numbers for different seeds', async () => {
    const a = await simulate(injury, { trials: 200_000, seed: 1, workers: 2 });
    const b = await simulate(injury, { trials: 200_000, seed: 2, workers: 2 });
    const c = await simulate(injury, { trials: 200_000, seed: 2 ** 32 + 1, workers: 2 });
    expect(Array.from(a.tally)).not.toEqual(Array.from(b.tally));
    // The seed's high 32 bits count too.
    expect(Array.from(a.tally)).not.toEqual(Array.from(c.tally));
  });

  it('runs started together (as a sweep starts them) share the pool and match runs made one by one', async () => {
    await closePool();
    const seeds = [11, 12, 13, 14];
    const together = await Promise.all(seeds.map((seed) => simulate(attack, { trials: 100_001, seed, workers: 2 })));
    for (let i = 0; i < seeds.length; i++) {
      const alone = await simulate(attack, { trials: 100_001, seed: seeds[i]!, workers: 2 });
      expect(Array.from(together[i]!.tally)).toEqual(Array.from(alone.tally));
    }
  });

  it('reports what reproduces the run', async () => {
    const run = await simulate(injury, { trials: 1000, seed: 5, workers: 1 });
    expect(run).toMatchObject({ trials: 1000, seed: 5, workers: 1, generator: 'xoshiro128**', chunkSize: CHUNK_SIZE, scenario: injury });
    expect(run.layout).toEqual(resolveKind(injury).kind.layout(injury));
    expect(run.tally).toHaveLength(tallyLength(run.layout));
    expect(run.trialsPerSecond).toBeGreaterThan(0);
  });

  it('reports progress up to the whole run', async () => {
    const seen: [number, number][] = [];
    await simulate(injury, { trials: 20 * CHUNK_SIZE + 1, seed: 1, workers: 2, onProgress: (done, total) => seen.push([done, total]) });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toEqual([20 * CHUNK_SIZE + 1, 20 * CHUNK_SIZE + 1]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThan(seen[i - 1]![0]);
  });

  it('stops when aborted, and the next run still works', async () => {
    const controller = new AbortController();
    // Aborted at the first progress report: mid-run whatever the machine's speed, with no guessed delay.
    const started = simulate(injury, { trials: 1e10, seed: 1, workers: 2, signal: controller.signal, onProgress: () => controller.abort(new Error('stop')) });
    await expect(started).rejects.toThrow('stop');
    const after = await simulate(injury, { trials: 1000, seed: 1, workers: 2 });
    expect(after.tally.subarray(0, 4).reduce((a, b) => a + b, 0)).toBe(1000);
  });
});

describe('simulateToPrecision', () => {
  it('stops once every 95% interval is within the precision, with the tally of a plain run of that length', async () => {
    const run = await simulateToPrecision(attack, { precision: 0.002, maxTrials: 1e8, seed: 3, workers: 2 });
    expect(run.reachedPrecision).toBe(true);
    expect(run.trials % CHUNK_SIZE).toBe(0);
    const plain = await simulate(attack, { trials: run.trials, seed: 3, workers: 1 });
    expect(Array.from(run.tally)).toEqual(Array.from(plain.tally));
    // Wilson's half-width for p = 1/2 at this precision needs about 240,000 trials: no outcome needs more.
    expect(run.trials).toBeLessThanOrEqual(4 * CHUNK_SIZE);
  });

  it('stops at maxTrials, which need not be whole chunks, and says the precision was not reached', async () => {
    const run = await simulateToPrecision(injury, { precision: 0.0001, maxTrials: 300_001, seed: 3, workers: 2 });
    expect(run.reachedPrecision).toBe(false);
    expect(run.trials).toBe(300_001);
    const plain = await simulate(injury, { trials: 300_001, seed: 3, workers: 2 });
    expect(Array.from(run.tally)).toEqual(Array.from(plain.tally));
  });
});

describe('raw dice runs', () => {
  it('count every total of the dice, the same on any number of workers', async () => {
    const one = await simulateSource({ type: 'dice', sides: 6, count: 2 }, 11, { trials: 100_003, seed: 4, workers: 1 });
    const three = await simulateSource({ type: 'dice', sides: 6, count: 2 }, 11, { trials: 100_003, seed: 4, workers: 3 });
    expect(Array.from(three.tally)).toEqual(Array.from(one.tally));
    expect(one.tally.reduce((a, b) => a + b, 0)).toBe(100_003);
    // 2D6 totals 7 most often (6/36) and 2 and 12 least (1/36 each).
    expect(Math.max(...one.tally)).toBe(one.tally[5]);
  });
});
