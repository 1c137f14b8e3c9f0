import { manifestFor, type ExactResult, type Manifest } from '../exact-result.js';
import { type Fraction, formatFraction, sub, toNumber } from '../exact/fraction.js';
import type { ReportLayout, Scenario } from '../model/types.js';
import { toolVersion } from '../version.js';
import { refusal } from '../messages.js';
import { orWorse, total } from '../running-sums.js';
import type { SimRun } from '../sim/play.js';
import { Z95, summarize, wilson, type CrossCheckReport, type SimSummary } from '../stats/index.js';
import type { Dimension } from './dimension-core.js';
import { differenceEstimate, type Estimate } from './paired.js';
import type { GridPoint, NotAllowedCell } from './not-allowed.js';

/**
 * The cells of a grid as sweeps, comparisons, charts and the tidy CSV read them, and what is computed
 * from cells once they hold their answers: outcomes and means, differences between cells, the manifest.
 * Reads no file and runs nothing (the pool that fills cells is src/analysis/sweep.ts's), so the web page
 * bundles it.
 */

/** How the cells of a sweep are simulated. Absent: exact only. */
export interface SimPlan {
  /** Trials per cell, split into `batches` runs of equal size (rounded up). */
  readonly trials?: number;
  /** Instead of trials: simulate each cell until every outcome's 95% half-width is at most this. */
  readonly precision?: number;
  readonly maxTrials?: number;
  /** Batch k of every cell uses seed + k: common random numbers across cells. */
  readonly seed: number;
  readonly batches: number;
  readonly workers?: number;
  /**
   * For demonstrating what common random numbers save: give every cell its own seeds (cell i uses
   * seed + i * batches + k) instead of the same ones. Reports never set this.
   */
  readonly independentSeeds?: boolean;
}

export const DEFAULT_BATCHES = 10;
export const MAX_BATCHES = 100;

/**
 * The most trials a sweep or an analysis may simulate in all: as many as one `simulate` run may
 * (MAX_TRIALS of the CLI), some hours on a few cores. Now that a grid may hold MAX_CELLS cells, the
 * per-cell limits alone would let 10,000 cells of 1e10 trials each ask for months.
 */
export const MAX_GRID_TRIALS = 1e12;

/**
 * Games a scenario of a kind with no exact answer (a battle) is simulated for in a sweep, comparison or
 * report analysis that asks for no simulation: enough for a share within about +-0.3 points (95%), a
 * second or two a scenario on two cores; trials or precision for more.
 */
export const SIMULATED_ONLY_TRIALS = 100_000;

/** A cell simulated to a precision stops here if it has not reached it (the plan's maxTrials wins). */
export const PRECISION_MAX_TRIALS = 1e9;

/** 1e12, 2.5e11: trial counts as they are written in definitions and flags. */
const trialText = (n: number) => (n >= 1e6 ? n.toExponential().replace('e+', 'e') : n.toLocaleString('en-GB'));

/**
 * Refuses in one line a simulation plan whose trials over all the grid's cells pass MAX_GRID_TRIALS,
 * counting what a cell may take at most: its trials, or its maxTrials when it runs to a precision.
 * Checked with the grid's size, before anything is planned.
 */
export function checkSimBudget(cells: number, sim: { readonly trials?: number; readonly precision?: number; readonly maxTrials?: number } | undefined): void {
  if (!sim) return;
  const byPrecision = sim.trials === undefined && sim.precision !== undefined;
  const perCell = sim.trials ?? sim.maxTrials ?? PRECISION_MAX_TRIALS;
  const total = cells * perCell;
  if (total <= MAX_GRID_TRIALS) return;
  const what = byPrecision ? `up to ${trialText(perCell)} trials (maxTrials)` : `${trialText(perCell)} trials`;
  throw refusal(
    'simulation',
    `${cells.toLocaleString('en-GB')} cells x ${what} is ${trialText(total)} trials in all`,
    `allowed: at most ${trialText(MAX_GRID_TRIALS)} in all; give fewer trials${byPrecision ? ' (a lower maxTrials)' : ''} per cell, or vary fewer values`,
  );
}

