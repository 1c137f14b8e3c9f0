// csv-stringify's browser build (the same code, with its own Buffer): its Node build reads Buffer as it
// loads, which a page has not, and the web page bundles this module.
import { stringify } from 'csv-stringify/browser/esm/sync';
import type { FieldValue, Scenario } from '../../model/types.js';
import { toolVersion } from '../../version.js';
import type { CellMean, CellOutcome } from '../../analysis/cells.js';
import { inGridOrder, isNotAllowed, type NotAllowedCell } from '../../analysis/not-allowed.js';

/**
 * Every CSV this tool writes goes through here. RFC 4180 quoting; "\n" line ends; booleans as true/false
 * (not csv-stringify's 1/""). escape_formulas guards against CSV injection (OWASP): a text cell starting
 * with = + - @ tab or CR (or their full-width forms) gets a leading ', so a spreadsheet shows it as text
 * instead of running it. A JS number is never prefixed (csv-stringify exempts number and bigint from the
 * '-' case), so numeric columns must hold numbers, not formatted strings. Exact fractions stay text: a
 * negative one ("-1/36", compare's difference_exact) becomes "'-1/36", which is what a spreadsheet should
 * show anyway (unprefixed it would compute -0.0278 and lose the fraction); the value is in its own
 * numeric column.
 */
export function csvText(rows: readonly (readonly unknown[])[]): string {
  return stringify(rows as unknown[][], {
    record_delimiter: 'unix',
    // Setting record_delimiter turns this off; a bare CR unquoted would split the record when read back.
    quote_record_delimiter: true,
    escape_formulas: true,
    cast: { boolean: (v: boolean) => (v ? 'true' : 'false'), number: (v: number) => String(v) },
  });
}

/**
 * The tidy CSV of `exact`, `simulate`, `check`, `sweep` and a report's results.csv: one row per scenario
 * and outcome, every input field of the scenario in its own column (the varied ones first), so a
 * spreadsheet's pivot table or any data-frame library reads it without reshaping. A single scenario is
 * written as a sweep of one cell, so the five have the same columns.
 *
 * `exact` is the fraction as text ("1313/7776"); `exact_numerator` and `exact_denominator` give it as
 * two whole numbers as well, because a spreadsheet may read a short fraction such as 5/12 as a date.
 * Columns that do not apply to a row (the estimate of an exact-only run) are empty.
 */
export const FIXED_COLUMNS = [
  'system',
  'kind',
  'edition',
  'outcome',
  'exact',
  'exact_numerator',
  'exact_denominator',
  'probability',
  'or_worse_exact',
  'or_worse',
  'count',
  'estimate',
  'ci_low',
  'ci_high',
  'z',
  'or_worse_estimate',
  'or_worse_ci_low',
  'or_worse_ci_high',
  'trials',
  'seed',
  'batches',
  'tool_version',
] as const;

/**
 * The columns of one mean (e.g. expectedBloodMarkers), the same for every row of a scenario: its exact
 * fraction and value, and its estimate with a 95% interval. They come after FIXED_COLUMNS, one group per
 * mean any scenario of the table has.
 */
export function meanColumns(jsonKey: string): string[] {
  return [`${jsonKey}_exact`, jsonKey, `${jsonKey}_estimate`, `${jsonKey}_ci_low`, `${jsonKey}_ci_high`];
}

/**
 * The column a grid with cells the rules forbid adds, last: empty on every row of a computed cell, the
 * rules' reason on the one row of a cell left out, which has no outcome and no values.
 */
export const NOT_ALLOWED_COLUMN = 'not_allowed';

/** What the tidy CSV reads of a scenario's results; a sweep's Cell is one. */
export interface TidyCell {
  /** Its place in the grid (a sweep's cell), so the cells the rules forbid are listed where they are. */
  readonly index?: number;
  readonly scenario: Scenario;
  readonly outcomes: readonly CellOutcome[];
  readonly means: readonly CellMean[];
  /** Per outcome (in `outcomes` order), the simulated count. */
  readonly sim?: { readonly trials: number; readonly seed: number; readonly batches: number; readonly summary: { readonly outcomes: readonly { readonly count: number }[] } };
  /** Per outcome, the z-score of the estimate against the exact value. */
  readonly check?: { readonly outcomes: readonly { readonly z: number }[] };
}

export interface TidySource {
  /** Report and analysis ids, when the rows come from a report. */
  readonly report?: string;
  readonly analysis?: string;
  /** A sweep, or a single scenario as a sweep of one cell with nothing varied. */
  readonly sweep: {
    readonly dimensions: readonly { readonly fields: readonly string[] }[];
    readonly cells: readonly TidyCell[];
    /** The cells the rules forbid (a sweep's), each one row saying so. */
    readonly notAllowed?: readonly NotAllowedCell[];
  };
}

