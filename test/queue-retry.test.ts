import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardQueueName } from '../src/queue/shards.js';
import { cli, cliChildren, outcomeCounts } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { exited, inBackground, redisAvailable, startRedis, waitFor, type TestRedis } from './helpers/redis.js';

/**
 * A worker killed mid-shard (#27): its shard goes back to the queue once its lock lapses and another
 * worker plays it, so the run still ends with the local run's counts, each shard counted once. A Redis
 * server of this file's own, so no other test's workers take its shards. The workers are processes (one
 * is killed); the run and the local run are the CLI in this process: their counts are the point.
 */
let port = 0;
let redis: TestRedis | undefined;
const children = cliChildren();
const start = children.start;

beforeAll(async () => {
  if (redisAvailable) ({ port } = redis = await startRedis());
}, 30_000);

afterAll(async () => {
  children.killAll();
  await redis?.stop();
}, 30_000);

const counts = outcomeCounts;

describe.skipIf(!redisAvailable)('a worker killed mid-shard', () => {
  it("leaves its shard to another worker, and the run ends with the local run's counts", async () => {
    const url = redis!.url;
    // A 10-round duel plays about 2.5 M trials a second on a thread: a shard of 16 chunks takes ~0.4 s.
    // Two shards: the worker takes the second as it finishes the first, so it holds one for ~0.8 s from
    // the moment the first is seen in play, time enough for the kill to land inside one (checked below:
    // a shard stalled).
    const args = ['simulate', '--kind', 'duel', '--a', 'armour=standard', '--b', 'injuryDice=1', '--seed', '3', '--trials', '2097152', '--format', 'json'];
    const first = start(['worker', '--queue', url, '--lock-seconds', '1']);
    // The local run while the worker starts: it needs no queue.
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    await waitFor(() => first.err().includes('taking shards'), 'the first worker');
    const queued = inBackground(cliInProcess(...args, '--queue', url));
    const queue = new Queue(shardQueueName(), { connection: { host: '127.0.0.1', port } });
    const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0 });
    try {
      await waitFor(async () => (await queue.getActiveCount()) > 0, 'a shard in play');
      first.child.kill('SIGKILL');
      await exited(first.child);
      // The killed worker's shard is still marked active, locked to nobody who answers.
      const second = start(['worker', '--queue', url, '--lock-seconds', '1']);
      const run = await queued.result;
      // The run may have looked for workers while it had none: then it said so, and said so again when the second came.
      for (const line of run.stderr.split('\n').filter(Boolean)) {
        expect(line).toMatch(/^injury-lab: (no worker is taking jobs from 127\.0\.0\.1:\d+ any more; the run waits for one|1 worker is taking jobs from 127\.0\.0\.1:\d+ now)$/);
      }
      expect(run.code).toBe(0);
      // The kill landed inside a shard: the second worker found it stalled and played it.
      const events = (await client.xrange(`bull:${shardQueueName()}:events`, '-', '+')) as [string, string[]][];
      expect(events.filter(([, fields]) => fields[0] === 'event' && fields[1] === 'stalled').length).toBeGreaterThanOrEqual(1);
      expect(counts(run.stdout)).toEqual(counts(local.stdout));
      second.child.kill('SIGTERM');
      expect(await exited(second.child)).toBe(0);
    } finally {
      await queued.stop();
      client.disconnect();
      await queue.close();
    }
  }, 120_000);

  it('refuses a bad --lock-seconds in one line', async () => {
    // One refusal from the built CLI end to end, the others from the same CLI in this process.
    const check = (bad: string, r: { code: number | null; stderr: string }) => {
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`injury-lab: --lock-seconds: "${bad}" is not allowed; allowed: a whole number of seconds from 1 to 3600\n`);
    };
    check('0', cli('worker', '--queue', `redis://127.0.0.1:${port}`, '--lock-seconds', '0'));
    for (const bad of ['x', '3601']) check(bad, await cliInProcess('worker', '--queue', `redis://127.0.0.1:${port}`, '--lock-seconds', bad));
  });
});
