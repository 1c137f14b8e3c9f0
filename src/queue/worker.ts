import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { acquirePool, closePool } from '../pool/threads.js';
import { CHUNK_SIZE, type ChunkTask } from '../sim/protocol.js';
import { checkReachable, redisOptions } from './connection.js';
import { closeExactPool, evaluateInWorker, solveDuelsInWorker } from '../pool/exact.js';
import {
  DUELS_JOB,
  encodeAnswer,
  encodeDuelChances,
  EXACT_JOB,
  refuseJob,
  shardQueueName,
  type DuelsJob,
  type EncodedAnswer,
  type ExactJob,
  type QueueAddress,
  type ShardJob, type BattleShardJob,
} from './shards.js';

/** What a job gives back: a shard's tally, an exact cell's fractions, or a batch's chances as text. */
type Played = number[] | EncodedAnswer | string[][];

export interface ShardWorkerOptions {
  readonly address: QueueAddress;
  /** Shards played at once, each on a thread of the local pool. */
  readonly concurrency: number;
  /** How long a shard stays locked to a worker that stopped renewing the lock (DEFAULT_LOCK_SECONDS). */
  readonly lockSeconds?: number;
  /** Told about each shard played or refused (the CLI prints nothing per shard; tests may). */
  readonly onShard?: (job: Job, outcome: 'played' | 'refused', reason?: string) => void;
}

/**
 * BullMQ's own default: a worker renews its shard's lock every half of this while it plays it, so a
 * shard whose worker was killed goes back to the queue this long after, found by any worker's check
 * for stalled jobs (run as often). A shard stalls at most MAX_STALLS times before its run is told.
 */
export const DEFAULT_LOCK_SECONDS = 30;
const MAX_STALLS = 5;

export interface ShardWorker {
  /** Stops taking shards; `force` abandons the shards in hand (BullMQ hands them to another worker later) instead of finishing them. */
  close(force?: boolean): Promise<void>;
  /** Resolves once no job is in hand (at once if none is): what a stop waits for, whatever Redis does. */
  idle(): Promise<void>;
}

/**
 * Takes shards from the queue and plays them on the local thread pool (the simulator's own workers, so
 * the queue's event loop stays free to renew its locks and hear a stop). A job that is not a valid shard
 * of this version fails at once, not retried, with the reason the submitter prints.
 */
export async function startShardWorker(opts: ShardWorkerOptions): Promise<ShardWorker> {
  await checkReachable(opts.address);
  const pool = await acquirePool(opts.concurrency);
  /** One job: refused with its reason, or played on the local threads. */
  const play = async (job: Job): Promise<Played> => {
    const reason = refuseJob(job.name, job.data);
    if (reason !== undefined) {
      opts.onShard?.(job, 'refused', reason);
      throw new UnrecoverableError(reason);
    }
    if (job.name === EXACT_JOB || job.name === DUELS_JOB) {
      // On the exact engine's threads, as a local sweep solves its cells; only the fractions travel back.
      let answer;
      try {
        answer =
          job.name === EXACT_JOB
            ? encodeAnswer((await evaluateInWorker((job.data as ExactJob).scenario)).answer)
            : encodeDuelChances(await solveDuelsInWorker((job.data as DuelsJob).scenarios));
      } catch (e) {
        // A scenario the engine refuses (a user's mistake, e.g. past a limit) is refused once, not retried.
        throw new UnrecoverableError(e instanceof Error ? e.message : String(e));
      }
      opts.onShard?.(job, 'played');
      return answer;
    }
    const data = job.data as ShardJob | BattleShardJob;
    const task: ChunkTask = {
      source: 'battle' in data ? { type: 'battle', battle: data.battle } : { type: 'scenario', scenario: data.scenario },
      seed: data.seed,
      firstChunk: data.firstChunk,
      chunkCount: data.chunkCount,
      chunkSize: CHUNK_SIZE,
      totalTrials: data.totalTrials,
    };
    const tally = (await pool.run(task)) as Float64Array;
    opts.onShard?.(job, 'played');
    return Array.from(tally);
  };
  // Jobs in hand, counted here: BullMQ's own close waits on Redis too, which may never answer.
  let inHand = 0;
  const whenIdle: (() => void)[] = [];
  const worker = new Worker(
    shardQueueName(),
    async (job: Job): Promise<Played> => {
      inHand++;
      try {
        return await play(job);
      } finally {
        inHand--;
        if (inHand === 0) for (const resolve of whenIdle.splice(0)) resolve();
      }
    },
    {
      connection: redisOptions(opts.address),
      concurrency: opts.concurrency,
      drainDelay: 1,
      lockDuration: (opts.lockSeconds ?? DEFAULT_LOCK_SECONDS) * 1000,
      stalledInterval: (opts.lockSeconds ?? DEFAULT_LOCK_SECONDS) * 1000,
      maxStalledCount: MAX_STALLS,
    },
  );
  worker.on('error', () => {});
  await worker.waitUntilReady();
  return {
    async close(force = false) {
      await worker.close(force);
      await Promise.all([closePool(), closeExactPool()]);
    },
    idle() {
      return inHand === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenIdle.push(resolve));
    },
  };
}