/** Not input fields: their own columns, or (the rule table) not a column at all. */
const SCENARIO_META = new Set(['system', 'kind', 'edition', 'rules']);

/**
 * The input fields of all sources: the varied ones in order of first appearance, then every other field
 * of their scenarios. The system, kind and edition have their own columns.
 */
export function fieldColumns(sources: readonly TidySource[]): string[] {
  const out = new Set<string>();
  // A varied `rules` shows as the variant's name (a cell under the edition's own rules has none).
  for (const s of sources) for (const d of s.sweep.dimensions) for (const f of d.fields) if (f === 'rules') out.add('variant');
  else if (!SCENARIO_META.has(f)) out.add(f);
  for (const s of sources) for (const c of s.sweep.cells) for (const f of Object.keys(c.scenario)) if (!SCENARIO_META.has(f)) out.add(f);
  return [...out];
}

function meanKeys(sources: readonly TidySource[]): string[] {
  const out = new Set<string>();
  for (const s of sources) for (const c of s.sweep.cells) for (const m of c.means) out.add(m.jsonKey);
  return [...out];
}

export function tidyRows(sources: readonly TidySource[]): { header: string[]; rows: (string | number | boolean)[][] } {
  const fields = fieldColumns(sources);
  const means = meanKeys(sources);
  const withIds = sources.some((s) => s.report !== undefined || s.analysis !== undefined);
  // Only a grid with a cell the rules forbid has the column: every other CSV keeps its columns.
  const withNotAllowed = sources.some((s) => (s.sweep.notAllowed?.length ?? 0) > 0);
  const header = [...(withIds ? ['report', 'analysis'] : []), ...fields, ...FIXED_COLUMNS, ...means.flatMap(meanColumns), ...(withNotAllowed ? [NOT_ALLOWED_COLUMN] : [])];
  const rows: (string | number | boolean)[][] = [];
  for (const src of sources) {
    const ids = withIds ? [src.report ?? '', src.analysis ?? ''] : [];
    for (const cell of inGridOrder(src.sweep.cells, src.sweep.notAllowed)) {
      if (isNotAllowed(cell)) {
        // Its varied values and where it is; nothing computed. toolVersion stays: it says what refused it.
        const at: Record<string, string | number | boolean> = { system: cell.system, kind: cell.kind, edition: cell.edition, tool_version: toolVersion };
        rows.push([
          ...ids,
          ...fields.map((f) => cell.assignment[f] ?? ''),
          ...FIXED_COLUMNS.map((c) => at[c] ?? ''),
          ...means.flatMap(meanColumns).map(() => ''),
          cell.reason,
        ]);
        continue;
      }
      const sim = cell.sim;
      const meanCells = means.flatMap((key) => {
        const m = cell.means.find((x) => x.jsonKey === key);
        return [m?.exact ?? '', m?.value ?? '', m?.estimate ?? '', m?.ciLow ?? '', m?.ciHigh ?? ''];
      });
      cell.outcomes.forEach((o, i) => {
        const [num, den] = o.exact ? splitFraction(o.exact) : ['', ''];
        rows.push([
          ...ids,
          ...fields.map((f) => (cell.scenario[f] as FieldValue | undefined) ?? ''),
          cell.scenario.system,
          cell.scenario.kind,
          cell.scenario.edition,
          o.outcome,
          o.exact ?? '',
          num,
          den,
          o.probability ?? '',
          o.orWorseExact ?? '',
          o.orWorse ?? '',
          sim?.summary.outcomes[i]?.count ?? '',
          o.estimate ?? '',
          o.ciLow ?? '',
          o.ciHigh ?? '',
          // Infinity when an outcome of exact probability 0 was seen.
          cell.check?.outcomes[i]?.z ?? '',
          o.orWorseEstimate ?? '',
          o.orWorseCiLow ?? '',
          o.orWorseCiHigh ?? '',
          sim ? sim.trials : '',
          sim ? sim.seed : '',
          sim ? sim.batches : '',
          toolVersion,
          ...meanCells,
          ...(withNotAllowed ? [''] : []),
        ]);
      });
    }
  }
  return { header, rows };
}

// Text, not numbers: numerators run past a double's digits. Probabilities are never negative, so the
// formula escape in csvText never prefixes them.
function splitFraction(text: string): [string, string] {
  const [num, den] = text.split('/');
  return [num!, den ?? '1'];
}

export function tidyCsv(sources: readonly TidySource[]): string {
  const { header, rows } = tidyRows(sources);
  return csvText([header, ...rows]);
}

/** One scenario's results (`exact`, `simulate`, `check`): the tidy CSV of a sweep of that one cell. */
export function scenarioCsv(cell: TidyCell): string {
  return tidyCsv([{ sweep: { dimensions: [], cells: [cell] } }]);
}