/** One outcome of one cell: the exact value where there is one, the estimate where simulated. */
export interface CellOutcome {
  readonly outcome: string;
  readonly exact?: string;
  readonly probability?: number;
  readonly orWorseExact?: string;
  readonly orWorse?: number;
  readonly estimate?: number;
  readonly ciLow?: number;
  readonly ciHigh?: number;
  readonly orWorseEstimate?: number;
  readonly orWorseCiLow?: number;
  readonly orWorseCiHigh?: number;
}

export interface CellMean {
  readonly id: string;
  readonly jsonKey: string;
  readonly label: string;
  readonly exact?: string;
  readonly value?: number;
  readonly estimate?: number;
  readonly ciLow?: number;
  readonly ciHigh?: number;
}

export interface CellSimulation {
  readonly trials: number;
  /** Seeds of the batches: seed, seed + 1, ..., seed + batches - 1. */
  readonly seed: number;
  readonly batches: number;
  readonly batchTrials: number;
  readonly workers: number;
  readonly seconds: number;
  readonly generator: string;
  readonly chunkSize: number;
  readonly reachedPrecision?: boolean;
  readonly summary: SimSummary;
  /** Per batch, the outcome counts (for paired differences between cells). */
  readonly batchCounts: readonly Float64Array[];
  /** The summed tally of all batches (for the cross-check, which also reads the means). */
  readonly tally: Float64Array;
}

export interface Cell extends GridPoint {
  readonly scenario: Scenario;
  readonly layout: ReportLayout;
  readonly exact?: ExactResult;
  readonly sim?: CellSimulation;
  readonly check?: CrossCheckReport;
  readonly outcomes: readonly CellOutcome[];
  readonly means: readonly CellMean[];
}

/** A grid as planned: the cells to compute and those the rules forbid, each in grid order (by `index`). */
export interface GridPlan {
  readonly cells: readonly PlannedCell[];
  readonly notAllowed: readonly NotAllowedCell[];
}

export interface SweepResult {
  readonly base: Record<string, unknown>;
  readonly dimensions: readonly Dimension[];
  /** The cells computed: every cell of the grid but those in `notAllowed`, in grid order. */
  readonly cells: readonly Cell[];
  /** The cells the rules forbid, left out of `cells`; their indexes are the grid's, as the cells' are. */
  readonly notAllowed: readonly NotAllowedCell[];
  readonly outcomes: readonly string[];
  readonly exact: boolean;
  readonly sim?: SimPlan;
  readonly seconds: number;
  readonly manifest: SweepManifest;
}

export interface SweepManifest {
  readonly tool: 'injury-lab';
  readonly version: string;
  readonly system: string;
  readonly kind: string;
  readonly editions: readonly string[];
  readonly ruleSources: readonly string[];
  readonly exact: boolean;
  readonly simulation?: {
    readonly generator: string;
    readonly chunkSize: number;
    readonly seed: number;
    readonly batches: number;
    readonly trialsPerCell: readonly number[];
    readonly commonRandomNumbers: boolean;
    readonly note: string;
  };
}

/** One simulation run (a `simulate` command's, or a cell's run to a precision) as a cell's single batch. */
export function cellSimulationOf(run: SimRun & { readonly reachedPrecision?: boolean }): CellSimulation {
  return {
    trials: run.trials,
    seed: run.seed,
    batches: 1,
    batchTrials: run.trials,
    workers: run.workers,
    seconds: run.seconds,
    generator: run.generator,
    chunkSize: run.chunkSize,
    ...(run.reachedPrecision !== undefined ? { reachedPrecision: run.reachedPrecision } : {}),
    summary: summarize(run),
    batchCounts: [run.tally.slice(0, run.layout.outcomes.length)],
    tally: run.tally,
  };
}

/**
 * A scenario's outcomes as sweeps, comparisons and the tidy CSV show them: the exact values where there
 * are some, the estimates with 95% intervals where simulated, each also as "this or worse".
 */
