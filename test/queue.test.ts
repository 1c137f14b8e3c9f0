import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { simulateOnQueue, withQueue } from '../src/queue/submit.js';
import { assertJsonSafe, battleShardJob, MAX_SCENARIO_CHARS, parseQueueUrl, refuseJob, rememberedChars, shardJob, shardQueueName, SHARD_JOB } from '../src/queue/shards.js';
import { checkBattleSettings, resolveBattle } from '../src/input/battle.js';
import { cli, outcomeCounts } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { exited, freePort, jobsCompletedDuring, redisAvailable, startRedis, waitFor, type TestRedis } from './helpers/redis.js';

/**
 * Runs through the Redis queue (issue #27, part 1): a real redis-server on 127.0.0.1 at a free port,
 * two `injury-lab worker` processes, and `simulate --queue` whose counts must equal the local run's.
 * CI installs redis-server (.ci/run); on a machine without it these tests are skipped, unless CI is set.
 *
 * The workers are real processes, and so is one queued run (the built CLI end to end) and one refusal.
 * The other runs, queued and local, are the CLI in this process (cliInProcess): the counts are the
 * point there, and an in-process submitter talks to the spawned workers through Redis just the same,
 * without the start of a Node process and the CLI for every run.
 */
if (!redisAvailable) console.warn('test/queue.test.ts: redis-server is not installed, so the queue tests are skipped (apt-get install -y redis-server)');

