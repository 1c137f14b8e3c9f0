import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { refusal } from '../messages.js';
import type { Scenario } from '../model/types.js';
import { simulate, type ChunkPlayer, type PlayRange, type SimRun } from '../pool/simulate.js';
import type { KernelSource } from '../sim/protocol.js';
import { CHUNK_SIZE } from '../sim/protocol.js';
import { toolVersion } from '../version.js';
import { checkReachable, redisOptions, unreachable } from './connection.js';
import { exactResultOf, type DuelChances, type ExactResult } from '../exact-result.js';
import type { ExactAnswer, ReportLayout } from '../model/types.js';
import type { ExactSolver } from '../pool/exact.js';
import { kindExact } from '../rules/exact-kinds.js';
import { kindSimulation } from '../rules/simulations.js';
import {
  assertJsonSafe,
  DUELS_JOB,
  DUELS_PER_JOB,
  duelsJob,
  EXACT_JOB,
  exactJob,
  MAX_SCENARIO_CHARS,
  readDuelChances,
  readExactAnswer,
  readShardResult,
  SHARD_JOB,
  shardCount,
  shardJob,
  battleShardJob,
  shardJobId,
  shardQueueName,
  shardTrials,
  type DuelsJob,
  type ExactJob,
  type QueueAddress,
  type ShardJob,
  type BattleShardJob,
} from './shards.js';
import { battlePlanOf } from '../rules/trench-crusade/battle/resolved.js';
import { battleLayoutOf } from '../rules/trench-crusade/battle/report.js';

export interface QueueOptions {
  readonly address: QueueAddress;
  /** Told once when no worker is listening on the queue as the session opens. */
  readonly onNoWorkers?: () => void;
  /** Told, in a line, of trouble on the way and what the session does about it: the connection lost and back, jobs the server lost and queued again, workers gone and back. */
  readonly onNotice?: (line: string) => void;
}

/**
 * A connection to the queue that plays chunk ranges, solves exact cells and batches of a price field's duels on the hosts of
 * `injury-lab worker`s: the player and solver a `simulate`, `sweep`, `report` or `price` run hands its work to
 * (src/pool/simulate.ts's ChunkPlayer, src/exact-result.ts's ExactSolver with its duelBatches).
 */
export interface QueueSession extends ChunkPlayer, ExactSolver {
  /** Takes this session's shards still waiting out of the queue (never another run's) and closes its connections. */
  close(): Promise<void>;
}

/**
 * Jobs queued at once over all the session's work: enough to keep many hosts busy, few enough that a
 * run of 10^12 trials holds a bounded number of jobs in Redis. New shards are added in batches once fewer
 * than half are out, so adding them is a round trip per batch rather than per shard.
 */
const IN_FLIGHT = 512;

/**
 * How often the session looks for its jobs that the server no longer has (restarted without saving,
 * flushed, evicted under memory pressure): a job missing at two looks in a row is queued again under its
 * id. A job that finished between two looks is heard of by its event before the second, and one queued
 * again needlessly is played twice but counted once (by its id), so the run's counts never change.
 */
const LOST_CHECK_MS = 2000;
/** How long closing a session waits on Redis before it cuts the connections. */
const CLOSE_MS = 2000;

/**
 * A job's answer that no honest worker of this version gives (counts that do not add up): asked again,
 * so another worker (or the same one, if it erred once) plays it. Past MAX_REPLAYS of one job the run
 * stops, saying so: a worker that always answers wrong must not hold a run for ever.
 */
class Replay {
  constructor(readonly why: string) {}
}
const MAX_REPLAYS = 3;

/** Cells of a sweep simulated at once through the queue: their shards together keep many hosts busy. */
const CELLS_AT_ONCE = 64;

/** A job as it is added: its kind and its data. */
interface QueuedJob {
  readonly name: typeof SHARD_JOB | typeof EXACT_JOB | typeof DUELS_JOB;
  readonly data: ShardJob | BattleShardJob | ExactJob | DuelsJob;
}

/** A job as messages name it: "an exact cell", "a batch of duels", "shard 3". */
function jobShown(job: QueuedJob, index: number): string {
  if (job.name === EXACT_JOB) return 'an exact cell';
  if (job.name === DUELS_JOB) return 'a batch of duels';
  return `shard ${index}`;
}

