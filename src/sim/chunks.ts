import type { SimKernel } from '../model/types.js';
import { tallyLength } from '../model/tally.js';
import { kindSimulation } from '../rules/simulations.js';
import { diceKernel, diceLayout } from './dice-kernel.js';
import { battlePlanOf } from '../rules/trench-crusade/battle/resolved.js';
import { battleSimulator } from '../rules/trench-crusade/battle/simulate.js';
import { battleLayoutOf } from '../rules/trench-crusade/battle/report.js';
import type { ChunkRange, KernelSource } from './protocol.js';
import { Rng } from './rng.js';

/** A kernel ready to run and the length of the tally it fills. */
export interface CompiledKernel {
  readonly kernel: SimKernel;
  readonly tallyLength: number;
}

export function compileKernel(source: KernelSource): CompiledKernel {
  if (source.type === 'dice') {
    return { kernel: diceKernel(source.sides, source.count), tallyLength: tallyLength(diceLayout(source.sides, source.count)) };
  }
  if (source.type === 'battle') {
    const plan = battlePlanOf(source.battle);
    return { kernel: battleSimulator(plan), tallyLength: tallyLength(battleLayoutOf(plan)) };
  }
  const kind = kindSimulation(source.scenario);
  return { kernel: kind.simulator(source.scenario), tallyLength: tallyLength(kind.layout(source.scenario)) };
}

/**
 * Plays a range of chunks into `tally`, each from its own stream `Rng.forChunk(seed, chunk)`. One Rng
 * is reseeded per chunk rather than one allocated, so the loop allocates nothing however many chunks
 * it plays. This is the whole of a worker's job, and also what tests and the benchmark call in-thread.
 */
export function playChunks(kernel: SimKernel, range: ChunkRange, tally: Float64Array, rng: Rng = new Rng()): void {
  const { seed, firstChunk, chunkCount, chunkSize, totalTrials } = range;
  const end = firstChunk + chunkCount;
  for (let chunk = firstChunk; chunk < end; chunk++) {
    const start = chunk * chunkSize;
    const trials = Math.min(chunkSize, totalTrials - start);
    if (trials <= 0) break;
    rng.reseed(seed, chunk);
    kernel.run(rng, trials, tally);
  }
}

/**
 * A whole run in the calling thread: the same chunks and streams as a pooled run, so the same tally.
 * For tests (including kernels that are not in the registry, such as deliberately broken ones) and
 * for the benchmark's per-thread figures.
 */
export function runInThread(
  kernel: SimKernel,
  length: number,
  opts: { readonly trials: number; readonly seed: number; readonly chunkSize: number },
): Float64Array {
  const tally = new Float64Array(length);
  const chunkCount = Math.ceil(opts.trials / opts.chunkSize);
  playChunks(kernel, { seed: opts.seed, firstChunk: 0, chunkCount, chunkSize: opts.chunkSize, totalTrials: opts.trials }, tally);
  return tally;
}