let port = 0;
let url = '';
let redis: TestRedis | undefined;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  if (!redisAvailable) return;
  redis = await startRedis();
  ({ port, url } = redis);
  // Started together, so they load side by side. One worker on a thread, one on two: the counts are the same either way.
  const started = [0, 1].map((i) => {
    const w = spawn(process.execPath, ['dist/src/cli/main.js', 'worker', '--queue', url, ...(i === 1 ? ['--concurrency', '2'] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    w.stderr!.on('data', (d: Buffer) => (said += d.toString()));
    workers.push(w);
    return () => said;
  });
  await waitFor(() => started.every((said) => said().includes('taking shards')), 'both workers to start');
}, 30_000);

afterAll(async () => {
  for (const w of workers) w.kill('SIGTERM');
  const codes = await Promise.all(workers.map(exited));
  await redis?.stop();
  // A stopped worker finishes or drops its shard, closes its connection and exits 0.
  expect(codes).toEqual(workers.map(() => 0));
}, 30_000);

const counts = outcomeCounts;

describe.skipIf(!redisAvailable)('simulate --queue through two workers', () => {
  it('gives a Trench Crusade attack the local run counts', async () => {
    const args = ['simulate', '--kind', 'attack', '--armour', 'reinforced', '--seed', '7', '--trials', '500000', '--format', 'json'];
    // The built CLI in a process of its own, end to end: its stdout a pipe, and nothing on stderr, not even a warning of Node's.
    const queued = cli(...args, '--queue', url);
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    expect(counts(queued.stdout)).toEqual(counts(local.stdout));
  }, 120_000);

  it('gives a d20 Warband attack over many shards the local run counts', async () => {
    // 2.2e6 trials: 34 chunks, 3 shards (16, 16 and 2), the last chunk short.
    const args = ['simulate', '--system', 'd20-warband', '--kind', 'attack', '--attacks', '2', '--defence', '8', '--seed', '11', '--trials', '2200001', '--format', 'json'];
    const { result: queued, jobs: shards } = await jobsCompletedDuring(port, () => cliInProcess(...args, '--queue', url));
    expect(queued.code).toBe(0);
    expect(shards).toBe(3);
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    expect(counts(queued.stdout)).toEqual(counts(local.stdout));
  }, 120_000);

  it('gives a battle the local run counts (issue 50): its attacks travel checked, and the workers play its games', async () => {
    // Two shards (17 chunks) of short games (a roster's entries in contact, one turn): the trip is the point.
    const args = ['battle', '--roster', 'examples/roster-example.ros', '--a', 'Ash Acolyte with Censer Flail + Scrap Pistol x2', '--b', 'Lantern Warden with Thornpike', '--start-inches', '0', '--turns', '1', '--seed', '3', '--trials', '1048577', '--format', 'json'];
    const { result: queued, jobs: shards } = await jobsCompletedDuring(port, () => cliInProcess(...args, '--queue', url));
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    expect(shards).toBe(2);
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    const tallyOf = (out: string) => {
      const j = JSON.parse(out) as { outcomes: { count: number }[]; histograms: { bins: { count: number }[] }[] };
      return [j.outcomes.map((o) => o.count), j.histograms.map((h) => h.bins.map((b) => b.count))];
    };
    expect(tallyOf(queued.stdout)).toEqual(tallyOf(local.stdout));
  }, 120_000);

  it('gives a sweep of battle scenarios the local run counts: each cell travels as the battle its warbands read into', async () => {
    const args = ['sweep', '--kind', 'battle', '--roster', 'examples/roster-example.ros', '--a', 'warband=Ash Acolyte with Censer Flail + Scrap Pistol x2', '--b', 'warband=Lantern Warden with Thornpike'];
    const rest = ['--start-inches', '0', '--turns', '1', '--vary', 'b.tactic=advance,charge', '--seed', '3', '--trials', '70000', '--batches', '1', '--format', 'json'];
    const queued = await cliInProcess(...args, ...rest, '--queue', url);
    expect(queued.code, queued.stderr).toBe(0);
    const local = await cliInProcess(...args, ...rest);
    expect(local.code).toBe(0);
    // The same counts give the same estimates, to the last digit, of every outcome and mean of each cell.
    const cellEstimates = (out: string) => (JSON.parse(out) as { cells: { outcomes: { estimate: number }[]; means: unknown[]; simulation: { trials: number } }[] }).cells.map((c) => [c.simulation.trials, c.outcomes.map((o) => o.estimate), c.means]);
    expect(cellEstimates(queued.stdout)).toEqual(cellEstimates(local.stdout));
    expect(cellEstimates(local.stdout).map(([trials]) => trials)).toEqual([70_000, 70_000]);
  }, 120_000);

  it("a shard a worker refuses ends the submitter's run with the worker's reason, in one line", async () => {
    const scenario = parseScenario({ kind: 'attack' });
    // JSON-safe, so the submitter sends it, but no scenario of the rules: a worker refuses it.
    const odd = { ...scenario, rules: { ...scenario.rules, extra: [1] } } as unknown as typeof scenario;
    // (a list in the rules fails the worker's first look, before its checks)
    await expect(simulateOnQueue(odd, { trials: 1000, seed: 1, address: parseQueueUrl(url) })).rejects.toThrow(
      /^--queue: a worker failed shard 0 of the run: the scenario is not a plain object of fields and rules$/,
    );
  }, 30_000);

  it('a job of another version or kind is refused by the worker with its reason, not run', async () => {
    const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
    const queue = new Queue(shardQueueName(), { connection });
    // From the stream's start: events are matched by job id, and none can pass before the first read.
    const events = new QueueEvents(shardQueueName(), { connection, lastEventId: '0' });
    await events.waitUntilReady();
    try {
      const scenario = parseScenario({ kind: 'attack' });
      const failure = (jobId: string) =>
        new Promise<string>((resolve) => {
          const on = (a: { jobId: string; failedReason: string }) => {
            if (a.jobId === jobId) {
              events.off('failed', on);
              resolve(a.failedReason);
            }
          };
          events.on('failed', on);
        });
      const old = failure('test-old');
      await queue.add(SHARD_JOB, { ...shardJob('0-0', 0, scenario, 1, 1000), v: 99 }, { jobId: 'test-old', attempts: 1 });
      expect(await old).toMatch(/shard protocol 99\).*this worker is injury-lab/);
      const other = failure('test-other');
      await queue.add('shell', { command: 'rm -rf /' }, { jobId: 'test-other', attempts: 1 });
      expect(await other).toMatch(/job kind "shell" is not injury-lab's/);
    } finally {
      await events.close();
      await queue.close();
    }
  }, 30_000);
});

describe('--queue refusals', () => {
  // The one refusal of a spawned CLI, end to end; the others are the same CLI in this process.
  it('an unreachable Redis is one line naming host:port, exit 2', async () => {
    const closed = await freePort();
    const r = cli('simulate', '--kind', 'attack', '--trials', '1000', '--queue', `redis://:hunter2@127.0.0.1:${closed}`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`injury-lab: --queue: cannot reach Redis at 127.0.0.1:${closed} (ECONNREFUSED); start redis-server there or check the host, port and password\n`);
  }, 30_000);

  it('a malformed URL is one line, exit 2, and never shows a password', async () => {
    // A password holding "/", "#", "?" or "@" is no URL at all: still never shown, not a piece of it.
    for (const bad of ['nonsense', 'http://u:hunter2@host:6379', 'redis://:hunter2@host:6379/x', 'redis://:hun/ter2@host:6379', 'redis://u:hun#ter2@host', 'redis://:hu@n/ter2@host/0']) {
      const r = await cliInProcess('simulate', '--kind', 'attack', '--trials', '1000', '--queue', bad);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr).toMatch(/^injury-lab: --queue: /);
      expect(r.stderr).not.toMatch(/hun|ter2/);
    }
    const w = await cliInProcess('worker', '--queue', 'redis://:hunter2@[bad');
    expect(w.code).toBe(2);
    expect(w.stderr).not.toContain('hunter2');
  });

  it('--workers does not go with --queue, in any command that simulates', async () => {
    for (const args of [
      ['simulate', '--kind', 'attack'],
      ['sweep', '--kind', 'attack', '--vary', 'armour=none,standard', '--trials', '1000'],
      ['compare', 'test/fixtures/attack.json', 'test/fixtures/attack.json', '--trials', '1000'],
      ['report', 'reports/trench-falls.json', '--out', 'never-written'],
    ]) {
      const r = await cliInProcess(...args, '--workers', '2', '--queue', 'redis://127.0.0.1:1');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^injury-lab: --workers: does not go with --queue/);
    }
  });

  it('parses a URL into host, port and password, and shows host:port only', () => {
    expect(parseQueueUrl('redis://:pw@example.org:7000/3')).toMatchObject({ host: 'example.org', port: 7000, db: 3, password: 'pw', shown: 'example.org:7000' });
    expect(parseQueueUrl('redis://example.org').port).toBe(6379);
  });

  it('a worker checks every field of a shard', () => {
    const good = shardJob('0f-1', 0, parseScenario({ kind: 'attack' }), 1, 100_000);
    expect(refuseJob(SHARD_JOB, good)).toBeUndefined();
    expect(refuseJob(SHARD_JOB, { ...good, seed: -1 })).toMatch(/^seed -1/);
    expect(refuseJob(SHARD_JOB, { ...good, chunkCount: 17 })).toMatch(/^chunkCount 17/);
    expect(refuseJob(SHARD_JOB, { ...good, firstChunk: 1, chunkCount: 2 })).toMatch(/go past/);
    expect(refuseJob(SHARD_JOB, { ...good, scenario: { ...good.scenario, system: 'chess' } })).toMatch(/not simulated/);
    expect(refuseJob(SHARD_JOB, { ...good, runId: '../x' })).toMatch(/not a run id/);
    expect(refuseJob(SHARD_JOB, null)).toMatch(/not an object/);
    // Fields and rules are checked as the CLI checks them.
    expect(refuseJob(SHARD_JOB, { ...good, scenario: { ...good.scenario, injuryDice: 1e9 } })).toMatch(/does not pass this worker's checks: injuryDice/);
    expect(refuseJob(SHARD_JOB, { ...good, scenario: { ...good.scenario, rules: { ...good.scenario.rules, injuryRoll: { dice: -5 } } } })).toMatch(/does not pass this worker's checks/);
    expect(refuseJob(SHARD_JOB, { ...good, scenario: { ...good.scenario, mystery: 1 } })).toMatch(/does not pass this worker's checks/);
    const d20 = shardJob('0f-2', 0, parseScenario({ system: 'd20-warband', kind: 'attack', attacks: 2, defence: 8 }), 1, 100_000);
    expect(refuseJob(SHARD_JOB, d20)).toBeUndefined();
  });

  it("a worker checks a battle shard's settings, entries and every attack as the CLI builds them", () => {
    const settings = checkBattleSettings({ roster: 'examples/roster-example.ros', a: 'Ash Acolyte with Censer Flail x2', b: 'Thorn Sentinel with Ember Carbine' }, (n) => `--${n}`);
    const { battle } = resolveBattle(settings);
    const good = battleShardJob('0b-1', 0, battle, 1, 100_000);
    expect(refuseJob(SHARD_JOB, good)).toBeUndefined();
    expect(refuseJob(SHARD_JOB, { ...good, battle: { ...battle, turns: 99 } })).toMatch(/^the battle's turns 99 is not allowed \(a whole number from 1 to 10\)$/);
    expect(refuseJob(SHARD_JOB, { ...good, battle: { ...battle, a: { ...battle.a, tactic: 'sprint' } } })).toMatch(/^side a's label, tactic or blood policy/);
    const entry = battle.a.entries[0]!;
    expect(refuseJob(SHARD_JOB, { ...good, battle: { ...battle, a: { ...battle.a, entries: [{ ...entry, count: 1e9 }] } } })).toMatch(/^side a's entry "Ash Acolyte with Censer Flail x2" is not an entry a battle has/);
    // An attack changed from what this version's checks give back: refused.
    const attack = battle.a.attacks[0]![0]![0]!;
    const tampered = { ...battle, a: { ...battle.a, attacks: [[[{ ...attack, injuryDice: 1e9 }]]] } };
    expect(refuseJob(SHARD_JOB, { ...good, battle: tampered })).toMatch(/^an attack of side a: the scenario does not pass this worker's checks: injuryDice/);
    // One attack short of the entries x weapons x enemies.
    expect(refuseJob(SHARD_JOB, { ...good, battle: { ...battle, b: { ...battle.b, attacks: [] } } })).toMatch(/^side b's attacks are not one per entry, weapon and enemy entry$/);
    expect(refuseJob(SHARD_JOB, { ...good, scenario: parseScenario({ kind: 'attack' }) })).toMatch(/carries a scenario and a battle/);
  });

  it('a worker refuses a job larger than any scenario before checking it, and remembers its checks in bounded bytes', () => {
    const good = shardJob('0f-3', 0, parseScenario({ kind: 'attack' }), 1, 100_000);
    const huge = { ...good, scenario: { ...good.scenario, description: 'x'.repeat(MAX_SCENARIO_CHARS) } };
    expect(refuseJob(SHARD_JOB, huge)).toMatch(/^the scenario is \d+ characters of JSON; a scenario is at most 2097152$/);
    // 300 distinct jobs of 100 KB each, every one checked (and refused: a description is no scenario field): what the
    // worker keeps is a digest and a short reason each, not the 30 MB of texts.
    for (let i = 0; i < 300; i++) {
      const big = { ...good, scenario: { ...good.scenario, description: `${i}${'y'.repeat(100_000)}` } };
      expect(refuseJob(SHARD_JOB, big)).toMatch(/^the scenario (does not pass this worker's checks|is not one the checks of this version give)/);
    }
    expect(rememberedChars()).toBeLessThan(256 * 600);
    // The submitter refuses such a scenario before anything is queued, in one line.
    expect(() => assertJsonSafe(huge.scenario as never)).toThrow(/^--queue: the scenario is \d+ characters of JSON, more than a worker takes \(2097152\); run it without --queue$/);
  });
});

/** A sweep's, comparison's or report's JSON without what says when and how it was run (date, seconds, worker counts, rates): the rest must be equal. */
function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !['date', 'seconds', 'workers', 'trialsPerSecond'].includes(k))
      .map(([k, v]) => [k, withoutTimings(v)]),
  );
}

describe.skipIf(!redisAvailable)('sweep, compare and report --queue through two workers (part 3)', () => {
  it("simulate --precision plays its rounds through the queue: the local run's trials and counts", async () => {
    // Rounds continue from the chunks played before, so a round is a chunk range not starting at 0.
    const args = ['simulate', '--kind', 'attack', '--armour', 'standard', '--seed', '3', '--precision', '0.003', '--format', 'json'];
    const { result: queued, jobs: shards } = await jobsCompletedDuring(port, () => cliInProcess(...args, '--queue', url));
    expect(queued.code).toBe(0);
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    const q = JSON.parse(queued.stdout) as { trials: number };
    // Each round is at least one shard of its own, and a shard is at most 16 chunks of 65,536 trials.
    expect(shards).toBeGreaterThanOrEqual(Math.max(2, Math.ceil(q.trials / 65536 / 16)));
    expect(q.trials).toBe((JSON.parse(local.stdout) as { trials: number }).trials);
    // The first round is 1/16 of the trials that always suffice, so 0.003 takes more than one round.
    expect(q.trials).toBeGreaterThan(Math.ceil(1.96 ** 2 / (4 * 0.003 ** 2) / 16));
    expect(counts(queued.stdout)).toEqual(counts(local.stdout));
  }, 120_000);

  it("a sweep gives the local run's cells, with trials in batches and to a precision", async () => {
    for (const sim of [['--trials', '40000', '--batches', '4'], ['--precision', '0.004']]) {
      const args = ['sweep', '--kind', 'attack', '--vary', 'armour=none,standard,reinforced', '--vary', 'injuryDice=0,1', ...sim, '--seed', '5', '--format', 'json'];
      const { result: queued, jobs: shards } = await jobsCompletedDuring(port, () => cliInProcess(...args, '--queue', url));
      expect(queued.stderr).toBe('');
      expect(queued.code).toBe(0);
      // Six cells, each of 4 batches of one shard, or of at least one round to a precision.
      expect(shards).toBeGreaterThanOrEqual(sim[0] === '--trials' ? 24 : 6);
      const local = await cliInProcess(...args);
      expect(local.code).toBe(0);
      expect(withoutTimings(JSON.parse(queued.stdout))).toEqual(withoutTimings(JSON.parse(local.stdout)));
    }
  }, 120_000);

  it("an exact sweep is solved by the workers, a job per cell, with the local fractions", async () => {
    const args = ['sweep', '--kind', 'attack', '--vary', 'armour=none,standard,reinforced,machine', '--vary', 'injuryDice=-1,0,1', '--format', 'json'];
    const { result: queued, jobs: shards } = await jobsCompletedDuring(port, () => cliInProcess(...args, '--queue', url));
    expect(queued.code).toBe(0);
    expect(shards).toBe(12);
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    expect(withoutTimings(JSON.parse(queued.stdout))).toEqual(withoutTimings(JSON.parse(local.stdout)));
  }, 120_000);

  it("an exact cell a worker refuses ends the run with the worker's reason, in one line", async () => {
    const scenario = parseScenario({ kind: 'attack' });
    const odd = { ...scenario, rules: { ...scenario.rules, extra: [1] } } as unknown as typeof scenario;
    await expect(withQueue({ address: parseQueueUrl(url) }, (remote) => remote.solve(odd))).rejects.toThrow(
      /^--queue: a worker failed an exact cell of the run: the scenario is not a plain object of fields and rules$/,
    );
  }, 30_000);

  it("a comparison gives the local run's verdicts", async () => {
    const args = ['compare', 'test/fixtures/attack.json', 'examples/standard.json', '--trials', '100000', '--format', 'json'];
    const queued = await cliInProcess(...args, '--queue', url);
    expect(queued.code).toBe(0);
    const local = await cliInProcess(...args);
    expect(local.code).toBe(0);
    expect(withoutTimings(JSON.parse(queued.stdout))).toEqual(withoutTimings(JSON.parse(local.stdout)));
  }, 120_000);

  it("a report gives the local run's results.json and the very same results.csv", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-queue-report-'));
    try {
      // Two simulated analyses, one by trials over 12 cells and one to a precision, and an exact one: many cells at once through the queue.
      const def = {
        title: 'Through the queue',
        seed: 99,
        analyses: [
          {
            id: 'falls',
            title: 'Falls by height and armour',
            scenario: { system: 'trench-crusade', edition: 'core', kind: 'fall' },
            vary: [
              { field: 'armour', values: ['none', 'standard', 'reinforced'] },
              { field: 'heightInches', values: [3, 6, 9, 12] },
            ],
            simulate: { trials: 40000, batches: 5 },
            charts: [{ type: 'heatmap', x: 'armour', y: 'heightInches', outcome: 'out-of-action' }],
          },
          {
            id: 'd20',
            title: 'd20 attacks by Defence',
            scenario: { system: 'd20-warband', kind: 'attack', attacks: 2 },
            vary: [{ field: 'defence', values: [6, 10, 14] }],
            simulate: { precision: 0.01 },
            charts: [{ type: 'stacked-bars', y: 'defence' }],
          },
          {
            id: 'exact',
            title: 'Exact only',
            scenario: { system: 'trench-crusade', edition: 'core', kind: 'injury' },
            vary: [{ field: 'injuryDice', values: [0, 1] }],
            charts: [{ type: 'stacked-bars', y: 'injuryDice' }],
          },
        ],
      };
      writeFileSync(join(dir, 'queued.json'), JSON.stringify(def));
      const run = (...args: string[]) => cliInProcess('report', join(dir, 'queued.json'), ...args);
      const { result: queued, jobs: shards } = await jobsCompletedDuring(port, () => run('--out', join(dir, 'q'), '--queue', url));
      expect(queued.stderr).not.toMatch(/error|refus/i);
      expect(queued.code).toBe(0);
      // 12 cells of 5 batches of one shard each, and 3 cells of at least one round each.
      expect(shards).toBeGreaterThanOrEqual(63);
      expect((await run('--out', join(dir, 'l'))).code).toBe(0);
      const results = (d: string) => JSON.parse(readFileSync(join(dir, d, 'results.json'), 'utf8')) as { analyses: unknown[] };
      const q = results('q');
      expect(q.analyses).toHaveLength(3);
      expect(withoutTimings(q)).toEqual(withoutTimings(results('l')));
      expect(readFileSync(join(dir, 'q', 'results.csv'), 'utf8')).toBe(readFileSync(join(dir, 'l', 'results.csv'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
