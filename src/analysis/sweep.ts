import { scenarioProfilesOnce } from '../input/read-once.js';
import { costLabel as labelWithCost, findProfile, findSideProfiles, sideCost } from '../model/profiles.js';
import { SIDE_PROFILE_KEY } from '../input/sides.js';
import { UsageError, showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { manifestFor, type ExactResult, type Manifest } from '../evaluate.js';
import { evaluateAllInWorkers } from '../pool/exact.js';
import { type Fraction, formatFraction, sub, toNumber } from '../exact/fraction.js';
import { parseScenario, resolveInputs } from '../input/scenario.js';
import type { FieldValue, ReportLayout, Scenario } from '../model/types.js';
import { toolVersion } from '../version.js';
import { resolveKind } from '../rules/registry.js';
import { orWorse, total } from '../running-sums.js';
import { setMaxListeners } from 'node:events';
import { acquirePool, defaultWorkers } from '../pool/threads.js';
import { simulate, simulateToPrecision, type SimRun } from '../pool/simulate.js';
import { Z95, crossCheck, summarize, wilson, type CrossCheckReport, type SimSummary } from '../stats/index.js';
import { baseSystemAndKind, checkDisjoint, checkGridSize, gridPoints, isPlainObject, kindSides, layeredSide, parseDimension, type Dimension, type DimensionValue, type VarySpec } from './dimensions.js';
import { differenceEstimate, type Estimate } from './paired.js';
import { describeNotAllowed, type GridPoint, type NotAllowedCell } from './not-allowed.js';

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

/** A cell simulated to a precision stops here if it has not reached it (the plan's maxTrials wins). */
const PRECISION_MAX_TRIALS = 1e9;

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

/**
 * The dimensions of a request, checked against the base scenario's system and kind. A side varied whole
 * that the rules forbid (machine armour with a shield) is left for planGrid to show as not allowed,
 * unless `strict`.
 */
export function sweepDimensions(base: Record<string, unknown>, vary: readonly VarySpec[], options: { readonly strict?: boolean } = {}): Dimension[] {
  if (vary.length === 0) throw refusal('vary', 'empty list', 'give at least one field to vary, e.g. "injuryDice=-1..3"');
  checkGridSize(vary);
  const { system, kind } = baseSystemAndKind(base);
  const parsed = vary.map((v) => parseDimension(v, system, kind));
  checkDisjoint(parsed);
  // The profiles file, roster or catalogue is read only for a grid that may run.
  const dims = parsed.map((d) => withProfileLabels(d, base));
  checkVariedBaseValues(base, dims);
  checkSideValues(base, dims, kindSides(system, kind)?.keys ?? [], options.strict === true);
  return dims;
}

/**
 * A weapon or target dimension names profiles of the base's profiles file, roster or catalogues: each
 * value is checked there (one line with a "did you mean" otherwise) and labelled with its cost, so a
 * matrix shows the prices on its axes. A label the report gave stays. A roster's profiles are made here
 * by its system's default edition, as `profiles --roster` lists them; each cell makes them by its own
 * edition or variant (the files are read once, src/input/read-once.ts), and refuses a name that those
 * rules read differently.
 */
function withProfileLabels(d: Dimension, base: Record<string, unknown>): Dimension {
  if (d.side !== undefined) return withSideCosts(d, d.side, base);
  const field = d.fields.length === 1 ? d.fields[0] : undefined;
  if (field !== 'weapon' && field !== 'target') return d;
  const profiles = namedProfiles(base);
  if (!profiles) {
    throw refusal('vary', `${field} needs "profiles", "roster" or "catalogue" in the scenario: the file that names the ${field === 'weapon' ? 'weapons' : 'models'}`);
  }
  const role = field === 'weapon' ? 'weapon' : 'model';
  return {
    ...d,
    values: d.values.map((v) => {
      const profile = findProfile(profiles, role, v.values[0], `vary: ${field}`);
      return { ...v, label: costLabel(v, profile.cost), ...(profile.cost !== undefined ? { cost: profile.cost } : {}) };
    }),
  };
}

/** A value's label with its cost, "Great Hammer (12)", when it is labelled by its own name; a label the report gave stays. */
const costLabel = (v: DimensionValue, cost: number | undefined) => (v.label === String(v.values[0]) ? labelWithCost(v.label, cost) : v.label);

/**
 * A side varied whole, over a scenario that names a profiles file, roster or catalogues: each value's
 * `profile` ("Shield Bearer with Great Hammer", or a model) is looked up there (one line with a "did
 * you mean" otherwise) and written out as the model and weapon it names, under the value's own, so a
 * value's profile wins over the base side's model and weapon as its other fields do. Each value is
 * priced as the side it makes in its cells (laid over the base's side): its model's cost and its
 * weapon's (sideCost), and labelled with it like a weapon or target. A side that names no profile, or
 * one without a cost, has none. Without a profiles file, named sides are as given (their model and
 * weapon names labels only), and a profile name is refused: nothing could say what it is.
 */
function withSideCosts(d: Dimension, side: string, base: Record<string, unknown>): Dimension {
  const profileOf = (fields: Readonly<Record<string, unknown>> | undefined) => (isPlainObject(fields) ? fields[SIDE_PROFILE_KEY] : undefined);
  const profiles = namedProfiles(base);
  if (!profiles) {
    const first = d.values.find((v) => profileOf(v.side) !== undefined);
    if (first) throw refusal(`vary: ${d.id}: ${showValue(first.values[0])}`, `a side named by its profile needs "profiles", "roster" or "catalogue" in the scenario: the file that names the models and weapons`);
    return d;
  }
  // A value given as a name alone is named once in a message; a named side's profile by its key.
  const at = (v: DimensionValue) => (profileOf(v.side) === v.values[0] && Object.keys(v.side!).length === 1 ? `vary: ${d.id}` : `vary: ${d.id}: ${showValue(v.values[0])}: ${side}.${SIDE_PROFILE_KEY}`);
  const written = (fields: Readonly<Record<string, unknown>>, where: string) => {
    const named = profileOf(fields);
    return named === undefined ? fields : { ...findSideProfiles(profiles, named, where), ...fields };
  };
  // The base's own side is checked with the values laid over it (checkSideValues); its profile is read here only for the price.
  const baseSide = isPlainObject(base[side]) ? base[side] : {};
  return {
    ...d,
    values: d.values.map((v) => {
      const own = written(v.side!, at(v));
      const cell = layeredSide(written(baseSide, `scenario: ${side}.${SIDE_PROFILE_KEY}`), own);
      const name = (key: 'model' | 'weapon') => (typeof cell[key] === 'string' ? { [key]: cell[key] } : {});
      const cost = sideCost(profiles, { ...name('model'), ...name('weapon') });
      return { ...v, side: own, label: costLabel(v, cost), ...(cost !== undefined ? { cost } : {}) };
    }),
  };
}

/**
 * The keys that say which rules a base scenario's values are read by, and where its profile names come
 * from: the context in which each of its values is checked.
 */
const SCENARIO_CONTEXT = ['system', 'kind', 'edition', 'rules', 'profiles', 'roster', 'catalogue', 'allowUnmodelled'] as const;

function scenarioContext(base: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SCENARIO_CONTEXT.filter((key) => base[key] !== undefined).map((key) => [key, base[key]]));
}

