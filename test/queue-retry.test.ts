import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardQueueName } from '../src/queue/shards.js';
import { cli, cliChildren, outcomeCounts } from './helpers/cli.js';
import { exited, redisAvailable, startRedis, waitFor, type TestRedis } from './helpers/redis.js';

/**
 * A worker killed mid-shard (#27): its shard goes back to the queue once its lock lapses and another
 * worker plays it, so the run still ends with the local run's counts, each shard counted once. A Redis
 * server of this file's own, so no other test's workers take its shards.
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
    // A 10-round duel plays about 2.5 M trials a second on a thread: a shard of 16 chunks takes ~0.4 s,
    // and four shards give the kill time to land inside one.
    const args = ['simulate', '--kind', 'duel', '--a', 'armour=standard', '--b', 'injuryDice=1', '--seed', '3', '--trials', '4194304', '--format', 'json'];
    const first = start(['worker', '--queue', url, '--lock-seconds', '1']);
    await waitFor(() => first.err().includes('taking shards'), 'the first worker');
    const run = start([...args, '--queue', url]);
    const queue = new Queue(shardQueueName(), { connection: { host: '127.0.0.1', port } });
    try {
      await waitFor(async () => (await queue.getActiveCount()) > 0, 'a shard in play');
      first.child.kill('SIGKILL');
      await exited(first.child);
      // The killed worker's shard is still marked active, locked to nobody who answers.
      const second = start(['worker', '--queue', url, '--lock-seconds', '1']);
      const code = await exited(run.child);
      // The run may have looked for workers while it had none: then it said so, and said so again when the second came.
      for (const line of run.err().split('\n').filter(Boolean)) {
        expect(line).toMatch(/^injury-lab: (no worker is taking jobs from 127\.0\.0\.1:\d+ any more; the run waits for one|1 worker is taking jobs from 127\.0\.0\.1:\d+ now)$/);
      }
      expect(code).toBe(0);
      const local = cli(...args);
      expect(local.code).toBe(0);
      expect(counts(run.out())).toEqual(counts(local.stdout));
      second.child.kill('SIGTERM');
      expect(await exited(second.child)).toBe(0);
    } finally {
      await queue.close();
    }
  }, 120_000);

  it('refuses a bad --lock-seconds in one line', () => {
    for (const bad of ['0', 'x', '3601']) {
      const r = cli('worker', '--queue', `redis://127.0.0.1:${port}`, '--lock-seconds', bad);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`injury-lab: --lock-seconds: "${bad}" is not allowed; allowed: a whole number of seconds from 1 to 3600\n`);
    }
  });
});
