import { scenarioProfilesOnce } from '../input/read-once.js';
import type { ExactResult } from '../evaluate.js';
import { evaluateAllInWorkers, type ExactSolver } from '../pool/exact.js';
import { diskScenarioFiles } from '../input/scenario.js';
import type { ReportLayout, Scenario } from '../model/types.js';
import { resolveKind } from '../rules/registry.js';
import { setMaxListeners } from 'node:events';
import { acquirePool, defaultWorkers } from '../pool/threads.js';
import { poolPlayer, simulate, simulateToPrecision, type ChunkPlayer } from '../pool/simulate.js';
import { crossCheck, summarize, type CrossCheckReport } from '../stats/index.js';
import { checkGridSize, type Dimension, type VarySpec } from './dimensions.js';
import {
  PRECISION_MAX_TRIALS,
  assembleCell,
  cellSimulationOf,
  checkSimBudget,
  sweepResultOf,
  type Cell,
  type CellSimulation,
  type GridPlan,
  type PlannedCell,
  type SimPlan,
  type SweepResult,
} from './cells.js';
import { planCellsWith, planGridWith, sweepDimensionsWith, type GridPlanOptions, type ScenarioFiles } from './grid.js';

/**
 * Sweeps as the CLI runs them: a grid planned with the files its scenarios name read from disk, its cells'
 * exact answers solved in worker threads (src/pool/exact.ts) and simulated on the pool. What reads no file
 * and runs nothing is in src/analysis/cells.ts (cells and what is computed from them) and
 * src/analysis/grid.ts (planning, over a files reader); both are exported from here too, so Node callers
 * import sweeps from one module.
 */
export * from './cells.js';
export * from './grid.js';

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

export interface SweepRequest {
  /** Raw scenario fields the grid starts from (defaults are filled per cell, so an edition's own apply). */
  readonly base: Record<string, unknown>;
  readonly vary: readonly VarySpec[];
  /** Compute exact answers (default true). */
  readonly exact?: boolean;
  readonly sim?: SimPlan;
  readonly signal?: AbortSignal;
  /**
   * The dimensions and cells as a report definition checked and planned them: a run does not plan
   * them again (each is a scenario checked against its rules and profiles).
   */
  readonly planned?: { readonly dimensions: readonly Dimension[] } & GridPlan;
  /** When the sweep plans its own cells: refuse a cell the rules forbid, as a one-off run does, instead of leaving it out. */
  readonly strict?: boolean;
  /** Called after each planned cell, when the sweep plans its own. */
  readonly onPlan?: (done: number, total: number) => void;
  /** Called after each finished cell. */
  readonly onCell?: (done: number, total: number) => void;
  /** Where simulated cells are played (default: this process's thread pool, the plan's `workers` threads). */
  readonly player?: ChunkPlayer;
  /** Where exact cells are solved (default: this process's exact threads). */
  readonly solver?: ExactSolver;
}


async function simulateCell(scenario: Scenario, layout: ReportLayout, plan: SimPlan, seed: number, signal: AbortSignal | undefined, given: ChunkPlayer | undefined): Promise<CellSimulation> {
  const outcomes = layout.outcomes.length;
  const workers = plan.workers ?? defaultWorkers();
  const player = given ?? poolPlayer(workers);
  if (plan.precision !== undefined) {
    const run = await simulateToPrecision(scenario, {
      precision: plan.precision,
      maxTrials: plan.maxTrials ?? PRECISION_MAX_TRIALS,
      seed,
      player,
      ...(signal ? { signal } : {}),
    });
    return cellSimulationOf(run);
  }
  const batches = plan.batches;
  const batchTrials = Math.ceil((plan.trials ?? 1) / batches);
  const started = performance.now();
  // The pool is made once before the batches start: calls that race to make it would each start one.
  if (!given) await acquirePool(workers);
  // Every batch and each of its tasks listens to the one abort signal.
  if (signal) setMaxListeners(0, signal);
  // The batches run side by side on the shared pool, so both cores stay busy even when a batch is a
  // single chunk.
  const runs = await Promise.all(
    Array.from({ length: batches }, (_, k) => simulate(scenario, { trials: batchTrials, seed: seed + k, player, ...(signal ? { signal } : {}) })),
  );
  const tally = new Float64Array(runs[0]!.tally.length);
  for (const r of runs) for (let i = 0; i < tally.length; i++) tally[i]! += r.tally[i]!;
  const trials = batchTrials * batches;
  return {
    trials,
    seed,
    batches,
    batchTrials,
    workers: runs[0]!.workers,
    seconds: (performance.now() - started) / 1000,
    generator: runs[0]!.generator,
    chunkSize: runs[0]!.chunkSize,
    summary: summarize({ layout, trials, tally }),
    batchCounts: runs.map((r) => r.tally.slice(0, outcomes)),
    tally,
  };
}


