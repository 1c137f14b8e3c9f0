/**
 * The job queue's part of `npm run bench` (issue 27): runs through `simulateOnQueue` with 1, 2 and 4
 * local `injury-lab worker` processes (each --concurrency 1) against the in-process thread pool on the
 * same work, on a redis-server of the bench's own (Debian's, a free port on 127.0.0.1, nothing saved;
 * skipped, with a line saying so, without it). Every queue run's tally must equal the local run's.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { parseScenario } from '../src/input/scenario.js';
import type { Scenario } from '../src/model/types.js';
import { closePool, simulate } from '../src/pool/simulate.js';
import { redisOptions } from '../src/queue/connection.js';
import { parseQueueUrl, SHARD_CHUNKS, shardCount, shardQueueName, type QueueAddress } from '../src/queue/shards.js';
import { simulateOnQueue } from '../src/queue/submit.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { redisAvailable, startRedis, waitFor } from './local-redis.js';

export const REDIS_SERVER = 'redis-server';

/** The issue's goals: >= 0.9 of linear from 1 worker process to k, under 5 ms of overhead per shard. */
export const QUEUE_TARGETS = { ofLinear: 0.9, overheadMsPerShard: 5 };

/** Trials per shard: SHARD_CHUNKS chunks of CHUNK_SIZE. */
const SHARD_TRIALS = SHARD_CHUNKS * CHUNK_SIZE;
const SHARDS = 64;
const SEED = 1;
const REPEATS = 3;
export const PROCESSES = [1, 2, 4];

/** The work timed: attacks, some tens of ms a shard; injury rolls with no dice, the cheapest shards, where the fixed cost shows most. */
export const QUEUE_WORK = {
  main: { label: 'trench-crusade core attack', scenario: parseScenario({ system: 'trench-crusade', edition: 'core', kind: 'attack' }, 'bench'), trials: SHARDS * SHARD_TRIALS },
  cheap: { label: 'trench-crusade core injury, 0 dice', scenario: parseScenario({ system: 'trench-crusade', edition: 'core', kind: 'injury', injuryDice: 0 }, 'bench'), trials: SHARDS * SHARD_TRIALS },
};

export interface PoolRate {
  threads: number;
  seconds: number;
  trialsPerSecond: number;
  /** CPU seconds of the bench process (its pool threads included) in that run. */
  cpuSeconds: number;
}

export interface QueueRate {
  processes: number;
  /** Wall clock around simulateOnQueue (connecting, queueing, waiting, summing), best of the repeats. */
  seconds: number;
  trialsPerSecond: number;
  /** rate / (processes x rate with 1 process). */
  ofLinear: number;
  /** rate / (min(processes, cores) x rate with 1 process): what the machine's cores allow. */
  ofLinearOnCores: number;
  /** rate / the in-process pool's rate with as many threads as processes. */
  ofPool: number;
  sameTally: true;
  /** CPU seconds in that run: the submitter (this process), the worker processes together, redis-server. */
  cpu: { submitter: number; workers: number; redis: number };
}

export interface Overhead {
  label: string;
  trials: number;
  shards: number;
  poolSeconds: number;
  queueSeconds: number;
  /** (queue seconds with 1 process - pool seconds with 1 thread) / shards, in ms. */
  msPerShard: number;
  /** Per shard, in ms: the worker process's CPU beyond the pool's, the submitter's CPU, redis-server's. */
  cpuMsPerShard: { workerBeyondPool: number; submitter: number; redis: number };
}

export interface QueueFigures {
  redis: string;
  cores: number;
  scenario: string;
  trials: number;
  shards: number;
  repeats: number;
  pool: PoolRate[];
  queue: QueueRate[];
  overhead: Overhead;
  cheapOverhead: Overhead;
  /** A run of one shard of 1,000 trials with 1 process: the fixed cost of a run (connections, event stream, one job's round trip). */
  oneShardRunMs: number;
  targets: {
    linear: { target: string; worstOnCores: number; met: boolean };
    overhead: { target: string; msPerShard: number; cheapMsPerShard: number; met: boolean };
  };
}

