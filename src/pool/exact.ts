import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { refusal } from '../messages.js';
import type { DuelChances, ExactResult, ExactSolver } from '../exact-result.js';
import type { Scenario } from '../model/types.js';
import { workerScript } from './threads.js';

export type { ExactSolver } from '../exact-result.js';

/**
 * Exact answers solved in worker threads, for the commands that run many cells (sweep, compare,
 * report). A solve can take a minute, and while one runs on the main thread nothing else does: Ctrl-C
 * would wait for it. In a worker, the main thread hears the signal at once and the pool is destroyed
 * mid-solve. The cells of a grid are also solved side by side, one per core.
 *
 * `exact` and `check` solve one scenario on the main thread (evaluateExact): they install no Ctrl-C
 * handler, so Ctrl-C ends them at once, and they print nothing until the end.
 */

/** What a worker hands back (workers/exact.ts): the answer, or the one line a user's mistake is refused with. */
export type ExactReply = { readonly result: ExactResult } | { readonly usageError: string };
/** What a worker hands back for a batch of duels (workers/exact.ts solveDuels): their chances, or the refused duel's place and line. */
export type DuelsReply = { readonly chances: DuelChances[] } | { readonly usageError: string; readonly duel: number };

let shared: Piscina | undefined;

function pool(): Piscina {
  shared ??= new Piscina({
    filename: pathToFileURL(workerScript).href,
    name: 'evaluateCell',
    minThreads: 1,
    maxThreads: availableParallelism(),
    // Idle threads are unref'd and end after a while: a kept pool never holds the process open.
    idleTimeout: 10_000,
  });
  return shared;
}

/** A parsed scenario's exact answer, solved in a worker; an abort stops the solve where it is. */
export async function evaluateInWorker(scenario: Scenario, signal?: AbortSignal): Promise<ExactResult> {
  signal?.throwIfAborted();
  const reply = (await pool().run(scenario, signal ? { signal } : {})) as ExactReply;
  if ('usageError' in reply) throw refusal('', reply.usageError);
  return reply.result;
}

/**
 * Duels' chances, solved one after another in one worker: a queue job's batch (src/queue/worker.ts). A
 * duel the engine refuses is refused, named by its place in the batch.
 */
export async function solveDuelsInWorker(scenarios: readonly Scenario[]): Promise<DuelChances[]> {
  const reply = (await pool().run(scenarios, { name: 'solveDuels' })) as DuelsReply;
  if ('usageError' in reply) throw refusal('', `duel ${reply.duel + 1} of the ${scenarios.length} in the batch: ${reply.usageError}`);
  return reply.chances;
}

/** The exact threads as a solver: what the CLI's sweeps, comparisons and reports solve their cells with. */
export const exactThreads: ExactSolver = { solve: evaluateInWorker };

/** Stops the exact workers (a running solve is abandoned); the next call makes a new pool. */
export async function closeExactPool(): Promise<void> {
  const old = shared;
  shared = undefined;
  if (old) await old.destroy();
}
