import type { ExactResult, ExactSolver } from '../exact-result.js';
import type { ReportLayout, Scenario } from '../model/types.js';
import { resolveKind } from '../rules/registry.js';
import { simulateToPrecisionWith, simulateWith, type ChunkPlayer } from '../sim/play.js';
import { crossCheck, summarize, type CrossCheckReport } from '../stats/index.js';
import { PRECISION_MAX_TRIALS, assembleCell, cellSimulationOf, checkSimBudget, sweepResultOf, type Cell, type CellSimulation, type GridPlan, type PlannedCell, type SimPlan, type SweepResult } from './cells.js';
import { checkGridSize, type Dimension, type VarySpec } from './dimension-core.js';
import { planGridWith, sweepDimensionsWith, type ScenarioFiles } from './grid.js';
import { refusal } from '../messages.js';
import { checkComparable, compareCells, type CompareInput, type CompareResult } from './compare-core.js';

/**
 * Sweeps run over a player and a solver: the cells' exact answers from `solver` (the CLI's exact
 * threads, a queue's hosts, or the calling thread), their simulations played by `player` (the CLI's
 * thread pool, a queue's hosts, or the calling thread). Reads no file itself and starts no thread, so
 * the web page runs the CLI's own sweeps, simulated ones included. src/analysis/sweep.ts gives the CLI's
 * players and disk files.
 */

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
  /** Where simulated cells are played (the CLI's default: its thread pool, the plan's `workers` threads). */
  readonly player?: ChunkPlayer;
  /** Where exact cells are solved (the CLI's default: its exact threads). */
  readonly solver?: ExactSolver;
}

/** What runs a grid's cells, and the files its scenarios name. */
export interface GridRunners {
  readonly files: ScenarioFiles;
  readonly player: ChunkPlayer;
  readonly solver: ExactSolver;
  /** Node warns when more than 10 listeners wait on one abort signal: the CLI lifts the limit on the signals a run shares (a browser has none). */
  readonly manyListeners?: (signal: AbortSignal) => void;
}