/**
 * Duels cut into jobs of at most DUELS_PER_JOB, and at most MAX_SCENARIO_CHARS of JSON, what a worker
 * takes: a job's first and last duel + 1. Duels are some 3.6 KB each, so the count decides unless a
 * variant file's rule table is inlined in every one.
 */
function duelJobs(scenarios: readonly Scenario[]): { from: number; to: number }[] {
  const jobs: { from: number; to: number }[] = [];
  let chars = 0;
  for (const [k, s] of scenarios.entries()) {
    const size = JSON.stringify(s).length;
    const last = jobs.at(-1);
    if (last && last.to - last.from < DUELS_PER_JOB && chars + size <= MAX_SCENARIO_CHARS) {
      last.to = k + 1;
      chars += size;
    } else {
      jobs.push({ from: k, to: k + 1 });
      chars = size;
    }
  }
  return jobs;
}

/**
 * Work asked of the queue under one run id: a chunk range's shards, one exact cell, or a batch of duels. Its jobs, those out
 * in the queue, and what has come back.
 */
interface Asked {
  readonly runId: string;
  readonly jobs: number;
  readonly job: (index: number) => QueuedJob;
  /**
   * Takes job `index`'s returned value: undefined when it is taken, a Replay when the value is one no
   * honest worker gives (the job is asked again), else the error that ends the run.
   */
  readonly take: (index: number, value: unknown) => unknown;
  /** How often each job was asked again after an impossible answer. */
  readonly replays: Map<number, number>;
  readonly signal: AbortSignal | undefined;
  readonly pending: Set<number>;
  readonly counted: Set<number>;
  next: number;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
  readonly onAbort: () => void;
}

/**
 * Opens the queue: any number of chunk ranges (a run, a round of a run to a precision, the batches of a
 * sweep's cells) and exact cells may be asked for at once. Each is asked under a run id of its own, its
 * jobs' ids made of it, so each job is counted once whatever the delivery, and the summed tally equals
 * the local pool's exactly.
 */
