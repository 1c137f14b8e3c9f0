import { scenarioRecord } from '../../input/scenario-core.js';
import { orWorseLabel, outcomeLabel, points } from '../../labels.js';
import { sideBestLine, sideBests } from '../../analysis/side-best.js';
import { neighbourDifferences, type Cell, type GridPlan, type SweepResult } from '../../analysis/cells.js';
import { inGridOrder, isNotAllowed, notAllowedLines, type NotAllowedCell } from '../../analysis/not-allowed.js';
import type { Dimension } from '../../analysis/dimension-core.js';
import { worstZ } from '../../stats/index.js';
import { crossCheckJson } from './check.js';
import { tidyCsv } from './csv.js';
import type { Presenter } from './presenter.js';
import { digitsFor, honestPercent, jsonText, percentPlusMinus, renderTable, TABLE_COLUMNS, tableWidth, terminalSafe, terminalSafeLines } from '../../text.js';

/** What `sweep` prints: the grid, and whether its table shows "this or worse" instead of each outcome. */
export interface SweepView {
  readonly sweep: SweepResult;
  readonly cumulative?: boolean;
  /** Decimals of the table's percentages (--digits); by default the fewest that tell every exact cell apart. */
  readonly digits?: number;
  /** The outcomes --outcome keeps: only their columns, no means. */
  readonly picked?: readonly string[];
}

/**
 * What a run says on stderr of the cells it left out, once per reason: "skipped 1 of 3 cells: edition
 * playtest: kind "fall" is not a rule of the playtest edition (...)".
 */
export function skippedLines(dims: readonly Dimension[], grid: GridPlan): string[] {
  return notAllowedLines(dims, grid.notAllowed, grid.cells.length + grid.notAllowed.length).map((line) => `skipped ${line}`);
}

/** What tables show in every value of a cell the rules forbid. */
export const NOT_ALLOWED = 'not allowed';

/** A cell the rules forbid in JSON: where it is and why, no scenario and no outcomes. */
export function notAllowedJson(cell: NotAllowedCell) {
  return { index: cell.index, values: cell.assignment, labels: cell.labels, allowed: false, reason: cell.reason };
}

/** Any cell of a grid in JSON: computed (cellJson), or not allowed (notAllowedJson). */
export function gridCellJson(cell: Cell | NotAllowedCell) {
  return isNotAllowed(cell) ? notAllowedJson(cell) : cellJson(cell);
}

export function cellJson(cell: Cell) {
  return {
    index: cell.index,
    values: cell.assignment,
    labels: cell.labels,
    scenario: scenarioRecord(cell.scenario),
    outcomes: cell.outcomes,
    means: cell.means,
    ...(cell.sim
      ? {
          simulation: {
            trials: cell.sim.trials,
            seed: cell.sim.seed,
            batches: cell.sim.batches,
            batchTrials: cell.sim.batchTrials,
            workers: cell.sim.workers,
            seconds: cell.sim.seconds,
            generator: cell.sim.generator,
            chunkSize: cell.sim.chunkSize,
            ...(cell.sim.reachedPrecision !== undefined ? { reachedPrecision: cell.sim.reachedPrecision } : {}),
          },
        }
      : {}),
    ...(cell.check ? { check: crossCheckJson(cell.check) } : {}),
  };
}

export function dimensionsJson(sweep: SweepResult) {
  return sweep.dimensions.map((d) => ({ id: d.id, fields: d.fields, title: d.title, values: d.values.map((v) => ({ label: v.label, values: v.values, ...(v.side ? { side: v.side } : {}) })) }));
}

/** The document `sweep --format json` prints; a report's results.json holds the same cells. */
export function sweepJson(sweep: SweepResult) {
  const best = sideBests(sweep);
  return {
    base: sweep.base,
    dimensions: dimensionsJson(sweep),
    outcomes: sweep.outcomes,
    cells: inGridOrder(sweep.cells, sweep.notAllowed).map(gridCellJson),
    ...(best.length ? { best } : {}),
    neighbours: neighbourDifferences(sweep),
    seconds: sweep.seconds,
    manifest: sweep.manifest,
  };
}

/** "16.92%" for an exact value (with the table's decimals), "16.9% ±0.2" for an estimate. */
function valueText(o: { probability?: number; exact?: string; estimate?: number; ciLow?: number; ciHigh?: number }, digits: number, fixed: number | undefined): string {
  if (o.probability !== undefined && o.exact !== undefined) return honestPercent({ probability: o.probability, exact: o.exact }, digits);
  if (o.estimate !== undefined) return percentPlusMinus(o.estimate, o.ciLow!, o.ciHigh!, fixed ?? 1);
  return '';
}

function cumulativeView(o: Cell['outcomes'][number]) {
  return {
    ...(o.orWorse !== undefined ? { probability: o.orWorse, exact: o.orWorseExact! } : {}),
    ...(o.orWorseEstimate !== undefined ? { estimate: o.orWorseEstimate, ciLow: o.orWorseCiLow!, ciHigh: o.orWorseCiHigh! } : {}),
  };
}