/**
 * The profiles the base scenario names by file, or undefined. The scenario's own checks come first, so
 * two sources, a path that is no string or a roster of another game get the same one line as in a
 * single scenario.
 */
function namedProfiles(base: Record<string, unknown>) {
  // A kind with sides needs each side to be a scenario: empty ones, whose own checks come later (checkSideValues).
  const { system, kind } = baseSystemAndKind(base);
  const sides = Object.fromEntries((kindSides(system, kind)?.keys ?? []).map((key) => [key, {}]));
  parseScenario({ ...scenarioContext(base), ...sides });
  return scenarioProfilesOnce(base);
}

/**
 * A base value that the grid replaces is never computed, but it is still what the user wrote: a typo
 * there ("injuryDice": "lots") is refused as it would be in a single scenario, not silently dropped.
 * Each such value is checked on its own, in a scenario of the base's system, kind and edition.
 */
function checkVariedBaseValues(base: Record<string, unknown>, dims: readonly Dimension[]): void {
  const context = scenarioContext(base);
  for (const d of dims) {
    // A side varied whole is checked with the sides it is laid over (checkSideValues).
    if (d.side !== undefined) continue;
    for (const f of d.fields) {
      if (base[f] === undefined) continue;
      try {
        parseScenario(f === 'edition' ? context : { ...context, [f]: base[f] });
      } catch (e) {
        if (e instanceof UsageError) throw refusal('scenario', `${e.message} (the grid varies ${f}, but the value given must still be allowed)`);
        throw e;
      }
    }
  }
}

