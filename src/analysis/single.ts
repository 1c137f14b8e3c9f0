/**
 * Scenarios that were not swept, as the sweep's charts read a grid: one scenario (`exact`, `simulate`) is
 * a grid of one cell, several named ones (`compare`) a grid of one dimension whose values are their
 * names. The report engine's charts then draw them as they draw any grid.
 */
import type { ExactResult } from '../exact-result.js';
import type { Scenario } from '../model/types.js';
import type { Dimension } from './dimension-core.js';
import type { SimRun } from '../sim/play.js';
import { resolveKind } from '../rules/registry.js';
import { type Cell, type SweepResult, cellMeans, cellOutcomes, cellSimulationOf, sweepManifest, unionOutcomes } from './cells.js';

/** The id of the one dimension: which scenario a cell is. */
export const SCENARIO_DIMENSION = 'scenario';

/** A scenario's answer as a cell labelled `label`: exact, simulated, or both. */
export function scenarioCell(scenario: Scenario, label: string, answer: { readonly exact?: ExactResult; readonly run?: SimRun }): Cell {
  const layout = answer.exact?.layout ?? answer.run?.layout ?? resolveKind(scenario).kind.layout(scenario);
  const sim = answer.run ? cellSimulationOf(answer.run) : undefined;
  return {
    index: 0,
    point: [0],
    labels: [label],
    assignment: {},
    scenario,
    layout,
    ...(answer.exact ? { exact: answer.exact } : {}),
    ...(sim ? { sim } : {}),
    outcomes: cellOutcomes(layout, answer.exact, sim),
    means: cellMeans(layout, answer.exact, sim),
  };
}

/** The one dimension of scenarios labelled `labels`, titled `title`: what a chart is planned from before they run. */
export function scenarioDimension(labels: readonly string[], title: string): Dimension {
  return { id: SCENARIO_DIMENSION, fields: [], title, values: labels.map((label) => ({ values: [], label })), numeric: false };
}

/** Cells of several scenarios (each labelled by its first label) as one dimension titled `title`. */
export function scenariosSweep(cells: readonly Cell[], title: string): SweepResult {
  const placed = cells.map((c, i) => ({ ...c, index: i, point: [i], labels: [c.labels[0] ?? `scenario ${i + 1}`] }));
  const simulated = placed.find((c) => c.sim)?.sim;
  const plan = simulated ? { seed: simulated.seed, batches: simulated.batches, trials: simulated.trials } : undefined;
  const exact = placed.every((c) => c.exact);
  return {
    base: {},
    dimensions: [scenarioDimension(placed.map((c) => c.labels[0]!), title)],
    cells: placed,
    notAllowed: [],
    outcomes: unionOutcomes(placed.map((c) => c.layout.outcomes)),
    exact,
    ...(plan ? { sim: plan } : {}),
    seconds: 0,
    manifest: sweepManifest(placed, exact, plan),
  };
}
