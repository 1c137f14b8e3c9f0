import { setMaxListeners } from 'node:events';
import type { Piscina } from 'piscina';
import type { ReportLayout, Scenario, TalliedTrials } from '../model/types.js';
import { tallyLength } from '../model/tally.js';
import { resolveKind } from '../rules/registry.js';
import { Z95 } from '../stats/normal.js';
import { wilson } from '../stats/interval.js';
import { acquirePool, closePool, defaultWorkers } from './threads.js';
import { CHUNK_SIZE, type ChunkTask, type KernelSource } from '../sim/protocol.js';
import { runRecord } from '../sim/run-record.js';

export { closePool };

export interface SimOptions {
  /** Whole number of trials, at least 1. */
  readonly trials: number;
  /** Whole number 0 .. 2^53 - 1. */
  readonly seed: number;
  /** Worker threads; defaults to os.availableParallelism(). */
  readonly workers?: number;
  /** Called after each finished task with the trials played so far and the trials planned. */
  readonly onProgress?: (doneTrials: number, totalTrials: number) => void;
  /** Aborting stops handing out tasks and aborts running ones; the promise rejects with the reason. */
  readonly signal?: AbortSignal;
  /** Where the chunks are played: this process's thread pool (`workers` threads) unless given, e.g. a Redis queue's hosts (src/queue/submit.ts). */
  readonly player?: ChunkPlayer;
}

/** Trials [fromTrial, toTrial) of one run: fromTrial on a chunk boundary, and toTrial the run's end as its last chunk sees it. */
export interface PlayRange {
  readonly seed: number;
  readonly fromTrial: number;
  readonly toTrial: number;
  /** Called as parts finish, with the trials of the range played so far. */
  readonly onTrials?: ((doneTrials: number) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * What plays a run's seeded chunks and adds their counts into a tally. A chunk's counts depend only on
 * the source, the seed, its index and the run's end, and tallies are sums of whole numbers, so every
 * player gives the same tally: the local thread pool, or the hosts of a queue.
 */
export interface ChunkPlayer {
  /** The workers playing, as a run records them. */
  readonly workers: number;
  /** How many cells of a sweep to simulate at once: 1 on the local pool (one cell's batches fill it), more where many hosts wait for work. */
  readonly cellsAtOnce?: number;
  play(source: KernelSource, tally: Float64Array, range: PlayRange): Promise<void>;
}

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

export interface PrecisionOptions extends Omit<SimOptions, 'trials'> {
  /** Target half-width of every outcome's 95% interval, 0 < precision < 0.5. */
  readonly precision: number;
  /** Stop here even if the precision is not reached. */
  readonly maxTrials: number;
}

/** A finished simulation: the summed tally and how it was made (enough to reproduce it exactly). */
export interface SimRun extends TalliedTrials {
  readonly scenario: Scenario;
  readonly layout: ReportLayout;
  readonly trials: number;
  readonly seed: number;
  readonly workers: number;
  readonly seconds: number;
  readonly trialsPerSecond: number;
  readonly generator: string;
  readonly chunkSize: number;
  /** [outcome counts...] [sum, sum of squares per mean...] [bin counts per histogram...] */
  readonly tally: Float64Array;
}

export interface PrecisionRun extends SimRun {
  readonly reachedPrecision: boolean;
}

/** Trials of `trials` for `scenario` from seed `seed`; the same tally whatever `workers` is. */
export async function simulate(scenario: Scenario, opts: SimOptions): Promise<SimRun> {
  const layout = resolveKind(scenario).kind.layout(scenario);
  const run = await simulateSource({ type: 'scenario', scenario }, tallyLength(layout), opts);
  return { scenario, layout, ...run };
}

/**
 * Simulates in rounds of whole chunks until every outcome's 95% Wilson interval has half-width at most
 * `precision`, or `maxTrials` is reached. Round k continues with the next chunk indices, so the tally
 * is exactly that of `simulate` with the same seed and the final trial count.
 */
export async function simulateToPrecision(scenario: Scenario, opts: PrecisionOptions): Promise<PrecisionRun> {
  const layout = resolveKind(scenario).kind.layout(scenario);
  const outcomes = layout.outcomes.length;
  const player = opts.player ?? poolPlayer(opts.workers ?? defaultWorkers());
  const source: KernelSource = { type: 'scenario', scenario };
  const tally = new Float64Array(tallyLength(layout));
  const z = Z95;
  const started = performance.now();

  // Wilson's half-width is z / (n + z^2) * sqrt(n p (1 - p) + z^2 / 4) <= z / (2 sqrt(n + z^2)), so
  // this many trials always suffice: an upper bound for every round, and 1/16 of it a first guess.
  const sufficient = Math.max(1, Math.ceil((z * z) / (4 * opts.precision * opts.precision) - z * z));
  let done = 0;
  let target = Math.min(opts.maxTrials, wholeChunks(Math.ceil(sufficient / 16)));
  let reached = false;
  for (;;) {
    await player.play(source, tally, {
      seed: opts.seed,
      fromTrial: done,
      toTrial: target,
      onTrials: opts.onProgress ? (n) => opts.onProgress!(done + n, target) : undefined,
      signal: opts.signal,
    });
    done = target;
    let needed = 0;
    reached = true;
    for (let i = 0; i < outcomes; i++) {
      const { low, high } = wilson(tally[i]!, done, z);
      if ((high - low) / 2 > opts.precision) reached = false;
      // The normal approximation's answer for this outcome's estimate, with 5% to spare for its noise.
      const p = tally[i]! / done;
      needed = Math.max(needed, (1.05 * z * z * p * (1 - p)) / (opts.precision * opts.precision));
    }
    if (reached || done >= opts.maxTrials) break;
    target = Math.min(opts.maxTrials, wholeChunks(Math.max(done + 1, Math.min(needed, sufficient))));
  }
  const seconds = (performance.now() - started) / 1000;
  return { scenario, layout, ...runRecord({ trials: done, seed: opts.seed, workers: player.workers, seconds, tally }), reachedPrecision: reached };
}

/** A run of any kernel source (the CLI uses scenarios; the benchmark and tests also raw dice). */
export async function simulateSource(
  source: KernelSource,
  length: number,
  opts: SimOptions,
): Promise<Omit<SimRun, 'scenario' | 'layout'>> {
  const player = opts.player ?? poolPlayer(opts.workers ?? defaultWorkers());
  const tally = new Float64Array(length);
  const started = performance.now();
  await player.play(source, tally, {
    seed: opts.seed,
    fromTrial: 0,
    toTrial: opts.trials,
    onTrials: opts.onProgress ? (n) => opts.onProgress!(n, opts.trials) : undefined,
    signal: opts.signal,
  });
  const seconds = (performance.now() - started) / 1000;
  return runRecord({ trials: opts.trials, seed: opts.seed, workers: player.workers, seconds, tally });
}

/** Rounds a trial count up to whole chunks. */
function wholeChunks(trials: number): number {
  return Math.ceil(trials / CHUNK_SIZE) * CHUNK_SIZE;
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
