import { move } from 'piscina';
import { compileKernel, playChunks } from '../src/sim/chunks.js';
import type { ChunkTask } from '../src/sim/protocol.js';
import { Rng } from '../src/sim/rng.js';

/** One generator per worker thread, reseeded for every chunk. */
const rng = new Rng();

/**
 * The piscina worker: plays one task's chunks and hands back their tally. The kernel is compiled once
 * per task (a scenario is a handful of fields, compiling is microseconds next to a task's million
 * trials); the tally is transferred with move(), not copied, and is all the worker returns: counts,
 * never samples, so memory stays flat however many trials a run has.
 */
export function runChunks(task: ChunkTask): ReturnType<typeof move> {
  const { kernel, tallyLength } = compileKernel(task.source);
  const tally = new Float64Array(tallyLength);
  playChunks(kernel, task, tally, rng);
  return move(tally);
}