/** Stops a child (SIGTERM, then SIGKILL after 20 s) and waits for its exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exit;
  clearTimeout(timer);
}

const MAIN_JS = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/** Starts `count` worker processes and waits until the queue sees them all. */
export async function startWorkers(url: string, address: QueueAddress, count: number, children: ChildProcess[]): Promise<void> {
  const mine: ChildProcess[] = [];
  const errors: string[] = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, [MAIN_JS, 'worker', '--queue', url, '--concurrency', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      if (err.length < 4000) err += d;
    });
    child.once('exit', (code, signal) => errors.push(`worker exited (${code ?? signal}): ${err.trim()}`));
    children.push(child);
    mine.push(child);
  }
  const queue = new Queue(shardQueueName(), { connection: redisOptions(address) });
  queue.on('error', () => {});
  try {
    await waitFor(async () => {
      if (errors.length > 0) throw new Error(errors[0]);
      return (await queue.getWorkersCount()) === count;
    }, `${count} worker processes`).catch((e: unknown) => {
      throw errors.length > 0 ? new Error(`queue bench: ${errors[0]}`) : e;
    });
  } finally {
    await queue.close();
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (0 where there is no /proc). */
export function cpuOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Wall seconds of the fastest run, and the CPU seconds spent during it: by this process (submitter or pool), by the worker processes, by redis-server. */
export interface Timed {
  seconds: number;
  ownCpu: number;
  workersCpu: number;
  redisCpu: number;
}

const sameTally = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Times `run` `repeats` times; the fastest run by wall clock, with the CPU time used during it. */
async function fastest(repeats: number, pids: { workers: (number | undefined)[]; redis?: number | undefined }, run: () => Promise<void>): Promise<Timed> {
  let top: Timed = { seconds: Number.POSITIVE_INFINITY, ownCpu: 0, workersCpu: 0, redisCpu: 0 };
  const workersCpu = () => pids.workers.reduce<number>((sum, pid) => sum + cpuOf(pid), 0);
  for (let i = 0; i < repeats; i++) {
    const before = { own: ownCpu(), workers: workersCpu(), redis: cpuOf(pids.redis) };
    const t = performance.now();
    await run();
    const seconds = (performance.now() - t) / 1000;
    if (seconds < top.seconds) top = { seconds, ownCpu: ownCpu() - before.own, workersCpu: workersCpu() - before.workers, redisCpu: cpuOf(pids.redis) - before.redis };
  }
  return top;
}

async function poolSeconds(scenario: Scenario, trials: number, threads: number): Promise<Timed> {
  await simulate(scenario, { trials: Math.min(trials, 8 * SHARD_TRIALS), seed: 99, workers: threads });
  return fastest(REPEATS, { workers: [] }, async () => {
    await simulate(scenario, { trials, seed: SEED, workers: threads });
  });
}

/** Best wall-clock seconds of REPEATS queue runs after a warm-up; each tally checked against `expected`. */
async function queueSeconds(
  address: QueueAddress,
  pids: { workers: (number | undefined)[]; redis: number | undefined },
  scenario: Scenario,
  trials: number,
  expected: Float64Array,
  what: string,
): Promise<Timed> {
  await simulateOnQueue(scenario, { trials: Math.min(trials, 16 * SHARD_TRIALS), seed: 99, address });
  return fastest(REPEATS, pids, async () => {
    const run = await simulateOnQueue(scenario, { trials, seed: SEED, address });
    if (!sameTally(run.tally, expected)) throw new Error(`queue bench: the tally through the queue (${what}) differs from the local run's with the same seed and trials`);
  });
}

/** The queue's figures (undefined when redis-server is missing), printed as they come. */
export async function queueFigures(log: (line: string) => void): Promise<QueueFigures | undefined> {
  if (!redisAvailable) {
    log(`job queue: skipped, ${REDIS_SERVER} is missing (apt-get install -y redis-server)`);
    return undefined;
  }
  const cores = availableParallelism();
  const { main, cheap } = QUEUE_WORK;
  const shards = shardCount(main.trials);
  const local = await simulate(main.scenario, { trials: main.trials, seed: SEED });
  const cheapLocal = await simulate(cheap.scenario, { trials: cheap.trials, seed: SEED });
  const tinyLocal = await simulate(cheap.scenario, { trials: 1000, seed: SEED, workers: 1 });
  const redis = await startRedis();
  const url = redis.url;
  const address = parseQueueUrl(url);
  const children: ChildProcess[] = [];
  const pids = { workers: [] as (number | undefined)[], redis: redis.pid };
  try {
    const version = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1] ?? '?';
    log(
      `job queue (issue 27): ${main.label}, ${main.trials.toLocaleString('en-GB')} trials in ${shards} shards of ${SHARD_TRIALS.toLocaleString('en-GB')}, seed ${SEED}; ` +
        `redis-server ${version} on 127.0.0.1; worker processes with --concurrency 1; best of ${REPEATS} after a warm-up, wall clock, with the CPU seconds used in that run; every tally checked against the local run's`,
    );
    log(`  each configuration right after the pool with as many threads (workers started, waiting), so both see the same load on the machine`);
    const pool: PoolRate[] = [];
    const queue: QueueRate[] = [];
    let overhead: Overhead | undefined;
    let cheapOverhead: Overhead | undefined;
    let oneShard: Timed | undefined;
    let tinyPoolMs = 0;
    const perShard = (queueRun: Timed, poolRun: Timed, n: number): Pick<Overhead, 'msPerShard' | 'cpuMsPerShard'> => ({
      msPerShard: ((queueRun.seconds - poolRun.seconds) / n) * 1000,
      cpuMsPerShard: { workerBeyondPool: ((queueRun.workersCpu - poolRun.ownCpu) / n) * 1000, submitter: (queueRun.ownCpu / n) * 1000, redis: (queueRun.redisCpu / n) * 1000 },
    });
    for (const k of PROCESSES) {
      await startWorkers(url, address, k - children.length, children);
      pids.workers = children.map((c) => c.pid);
      const pt = await poolSeconds(main.scenario, main.trials, k);
      const p: PoolRate = { threads: k, seconds: pt.seconds, trialsPerSecond: main.trials / pt.seconds, cpuSeconds: pt.ownCpu };
      pool.push(p);
      log(`  in-process pool, ${k} thread${k === 1 ? ' ' : 's'}     ${(p.trialsPerSecond / 1e6).toFixed(1).padStart(6)} M trials/s (${p.seconds.toFixed(2)} s; CPU ${p.cpuSeconds.toFixed(2)} s): ${(p.cpuSeconds / p.seconds).toFixed(2)} cores busy`);
      await closePool();
      const t = await queueSeconds(address, pids, main.scenario, main.trials, local.tally, `${k} processes`);
      const rate = main.trials / t.seconds;
      const one = queue[0]?.trialsPerSecond ?? rate;
      const poolRate = p.trialsPerSecond;
      const r: QueueRate = {
        processes: k,
        seconds: t.seconds,
        trialsPerSecond: rate,
        ofLinear: rate / (k * one),
        ofLinearOnCores: rate / (Math.min(k, cores) * one),
        ofPool: rate / poolRate,
        sameTally: true,
        cpu: { submitter: t.ownCpu, workers: t.workersCpu, redis: t.redisCpu },
      };
      queue.push(r);
      const busy = (t.workersCpu + t.ownCpu + t.redisCpu) / t.seconds;
      log(
        `  queue, ${k} worker process${k === 1 ? '  ' : 'es'}  ${(rate / 1e6).toFixed(1).padStart(6)} M trials/s (${t.seconds.toFixed(2)} s; CPU workers ${t.workersCpu.toFixed(2)} s, submitter ${t.ownCpu.toFixed(2)}, redis ${t.redisCpu.toFixed(2)}): ` +
          `${busy.toFixed(2)} cores busy; ${r.ofLinear.toFixed(2)} of linear${k > cores ? ` (${r.ofLinearOnCores.toFixed(2)} of ${cores}x, this machine's ${cores} cores)` : ''}, ${r.ofPool.toFixed(2)}x the pool on ${k} thread${k === 1 ? '' : 's'}` +
          (busy < 0.9 * Math.min(k, cores) ? ` (only ${busy.toFixed(2)} of ${Math.min(k, cores)} cores for this run: other work on the machine; the ratio to the pool is the fairer figure)` : ''),
      );
      if (k === 1) {
        overhead = { label: main.label, trials: main.trials, shards, poolSeconds: p.seconds, queueSeconds: t.seconds, ...perShard(t, pt, shards) };
        const cheapShards = shardCount(cheap.trials);
        const cheapPool = await poolSeconds(cheap.scenario, cheap.trials, 1);
        tinyPoolMs = (await fastest(5, { workers: [] }, async () => {
          await simulate(cheap.scenario, { trials: 1000, seed: SEED, workers: 1 });
        })).seconds * 1000;
        await closePool();
        const c = await queueSeconds(address, pids, cheap.scenario, cheap.trials, cheapLocal.tally, 'cheap shards');
        cheapOverhead = { label: cheap.label, trials: cheap.trials, shards: cheapShards, poolSeconds: cheapPool.seconds, queueSeconds: c.seconds, ...perShard(c, cheapPool, cheapShards) };
        oneShard = await fastest(5, pids, async () => {
          const run = await simulateOnQueue(cheap.scenario, { trials: 1000, seed: SEED, address });
          if (!sameTally(run.tally, tinyLocal.tally)) throw new Error("queue bench: the tally of the one-shard run through the queue differs from the local run's");
        });
      }
    }
    const o = overhead!;
    const c = cheapOverhead!;
    const line = (v: Overhead) =>
      `  ${v.label.padEnd(36)} ${v.msPerShard.toFixed(1).padStart(5)} ms (${v.queueSeconds.toFixed(2)} s against ${v.poolSeconds.toFixed(2)} s, ${v.shards} shards); ` +
      `CPU per shard: worker ${v.cpuMsPerShard.workerBeyondPool.toFixed(1)} ms beyond the pool's, submitter ${v.cpuMsPerShard.submitter.toFixed(1)} ms, redis ${v.cpuMsPerShard.redis.toFixed(1)} ms`;
    log(`  overhead per shard, 1 process against 1 thread (target < ${QUEUE_TARGETS.overheadMsPerShard} ms):`);
    log(line(o));
    log(line(c));
    const oneShardRunMs = oneShard!.seconds * 1000;
    log(`  a run of one shard (1,000 trials), 1 process: ${oneShardRunMs.toFixed(0)} ms through the queue, ${tinyPoolMs.toFixed(1)} ms on the pool: a run's fixed cost, spread over the shards above`);
    const worstOnCores = Math.min(...queue.slice(1).map((q) => q.ofLinearOnCores));
    const msPerShard = Math.max(o.msPerShard, c.msPerShard);
    return {
      redis: version,
      cores,
      scenario: main.label,
      trials: main.trials,
      shards,
      repeats: REPEATS,
      pool,
      queue,
      overhead: o,
      cheapOverhead: c,
      oneShardRunMs,
      targets: {
        linear: { target: `>= ${QUEUE_TARGETS.ofLinear} of linear (up to the machine's cores)`, worstOnCores, met: worstOnCores >= QUEUE_TARGETS.ofLinear },
        overhead: { target: `< ${QUEUE_TARGETS.overheadMsPerShard} ms per shard`, msPerShard: o.msPerShard, cheapMsPerShard: c.msPerShard, met: msPerShard < QUEUE_TARGETS.overheadMsPerShard },
      },
    };
  } finally {
    await closePool();
    await Promise.all(children.map(stop));
    await redis.stop();
  }
}
export const queueTargetLine = (q: QueueFigures | undefined) =>
  q === undefined
    ? 'job queue skipped'
    : `queue scaling ${q.targets.linear.met ? 'met' : 'MISSED'} (worst ${q.targets.linear.worstOnCores.toFixed(2)} of linear on ${q.cores} cores, target ${q.targets.linear.target}); ` +
      `queue overhead ${q.targets.overhead.met ? 'met' : 'MISSED'} (${q.targets.overhead.msPerShard.toFixed(1)} ms per shard, ${q.targets.overhead.cheapMsPerShard.toFixed(1)} on cheap shards, target ${q.targets.overhead.target})`;
