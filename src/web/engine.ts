import { Ajv } from 'ajv';
import { useAjv } from '../model/ajv.js';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { useChiSquareCdf } from '../stats/normal.js';
import { openedFiles } from '../input/opened-files.js';
import { parseScenarioWith, type ScenarioFiles } from '../input/scenario-core.js';
import type { AnyScenario } from '../rules/registry.js';
import { evaluateParsed, threadSolver, type ExactResult } from '../exact-result.js';
import { cellMeans, cellOutcomes, cellSimulationOf, type SimPlan, type SweepResult } from '../analysis/cells.js';
import { compareWith, runSweepWith } from '../analysis/run-grid.js';
import { threadPlayer } from '../sim/play.js';
import type { SimRun } from '../sim/play.js';
import { resolveKind } from '../rules/registry.js';
import { runRecord } from '../sim/run-record.js';
import { scenarioCsv } from '../present/tables/csv.js';
import type { VarySpec } from '../analysis/dimension-core.js';
import type { CompareInput, CompareResult } from '../analysis/compare-core.js';
import { scenarioCell, scenarioDimension, scenariosSweep } from '../analysis/single.js';
import { chooseChart, gridLayout } from '../present/chart/defaults.js';
import { chartSpec } from '../present/chart/charts.js';
import type { ChartDef } from '../present/chart/definition.js';
import { askedLine, askedLineOfComparison, askedLineOfGrid } from '../analysis/asked.js';
import type { Scenario } from '../model/types.js';

/**
 * The engine as the web page bundles it (esbuild, platform browser): the very modules the CLI runs, none
 * of which imports node: or reads a file. What the page needs and nothing of the CLI:
 * - the systems, their kinds and fields (systems, findSystem) and the scenario JSON Schema;
 * - scenario parsing (parseScenarioWith) over a ScenarioFiles reader: the page's own over the files the
 *   user opened, built from the same parsers the CLI's reader uses (parseJsonText, parseVariant,
 *   parseProfiles, battleScribeDocument, rosterFromDocument, catalogueTree), or pageScenario's default,
 *   which refuses every file;
 * - exact answers (evaluateParsed) and the JSON document `exact --format json` prints (exactJson);
 * - simulation in the page's workers: compileKernel and playChunks over chunks of CHUNK_SIZE trials,
 *   into a tally of tallyLength(layout) numbers, then summarize and crossCheck (wilson for intervals).
 * - the report engine's charts (chartSpec over a SweepResult, defaultCharts, chooseChart as the CLI's
 *   --chart picks one), one scenario or several as a grid (scenarioCell, scenariosSweep), the compare
 *   verdicts and table (compareCells, comparePresenter), one-field sweeps planned over the page's files
 *   and solved exactly in the calling thread (sweepInThread; the page runs it in its own worker),
 *   with the CLI's sweep presenters, findings and tidy CSV.
 * test/browser-safe.test.ts bundles this file and fails on any Node import.
 */

// The CLI loads ajv on first use through Node's require; a bundle has none, so it is given here.
useAjv(Ajv);
useChiSquareCdf(chisquareCdf);