/**
 * Each named side of a side dimension (a duel's `a` varied whole), checked on its own before any cell
 * is planned, so a mistake in one is refused in one line naming the dimension, the side's name and the
 * field ('vary: a: "machine + Tough": a.armour: "mythril" is not allowed; ...'). A side is checked laid
 * over the base's side, in a scenario of the base's system, kind, edition, rules and profiles, the
 * other sides empty: what one side gives is that side's alone. The base's own side is checked first.
 */
function checkSideValues(base: Record<string, unknown>, dims: readonly Dimension[], sideKeys: readonly string[], strict: boolean): void {
  const context = scenarioContext(base);
  const others = (side: string) => Object.fromEntries(sideKeys.filter((k) => k !== side).map((k) => [k, {}]));
  const check = (side: string, given: unknown, where: (message: string) => UsageError, forbiddenIsACell = false) => {
    try {
      parseScenario({ ...context, ...others(side), [side]: given });
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      // Its fields passed their checks: what the rules forbid is its cells' to show, not a mistake.
      if (forbiddenIsACell && !strict && e.ruleForbidden !== undefined) return;
      throw where(e.message);
    }
  };
  for (const d of dims) {
    if (d.side === undefined) continue;
    const side = d.side;
    if (base[side] !== undefined) check(side, base[side], (m) => refusal('scenario', `${m} (the grid varies ${side} whole, laying each value over this one, which must still be allowed)`));
    for (const v of d.values) check(side, layeredSide(base[side], v.side!), (m) => refusal(`vary: ${d.id}: ${showValue(v.values[0])}`, m), true);
  }
}

function describeAssignment(assignment: Readonly<Record<string, FieldValue>>): string {
  return Object.entries(assignment)
    .map(([k, v]) => `${k}=${showValue(v)}`)
    .join(', ');
}

/** The scenarios of every cell, validated up front so a bad grid fails before anything runs; a cell the rules forbid is refused too. */
export function planCells(base: Record<string, unknown>, dims: readonly Dimension[], onCell?: (done: number, total: number) => void): PlannedCell[] {
  return [...planGrid(base, dims, { ...(onCell ? { onCell } : {}), strict: true }).cells];
}

export interface GridPlanOptions {
  /** Called after each cell is checked. */
  readonly onCell?: (done: number, total: number) => void;
  /** Refuse a cell the rules forbid, as a one-off run does, instead of leaving it out as not allowed. */
  readonly strict?: boolean;
}

/**
 * The scenarios of every cell, validated up front so a bad grid fails before anything runs. A cell the
 * rules forbid (a refusal forbiddenByRules marked) is kept as not allowed with its reason, unless
 * `strict`: a grid over editions survives the one edition without falls. Every other refusal is the
 * user's mistake and ends the plan, as does a grid the rules forbid whole (nothing to show).
 */
export function planGrid(base: Record<string, unknown>, dims: readonly Dimension[], options: GridPlanOptions = {}): GridPlan {
  const points = gridPoints(dims);
  const cells: PlannedCell[] = [];
  const notAllowed: NotAllowedCell[] = [];
  points.forEach((point, index) => {
    // What the cell's values are (a side varied whole by its name), and the scenario they make (the
    // side's fields laid over the base's side).
    const assignment: Record<string, FieldValue> = {};
    const input: Record<string, unknown> = { ...base };
    point.forEach((vi, di) => {
      const d = dims[di]!;
      const v = d.values[vi]!;
      d.fields.forEach((f, fi) => (assignment[f] = v.values[fi]!));
      if (d.side !== undefined) input[d.side] = layeredSide(base[d.side], v.side!);
      else d.fields.forEach((f, fi) => (input[f] = v.values[fi]!));
    });
    const labels = point.map((vi, di) => dims[di]!.values[vi]!.label);
    let scenario: Scenario;
    try {
      scenario = parseScenario(input);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      if (e.ruleForbidden === undefined || options.strict) throw refusal(`cell ${describeAssignment(assignment)}`, e.message);
      notAllowed.push({ index, point, labels, assignment, ...scenarioNames(input), reason: e.ruleForbidden });
      options.onCell?.(index + 1, points.length);
      return;
    }
    // Two variant files of one name: the cell carries the name with its file (see DimensionValue.variant).
    for (const [di, vi] of point.entries()) {
      const variant = dims[di]!.values[vi]!.variant;
      if (variant !== undefined) scenario = { ...scenario, variant };
    }
    options.onCell?.(index + 1, points.length);
    cells.push({ index, point, labels, assignment, scenario });
  });
  if (cells.length === 0) {
    const first = notAllowed[0]!;
    throw refusal(
      'vary',
      `the rules forbid every cell of the grid (${points.length} of ${points.length}), e.g. ${describeNotAllowed(dims, first)}: ${first.reason}`,
      'nothing to show; vary values the rules allow together',
    );
  }
  return { cells, notAllowed };
}