async function simulateCell(scenario: Scenario, layout: ReportLayout, plan: SimPlan, seed: number, signal: AbortSignal | undefined, runners: Pick<GridRunners, 'player' | 'manyListeners'>): Promise<CellSimulation> {
  const { player } = runners;
  const outcomes = layout.outcomes.length;
  if (plan.precision !== undefined) {
    const run = await simulateToPrecisionWith(player, scenario, {
      precision: plan.precision,
      maxTrials: plan.maxTrials ?? PRECISION_MAX_TRIALS,
      seed,
      ...(signal ? { signal } : {}),
    });
    return cellSimulationOf(run);
  }
  const batches = plan.batches;
  const batchTrials = Math.ceil((plan.trials ?? 1) / batches);
  const started = performance.now();
  // Every batch and each of its tasks listens to the one abort signal.
  if (signal) runners.manyListeners?.(signal);
  // The batches run side by side, so the player's workers stay busy even when a batch is a single chunk.
  const runs = await Promise.all(Array.from({ length: batches }, (_, k) => simulateWith(player, scenario, { trials: batchTrials, seed: seed + k, ...(signal ? { signal } : {}) })));
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
 * One cell: its exact answer (solved by the caller), and its simulation (batch k with seed + k) when
 * there is a plan.
 */
export async function computeCellWith(
  p: PlannedCell,
  exact: ExactResult | undefined,
  plan: SimPlan | undefined,
  seed: number,
  signal: AbortSignal | undefined,
  runners: Pick<GridRunners, 'player' | 'manyListeners'>,
): Promise<Cell> {
  const layout = exact ? exact.layout : resolveKind(p.scenario).kind.layout(p.scenario);
  let sim: CellSimulation | undefined;
  let check: CrossCheckReport | undefined;
  if (plan) {
    sim = await simulateCell(p.scenario, layout, plan, seed, signal, runners);
    if (exact) check = crossCheck(exact.answer, { layout, trials: sim.trials, tally: sim.tally });
  }
  return assembleCell(p, layout, exact, sim, check);
}

/**
 * Every scenario's exact answer, asked for at once so that the solver's workers solve them side by side;
 * awaited in order by the caller. A failure is handled when its cell is awaited, never reported before.
 */
export function solveAll(solver: ExactSolver, scenarios: readonly Scenario[], signal: AbortSignal | undefined, manyListeners?: (signal: AbortSignal) => void): Promise<ExactResult>[] {
  if (signal) manyListeners?.(signal);
  const answers = scenarios.map((s) => solver.solve(s, signal));
  for (const a of answers) a.catch(() => undefined);
  return answers;
}

/**
 * Evaluates every cell of the grid: exact always (unless switched off), simulation too when asked, with
 * the same seeds in every cell. Cells are checked before any is computed.
 */
export async function runSweepWith(req: SweepRequest, runners: GridRunners): Promise<SweepResult> {
  const started = performance.now();
  const plan = req.sim;
  checkSimBudget(checkGridSize(req.vary) ?? 0, plan);
  const dims = req.planned?.dimensions ?? sweepDimensionsWith(req.base, req.vary, runners.files, { strict: req.strict === true });
  const grid = req.planned ?? planGridWith(req.base, dims, runners.files, { ...(req.onPlan ? { onCell: req.onPlan } : {}), ...(req.strict ? { strict: true } : {}) });
  const planned = grid.cells;
  const exactWanted = req.exact ?? true;
  const exacts = exactWanted ? solveAll(runners.solver, planned.map((p) => p.scenario), req.signal, runners.manyListeners) : [];
  const cells = await eachAtOnce(
    planned.length,
    plan ? (runners.player.cellsAtOnce ?? 1) : 1,
    req.signal,
    async (i, signal) => {
      const p = planned[i]!;
      // Seeds go by the cell's place in the whole grid, not among the cells computed: a value the rules
      // forbid somewhere changes no other cell's answer (with common random numbers no cell's seed
      // depends on its place at all).
      const seed = plan ? (plan.independentSeeds ? plan.seed + p.index * plan.batches : plan.seed) : 0;
      return computeCellWith(p, await exacts[i], plan, seed, signal, runners);
    },
    req.onCell,
    runners.manyListeners,
  );
  return sweepResultOf(req.base, dims, cells, grid.notAllowed, exactWanted, plan, (performance.now() - started) / 1000);
}

/**
 * Two or more scenarios compared as `injury-lab compare` compares them: each parsed by `parse` (from
 * disk on the command line, from opened files in the page), all checked before anything is computed,
 * solved by the runners' solver and, given a plan, simulated by their player with the same seeds for
 * each (common random numbers, as in a sweep).
 */
export async function compareWith(
  inputs: readonly CompareInput[],
  parse: (input: CompareInput) => Scenario,
  opts: { readonly exact?: boolean; readonly sim?: SimPlan; readonly signal?: AbortSignal; readonly allowMixed?: boolean },
  runners: Pick<GridRunners, 'player' | 'solver' | 'manyListeners'>,
): Promise<CompareResult> {
  if (inputs.length < 2) throw refusal('compare', 'give at least two scenario files');
  const planned = inputs.map((input, index) => ({ index, point: [index], labels: [input.name], assignment: {}, scenario: parse(input) }));
  checkComparable(
    planned.map((p) => ({ file: inputs[p.index]!.file, scenario: p.scenario })),
    opts.allowMixed === true,
  );
  const exacts = (opts.exact ?? true) ? solveAll(runners.solver, planned.map((p) => p.scenario), opts.signal, runners.manyListeners) : [];
  const scenarios: CompareResult['scenarios'][number][] = [];
  for (const p of planned) {
    const cell = await computeCellWith(p, await exacts[p.index], opts.sim, opts.sim?.seed ?? 0, opts.signal, runners);
    scenarios.push({ name: inputs[p.index]!.name, file: inputs[p.index]!.file, cell });
  }
  return compareCells(scenarios, opts.sim);
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
  onDone: ((done: number, total: number) => void) | undefined,
  manyListeners: ((signal: AbortSignal) => void) | undefined,
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
  manyListeners?.(stop.signal);
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  manyListeners?.(signal);
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