export function cellOutcomes(layout: ReportLayout, exact: ExactResult | undefined, sim: { readonly summary: SimSummary } | undefined): CellOutcome[] {
  // Wilson intervals of the "or worse" counts, in the same form as the per-outcome ones.
  // Outcomes not ranked (a duel's winners) have no "or worse".
  const orWorseEstimates = sim && !layout.unranked
    ? orWorse(sim.summary.outcomes.map((o) => o.count)).map((count) => ({ estimate: count / sim.summary.trials, ...wilson(count, sim.summary.trials, Z95) }))
    : undefined;
  return layout.outcomes.map((outcome, i) => {
    const e = exact?.outcomes[i];
    const s = sim?.summary.outcomes[i];
    const w = orWorseEstimates?.[i];
    return {
      outcome,
      ...(e ? { exact: e.exact, probability: e.probability, orWorseExact: e.orWorseExact, orWorse: e.orWorse } : {}),
      ...(s ? { estimate: s.probability, ciLow: s.ciLow, ciHigh: s.ciHigh } : {}),
      ...(s && w ? { orWorseEstimate: w.estimate, orWorseCiLow: w.low, orWorseCiHigh: w.high } : {}),
    };
  });
}

export function cellMeans(layout: ReportLayout, exact: ExactResult | undefined, sim: { readonly summary: SimSummary } | undefined): CellMean[] {
  return layout.means.map((m, j) => {
    const e = exact?.means[m.jsonKey];
    const s = sim?.summary.means[j];
    return {
      id: m.id,
      jsonKey: m.jsonKey,
      label: m.label,
      ...(e ? { exact: e.exact, value: e.value } : {}),
      ...(s ? { estimate: s.value, ciLow: s.ciLow, ciHigh: s.ciHigh } : {}),
    };
  });
}

/** A cell as planned: where it is in the grid and its checked scenario, nothing computed yet. */
export type PlannedCell = Pick<Cell, 'index' | 'point' | 'labels' | 'assignment' | 'scenario'>;

/** A planned cell with its answers: the exact one, a simulation and their cross-check, each where there is one. */
export function assembleCell(p: PlannedCell, layout: ReportLayout, exact: ExactResult | undefined, sim: CellSimulation | undefined, check: CrossCheckReport | undefined): Cell {
  return {
    ...p,
    layout,
    ...(exact ? { exact } : {}),
    ...(sim ? { sim } : {}),
    ...(check ? { check } : {}),
    outcomes: cellOutcomes(layout, exact, sim),
    means: cellMeans(layout, exact, sim),
  };
}

/** Outcome ids of several layouts in one order: the first layout's, then any new ones where they appear. */
export function unionOutcomes(lists: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  for (const list of lists) {
    list.forEach((id, i) => {
      if (out.includes(id)) return;
      // Insert after the previous outcome of this list, so severity order is kept.
      const prev = i > 0 ? out.indexOf(list[i - 1]!) : -1;
      out.splice(prev + 1, 0, id);
    });
  }
  return out;
}

/** A grid's computed cells (and those the rules forbid) as a sweep's result: its outcomes in one order, and its manifest. */
export function sweepResultOf(
  base: Record<string, unknown>,
  dimensions: readonly Dimension[],
  cells: readonly Cell[],
  notAllowed: readonly NotAllowedCell[],
  exact: boolean,
  plan: SimPlan | undefined,
  seconds: number,
): SweepResult {
  return {
    base,
    dimensions,
    cells,
    notAllowed,
    outcomes: unionOutcomes(cells.map((c) => c.layout.outcomes)),
    exact,
    ...(plan ? { sim: plan } : {}),
    seconds,
    manifest: sweepManifest(cells, exact, plan),
  };
}

const CRN_NOTE =
  'Every cell is simulated with the same seeds (batch k uses seed + k): common random numbers, so differences between cells are much less noisy than the cells themselves.';

