import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { projectRoot } from '../project.js';
import { WORKER_FUNCTION } from '../sim/protocol.js';

/**
 * The worker always runs compiled JavaScript, even when the caller is TypeScript under vitest: a worker
 * thread cannot load .ts, and compiled workers start fast. `npm test` builds before it runs. The file
 * piscina loads is a CommonJS entry that import()s the worker (workers/entry.cts says why).
 */
export const workerScript: string = join(projectRoot, 'dist', 'workers', 'entry.cjs');

export function defaultWorkers(): number {
  return availableParallelism();
}

/**
 * One pool for the whole process, made on first use and kept: a sweep calls simulate for many cells in
 * a row, and starting threads for each would cost more than a small cell's trials. Idle piscina threads
 * are unref'd, so a kept pool does not hold the process open.
 */
let shared: { pool: Piscina; workers: number } | undefined;

/**
 * The shared pool with exactly `workers` threads; a pool of another size is destroyed. The check and the
 * creation happen with no await between them, so concurrent calls (a sweep starts many runs at once)
 * share one pool instead of each making their own. Concurrent runs must ask for the same worker count:
 * a different count replaces the pool under the running ones, whose tasks then fail.
 */
export async function acquirePool(workers: number): Promise<Piscina> {
  if (shared && shared.workers === workers) return shared.pool;
  if (!existsSync(workerScript)) {
    throw new Error(`simulation worker ${workerScript} is missing: run \`npm run build\` first`);
  }
  const old = shared;
  const pool = new Piscina({
    filename: pathToFileURL(workerScript).href,
    name: WORKER_FUNCTION,
    minThreads: workers,
    maxThreads: workers,
    // Threads beyond minThreads never exist; this only matters if piscina replaces a thread.
    idleTimeout: 60_000,
  });
  shared = { pool, workers };
  if (old) await old.pool.destroy();
  return pool;
}

/** Destroys the shared pool (its running tasks are rejected); the next simulation makes a new one. */
export async function closePool(): Promise<void> {
  const old = shared;
  shared = undefined;
  if (old) await old.pool.destroy();
}
