import { CHUNK_SIZE } from './protocol.js';
import { Rng } from './rng.js';

/** What a finished run played, however it was played: threads, the page's workers, or a queue's hosts. */
export interface PlayedRun {
  readonly trials: number;
  readonly seed: number;
  readonly workers: number;
  readonly seconds: number;
  readonly tally: Float64Array;
}

/**
 * A played run with how it was made, as SimRun reports it (src/pool/simulate.ts): its rate, and the
 * generator and chunk size that, with the seed and trials, make it again anywhere.
 */
export function runRecord(played: PlayedRun) {
  return {
    ...played,
    trialsPerSecond: played.trials / played.seconds,
    generator: Rng.generatorName,
    chunkSize: CHUNK_SIZE,
  };
}