/**
 * One cell: its exact answer (solved by the caller, see evaluateAllInWorkers), and its simulation
 * (batch k with seed + k) when there is a plan.
 */
export async function computeCell(
  p: PlannedCell,
  exact: ExactResult | undefined,
  plan: SimPlan | undefined,
  seed: number,
  signal?: AbortSignal,
  player?: ChunkPlayer,
): Promise<Cell> {
  const layout = exact ? exact.layout : resolveKind(p.scenario).kind.layout(p.scenario);
  let sim: CellSimulation | undefined;
  let check: CrossCheckReport | undefined;
  if (plan) {
    sim = await simulateCell(p.scenario, layout, plan, seed, signal, player);
    if (exact) check = crossCheck(exact.answer, { layout, trials: sim.trials, tally: sim.tally });
  }
  return assembleCell(p, layout, exact, sim, check);
}

/**
 * Evaluates every cell of the grid: exact always (unless switched off), simulation too when asked, with
 * the same seeds in every cell. Cells are checked before any is computed.
 */
export async function runSweep(req: SweepRequest): Promise<SweepResult> {
  const started = performance.now();
  const plan = req.sim;
  checkSimBudget(checkGridSize(req.vary) ?? 0, plan);
  const dims = req.planned?.dimensions ?? sweepDimensions(req.base, req.vary, { strict: req.strict === true });
  const grid = req.planned ?? planGrid(req.base, dims, { ...(req.onPlan ? { onCell: req.onPlan } : {}), ...(req.strict ? { strict: true } : {}) });
  const planned = grid.cells;
  const exactWanted = req.exact ?? true;
  const exacts = exactWanted ? evaluateAllInWorkers(planned.map((p) => p.scenario), req.signal, req.solver) : [];
  const cells = await eachAtOnce(planned.length, plan ? (req.player?.cellsAtOnce ?? 1) : 1, req.signal, async (i, signal) => {
    const p = planned[i]!;
    // Seeds go by the cell's place in the whole grid, not among the cells computed: a value the rules
    // forbid somewhere changes no other cell's answer (with common random numbers no cell's seed
    // depends on its place at all).
    const seed = plan ? (plan.independentSeeds ? plan.seed + p.index * plan.batches : plan.seed) : 0;
    return computeCell(p, await exacts[i], plan, seed, signal, req.player);
  }, req.onCell);
  return sweepResultOf(req.base, dims, cells, grid.notAllowed, exactWanted, plan, (performance.now() - started) / 1000);
}

/**
 * work(0) .. work(count - 1), at most `atOnce` at a time, results in order. The first failure aborts the
 * signal the others were given and is what rejects, once every started one has settled (none is left
 * running behind the caller's back).
 */
async function eachAtOnce<T>(
  count: number,
  atOnce: number,
  outer: AbortSignal | undefined,
  work: (index: number, signal: AbortSignal | undefined) => Promise<T>,
  onDone?: (done: number, total: number) => void,
): Promise<T[]> {
  const results: T[] = [];
  if (atOnce <= 1) {
    for (let i = 0; i < count; i++) {
      results.push(await work(i, outer));
      onDone?.(results.length, count);
    }
    return results;
  }
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  setMaxListeners(0, signal);
  let next = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < count) {
      const i = next++;
      try {
        results[i] = await work(i, signal);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          stop.abort(error);
        }
        return;
      }
      done++;
      try {
        onDone?.(done, count);
      } catch (error) {
        failure ??= { error };
        stop.abort(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, count) }, lane));
  if (failure !== undefined) throw failure.error;
  return results;
}

