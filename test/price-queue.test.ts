import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { exited, jobsCompletedDuring, redisAvailable, startRedis, waitFor, type TestRedis } from './helpers/redis.js';

/**
 * `price --queue` (issue 40): every duel of the field is an exact job solved by an `injury-lab worker`,
 * and the answer is the local run's, fraction for fraction. A real redis-server on 127.0.0.1 at a free
 * port and one worker process; without redis-server the tests are skipped (unless CI is set).
 */
if (!redisAvailable) console.warn('test/price-queue.test.ts: redis-server is not installed, so the queue tests are skipped (apt-get install -y redis-server)');

let url = '';
let port = 0;
let redis: TestRedis | undefined;
let worker: ChildProcess | undefined;

beforeAll(async () => {
  if (!redisAvailable) return;
  redis = await startRedis();
  ({ url, port } = redis);
  worker = spawn(process.execPath, ['dist/src/cli/main.js', 'worker', '--queue', url, '--concurrency', '2'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  worker.stderr!.on('data', (d: Buffer) => (said += d.toString()));
  await waitFor(async () => said.includes('taking shards'), 'a worker to start');
}, 30_000);

afterAll(async () => {
  worker?.kill('SIGTERM');
  const code = worker ? await exited(worker) : 0;
  await redis?.stop();
  expect(code).toBe(0);
}, 30_000);

describe.skipIf(!redisAvailable)('price --queue', () => {
  it("solves every duel on the queue's worker, one job each, with the local run's fractions", async () => {
    // The example profiles: 4 models with 3 melee weapons each, 12 entries, 66 pairs, 132 duels.
    const args = ['price', '--profiles', 'examples/profiles.json', '--rounds', '2', '--format', 'json'];
    const { result: queued, jobs } = await jobsCompletedDuring(port, () => cli(...args, '--queue', url));
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    expect(jobs).toBe(12 * 11);
    const local = cli(...args);
    expect(local.code).toBe(0);
    expect(queued.stdout).toBe(local.stdout);
  }, 120_000);
});
