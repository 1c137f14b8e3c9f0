import type { Cell, CellOutcome, SweepResult } from '../../analysis/cells.js';
import type { CompareResult, CompareRow } from '../../analysis/compare-core.js';
import { scenariosSweep } from '../../analysis/single.js';
import type { Dimension, DimensionValue } from '../../analysis/dimension-core.js';
import type { FieldValue } from '../../model/types.js';
import { csvText } from './csv.js';

/**
 * The wide CSV (`--format csv --wide`): the grid as the matrix a spreadsheet user pastes, where the tidy
 * CSV (./csv.ts) is the long table a pivot table or a data frame reads. It holds probabilities and
 * nothing else: every other number (fractions, intervals, means, seeds) stays in the tidy CSV and JSON.
 *
 * - One varied field (or `compare`'s scenarios): one row per value, one column per outcome (every one, or
 *   those --outcome names), so nothing is left out.
 * - Two or more: one outcome fills the cells, rows the first field's values, columns the second's. A third
 *   field and more go to the rows: one leading column per row field, one row per combination of their
 *   values, the first varying slowest (as the grid's cells do). Several outcomes: one block each, blank
 *   line between, each block's corner cell naming its outcome.
 *
 * The corner cell names the rows' field and the columns' ("armour \ injuryDice"). A cell is the exact
 * probability where there is one, else the simulated estimate (the tidy CSV's `probability`, else its
 * `estimate`; with "or worse", `or_worse`, else `or_worse_estimate`), written as the tidy CSV writes it:
 * a JS number with every digit. A cell the rules forbid, or an outcome a cell cannot have, is empty. The
 * file carries no comment (a CSV has none): `note` says on stderr what fills the cells.
 */

export interface WideAsk {
  /** The outcomes asked for (--outcome), in the layout's order; absent: the default (see outcomesOf). */
  readonly outcomes?: readonly string[];
  /** "This outcome or worse" instead of the outcome alone. */
  readonly cumulative?: boolean;
  /**
   * Where the CSV of the same command holds the exact value and the estimate, for the stderr line;
   * default the tidy CSV's columns (`probability`, `estimate`; `or_worse`, `or_worse_estimate`).
   */
  readonly sources?: { readonly exact: string; readonly estimate: string };
}

export interface WideCsv {
  readonly text: string;
  /** One line for stderr: what the rows, columns and cells are. */
  readonly note: string;
}

/** The outcome a matrix of one outcome shows unasked: the most severe; for unranked outcomes (a duel's) the first, "a wins". */
export function defaultWideOutcome(sweep: SweepResult): string {
  const unranked = sweep.cells.some((c) => c.layout.unranked);
  return unranked ? sweep.outcomes[0]! : sweep.outcomes[sweep.outcomes.length - 1]!;
}

type Value = string | number | boolean;

/**
 * A value as a header cell: a single field's own value, as the tidy CSV's column holds it (a number stays
 * a number: "+1", a label, would be read as text); a value of fields varied together, a whole side or a
 * rule variant by its label (the variant's name, with its file where two share it).
 */
function valueCell(d: Dimension, v: DimensionValue): Value {
  const only: FieldValue | undefined = d.fields.length === 1 && d.side === undefined && d.fields[0] !== 'rules' ? v.values[0] : undefined;
  if (typeof only === 'number' || typeof only === 'string' || typeof only === 'boolean') return only;
  return v.variant ?? v.label;
}

/** The number a cell holds for `o`: exact, else estimated; undefined when it has neither. */
function probabilityOf(o: CellOutcome | undefined, cumulative: boolean): { value: number; exact: boolean } | undefined {
  if (!o) return undefined;
  const exact = cumulative ? o.orWorse : o.probability;
  if (exact !== undefined) return { value: exact, exact: true };
  const estimate = cumulative ? o.orWorseEstimate : o.estimate;
  return estimate !== undefined ? { value: estimate, exact: false } : undefined;
}

const orWorse = (id: string, cumulative: boolean) => (cumulative ? `${id} or worse` : id);