/**
 * The plain-text table of a sweep: one row per cell, one column per outcome (or per "this or worse"),
 * the means, and when simulated a check column (exact and simulation agree, with the worst z-score).
 */
function sweepTable({ sweep, cumulative = false, digits: fixed, picked }: SweepView): string {
  const outcomes = (cumulative ? sweep.outcomes.slice(1) : sweep.outcomes).filter((o) => !picked || picked.includes(o));
  // One number of decimals for the whole grid, enough that no two different exact cells read the same.
  const shown = (o: Cell['outcomes'][number]) => (cumulative ? cumulativeView(o) : o);
  const digits = digitsFor(
    sweep.cells.flatMap((c) => c.outcomes.map(shown).flatMap((o) => (o.probability !== undefined && o.exact !== undefined ? [{ probability: o.probability, exact: o.exact }] : []))),
    fixed,
  );
  // Means are headed by their JSON keys, what each counts said under the table: their labels ran to 80 characters a column.
  const meanSpecs = picked ? [] : sweep.cells[0]!.means;
  const means = meanSpecs.map((m) => m.jsonKey);
  const checked = sweep.cells.some((c) => c.check);
  const headers = [
    ...sweep.dimensions.map((d) => d.id),
    ...outcomes.map((o) => (cumulative ? orWorseLabel(o) : outcomeLabel(o))),
    ...means,
    ...(checked ? ['simulation check'] : []),
  ];
  const rows = inGridOrder(sweep.cells, sweep.notAllowed).map((cell) => {
    if (isNotAllowed(cell)) return [...cell.labels, ...headers.slice(cell.labels.length).map(() => NOT_ALLOWED)];
    const byId = new Map(cell.outcomes.map((o) => [o.outcome, o]));
    return [
      ...cell.labels,
      ...outcomes.map((id) => {
        const o = byId.get(id);
        if (!o) return '-';
        return valueText(shown(o), digits, fixed);
      }),
      // Means with exact's four decimals.
      ...(picked ? [] : cell.means).map((m) => (m.value !== undefined ? m.value.toFixed(4) : m.estimate !== undefined ? m.estimate.toFixed(4) : '')),
      ...(checked ? [cell.check ? `${cell.check.passed ? 'agrees' : 'DISAGREES'} (max |z| ${worstZ(cell.check).toFixed(1)})` : ''] : []),
    ];
  });
  const right = headers.map((_, i) => i >= sweep.dimensions.length);
  const m = sweep.manifest;
  const lines = [
    terminalSafe(`${m.system} ${m.kind}, edition ${m.editions.join(', ')}: ${sweep.cells.length + sweep.notAllowed.length} cells (${sweep.dimensions.map((d) => `${d.id} x${d.values.length}`).join(', ')})${sweep.notAllowed.length ? `, ${sweep.notAllowed.length} not allowed by the rules` : ''}`),
    m.simulation
      ? `exact${m.exact ? '' : ' (off)'} and simulated: ${m.simulation.trialsPerCell.join('/')} trials per cell, seed ${m.simulation.seed}, ${m.simulation.batches} batch(es)${m.simulation.commonRandomNumbers ? ', common random numbers' : ', independent seeds'}`
      : 'exact',
    '',
  ];
  const whole = renderTable(headers, rows, right);
  const dims = sweep.dimensions.length;
  const meansFrom = dims + outcomes.length;
  if (tableWidth(whole) <= TABLE_COLUMNS || means.length === 0) lines.push(whole);
  else {
    // Wider than a terminal: the outcomes, then the means, each with the cell's labels (--format csv has them in one).
    const pick = <T,>(row: readonly T[], from: number, to: number): T[] => [...row.slice(0, dims), ...row.slice(from, to)];
    lines.push(renderTable(pick(headers, dims, meansFrom), rows.map((r) => pick(r, dims, meansFrom)), pick(right, dims, meansFrom)));
    lines.push('', renderTable(pick(headers, meansFrom, headers.length), rows.map((r) => pick(r, meansFrom, headers.length)), pick(right, meansFrom, headers.length)));
  }
  if (meanSpecs.length) lines.push('', ...meanSpecs.map((m) => `${m.jsonKey}: ${m.label}`));
  // A grid of a side's choices asks which is best for that side: said as solve says what meets its condition.
  const bests = sideBestLines(sweep);
  if (bests.length) lines.push('', ...bests.map(terminalSafe));
  return lines.join('\n') + '\n';
}

/** A grid of a side's choices: which is best for that side, a line per group (src/analysis/side-best.ts); the table's last lines, and the page's words. */
export function sideBestLines(sweep: SweepResult): string[] {
  return sideBests(sweep).map((b) => sideBestLine(b, points));
}

export const sweepPresenter: Presenter<SweepView> = {
  table: (view) => terminalSafeLines(sweepTable(view)),
  json: ({ sweep }) => jsonText(sweepJson(sweep)),
  csv: ({ sweep }) => tidyCsv([{ sweep }]),
};
