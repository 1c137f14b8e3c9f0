import { stringify } from 'csv-stringify/sync';
import { toolVersion } from '../project.js';
import type { SweepResult } from './sweep.js';

/**
 * Results in tidy long form: one row per cell and outcome, every varied field in its own column, so a
 * spreadsheet's pivot table or any data-frame library reads it without reshaping. Written with
 * csv-stringify, which quotes per RFC 4180 (a label with a comma or a quote stays one cell).
 *
 * `exact` is the fraction as text ("1313/7776"); `exact_numerator` and `exact_denominator` give it as
 * two whole numbers as well, because a spreadsheet may read a short fraction such as 5/12 as a date.
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
  'estimate',
  'ci_low',
  'ci_high',
  'or_worse_estimate',
  'or_worse_ci_low',
  'or_worse_ci_high',
  'trials',
  'seed',
  'batches',
  'tool_version',
] as const;

export interface TidySource {
  /** Report and analysis ids, when the rows come from a report. */
  readonly report?: string;
  readonly analysis?: string;
  readonly sweep: SweepResult;
}

/** The varied fields of all sources, in order of first appearance; the edition has its own column. */
export function variedFields(sources: readonly TidySource[]): string[] {
  const out: string[] = [];
  for (const s of sources) for (const d of s.sweep.dimensions) for (const f of d.fields) if (f !== 'edition' && !out.includes(f)) out.push(f);
  return out;
}

export function tidyRows(sources: readonly TidySource[]): { header: string[]; rows: (string | number | boolean)[][] } {
  const fields = variedFields(sources);
  const withIds = sources.some((s) => s.report !== undefined || s.analysis !== undefined);
  const header = [...(withIds ? ['report', 'analysis'] : []), ...fields, ...FIXED_COLUMNS];
  const rows: (string | number | boolean)[][] = [];
  for (const src of sources) {
    for (const cell of src.sweep.cells) {
      for (const o of cell.outcomes) {
        const [num, den] = o.exact ? splitFraction(o.exact) : ['', ''];
        const sim = cell.sim;
        rows.push([
          ...(withIds ? [src.report ?? '', src.analysis ?? ''] : []),
          ...fields.map((f) => cell.scenario[f] ?? ''),
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
          o.estimate ?? '',
          o.ciLow ?? '',
          o.ciHigh ?? '',
          o.orWorseEstimate ?? '',
          o.orWorseCiLow ?? '',
          o.orWorseCiHigh ?? '',
          sim ? sim.trials : '',
          sim ? sim.seed : '',
          sim ? sim.batches : '',
          toolVersion,
        ]);
      }
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

export function tidyCsv(sources: readonly TidySource[]): string {
  const { header, rows } = tidyRows(sources);
  return csvText([header, ...rows]);
}
