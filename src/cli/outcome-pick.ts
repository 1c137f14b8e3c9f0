import { listAllowed, showValue } from '../errors.js';
import { parse } from 'csv-parse/sync';
import { refusal } from '../messages.js';

/**
 * `--outcome`: the outcome a chart draws, and the rows (or, in a sweep, the columns) a table keeps, for
 * a one-line answer ("--outcome out-of-action"). Several ids separated by commas keep several rows; a
 * chart draws one. Each id must be an outcome of the scenario's kind, refused in one line otherwise.
 * A CSV keeps the rows of the outcomes picked (outcomeRowsOf); JSON always holds every outcome: --outcome
 * with it and no chart would do nothing, so it is refused rather than ignored.
 */
export function pickedOutcomes(argv: Readonly<Record<string, unknown>>, outcomes: readonly string[], about: string, format: string): string[] | undefined {
  const given = argv.outcome;
  if (given === undefined) return undefined;
  if (typeof given !== 'string' || given.trim() === '') throw refusal('--outcome', `${showValue(given)} names no outcome`, `allowed: ${listAllowed(outcomes)}`);
  const ids = given.split(',').map((s) => s.trim());
  for (const id of ids) {
    if (!outcomes.includes(id)) throw refusal('--outcome', `${showValue(id)} is not an outcome of ${about}`, `allowed: ${listAllowed(outcomes)}, or several separated by commas`);
  }
  if (new Set(ids).size < ids.length) throw refusal('--outcome', `${showValue(given)} names an outcome twice`, 'name each once');
  if (argv.chart !== undefined && ids.length > 1) throw refusal('--outcome', `${showValue(given)} names ${ids.length} outcomes; a chart draws one`, 'name one with --chart, or leave --chart out to keep several rows of the table');
  if (format === 'json' && argv.chart === undefined) throw refusal('--outcome', `picks rows of the table or the CSV; --format ${format} always holds every outcome`, 'leave --outcome out, or use --format table or csv');
  // In the table's order, whatever the order given.
  return outcomes.filter((o) => ids.includes(o));
}

/**
 * A tidy CSV with only the rows of the outcomes picked (--outcome with --format csv): a row whose
 * `outcome` is another of `outcomes` goes; the header, and rows of anything else (a mean), stay. Each
 * kept row is the text the presenter wrote, byte for byte.
 */
export function outcomeRowsOf(csv: string, picked: readonly string[] | undefined, outcomes: readonly string[]): string {
  if (picked === undefined) return csv;
  const rows = parse(csv, { raw: true, relax_column_count: true }) as unknown as { record: string[]; raw: string }[];
  const at = rows[0]?.record.indexOf('outcome') ?? -1;
  if (at < 0) return csv;
  const dropped = new Set(outcomes.filter((o) => !picked.includes(o)));
  const kept = rows.filter((r, i) => i === 0 || !dropped.has(r.record[at]!));
  return kept.map((r) => (r.raw.endsWith('\n') ? r.raw : `${r.raw}\n`)).join('');
}
