import { setMaxListeners } from 'node:events';
import { scenarioProfilesOnce } from '../input/read-once.js';
import type { ExactSolver } from '../exact-result.js';
import { exactThreads } from '../pool/exact.js';
import { diskScenarioFiles } from '../input/scenario.js';
import { defaultWorkers } from '../pool/threads.js';
import { poolPlayer, type ChunkPlayer } from '../pool/simulate.js';
import type { Dimension, VarySpec } from './dimensions.js';
import type { GridPlan, PlannedCell, SweepResult } from './cells.js';
import { planCellsWith, planGridWith, sweepDimensionsWith, type GridPlanOptions, type ScenarioFiles } from './grid.js';
import { runSweepWith, type GridRunners, type SweepRequest } from './run-grid.js';

/**
 * Sweeps as the CLI runs them: a grid planned with the files its scenarios name read from disk, its cells'
 * exact answers solved in worker threads (src/pool/exact.ts) and simulated on the pool. What reads no file
 * and starts no thread is in src/analysis/cells.ts (cells and what is computed from them),
 * src/analysis/grid.ts (planning, over a files reader) and src/analysis/run-grid.ts (running a grid over
 * any player and solver); all are exported from here too, so Node callers import sweeps from one module.
 */
export * from './cells.js';
export * from './grid.js';
export * from './run-grid.js';

/** The CLI's grid files: scenario files from disk, and the profiles a base names read once per process. */
export const diskGridFiles: ScenarioFiles = { ...diskScenarioFiles, namedProfiles: scenarioProfilesOnce };

/** sweepDimensionsWith, the files read from disk. */
export function sweepDimensions(base: Record<string, unknown>, vary: readonly VarySpec[], options: { readonly strict?: boolean } = {}): Dimension[] {
  return sweepDimensionsWith(base, vary, diskGridFiles, options);
}

/** planGridWith, the files read from disk. */
export function planGrid(base: Record<string, unknown>, dims: readonly Dimension[], options: GridPlanOptions = {}): GridPlan {
  return planGridWith(base, dims, diskGridFiles, options);
}

/** planCellsWith, the files read from disk. */
export function planCells(base: Record<string, unknown>, dims: readonly Dimension[], onCell?: (done: number, total: number) => void): PlannedCell[] {
  return planCellsWith(base, dims, diskGridFiles, onCell);
}

/** The CLI's way of running a grid: its exact threads, its thread pool (`workers` threads), its disk files, and no listener warnings. */
export function cliRunners(req: { readonly player?: ChunkPlayer | undefined; readonly solver?: ExactSolver | undefined }, workers: number | undefined): GridRunners {
  return {
    files: diskGridFiles,
    player: req.player ?? poolPlayer(workers ?? defaultWorkers()),
    solver: req.solver ?? exactThreads,
    manyListeners: (signal) => setMaxListeners(0, signal),
  };
}

/**
 * Evaluates every cell of the grid: exact always (unless switched off), simulation too when asked, with
 * the same seeds in every cell, on the CLI's threads unless the request names a player and a solver.
 * Cells are checked before any is computed.
 */
export function runSweep(req: SweepRequest): Promise<SweepResult> {
  return runSweepWith(req, cliRunners(req, req.sim?.workers));
}
