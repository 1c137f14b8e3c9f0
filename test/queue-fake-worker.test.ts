import { Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { simulateOnQueue } from '../src/queue/submit.js';
import { parseQueueUrl, shardQueueName, SHARD_JOB, type ShardJob } from '../src/queue/shards.js';
import { compileKernel, playChunks, runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { toolVersion } from '../src/version.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { redisAvailable, startRedis, type TestRedis } from './helpers/redis.js';

/**
 * A fake worker (issue #36): a BullMQ worker in this process that takes the queue's shards and answers
 * wrong counts (a buggy or hostile host). The submitter never adds them: it asks again, says so, and
 * with an honest answer gives the local run's counts; a worker that never answers right stops the run
 * in one line, with nothing printed as a result.
 */

let redis: TestRedis | undefined;
let url = '';
let fake: Worker | undefined;
/** What the fake worker does with each shard: answer wrong the first time a shard comes, or always. */
let mode: 'wrong-once' | 'always-wrong' = 'wrong-once';
const seen = new Set<string>();

/** The shard played as a worker plays it: its chunks of the run, seeded as every host seeds them. */
function honestTally(job: ShardJob): number[] {
  const { kernel, tallyLength } = compileKernel({ type: 'scenario', scenario: job.scenario });
  const tally = new Float64Array(tallyLength);
  playChunks(kernel, { seed: job.seed, firstChunk: job.firstChunk, chunkCount: job.chunkCount, chunkSize: CHUNK_SIZE, totalTrials: job.totalTrials }, tally);
  return Array.from(tally);
}

beforeAll(async () => {
  if (!redisAvailable) return;
  redis = await startRedis();
  url = redis.url;
  fake = new Worker(
    shardQueueName(),
    async (job: Job) => {
      if (job.name !== SHARD_JOB) throw new Error('not a shard');
      const tally = honestTally(job.data as ShardJob);
      const key = `${(job.data as ShardJob).runId}-${(job.data as ShardJob).shard}`;
      const first = !seen.has(key);
      seen.add(key);
      // Zeros the first time, then the truth; or twice the counts, every time.
      if (mode === 'always-wrong') return tally.map((x) => 2 * x);
      return first ? tally.map(() => 0) : tally;
    },
    { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null }, drainDelay: 1 },
  );
  fake.on('error', () => {});
  await fake.waitUntilReady();
}, 30_000);

afterAll(async () => {
  await fake?.close();
  await redis?.stop();
}, 30_000);

describe.skipIf(!redisAvailable)("a fake worker's impossible counts", () => {
  it("are asked again, the run says so, and the honest answers give the local run's counts", async () => {
    mode = 'wrong-once';
    const scenario = parseScenario({ kind: 'sequence', attacks: 3, armour: 'standard' });
    const trials = 2 * CHUNK_SIZE + 17;
    const notices: string[] = [];
    const run = await simulateOnQueue(scenario, { trials, seed: 3, address: parseQueueUrl(url), onNotice: (l) => notices.push(l) });
    const { kernel, tallyLength } = compileKernel({ type: 'scenario', scenario });
    expect(Array.from(run.tally)).toEqual(Array.from(runInThread(kernel, tallyLength, { trials, seed: 3, chunkSize: CHUNK_SIZE })));
    // One shard holds the whole run here (a shard is 16 chunks): it came back zeros once.
    expect(notices).toEqual([`shard 0 of the run came back impossible from a worker (its outcome counts sum to 0, not the shard's ${trials} trials); asked again`]);
  }, 30_000);

  it('from a worker that never answers right stop `simulate --queue` in one line, exit 2, with no result printed', async () => {
    mode = 'always-wrong';
    // The CLI in this process (awaited, so the fake worker answers from the same event loop): the
    // refusal is the point, not the process.
    const run = await cliInProcess('simulate', '--kind', 'attack', '--trials', '1000', '--queue', url);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    // Three notices (asked again), then the refusal.
    expect(lines.slice(0, 3)).toEqual(Array(3).fill("injury-lab: shard 0 of the run came back impossible from a worker (its outcome counts sum to 2000, not the shard's 1000 trials); asked again"));
    expect(lines.slice(3)).toEqual([
      `injury-lab: --queue: shard 0 of the run came back impossible 4 times (its outcome counts sum to 2000, not the shard's 1000 trials): a worker at 127.0.0.1:${redis!.port} gives wrong answers; stop it, and run workers of injury-lab ${toolVersion}`,
    ]);
  }, 60_000);
});