export function sweepManifest(cells: readonly Cell[], exact: boolean, plan: SimPlan | undefined): SweepManifest {
  const manifests: Manifest[] = cells.map((c) => c.exact?.manifest ?? manifestFor(c.scenario));
  const first = cells[0]!;
  const sim = cells.find((c) => c.sim)?.sim;
  return {
    tool: 'injury-lab',
    version: toolVersion,
    system: first.scenario.system,
    kind: first.scenario.kind,
    editions: [...new Set(cells.map((c) => c.scenario.edition))],
    ruleSources: [...new Set(manifests.flatMap((m) => m.ruleSources))],
    exact,
    ...(plan && sim
      ? {
          simulation: {
            generator: sim.generator,
            chunkSize: sim.chunkSize,
            seed: plan.seed,
            batches: plan.precision !== undefined ? 1 : plan.batches,
            trialsPerCell: [...new Set(cells.map((c) => c.sim!.trials))],
            commonRandomNumbers: !plan.independentSeeds,
            note: plan.independentSeeds ? 'Every cell has its own seeds (independent runs).' : CRN_NOTE,
          },
        }
      : {}),
  };
}

/** A difference between two cells for one outcome: exact where both are exact, estimated where simulated. */
export interface OutcomeDifference {
  readonly outcome: string;
  readonly exact?: string;
  readonly value?: number;
  readonly estimate?: Estimate;
}

/**
 * Which of a cell's outcomes count towards `outcome` (or towards "`outcome` or worse"), with severity
 * read from `order`, a list of outcome ids from mildest to most severe that may hold outcomes the cell
 * does not have (comparing an attack, which can miss, with an injury roll, which cannot).
 */
function counting(cell: Cell, outcome: string, cumulative: boolean, order: readonly string[]): boolean[] {
  const at = order.indexOf(outcome);
  return cell.layout.outcomes.map((id) => (cumulative ? order.indexOf(id) >= at : id === outcome));
}

/** P(outcome), or P(outcome or worse), exactly; undefined when the cell has no exact answer. */
export function exactProbability(cell: Cell, outcome: string, cumulative: boolean, order: readonly string[] = cell.layout.outcomes): Fraction | undefined {
  if (!cell.exact) return undefined;
  const use = counting(cell, outcome, cumulative, order);
  return total(cell.exact.answer.outcomes.filter((_, i) => use[i]));
}

/** Per-batch proportions of an outcome (or of "this or worse") in a simulated cell. */
export function batchProportions(
  cell: Cell,
  outcome: string,
  cumulative: boolean,
  order: readonly string[] = cell.layout.outcomes,
): { batches: number[]; trials: number } {
  const sim = cell.sim!;
  const use = counting(cell, outcome, cumulative, order);
  return {
    trials: sim.trials,
    batches: sim.batchCounts.map((counts) => {
      let c = 0;
      for (let i = 0; i < use.length; i++) if (use[i]) c += counts[i]!;
      return c / sim.batchTrials;
    }),
  };
}

/** to - from for every outcome of `order` (default: `to`'s outcomes), or for "this or worse". */
export function cellDifference(from: Cell, to: Cell, cumulative = false, order: readonly string[] = to.layout.outcomes): OutcomeDifference[] {
  return order.map((outcome) => {
    const ea = exactProbability(from, outcome, cumulative, order);
    const eb = exactProbability(to, outcome, cumulative, order);
    const d = ea && eb ? sub(eb, ea) : undefined;
    const est = from.sim && to.sim ? differenceEstimate(batchProportions(from, outcome, cumulative, order), batchProportions(to, outcome, cumulative, order)) : undefined;
    return { outcome, ...(d ? { exact: formatFraction(d), value: toNumber(d) } : {}), ...(est ? { estimate: est } : {}) };
  });
}

/** Differences between neighbouring cells along each dimension (the previous value to this one). */
export function neighbourDifferences(sweep: SweepResult, cumulative = false) {
  const byPoint = new Map(sweep.cells.map((c) => [c.point.join(','), c]));
  const out: { dimension: string; fromCell: number; toCell: number; from: string; to: string; outcomes: OutcomeDifference[] }[] = [];
  for (const cell of sweep.cells) {
    sweep.dimensions.forEach((d, di) => {
      if (cell.point[di]! === 0) return;
      // A neighbour the rules forbid has nothing to differ from.
      const prev = byPoint.get(cell.point.map((v, k) => (k === di ? v - 1 : v)).join(','));
      if (!prev) return;
      out.push({ dimension: d.id, fromCell: prev.index, toCell: cell.index, from: prev.labels[di]!, to: cell.labels[di]!, outcomes: cellDifference(prev, cell, cumulative) });
    });
  }
  return out;
}
