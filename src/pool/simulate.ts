import { setMaxListeners } from 'node:events';
import type { Piscina } from 'piscina';
import type { Scenario } from '../model/types.js';
import { acquirePool, closePool, defaultWorkers } from './threads.js';
import { CHUNK_SIZE, type ChunkTask, type KernelSource } from '../sim/protocol.js';
import {
  playSourceWith,
  simulateToPrecisionWith,
  simulateWith,
  type ChunkPlayer,
  type PlayRange,
  type PrecisionOptions,
  type PrecisionRun,
  type SimOptions,
  type SimRun,
} from '../sim/play.js';

export type { ChunkPlayer, PlayRange, PrecisionOptions, PrecisionRun, SimOptions, SimRun } from '../sim/play.js';
export { closePool };

/**
 * The CLI's simulations on its worker threads (piscina): a run's chunks handed to the local pool as a
 * player (src/sim/play.ts runs them over any player), a few tasks per thread at a time.
 */

/** The local thread pool as a player, `workers` threads. */
export function poolPlayer(workers: number = defaultWorkers()): ChunkPlayer {
  return {
    workers,
    async play(source, tally, range) {
      const pool = await acquirePool(workers);
      await playRange(pool, source, tally, { ...range, workers });
    },
  };
}

/** Trials of `trials` for `scenario` from seed `seed`: on the local pool (`workers` threads) unless `player` is given; the same tally either way. */
export function simulate(scenario: Scenario, opts: SimOptions): Promise<SimRun> {
  return simulateWith(opts.player ?? poolPlayer(opts.workers ?? defaultWorkers()), scenario, opts);
}

/** simulateToPrecisionWith on the local pool unless `player` is given. */
export function simulateToPrecision(scenario: Scenario, opts: PrecisionOptions): Promise<PrecisionRun> {
  return simulateToPrecisionWith(opts.player ?? poolPlayer(opts.workers ?? defaultWorkers()), scenario, opts);
}

/** A run of any kernel source (the CLI uses scenarios; the benchmark and tests also raw dice). */
export function simulateSource(source: KernelSource, length: number, opts: SimOptions): Promise<Omit<SimRun, 'scenario' | 'layout'>> {
  return playSourceWith(opts.player ?? poolPlayer(opts.workers ?? defaultWorkers()), source, length, opts);
}

/**
 * Tasks per worker to aim for: enough that the threads finish close together (the last task to end
 * runs alone), few enough that messaging costs nothing. A task is at most 16 chunks (about a million
 * trials, some tens of milliseconds), which also bounds how stale progress and abort can be.
 */
const TASKS_PER_WORKER = 4;
const MAX_CHUNKS_PER_TASK = 16;
/** Tasks queued per worker: one running and one waiting, so a thread never idles between tasks. */
const IN_FLIGHT_PER_WORKER = 2;

/**
 * Plays trials [fromTrial, toTrial) — which must start on a chunk boundary — and adds their counts into
 * `tally`. Tasks are handed out a few at a time rather than all at once, so a run of 10^12 trials holds
 * a handful of task objects, not millions. Tallies hold whole numbers below 2^53, so their sums are
 * exact and the order tasks finish in does not matter.
 */
function playRange(
  pool: Piscina,
  source: KernelSource,
  tally: Float64Array,
  opts: PlayRange & { readonly workers: number },
): Promise<void> {
  const { seed, fromTrial, toTrial, workers, onTrials, signal } = opts;
  const firstChunk = fromTrial / CHUNK_SIZE;
  const endChunk = Math.ceil(toTrial / CHUNK_SIZE);
  const perTask = Math.max(1, Math.min(MAX_CHUNKS_PER_TASK, Math.ceil((endChunk - firstChunk) / (workers * TASKS_PER_WORKER))));
  const limit = workers * IN_FLIGHT_PER_WORKER;

  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let next = firstChunk;
    let running = 0;
    let doneTrials = 0;
    let failed = false;

    // The caller's signal gets one listener per run; the tasks (up to `limit` at once, each adding a
    // listener in piscina) listen to a signal of our own. Handing them the caller's signal made 5 or
    // more workers exceed Node's 10 listeners and print MaxListenersExceededWarning.
    const tasks = signal ? new AbortController() : undefined;
    if (tasks) setMaxListeners(limit + 1, tasks.signal);
    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    // Aborting the tasks' signal makes piscina stop their threads.
    const onAbort = (): void => {
      tasks!.abort(signal!.reason);
      fail(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    const launch = (): void => {
      while (!failed && running < limit && next < endChunk) {
        const task: ChunkTask = {
          source,
          seed,
          firstChunk: next,
          chunkCount: Math.min(perTask, endChunk - next),
          chunkSize: CHUNK_SIZE,
          totalTrials: toTrial,
        };
        next += task.chunkCount;
        running++;
        pool.run(task, tasks ? { signal: tasks.signal } : {}).then((part: Float64Array) => {
          if (failed) return;
          running--;
          for (let i = 0; i < tally.length; i++) tally[i]! += part[i]!;
          doneTrials += Math.min(toTrial, (task.firstChunk + task.chunkCount) * CHUNK_SIZE) - task.firstChunk * CHUNK_SIZE;
          try {
            onTrials?.(doneTrials);
          } catch (err) {
            fail(err);
            return;
          }
          if (running === 0 && next >= endChunk) {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          } else {
            launch();
          }
        }, fail);
      }
    };
    if (endChunk <= firstChunk) resolve();
    else launch();
  });
}
