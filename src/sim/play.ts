import type { ReportLayout, Scenario, TalliedTrials } from '../model/types.js';
import { tallyLength } from '../model/tally.js';
import { resolveKind } from '../rules/registry.js';
import { Z95 } from '../stats/normal.js';
import { wilson } from '../stats/interval.js';
import { compileKernel, playChunks } from './chunks.js';
import { battleOfScenario } from '../rules/trench-crusade/battle/resolved.js';
import { CHUNK_SIZE, type KernelSource } from './protocol.js';
import { runRecord } from './run-record.js';
import { Rng } from './rng.js';

/**
 * A simulation as a sequence of seeded chunks handed to a player: what plays them (this thread, the
 * CLI's worker threads in src/pool/simulate.ts, a Redis queue's hosts in src/queue/submit.ts) changes
 * where the work runs, never the tally. Reads no file and starts no thread, so the web page bundles it.
 */

export interface SimOptions {
  /** Whole number of trials, at least 1. */
  readonly trials: number;
  /** Whole number 0 .. 2^53 - 1. */
  readonly seed: number;
  /** Worker threads, when the player is the local pool; defaults to os.availableParallelism(). */
  readonly workers?: number;
  /** Called after each finished task with the trials played so far and the trials planned. */
  readonly onProgress?: (doneTrials: number, totalTrials: number) => void;
  /** Aborting stops handing out tasks and aborts running ones; the promise rejects with the reason. */
  readonly signal?: AbortSignal;
  /** Where the chunks are played: the CLI's thread pool (`workers` threads) unless given, e.g. a Redis queue's hosts (src/queue/submit.ts). */
  readonly player?: ChunkPlayer;
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
 * player gives the same tally: this thread, the local thread pool, or the hosts of a queue.
 */
export interface ChunkPlayer {
  /** The workers playing, as a run records them. */
  readonly workers: number;
  /** How many cells of a sweep to simulate at once: 1 on the local pool (one cell's batches fill it), more where many hosts wait for work. */
  readonly cellsAtOnce?: number;
  play(source: KernelSource, tally: Float64Array, range: PlayRange): Promise<void>;
}

/**
 * The calling thread as a player: the web page's grid worker, which sweeps and compares in a thread of
 * its own. The chunks are the same, so the tally is the pool's; between chunks it checks the signal.
 */
export function threadPlayer(): ChunkPlayer {
  return {
    workers: 1,
    async play(source, tally, range) {
      const { kernel } = compileKernel(source);
      const rng = new Rng();
      const first = range.fromTrial / CHUNK_SIZE;
      const end = Math.ceil(range.toTrial / CHUNK_SIZE);
      for (let chunk = first; chunk < end; chunk++) {
        range.signal?.throwIfAborted();
        playChunks(kernel, { seed: range.seed, firstChunk: chunk, chunkCount: 1, chunkSize: CHUNK_SIZE, totalTrials: range.toTrial }, tally, rng);
        range.onTrials?.(Math.min(range.toTrial, (chunk + 1) * CHUNK_SIZE) - range.fromTrial);
      }
    },
  };
}

/**
 * What a worker is sent to play a scenario: the scenario, or for a battle scenario the battle its
 * warbands were read into (the same plain data `injury-lab battle` sends, so the same counts for a seed,
 * and a queue's workers check it as a battle, with no files to read the scenario again).
 */
export function sourceOf(scenario: Scenario): KernelSource {
  const battle = battleOfScenario(scenario);
  return battle ? { type: 'battle', battle } : { type: 'scenario', scenario };
}

/** Trials of `trials` for `scenario` from seed `seed`, played by `player`; the same tally whatever plays it. */
export async function simulateWith(player: ChunkPlayer, scenario: Scenario, opts: SimOptions): Promise<SimRun> {
  const layout = resolveKind(scenario).kind.layout(scenario);
  const run = await playSourceWith(player, sourceOf(scenario), tallyLength(layout), opts);
  return { scenario, layout, ...run };
}

/** A run of any kernel source (the CLI uses scenarios; the benchmark and tests also raw dice). */
export async function playSourceWith(player: ChunkPlayer, source: KernelSource, length: number, opts: SimOptions): Promise<Omit<SimRun, 'scenario' | 'layout'>> {
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

/**
 * Simulates in rounds of whole chunks until every outcome's 95% Wilson interval has half-width at most
 * `precision`, or `maxTrials` is reached. Round k continues with the next chunk indices, so the tally
 * is exactly that of `simulate` with the same seed and the final trial count.
 */
export async function simulateToPrecisionWith(player: ChunkPlayer, scenario: Scenario, opts: PrecisionOptions): Promise<PrecisionRun> {
  const layout = resolveKind(scenario).kind.layout(scenario);
  const outcomes = layout.outcomes.length;
  const source = sourceOf(scenario);
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

/** Rounds a trial count up to whole chunks. */
function wholeChunks(trials: number): number {
  return Math.ceil(trials / CHUNK_SIZE) * CHUNK_SIZE;
}
