import { spawn } from 'node:child_process';
import { Queue, Worker } from 'bullmq';
import { describe, it } from 'vitest';
import { shardQueueName } from '../src/queue/shards.js';
import { toolVersion } from '../src/version.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { exited, redisAvailable, startRedis, waitFor, type TestRedis } from './helpers/redis.js';

/**
 * Workers of another injury-lab version (#27): each version has a queue of its own, so they never take
 * this version's jobs. When they are the only workers there, the run is refused at once, naming both
 * versions, instead of waiting for ever; with no worker at all it says so and waits. Each test has a
 * Redis server of its own, so no other test's workers are listening, and the tests run side by side:
 * most of their time is a run waiting for its next look at the queue's workers.
 */

/** `test` with a redis-server of its own, stopped after it whatever happens. */
async function withOwnRedis(test: (redis: TestRedis) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  try {
    await test(redis);
  } finally {
    await redis.stop();
  }
}

describe.skipIf(!redisAvailable).concurrent('workers of another version', () => {
  it('with no worker at all, a run says so on stderr and waits for one; Ctrl-C takes its shard out of the queue', ({ expect }) =>
    withOwnRedis(async (redis) => {
      const run = spawn(process.execPath, ['dist/src/cli/main.js', 'simulate', '--kind', 'attack', '--trials', '1000', '--queue', redis.url], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      run.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      await waitFor(() => err.includes('no worker is taking jobs from 127.0.0.1'), 'the run to say it waits');
      const queue = new Queue(shardQueueName(), { connection: { host: '127.0.0.1', port: redis.port } });
      try {
        // Its one shard (1,000 trials) waits in the queue.
        await waitFor(async () => (await queue.getWaitingCount()) === 1, 'the shard to be queued');
        run.kill('SIGINT');
        // Ctrl-C: the waiting run ends as any interrupted run does, and takes its shard out of the queue.
        expect(await exited(run)).toBe(130);
        expect(await queue.getWaitingCount()).toBe(0);
      } finally {
        await queue.close();
      }
    }), 60_000);

  it('a run that waited for a worker says when one comes, and one left without any says so', ({ expect }) =>
    withOwnRedis(async (redis) => {
      const run = spawn(process.execPath, ['dist/src/cli/main.js', 'simulate', '--kind', 'attack', '--trials', '1000', '--queue', redis.url], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      run.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      // A worker of this version as the run sees one, a BullMQ worker on this version's queue (in this
      // process), that takes the run's one shard and never answers: the run cannot end before its worker
      // is lost, whatever the machine's load, and no core is spent on trials nobody counts.
      let worker: Worker | undefined;
      try {
        await waitFor(() => err.includes('no worker is taking jobs from 127.0.0.1'), 'the run to say it waits');
        const silent: Worker = new Worker(shardQueueName(), () => new Promise(() => {}), { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null } });
        worker = silent;
        silent.on('error', () => {});
        await waitFor(() => err.includes(`1 worker is taking jobs from 127.0.0.1:${redis.port} now`), 'the run to see its worker');
        // Gone as a killed worker goes: its connections closed, its shard left in hand.
        await silent.close(true);
        await waitFor(() => err.includes(`no worker is taking jobs from 127.0.0.1:${redis.port} any more; the run waits for one`), 'the run to see it has none');
        run.kill('SIGINT');
        expect(await exited(run)).toBe(130);
      } finally {
        if (run.exitCode === null && run.signalCode === null) run.kill('SIGKILL');
        await worker?.close(true);
      }
    }), 60_000);

  it('when they are all there is, the run is refused in one line naming both versions', ({ expect }) =>
    withOwnRedis(async (redis) => {
      // A worker of an older injury-lab, as it connects: a BullMQ worker on that version's queue.
      const old = new Worker(shardQueueName('0.0.1'), async () => [], { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null } });
      old.on('error', () => {});
      await old.waitUntilReady();
      try {
        const r = await cliInProcess('report', 'reports/trench-falls.json', '--out', 'never-written-by-the-version-test', '--queue', redis.url);
        expect(r.code).toBe(2);
        expect(r.stderr.split('\n')).toHaveLength(2);
        expect(r.stderr).toContain(`--queue: no worker of injury-lab ${toolVersion} takes jobs from 127.0.0.1:${redis.port}, only workers of other versions (1 of injury-lab 0.0.1)`);
        expect(r.stderr).toContain(`start \`injury-lab worker\` of version ${toolVersion} there`);
      } finally {
        await old.close();
      }
    }), 60_000);
});