export async function openQueue(opts: QueueOptions): Promise<QueueSession> {
  const now = await checkReachable(opts.address);
  const connection = redisOptions(opts.address);
  const name = shardQueueName();
  const queue = new Queue(name, { connection });
  // Events are read from just before now on the server's clock, not from the first read ('$'): a
  // shard finished between adding it and that read would otherwise never be heard of.
  const events = new QueueEvents(name, { connection, lastEventId: `${now - 1}-0` });
  // A lost connection is retried for ever by ioredis (BullMQ wants it so); the user is told once per loss.
  let connected = true;
  const onError = (): void => {
    if (!connected) return;
    connected = false;
    opts.onNotice?.(`lost the connection to Redis at ${opts.address.shown}; waiting for it to come back`);
  };
  const onAnswer = (): void => {
    if (connected) return;
    connected = true;
    opts.onNotice?.(`the connection to Redis at ${opts.address.shown} is back`);
  };
  queue.on('error', onError);
  events.on('error', onError);
  let lostCheck: NodeJS.Timeout | undefined;
  const closeConnections = () => {
    clearInterval(lostCheck);
    return Promise.all([events.close(), queue.close()]).catch(() => {});
  };
  let workers = 0;
  try {
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    workers = await queue.getWorkersCount().catch(() => 0);
    if (workers === 0) {
      // Workers of other versions never see this version's jobs (a queue per version): if they are all
      // there is, the run would wait for ever. Said at once instead, naming both versions.
      const others = await otherVersionWorkers(opts.address).catch(() => new Map<string, number>());
      if (others.size > 0) {
        const list = [...others].map(([version, n]) => `${n} of injury-lab ${version}`).join(', ');
        throw refusal(
          '--queue',
          `no worker of injury-lab ${toolVersion} takes jobs from ${opts.address.shown}, only workers of other versions (${list}), which cannot run this version's jobs`,
          `start \`injury-lab worker\` of version ${toolVersion} there`,
        );
      }
    }
  } catch (err) {
    await closeConnections();
    throw err;
  }
  if (workers === 0) opts.onNoWorkers?.();

  const runs = new Map<string, Asked>();
  /** Ranges with shards not yet added, in the order they were asked for. */
  const waiting: Asked[] = [];
  let inFlight = 0;
  let closed = false;

  const runOf = (jobId: string): { run: Asked; shard: number } | undefined => {
    const cut = jobId.lastIndexOf('-');
    const run = runs.get(jobId.slice(0, cut));
    const shard = Number(jobId.slice(cut + 1));
    return run && run.pending.has(shard) ? { run, shard } : undefined;
  };

  /** Ends asked work: its jobs still out are taken out of the queue (one a worker holds is finished or dropped, and goes to nobody). */
  const end = (run: Asked, err?: unknown): void => {
    if (!runs.delete(run.runId)) return;
    const at = waiting.indexOf(run);
    if (at >= 0) waiting.splice(at, 1);
    run.signal?.removeEventListener('abort', run.onAbort);
    inFlight -= run.pending.size;
    for (const shard of run.pending) void queue.remove(shardJobId(run.runId, shard)).catch(() => 0);
    run.pending.clear();
    if (err === undefined) run.resolve();
    else run.reject(err);
    pump();
  };

  function pump(): void {
    if (closed || inFlight > IN_FLIGHT / 2) return;
    const batch: { run: Asked; shard: number }[] = [];
    while (inFlight < IN_FLIGHT && waiting.length > 0) {
      const run = waiting[0]!;
      const shard = run.next++;
      run.pending.add(shard);
      inFlight++;
      batch.push({ run, shard });
      if (run.next >= run.jobs) waiting.shift();
    }
    if (batch.length > 0) addJobs(batch);
  }

  /** Adds jobs under their ids: a job whose id the queue still holds is not added twice. */
  function addJobs(batch: readonly { run: Asked; shard: number }[]): void {
    queue
      .addBulk(
        batch.map(({ run, shard }) => ({
          ...run.job(shard),
          opts: { jobId: shardJobId(run.runId, shard), attempts: 1, removeOnComplete: true, removeOnFail: true },
        })),
      )
      .then(onAnswer)
      .catch((err: unknown) => {
        for (const { run } of batch) end(run, err);
      });
  }

  /** Job ids missing at the last look. */
  let missing = new Set<string>();
  let looking = false;
  /** Whether workers were listening at the last look: a run left with none (all stopped or killed) is told, and told again when one comes. */
  let served = workers > 0;
  const lookForLostJobs = async (): Promise<void> => {
    if (looking || closed || runs.size === 0) return;
    looking = true;
    try {
      const listening = await queue.getWorkersCount();
      if (served && listening === 0) opts.onNotice?.(`no worker is taking jobs from ${opts.address.shown} any more; the run waits for one`);
      if (!served && listening > 0) opts.onNotice?.(`${listening} worker${listening === 1 ? ' is' : 's are'} taking jobs from ${opts.address.shown} now`);
      served = listening > 0;
      const out = [...runs.values()].flatMap((run) => [...run.pending].map((shard) => ({ run, shard, id: shardJobId(run.runId, shard) })));
      const states = await Promise.all(out.map((o) => queue.getJobState(o.id)));
      onAnswer();
      const lost = out.filter((o, k) => states[k] === 'unknown' && missing.has(o.id) && o.run.pending.has(o.shard));
      missing = new Set(out.filter((o, k) => states[k] === 'unknown' && !missing.has(o.id)).map((o) => o.id));
      if (lost.length > 0 && !closed) {
        opts.onNotice?.(`the Redis server lost ${lost.length} job${lost.length === 1 ? '' : 's'} of this run (restarted without saving?); queued again`);
        addJobs(lost);
      }
    } catch {
      // Redis is out of reach: the next look tries again.
    } finally {
      looking = false;
    }
  };
  lostCheck = setInterval(() => void lookForLostJobs(), LOST_CHECK_MS);
  lostCheck.unref();

  events.on('completed', ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) => {
    const found = runOf(jobId);
    if (!found) return;
    const { run, shard } = found;
    let err: unknown;
    try {
      err = run.take(shard, returnvalue);
    } catch (e) {
      err = e;
    }
    if (err instanceof Replay) {
      const replays = (run.replays.get(shard) ?? 0) + 1;
      run.replays.set(shard, replays);
      const what = jobShown(run.job(shard), shard);
      if (replays > MAX_REPLAYS) {
        end(run, refusal('--queue', `${what} of the run came back impossible ${replays} times (${err.why}): a worker at ${opts.address.shown} gives wrong answers`, `stop it, and run workers of injury-lab ${toolVersion}`));
      } else {
        opts.onNotice?.(`${what} of the run came back impossible from a worker (${err.why}); asked again`);
        addJobs([{ run, shard }]);
      }
      return;
    }
    if (err !== undefined) {
      end(run, err);
      return;
    }
    run.pending.delete(shard);
    run.counted.add(shard);
    inFlight--;
    if (run.counted.size === run.jobs) end(run);
    else pump();
  });
  events.on('failed', ({ jobId, failedReason }: { jobId: string; failedReason: string }) => {
    const found = runOf(jobId);
    // The worker's reason, in the one line a refusal is (the CLI prints it and exits 2).
    if (found) end(found.run, refusal('--queue', `a worker failed ${jobShown(found.run.job(found.shard), found.shard)} of the run: ${String(failedReason)}`));
  });

  /** Queues `jobs` jobs under a new run id; resolves once every one's value is taken. */
  const ask = (jobs: number, job: (runId: string, index: number) => QueuedJob, take: Asked['take'], signal: AbortSignal | undefined): Promise<void> => {
    if (closed) return Promise.reject(new Error('the queue session is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (jobs <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const runId = randomUUID();
      const run: Asked = {
        runId,
        jobs,
        job: (index) => job(runId, index),
        take,
        signal,
        pending: new Set(),
        counted: new Set(),
        replays: new Map(),
        next: 0,
        resolve,
        reject,
        onAbort: () => end(run, signal!.reason),
      };
      runs.set(runId, run);
      waiting.push(run);
      signal?.addEventListener('abort', run.onAbort, { once: true });
      pump();
    });
  };

  return {
    workers,
    cellsAtOnce: CELLS_AT_ONCE,
    play(source: KernelSource, tally: Float64Array, range: PlayRange): Promise<void> {
      if (source.type === 'dice') return Promise.reject(new Error('only scenarios and battles are played through the queue'));
      const fromChunk = range.fromTrial / CHUNK_SIZE;
      let layout: ReportLayout;
      let shardOf: (runId: string, shard: number) => ShardJob | BattleShardJob;
      if (source.type === 'battle') {
        const battle = source.battle;
        assertJsonSafe(battle, 'battle');
        layout = battleLayoutOf(battlePlanOf(battle));
        shardOf = (runId, shard) => battleShardJob(runId, shard, battle, range.seed, range.toTrial, fromChunk);
      } else {
        const scenario: Scenario = source.scenario;
        assertJsonSafe(scenario);
        layout = kindSimulation(scenario).layout(scenario);
        shardOf = (runId, shard) => shardJob(runId, shard, scenario, range.seed, range.toTrial, fromChunk);
      }
      let doneTrials = 0;
      return ask(
        shardCount(range.toTrial, fromChunk),
        (runId, shard) => ({ name: SHARD_JOB, data: shardOf(runId, shard) }),
        (shard, value) => {
          const trials = shardTrials(shardOf('', shard));
          const part = readShardResult(value, layout, trials);
          if (typeof part === 'string') return new Replay(part);
          for (let i = 0; i < part.length; i++) tally[i]! += part[i]!;
          doneTrials += trials;
          range.onTrials?.(doneTrials);
          return undefined;
        },
        range.signal,
      );
    },
    async solve(scenario: Scenario, signal?: AbortSignal): Promise<ExactResult> {
      assertJsonSafe(scenario);
      const layout = kindExact(scenario).layout(scenario);
      let answer: ExactAnswer | undefined;
      await ask(
        1,
        (runId) => ({ name: EXACT_JOB, data: exactJob(runId, scenario) }),
        (_, value) => {
          answer = readExactAnswer(value, layout);
          return answer ? undefined : new Replay('its fractions are not an answer: probabilities outside 0 to 1, or not summing to 1');
        },
        signal,
      );
      return exactResultOf(scenario, layout, answer!);
    },
    duelBatches: {
      perBatch: DUELS_PER_JOB,
      async solve(scenarios: readonly Scenario[], signal?: AbortSignal): Promise<DuelChances[]> {
        for (const s of scenarios) assertJsonSafe(s);
        const jobs = duelJobs(scenarios);
        const chances: DuelChances[] = new Array(scenarios.length);
        await ask(
          jobs.length,
          (runId, index) => ({ name: DUELS_JOB, data: duelsJob(runId, scenarios.slice(jobs[index]!.from, jobs[index]!.to)) }),
          (index, value) => {
            const { from, to } = jobs[index]!;
            const read = readDuelChances(value, to - from);
            if (!read) return new Replay("its chances are not a batch's: not one triple of fractions from 0 to 1 summing to 1 per duel");
            for (let i = 0; i < read.length; i++) chances[from + i] = read[i]!;
            return undefined;
          },
          signal,
        );
        return chances;
      },
    },
    async close() {
      closed = true;
      const left = [...runs.values()];
      const removals = left.flatMap((run) => [...run.pending].map((shard) => queue.remove(shardJobId(run.runId, shard)).catch(() => 0)));
      for (const run of left) end(run, new Error('the queue session was closed before the run finished'));
      // Taking the jobs out and closing wait on Redis, which may be gone (ioredis retries for ever): given
      // CLOSE_MS, or less once a fresh connection shows the server gone, then the connections are cut. An
      // interrupted run then exits on one signal, not two.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), CLOSE_MS);
        void unreachable(opts.address).then(() => resolve('late'));
      });
      const done = await Promise.race([Promise.all(removals).then(closeConnections), late]);
      clearTimeout(timer);
      // Not awaited: with Redis gone, BullMQ's disconnect waits for an 'end' that may never come.
      if (done === 'late') for (const side of [events, queue]) void side.disconnect().catch(() => {});
    },
  };
}

