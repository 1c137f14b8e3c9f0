import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { refusal } from '../messages.js';
import type { Scenario } from '../model/types.js';
import { tallyLength } from '../model/tally.js';
import { resolveKind } from '../rules/registry.js';
import type { SimRun } from '../pool/simulate.js';
import { runRecord } from '../sim/run-record.js';
import { checkReachable, redisOptions } from './connection.js';
import { assertJsonSafe, readShardResult, SHARD_JOB, shardCount, shardJob, shardJobId, shardQueueName, shardTrials, type QueueAddress } from './shards.js';

export interface QueueSimOptions {
  readonly trials: number;
  readonly seed: number;
  readonly address: QueueAddress;
  readonly onProgress?: (doneTrials: number, totalTrials: number) => void;
  readonly signal?: AbortSignal;
  /** Told once when no worker is listening on the queue as the run starts. */
  readonly onNoWorkers?: () => void;
}

/** Shards queued at once: enough to keep many hosts busy, few enough that a run of 10^12 trials holds a bounded number of jobs in Redis. */
const IN_FLIGHT = 512;


/**
 * `simulate` through a BullMQ queue on Redis: the run's shards are queued (a bounded number at a time),
 * any number of `injury-lab worker` processes play them, and their tallies are summed as they come back,
 * each shard counted once (by job id) whatever the delivery. The tally equals a local run's exactly.
 * Aborting removes the run's jobs still in the queue (only this run's, never the queue) and rejects.
 */
export async function simulateOnQueue(scenario: Scenario, opts: QueueSimOptions): Promise<SimRun> {
  const layout = resolveKind(scenario).kind.layout(scenario);
  const length = tallyLength(layout);
  assertJsonSafe(scenario);
  const now = await checkReachable(opts.address);
  if (opts.signal?.aborted) throw opts.signal.reason;

  const connection = redisOptions(opts.address);
  const name = shardQueueName();
  const queue = new Queue(name, { connection });
  // Events are read from just before now on the server's clock, not from the first read ('$'): a
  // shard finished between adding it and that read would otherwise never be heard of.
  const events = new QueueEvents(name, { connection, lastEventId: `${now - 1}-0` });
  queue.on('error', () => {});
  events.on('error', () => {});
  const runId = randomUUID();
  const shards = shardCount(opts.trials);
  const tally = new Float64Array(length);
  const counted = new Set<number>();
  const pending = new Set<number>();
  const prefix = `${runId}-`;
  const started = performance.now();
  let workers = 0;
  try {
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    workers = await queue.getWorkersCount().catch(() => 0);
    if (workers === 0) opts.onNoWorkers?.();

    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let doneTrials = 0;
      let finished = false;
      const finish = (err?: unknown): void => {
        if (finished) return;
        finished = true;
        events.off('completed', onCompleted);
        events.off('failed', onFailed);
        opts.signal?.removeEventListener('abort', onAbort);
        if (err === undefined) resolve();
        else reject(err);
      };
      const shardOf = (jobId: string): number | undefined => {
        if (!jobId.startsWith(prefix)) return undefined;
        const shard = Number(jobId.slice(prefix.length));
        return pending.has(shard) ? shard : undefined;
      };
      const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }): void => {
        const shard = shardOf(jobId);
        if (shard === undefined || counted.has(shard)) return;
        const part = readShardResult(returnvalue, length);
        if (!part) {
          finish(refusal('--queue', `shard ${shard} of the run came back malformed from a worker`, 'run workers of this injury-lab version'));
          return;
        }
        counted.add(shard);
        pending.delete(shard);
        for (let i = 0; i < length; i++) tally[i]! += part[i]!;
        doneTrials += shardTrials(shardJob(runId, shard, scenario, opts.seed, opts.trials));
        try {
          opts.onProgress?.(doneTrials, opts.trials);
        } catch (err) {
          finish(err);
          return;
        }
        if (counted.size === shards) finish();
        else launch();
      };
      const onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }): void => {
        const shard = shardOf(jobId);
        if (shard === undefined) return;
        // The worker's reason, in the one line a refusal is (the CLI prints it and exits 2).
        finish(refusal('--queue', `a worker failed shard ${shard} of the run: ${String(failedReason)}`));
      };
      const onAbort = (): void => finish(opts.signal!.reason);
      events.on('completed', onCompleted);
      events.on('failed', onFailed);
      opts.signal?.addEventListener('abort', onAbort, { once: true });

      const launch = (): void => {
        if (finished || next >= shards || pending.size >= IN_FLIGHT / 2) return;
        const batch: number[] = [];
        while (next < shards && pending.size + batch.length < IN_FLIGHT) batch.push(next++);
        for (const shard of batch) pending.add(shard);
        queue
          .addBulk(
            batch.map((shard) => ({
              name: SHARD_JOB,
              data: shardJob(runId, shard, scenario, opts.seed, opts.trials),
              opts: { jobId: shardJobId(runId, shard), attempts: 1, removeOnComplete: true, removeOnFail: true },
            })),
          )
          .catch((err: unknown) => finish(err));
      };
      launch();
    });
  } finally {
    // Whatever is left of this run (after Ctrl-C or a failure) is taken out of the queue; a shard a
    // worker holds is finished or dropped by it, and its result goes to nobody.
    await Promise.all([...pending].map((shard) => queue.remove(shardJobId(runId, shard)).catch(() => 0)));
    await Promise.all([events.close(), queue.close()]).catch(() => {});
  }
  const seconds = (performance.now() - started) / 1000;
  return { scenario, layout, ...runRecord({ trials: opts.trials, seed: opts.seed, workers, seconds, tally }) };
}
