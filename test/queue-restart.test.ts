import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { shardQueueName } from '../src/queue/shards.js';
import { cliChildren, outcomeCounts } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { exited, inBackground, redisAvailable, startRedis, waitFor, type TestRedis } from './helpers/redis.js';

/**
 * The Redis server restarted mid-run without saving (#27): every job of the run is gone, and nothing
 * would ever come back for them. The submitter's looks for its jobs (two in a row, 2 s apart) find them
 * missing and queue them again under the same ids, the worker reconnects on its own, and the run ends
 * with the local run's counts, each shard counted once. A Redis server of this file's own. The worker
 * is a process; the run and the local run are the CLI in this process: their counts are the point.
 */
const children = cliChildren();
const start = children.start;
let redis: TestRedis | undefined;

afterAll(async () => {
  children.killAll();
  await redis?.stop();
}, 30_000);

const counts = outcomeCounts;

describe.skipIf(!redisAvailable)('the Redis server restarted mid-run, its jobs lost', () => {
  it("the run queues them again and ends with the local run's counts, saying what happened", async () => {
    redis = await startRedis();
    const { port, url } = redis;
    // A 10-round duel: a shard of 16 chunks takes ~0.4 s on a thread, so of three shards the worker (one
    // thread) plays the first two one after the other, for ~0.8 s with a shard in play and another still
    // waiting in the queue, when the server goes.
    const args = ['simulate', '--kind', 'duel', '--a', 'armour=standard', '--b', 'injuryDice=1', '--seed', '5', '--trials', '3145728', '--format', 'json'];
    const worker = start(['worker', '--queue', url]);
    // The local run while the worker starts: it needs no queue.
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    await waitFor(() => worker.err().includes('taking shards'), 'the worker');
    const queued = inBackground(cliInProcess(...args, '--queue', url));
    try {
      const queue = new Queue(shardQueueName(), { connection: { host: '127.0.0.1', port } });
      queue.on('error', () => {});
      try {
        await waitFor(async () => (await queue.getActiveCount()) > 0 && (await queue.getWaitingCount()) > 0, 'a shard in play and others waiting');
      } finally {
        await queue.close();
      }
      await redis.stop();
      redis = await startRedis(port);
      const run = await queued.result;
      expect(run.stderr).toMatch(/the Redis server lost \d+ jobs? of this run \(restarted without saving\?\); queued again/);
      expect(run.code).toBe(0);
      expect(counts(run.stdout)).toEqual(counts(local.stdout));
    } finally {
      await queued.stop();
    }
    worker.child.kill('SIGTERM');
    expect(await exited(worker.child)).toBe(0);
  }, 120_000);
});