/**
 * Workers of other injury-lab versions connected to this Redis server, by version: BullMQ names a worker's
 * connection after its queue (bull:BASE64(queue name)[:w:NAME]), and each version has a queue of its own.
 */
export async function otherVersionWorkers(address: QueueAddress): Promise<Map<string, number>> {
  const client = new Redis({ ...redisOptions(address), maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  let list: string;
  try {
    list = String(await client.client('LIST'));
  } finally {
    client.disconnect();
  }
  const mine = shardQueueName();
  const found = new Map<string, number>();
  for (const line of list.split(/\r?\n/)) {
    const name = /(?:^| )name=bull:([A-Za-z0-9+/]+=*)(?::w:\S*)?(?: |$)/.exec(line)?.[1];
    if (name === undefined) continue;
    const queueName = Buffer.from(name, 'base64').toString('utf8');
    const version = /^injury-lab-(.+)-shards$/.exec(queueName)?.[1];
    if (version !== undefined && queueName !== mine) found.set(version, (found.get(version) ?? 0) + 1);
  }
  return found;
}

/** Opens the queue, hands it to `body`, and closes it whatever happens (Ctrl-C and failures take the session's waiting shards out). */
export async function withQueue<T>(opts: QueueOptions, body: (session: QueueSession) => Promise<T>): Promise<T> {
  const session = await openQueue(opts);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

export interface QueueSimOptions extends QueueOptions {
  readonly trials: number;
  readonly seed: number;
  readonly onProgress?: (doneTrials: number, totalTrials: number) => void;
  readonly signal?: AbortSignal;
}

/**
 * `simulate` through a BullMQ queue on Redis: the run's shards are queued (a bounded number at a time),
 * any number of `injury-lab worker` processes play them, and their tallies are summed as they come back.
 * The tally equals a local run's exactly. Aborting removes the run's jobs still in the queue and rejects.
 */
export async function simulateOnQueue(scenario: Scenario, opts: QueueSimOptions): Promise<SimRun> {
  assertJsonSafe(scenario);
  return withQueue(opts, async (player) => {
    if (opts.signal?.aborted) throw opts.signal.reason;
    return simulate(scenario, {
      trials: opts.trials,
      seed: opts.seed,
      player,
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  });
}