export { UsageError } from '../errors.js';
export { systems, findSystem, DEFAULT_SYSTEM, type AnyScenario } from '../rules/registry.js';
export { parseScenarioWith, resolveInputsWith, validateScenario, scenarioJsonSchema, scenarioRecord, NO_VARIANT, type ScenarioFiles, type ResolvedInputs } from '../input/scenario-core.js';
export { parseJsonText, forbiddenKeyIn, forbiddenKeyProblem, MAX_JSON_BYTES, MAX_JSON_DEPTH, type JsonInput } from '../json-text.js';
export { parseVariant, variantJsonSchema, type Variant } from '../input/variant.js';
export { parseProfiles, profilesJsonSchema } from '../input/profiles-file.js';
export type { Profiles, Profile } from '../model/profiles.js';
export { battleScribeDocument, rosterFromDocument, MAX_ROSTER_BYTES, type BattleScribeDocument, type RosterTree } from '../import/read-roster.js';
export { catalogueTree, MAX_CATALOGUE_TOTAL_BYTES, type CatalogueDocument } from '../import/catalogue.js';
export { evaluateParsed, manifestFor, type ExactResult, type ExactOutcome, type ExactValue, type Manifest } from '../exact-result.js';
export { exactJson } from '../present/tables/exact-json.js';
export { compileKernel, playChunks, type CompiledKernel } from '../sim/chunks.js';
export { CHUNK_SIZE, type ChunkRange, type KernelSource } from '../sim/protocol.js';
export { Rng } from '../sim/rng.js';
export { tallyLength } from '../model/tally.js';
export { summarize, crossCheck, wilson, type SimSummary, type CrossCheckReport } from '../stats/index.js';
export { formatFraction, toNumber, type Fraction } from '../exact/fraction.js';
export { toolVersion } from '../version.js';
export { openedFiles, describeOpened, type OpenedFiles, type OpenedFile } from '../input/opened-files.js';
export { describeAllowed } from '../model/field-schema.js';
export { fieldTitle, orWorseLabel, outcomeLabel } from '../labels.js';
export { DEFAULT_SEED, DEFAULT_TRIALS, parseDecimal, parseSeed, parseTrials } from '../sim/run-limits.js';
export { esc, longFractionDigits, percent, wordWrap } from '../text.js';
export type { Scenario, ExactAnswer, ReportLayout, KindSpec, SystemSpec, FieldSpec, SimKernel } from '../model/types.js';
export { chartSpec, chartNotes, chartTitle } from '../present/chart/charts.js';
export type { ChartDef, VlSpec } from '../present/chart/definition.js';
export { defaultCharts, chooseChart, gridLayout, type ChartInput } from '../present/chart/defaults.js';
export { scenarioCell, scenariosSweep, scenarioDimension, SCENARIO_DIMENSION } from '../analysis/single.js';
export { askedLine, askedLineOfGrid, givenLines } from '../analysis/asked.js';
export {
  DEFAULT_BATCHES,
  assembleCell,
  cellOutcomes,
  cellMeans,
  cellSimulationOf,
  cellDifference,
  exactProbability,
  neighbourDifferences,
  sweepManifest,
  sweepResultOf,
  unionOutcomes,
  type Cell,
  type CellOutcome,
  type CellMean,
  type GridPlan,
  type PlannedCell,
  type SweepResult,
  type SimPlan,
  type SweepManifest,
  type OutcomeDifference,
} from '../analysis/cells.js';
export { sweepDimensionsWith, planGridWith, planCellsWith, profilesNamedWith, type GridPlanOptions } from '../analysis/grid.js';
export { parseDimensionWith, checkGridSize, type Dimension, type DimensionValue, type VarySpec } from '../analysis/dimension-core.js';
export { compareCells, checkComparable, verdict, verdictVoice, type CompareInput, type CompareResult, type CompareRow } from '../analysis/compare-core.js';
export { comparePresenter, compareJson, compareRows, differencesLine } from '../present/tables/compare.js';
export { sweepPresenter, sweepJson, sideBestLines, type SweepView } from '../present/tables/sweep.js';
export { compareGrid, wideCsv } from '../present/tables/wide-csv.js';
export { exactPresenter, type ExactView } from '../present/tables/exact.js';
export { findingOf } from '../present/tables/findings.js';
export { tidyCsv, scenarioCsv, type TidySource } from '../present/tables/csv.js';

/**
 * The reader a page starts with: it has opened no file, so a scenario naming one (a variant, profiles, a
 * roster, catalogues) is refused in one line, `rules: "x.json" has not been opened in this page`.
 */
export const unopenedFiles: ScenarioFiles = openedFiles(new Map());

/**
 * A scenario from raw fields as the page has them, the files it names read by `files` (by default none:
 * unopenedFiles). The same parser as the CLI's parseScenario, with another reader.
 */
export function pageScenario(raw: unknown, files: ScenarioFiles = unopenedFiles, origin = ''): AnyScenario {
  return parseScenarioWith(raw, files, origin);
}

/** A scenario's exact answer as the cell the CLI's charts and comparisons read: solved here, in the calling thread. */
/**
 * The chart `injury-lab exact --chart x.vl.json` draws for one scenario (optionally one outcome, or "or
 * worse", as --outcome and --cumulative ask), from its exact answer (solved here unless given): the
 * Vega-Lite spec.
 */
export function exactChartSpec(
  scenario: Scenario,
  exact: ExactResult = evaluateParsed(scenario),
  ask: { readonly outcome?: string; readonly cumulative?: boolean } = {},
  run?: SimRun,
): Record<string, unknown> {
  const label = scenario.kind;
  const title = 'Scenario';
  const def = chooseChart([scenarioDimension([label], title)], gridLayout([scenario]), askedLine(scenario), { ...(ask.outcome !== undefined ? { outcome: ask.outcome } : {}), cumulative: ask.cumulative === true });
  const chart: ChartDef = { ...def, title: `Outcomes of one ${scenario.kind}` };
  return chartSpec(scenariosSweep([scenarioCell(scenario, label, { exact, ...(run ? { run } : {}) })], title), chart);
}