/** The system, kind and edition a cell's raw fields name (a variant file's edition where it gives one), as its scenario would have them. */
function scenarioNames(input: Record<string, unknown>): { system: string; kind: string; edition: string } {
  const { system, kind } = baseSystemAndKind(input);
  const edition = resolveInputs(input).input.edition;
  return { system: system.id, kind, edition: typeof edition === 'string' ? edition : system.defaultEdition };
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

async function simulateCell(scenario: Scenario, layout: ReportLayout, plan: SimPlan, seed: number, signal?: AbortSignal): Promise<CellSimulation> {
  const outcomes = layout.outcomes.length;
  if (plan.precision !== undefined) {
    const run = await simulateToPrecision(scenario, {
      precision: plan.precision,
      maxTrials: plan.maxTrials ?? PRECISION_MAX_TRIALS,
      seed,
      workers: plan.workers ?? defaultWorkers(),
      ...(signal ? { signal } : {}),
    });
    return cellSimulationOf(run);
  }
  const batches = plan.batches;
  const batchTrials = Math.ceil((plan.trials ?? 1) / batches);
  const workers = plan.workers ?? defaultWorkers();
  const started = performance.now();
  // The pool is made once before the batches start: calls that race to make it would each start one.
  await acquirePool(workers);
  // Every batch and each of its tasks listens to the one abort signal.
  if (signal) setMaxListeners(0, signal);
  // The batches run side by side on the shared pool, so both cores stay busy even when a batch is a
  // single chunk.
  const runs = await Promise.all(
    Array.from({ length: batches }, (_, k) => simulate(scenario, { trials: batchTrials, seed: seed + k, workers, ...(signal ? { signal } : {}) })),
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

/**
 * One cell: its exact answer (solved by the caller, see evaluateAllInWorkers), and its simulation
 * (batch k with seed + k) when there is a plan.
 */
export async function computeCell(p: PlannedCell, exact: ExactResult | undefined, plan: SimPlan | undefined, seed: number, signal?: AbortSignal): Promise<Cell> {
  const layout = exact ? exact.layout : resolveKind(p.scenario).kind.layout(p.scenario);
  let sim: CellSimulation | undefined;
  let check: CrossCheckReport | undefined;
  if (plan) {
    sim = await simulateCell(p.scenario, layout, plan, seed, signal);
    if (exact) check = crossCheck(exact.answer, { layout, trials: sim.trials, tally: sim.tally });
  }
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
  const cells: Cell[] = [];
  const exacts = exactWanted ? evaluateAllInWorkers(planned.map((p) => p.scenario), req.signal) : [];
  for (const [i, p] of planned.entries()) {
    // Seeds go by the cell's place in the whole grid, not among the cells computed: a value the rules
    // forbid somewhere changes no other cell's answer (with common random numbers no cell's seed
    // depends on its place at all).
    const seed = plan ? (plan.independentSeeds ? plan.seed + p.index * plan.batches : plan.seed) : 0;
    cells.push(await computeCell(p, await exacts[i], plan, seed, req.signal));
    req.onCell?.(cells.length, planned.length);
  }
  const outcomes = unionOutcomes(cells.map((c) => c.layout.outcomes));
  return {
    base: req.base,
    dimensions: dims,
    cells,
    notAllowed: grid.notAllowed,
    outcomes,
    exact: exactWanted,
    ...(plan ? { sim: plan } : {}),
    seconds: (performance.now() - started) / 1000,
    manifest: sweepManifest(cells, exactWanted, plan),
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
