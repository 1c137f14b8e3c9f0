import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, describe, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { EXACT_JOB, exactJob, shardQueueName } from '../src/queue/shards.js';
import { cliChildren } from './helpers/cli.js';
import { exited, redisAvailable, startRedis, waitFor } from './helpers/redis.js';

/**
 * Every queue command stops on one SIGINT or SIGTERM whatever Redis does, and a second signal stops a
 * worker at once (issue #36): a worker with a long exact job in hand, a worker whose Redis went away,
 * a run waiting for a worker when Redis goes away. Each test has a Redis server of its own, so they run
 * side by side: much of their time is waiting (a worker's start, a stop's grace for a Redis gone away).
 */

const children = cliChildren();
afterAll(() => children.killAll());

describe.skipIf(!redisAvailable).concurrent('queue commands and signals', () => {
  it('a worker with a long exact job in hand: the first Ctrl-C finishes it, a second exits at once without it', async ({ expect }) => {
    const redis = await startRedis();
    const queue = new Queue(shardQueueName(), { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null } });
    try {
      const worker = children.start(['worker', '--queue', redis.url]);
      await waitFor(() => worker.err().includes('taking shards'), 'the worker to start');
      // Both sides optimal, by ledges, 14 rounds: about 4 s of solving on an idle core, more on a busy one.
      const side = { armour: 'standard', tough: true, policy: 'optimal', ledgeInches: 6 };
      const scenario = parseScenario({ kind: 'duel', rounds: 14, a: side, b: side });
      const jobId = `${randomUUID()}-0`;
      await queue.add(EXACT_JOB, exactJob(jobId.slice(0, -2), scenario), { jobId, attempts: 1 });
      await waitFor(async () => (await queue.getJobState(jobId)) === 'active', 'the worker to take the job');
      worker.child.kill('SIGINT');
      await waitFor(() => worker.err().includes('finishing the jobs in hand (Ctrl-C again drops them)'), 'the worker to say it finishes');
      worker.child.kill('SIGINT');
      expect(await exited(worker.child)).toBe(0);
      // Dropped, not finished: the job is still the worker's until its lock lapses, then anyone's.
      expect(await queue.getJobState(jobId)).not.toBe('completed');
    } finally {
      await queue.close();
      await redis.stop();
    }
  }, 60_000);

  it('a worker whose Redis went away stops on one SIGTERM', async ({ expect }) => {
    const redis = await startRedis();
    const worker = children.start(['worker', '--queue', redis.url]);
    await waitFor(() => worker.err().includes('taking shards'), 'the worker to start');
    await redis.stop();
    worker.child.kill('SIGTERM');
    expect(await exited(worker.child)).toBe(0);
  }, 60_000);

  it('a run waiting for a worker stops on one Ctrl-C after Redis went away, with nothing printed', async ({ expect }) => {
    const redis = await startRedis();
    const run = children.start(['simulate', '--kind', 'attack', '--trials', '1000', '--queue', redis.url]);
    await waitFor(() => run.err().includes('no worker is taking jobs from'), 'the run to say it waits');
    await redis.stop();
    run.child.kill('SIGINT');
    expect(await exited(run.child)).toBe(130);
    expect(run.out()).toBe('');
  }, 60_000);
});
