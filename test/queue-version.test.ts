import { spawn } from 'node:child_process';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardQueueName } from '../src/queue/shards.js';
import { toolVersion } from '../src/version.js';
import { cli } from './helpers/cli.js';
import { exited, redisAvailable, startRedis, waitFor, type TestRedis } from './helpers/redis.js';

/**
 * Workers of another injury-lab version (#27): each version has a queue of its own, so they never take
 * this version's jobs. When they are the only workers there, the run is refused at once, naming both
 * versions, instead of waiting for ever; with no worker at all it says so and waits. A Redis server of
 * this file's own, so no other test's workers are listening.
 */
let redis: TestRedis | undefined;

beforeAll(async () => {
  if (redisAvailable) redis = await startRedis();
}, 30_000);

afterAll(async () => {
  await redis?.stop();
}, 30_000);

describe.skipIf(!redisAvailable)('workers of another version', () => {
  it('with no worker at all, a run says so on stderr and waits for one; Ctrl-C takes its shard out of the queue', async () => {
    const run = spawn(process.execPath, ['dist/src/cli/main.js', 'simulate', '--kind', 'attack', '--trials', '1000', '--queue', redis!.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    run.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor(() => err.includes('no worker is taking jobs from 127.0.0.1'), 'the run to say it waits');
    const queue = new Queue(shardQueueName(), { connection: { host: '127.0.0.1', port: redis!.port } });
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
  }, 60_000);

  it('a run that waited for a worker says when one comes, and one left without any says so', async () => {
    const url = redis!.url;
    const started: ReturnType<typeof spawn>[] = [];
    const worker = () => {
      const w = spawn(process.execPath, ['dist/src/cli/main.js', 'worker', '--queue', url], { stdio: ['ignore', 'ignore', 'pipe'] });
      started.push(w);
      let said = '';
      w.stderr!.on('data', (d: Buffer) => (said += d.toString()));
      return { w, said: () => said };
    };
    // A 10-round duel of 12 shards of ~0.4 s each on one thread: long enough to lose its worker halfway.
    const run = spawn(process.execPath, ['dist/src/cli/main.js', 'simulate', '--kind', 'duel', '--a', 'armour=standard', '--b', 'injuryDice=1', '--seed', '9', '--trials', '12582912', '--queue', url], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    run.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await waitFor(() => err.includes('no worker is taking jobs from 127.0.0.1'), 'the run to say it waits');
      const first = worker();
      await waitFor(() => err.includes(`1 worker is taking jobs from 127.0.0.1:${redis!.port} now`), 'the run to see its worker');
      first.w.kill('SIGKILL');
      await waitFor(() => err.includes(`no worker is taking jobs from 127.0.0.1:${redis!.port} any more; the run waits for one`), 'the run to see it has none');
      run.kill('SIGINT');
      expect(await exited(run)).toBe(130);
    } finally {
      for (const c of [run, ...started]) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    }
  }, 60_000);

  it('when they are all there is, the run is refused in one line naming both versions', async () => {
    // A worker of an older injury-lab, as it connects: a BullMQ worker on that version's queue.
    const old = new Worker(shardQueueName('0.0.1'), async () => [], { connection: { host: '127.0.0.1', port: redis!.port, maxRetriesPerRequest: null } });
    old.on('error', () => {});
    await old.waitUntilReady();
    try {
      const r = cli('report', 'reports/trench-falls.json', '--out', 'never-written-by-the-version-test', '--queue', redis!.url);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr).toContain(`--queue: no worker of injury-lab ${toolVersion} takes jobs from 127.0.0.1:${redis!.port}, only workers of other versions (1 of injury-lab 0.0.1)`);
      expect(r.stderr).toContain(`start \`injury-lab worker\` of version ${toolVersion} there`);
    } finally {
      await old.close();
    }
  }, 60_000);
});
