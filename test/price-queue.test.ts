import { spawn, type ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { duelMatrix, solveDuelMatrix, type DuelEntry } from '../src/pricing/duel-matrix.js';
import { DUELS_PER_JOB, parseQueueUrl, shardQueueName } from '../src/queue/shards.js';
import { withQueue } from '../src/queue/submit.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { exited, jobsCompletedDuring, redisAvailable, startRedis, waitFor, type TestRedis } from './helpers/redis.js';

/**
 * `price --queue` (issue 40): the field's duels go in batches (DUELS_PER_JOB a job) to an `injury-lab
 * worker`, which sends back only each duel's chances, and the answer is the local run's, fraction for fraction. A real redis-server on 127.0.0.1 at a free
 * port and one worker process; without redis-server the tests are skipped (unless CI is set). The
 * price runs, queued and local, are the CLI in this process: their fractions are the point, and the
 * in-process submitter reaches the worker process through Redis just the same.
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
  it("solves the duels on the queue's worker, a batch a job, with the local run's fractions", async () => {
    // The example profiles: 4 models with 3 melee weapons each, 12 entries, 66 pairs, 132 duels: 5 jobs of up to 32.
    const args = ['price', '--profiles', 'examples/profiles.json', '--rounds', '2', '--format', 'json'];
    const { result: queued, jobs } = await jobsCompletedDuring(port, () => cliInProcess(...args, '--queue', url));
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    expect(DUELS_PER_JOB).toBe(32);
    expect(jobs).toBe(Math.ceil((12 * 11) / 32));
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    expect(queued.stdout).toBe(local.stdout);
  }, 120_000);

  it("plays price --by battles' match-ups on the queue's worker, with the local run's prices", async () => {
    // The roster's 6 entries at 300 ducats, 600 battles an entry and count: a job a match-up.
    const args = ['price', '--roster', 'examples/roster-example.ros', '--by', 'battles', '--ducats', '300', '--games', '600', '--format', 'json'];
    const { result: queued, jobs } = await jobsCompletedDuring(port, () => cliInProcess(...args, '--queue', url));
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    expect(jobs).toBeGreaterThan(21);
    const local = await cliInProcess(...args);
    expect(queued.stdout).toBe(local.stdout);
  }, 120_000);

  // A small field of hand-written sides: 4 entries, 12 duels, one job.
  const field: DuelEntry[] = [
    { name: 'plain', side: {} },
    { name: '+3 injury dice', side: { injuryDice: 3 } },
    { name: 'machine + Tough', side: { armour: 'machine', tough: true } },
    { name: 'reinforced', side: { armour: 'reinforced' } },
  ];

  it("gives duelMatrix's fractions in this thread exactly, every duel's three chances in the plan's order", async () => {
    const inThread = duelMatrix(field, { rounds: 3 });
    const seen: number[] = [];
    const queued = await withQueue({ address: parseQueueUrl(url) }, (session) => solveDuelMatrix(field, { rounds: 3, solver: session, onProgress: (done) => seen.push(done) }));
    expect(queued).toEqual(inThread);
    expect(seen).toEqual([12]);
  }, 60_000);

  it("fails the batch that holds a bad duel with the worker's one line naming it, and the worker goes on", async () => {
    const duel = (extra: Record<string, unknown>) => ({ ...parseScenario({ kind: 'duel', rounds: 2, a: {}, b: { armour: 'machine' } }), ...extra });
    await withQueue({ address: parseQueueUrl(url) }, async (session) => {
      // What the submitter's checks never send: the worker refuses it, naming the duel's place in the batch.
      await expect(session.duelBatches!.solve([duel({}), duel({ rounds: 1e9 })])).rejects.toThrow(
        /^--queue: a worker failed a batch of duels of the run: duel 2 of the 2 in the batch: the scenario does not pass this worker's checks: .*rounds/,
      );
      const [again] = await session.duelBatches!.solve([duel({})]);
      expect(again!.aWins.num + again!.bWins.num + again!.undecided.num).toBeGreaterThan(0n);
    });
  }, 60_000);

  it('an abort rejects with its reason, counts no duel after it, and takes the waiting batches out of the queue', async () => {
    // 10 entries, 90 duels of 10 rounds: 3 jobs, the worker's 2 threads busy for a while.
    const big: DuelEntry[] = [...field, ...[1, 2, 3].flatMap((dice) => [{ name: `${dice} dice`, side: { injuryDice: dice } }, { name: `${dice} dice, machine`, side: { injuryDice: dice, armour: 'machine' } }])];
    const controller = new AbortController();
    const queue = new Queue(shardQueueName(), { connection: { host: '127.0.0.1', port, maxRetriesPerRequest: null } });
    try {
      await withQueue({ address: parseQueueUrl(url) }, async (session) => {
        const seen: number[] = [];
        const run = solveDuelMatrix(big, { rounds: 10, solver: session, signal: controller.signal, onProgress: (done) => seen.push(done) });
        await waitFor(async () => ((await queue.getJobCounts('active')).active ?? 0) > 0, 'the worker to take a batch');
        controller.abort(new Error('stopped by the test'));
        await expect(run).rejects.toThrow('stopped by the test');
        const counted = seen.length;
        await waitFor(async () => {
          const c = await queue.getJobCounts('waiting', 'active', 'delayed');
          return (c.waiting ?? 0) + (c.active ?? 0) + (c.delayed ?? 0) === 0;
        }, 'the batches to leave the queue');
        expect(seen.length).toBe(counted);
      });
    } finally {
      await queue.close();
    }
  }, 120_000);
});
