import type { Argv } from 'yargs';
import { checkBooleanFlag, cliArgs } from './args.js';
import { refusal } from '../messages.js';
import { formatsOf, type Format, type Presenter } from '../present/tables/presenter.js';
import { addFormatOption } from './options.js';
import { wideCsv, type WideAsk, type WideCsv } from '../present/tables/wide-csv.js';

export { compareGrid, compareSources } from '../present/tables/wide-csv.js';
import type { SweepResult } from '../analysis/cells.js';
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