/**
 * A run the page's workers played (the CLI's chunks, summed) as the CLI's simulate() reports one: what
 * cells, charts and the CSV read. `workers` and `seconds` say how the page ran it.
 */
export function pageRun(scenario: Scenario, played: { readonly trials: number; readonly seed: number; readonly workers: number; readonly seconds: number; readonly tally: Float64Array }): SimRun {
  const layout = resolveKind(scenario).kind.layout(scenario);
  // A run timed at 0 s (a few trials) would claim an infinite rate.
  return { scenario, layout, ...runRecord({ ...played, seconds: Math.max(played.seconds, 1e-9) }) };
}

/**
 * One scenario's answer as the CLI's CSV gives it (`exact --format csv`: one row per outcome, the inputs
 * and means as columns), with the simulated estimates and intervals beside the exact values once a run is in.
 */
export function answerCsv(scenario: Scenario, exact: ExactResult, run?: SimRun): string {
  const sim = run ? cellSimulationOf(run) : undefined;
  return scenarioCsv({ scenario, outcomes: cellOutcomes(exact.layout, exact, sim), means: cellMeans(exact.layout, exact, sim) });
}

/**
 * A grid over `base` varying `vary` (as `injury-lab sweep --vary`), planned with the files `files` gives,
 * every cell solved exactly in the calling thread and, given a plan, simulated there too: the CLI's own
 * sweep (src/analysis/run-grid.ts) over the calling thread as its player and solver, so its chunks and
 * counts are the CLI's (the page runs this in its own Web Worker). A cell the rules forbid is left out as
 * not allowed, unless `strict`. What the CLI's sweep presenters, chartSpec and findingOf read.
 */
export function sweepInThread(
  base: Record<string, unknown>,
  vary: readonly VarySpec[],
  files: ScenarioFiles = unopenedFiles,
  options: { readonly strict?: boolean; readonly sim?: SimPlan; readonly onCell?: (done: number, total: number) => void } = {},
): Promise<SweepResult> {
  return runSweepWith(
    { base, vary, strict: options.strict === true, ...(options.sim ? { sim: options.sim } : {}), ...(options.onCell ? { onCell: options.onCell } : {}) },
    { files, player: threadPlayer(), solver: threadSolver },
  );
}

/**
 * Two or more scenarios (raw fields, each with a name, and a file name for messages) compared as
 * `injury-lab compare` compares them, solved in the calling thread and, given a plan, simulated there
 * with the same seeds for each: the rows and verdicts its presenter prints (comparePresenter.table / .json / .csv).
 */
export function compareInThread(
  inputs: readonly CompareInput[],
  files: ScenarioFiles = unopenedFiles,
  options: { readonly allowMixed?: boolean; readonly sim?: SimPlan } = {},
): Promise<CompareResult> {
  return compareWith(inputs, (input) => parseScenarioWith(input.raw, files, input.file), options, { player: threadPlayer(), solver: threadSolver });
}

/** The chart `compare --chart` draws for compared scenarios: one bar of outcomes per scenario. */
export function compareChartSpec(result: CompareResult, ask: { readonly outcome?: string; readonly cumulative?: boolean } = {}): Record<string, unknown> {
  const names = result.scenarios.map((s) => s.name);
  const scenarios = result.scenarios.map((s) => s.cell.scenario);
  const def = chooseChart(
    [scenarioDimension(names, 'Scenario')],
    gridLayout(scenarios),
    askedLineOfComparison(scenarios, names),
    { ...(ask.outcome !== undefined ? { outcome: ask.outcome } : {}), cumulative: ask.cumulative === true },
  );
  return chartSpec(scenariosSweep(result.scenarios.map((s) => ({ ...s.cell, labels: [s.name] })), 'Scenario'), { ...def, title: 'Outcomes, scenario by scenario' });
}

/** The chart `sweep --chart` draws for a grid (at most two varied fields): the report's default for its dimensions. */
export function sweepChartSpec(sweep: SweepResult, ask: { readonly outcome?: string; readonly cumulative?: boolean } = {}): Record<string, unknown> {
  const scenarios = sweep.cells.map((c) => c.scenario);
  const def = chooseChart(sweep.dimensions, gridLayout(scenarios), askedLineOfGrid(scenarios), { ...(ask.outcome !== undefined ? { outcome: ask.outcome } : {}), cumulative: ask.cumulative === true });
  return chartSpec(sweep, def);
}
