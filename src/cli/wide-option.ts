import type { Argv } from 'yargs';
import { checkBooleanFlag, cliArgs } from './args.js';
import { refusal } from '../messages.js';
import { formatsOf, type Format, type Presenter } from '../present/tables/presenter.js';
import { addFormatOption } from './options.js';
import { wideCsv, type WideAsk, type WideCsv } from '../present/tables/wide-csv.js';
import type { CellOutcome, SweepResult } from '../analysis/cells.js';
import type { CompareResult, CompareRow } from '../analysis/compare-core.js';
import { scenariosSweep } from '../analysis/single.js';
import type { ReportLayout } from '../model/types.js';

/**
 * `--wide` (sweep, compare, price): the CSV as a matrix a spreadsheet user pastes instead of the tidy long
 * table (src/present/tables/wide-csv.ts says what goes where; price's, price-wide.ts). Declared here once, with --format (which it
 * adds to), so its help reads the same in every command that takes it. Its help is the --format line's
 * tail, not a line of its own: sweep's --help is at the length a screen shows (test/cli-flags.test.ts),
 * and --wide is a way of writing csv, found where csv is.
 */
export function addWideFormatOption<T, R, F extends Format>(y: Argv<T>, presenter: Presenter<R, F | 'table'>): Argv<T> {
  return addFormatOption(y, presenter)
    .option('format', { describe: `Output format: ${formatsOf(presenter).join(', ')} (--wide: a matrix)` })
    .option('wide', {
      type: 'boolean',
      describe: "Write the CSV as a matrix: rows the first varied field, columns the second (one field: the outcomes), cells the most severe outcome (--outcome, --cumulative); price: a row and a column per entry, cells the row's share against the column; implies --format csv",
      default: false,
      hidden: true,
    }) as Argv<T>;
}

/**
 * The format to print once --wide is read: csv with --wide (said on stderr when --format was left out,
 * as --wide implies it), else `format` as given. --wide with another --format given is refused: one of
 * the two flags would be ignored.
 */
export function formatWithWide(argv: Readonly<Record<string, unknown>>, format: Format, args: readonly string[] = cliArgs()): { readonly format: Format; readonly wide: boolean } {
  checkBooleanFlag('wide', args);
  if (argv.wide !== true) return { format, wide: false };
  if (format === 'csv') return { format, wide: true };
  const given = args.some((a) => a === '--format' || a.startsWith('--format='));
  if (given) throw refusal('--wide', `writes a CSV; --format ${format} asks for another format`, 'allowed: --wide with --format csv, or --wide alone (it implies csv)');
  return { format: 'csv', wide: true };
}

/**
 * Refuses --wide --cumulative where the outcomes are not ranked (a duel's a-wins, b-wins): "or worse" would
 * put a number in every cell that answers no question.
 */
export function checkWideCumulative(wide: boolean, cumulative: boolean, layout: Pick<ReportLayout, 'unranked'>): void {
  if (wide && cumulative && layout.unranked) {
    throw refusal('--cumulative', 'the outcomes of this kind are not ranked from mildest to most severe, so none is "or worse"', 'leave it out, or leave out --wide');
  }
}

/** The wide CSV of `sweep` for the outcomes picked (--outcome) and --cumulative; what fills it said on stderr. */
export function wideText(sweep: SweepResult, picked: readonly string[] | undefined, cumulative: boolean, sources?: WideAsk['sources']): string {
  return saidWide(wideCsv(sweep, { ...(picked ? { outcomes: picked } : {}), cumulative, ...(sources ? { sources } : {}) }));
}

/** A wide CSV's text, its note said on stderr: the file holds nothing but numbers, so what they are is said there. */
export function saidWide(wide: WideCsv): string {
  process.stderr.write(`injury-lab: ${wide.note}\n`);
  return wide.text;
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