export function wideCsv(sweep: SweepResult, ask: WideAsk = {}): WideCsv {
  const cumulative = ask.cumulative === true;
  const dims = sweep.dimensions;
  const byPoint = new Map<string, Cell>(sweep.cells.map((c) => [c.point.join(','), c]));
  let exactCells = 0;
  let estimatedCells = 0;
  const cellValue = (point: readonly number[], outcome: string): Value => {
    const cell = byPoint.get(point.join(','));
    const p = probabilityOf(cell?.outcomes.find((o) => o.outcome === outcome), cumulative);
    if (!p) return '';
    if (p.exact) exactCells++;
    else estimatedCells++;
    return p.value;
  };
  const rows: Value[][] = [];
  let shape: string;
  if (dims.length === 1) {
    // "Or worse" of the mildest outcome is always 1: left out, as the sweep's table leaves it out.
    const outcomes = ask.outcomes ?? (cumulative ? sweep.outcomes.slice(1) : sweep.outcomes);
    const d = dims[0]!;
    rows.push([`${d.id} \\ ${cumulative ? 'outcome or worse' : 'outcome'}`, ...outcomes]);
    d.values.forEach((v, i) => rows.push([valueCell(d, v), ...outcomes.map((o) => cellValue([i], o))]));
    shape = `rows ${d.id}; columns ${outcomes.length === 1 ? `the outcome ${orWorse(outcomes[0]!, cumulative)}` : `the outcomes${cumulative ? ' (each "or worse")' : ''}`}; cells`;
  } else {
    const outcomes = ask.outcomes ?? [defaultWideOutcome(sweep)];
    const columns = dims[1]!;
    const rowDims = dims.map((d, i) => ({ d, i })).filter(({ i }) => i !== 1);
    // Every combination of the row fields' values, the first varying slowest.
    let combos: number[][] = [[]];
    for (const { d } of rowDims) combos = combos.flatMap((c) => d.values.map((_, k) => [...c, k]));
    outcomes.forEach((outcome, n) => {
      if (n > 0) rows.push([]);
      const corner = `${rowDims[rowDims.length - 1]!.d.id} \\ ${columns.id}`;
      rows.push([
        ...rowDims.slice(0, -1).map(({ d }) => d.id),
        outcomes.length > 1 ? `${orWorse(outcome, cumulative)}: ${corner}` : corner,
        ...columns.values.map((v) => valueCell(columns, v)),
      ]);
      for (const combo of combos) {
        const point = (col: number) => dims.map((_, i) => (i === 1 ? col : combo[rowDims.findIndex((r) => r.i === i)]!));
        rows.push([...rowDims.map(({ d }, r) => valueCell(d, d.values[combo[r]!]!)), ...columns.values.map((_, col) => cellValue(point(col), outcome))]);
      }
    });
    const rowNames = rowDims.map(({ d }) => d.id);
    const which = outcomes.map((o) => orWorse(o, cumulative)).join(', ');
    shape = `rows ${rowNames.join(', ')}${rowNames.length > 1 ? ' (every combination)' : ''}; columns ${columns.id}; cells ${outcomes.length > 1 ? `one block per outcome (${which})` : which}${ask.outcomes ? '' : ' (the default, --outcome for another)'},`;
  }
  const tidy = cumulative ? ['or_worse', 'or_worse_estimate'] : ['probability', 'estimate'];
  const source = ask.sources ? [ask.sources.exact, ask.sources.estimate] : tidy.map((c) => `the tidy CSV's ${c} column`);
  const kind =
    estimatedCells === 0
      ? `the exact probability (${source[0]})`
      : exactCells === 0
        ? `the simulated estimate (${source[1]})`
        : `the exact probability where a cell has one (${source[0]}), else the simulated estimate (${source[1]})`;
  const empty = sweep.notAllowed.length ? '; a cell the rules forbid is empty' : '';
  return { text: csvText(rows), note: `wide CSV: ${shape} ${kind}${empty}` };
}

/**
 * compare's answer as the grid of one dimension (its scenarios) that wideCsv reads, each value from
 * compare's own rows: there an outcome a scenario's kind cannot have (an injury roll's miss, with
 * --allow-mixed) counts as 0, as in compare's tidy CSV, where a sweep's cell would leave it empty.
 */
export function compareGrid(result: CompareResult): SweepResult {
  const grid = scenariosSweep(result.scenarios.map((s) => ({ ...s.cell, labels: [s.name] })), 'Scenario');
  const at = (rows: readonly CompareRow[], id: string, i: number) => rows.find((r) => r.outcome === id)?.values[i];
  const outcome = (id: string, i: number): CellOutcome => {
    const one = at(result.rows, id, i);
    const worse = at(result.cumulativeRows, id, i);
    return {
      outcome: id,
      ...(one?.probability !== undefined ? { probability: one.probability } : {}),
      ...(one?.estimate !== undefined ? { estimate: one.estimate } : {}),
      ...(worse?.probability !== undefined ? { orWorse: worse.probability } : {}),
      ...(worse?.estimate !== undefined ? { orWorseEstimate: worse.estimate } : {}),
    };
  };
  return { ...grid, outcomes: result.outcomes, cells: grid.cells.map((c, i) => ({ ...c, outcomes: result.outcomes.map((id) => outcome(id, i)) })) };
}

/** Where compare's CSV holds what a wide cell holds: its `probability` and `estimate`, of its or-worse rows with --cumulative. */
export function compareSources(cumulative: boolean): NonNullable<WideAsk['sources']> {
  const rows = cumulative ? ' of its view or-worse rows' : '';
  return { exact: `the CSV's probability column${rows}`, estimate: `the CSV's estimate column${rows}` };
}
