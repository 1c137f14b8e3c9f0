import type { Scenario } from '../model/types.js';
import type { ResolvedBattle } from '../rules/trench-crusade/battle/resolved.js';

/**
 * Message shapes shared by the main thread (`src/pool/simulate.ts`) and the worker (`workers/simulate.ts`),
 * kept apart from both as piscina keeps `common.ts` apart from `index.ts` and `worker.ts`.
 */

/**
 * Trials per chunk. Each chunk has its own random stream, so this constant is part of what a seed
 * means: changing it changes every result for a given seed (it is printed in the manifest). 2^16 trials
 * take about a millisecond, small enough to balance work across threads, large enough that reseeding
 * and the kernel call cost nothing next to the trials.
 */
export const CHUNK_SIZE = 65536;

/** What a worker simulates: a validated scenario, a battle with its names read, or a raw dice loop (benchmarks and generator tests). */
export type KernelSource =
  | { readonly type: 'scenario'; readonly scenario: Scenario }
  | { readonly type: 'battle'; readonly battle: ResolvedBattle }
  /** Rolls `count` dice with `sides` sides per trial and counts totals (bin 0 is the total `count`). */
  | { readonly type: 'dice'; readonly sides: number; readonly count: number };

/**
 * One task: chunks firstChunk .. firstChunk + chunkCount - 1 of a run of `totalTrials` trials. Chunk i
 * covers trials [i * chunkSize, min((i + 1) * chunkSize, totalTrials)), so only the last chunk of a
 * run is short and the split into tasks does not change which trials a chunk plays.
 */
export interface ChunkRange {
  readonly seed: number;
  readonly firstChunk: number;
  readonly chunkCount: number;
  readonly chunkSize: number;
  readonly totalTrials: number;
}

export interface ChunkTask extends ChunkRange {
  readonly source: KernelSource;
}

/** The piscina export name of the worker function. */
export const WORKER_FUNCTION = 'runChunks';
