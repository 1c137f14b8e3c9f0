// csv-parse's browser build (the same code, with its own Buffer), as src/present/tables/csv.ts takes
// csv-stringify's: its Node build reads Buffer as it loads, and --vary's lists are parsed in a page too.
import { parse } from 'csv-parse/browser/esm/sync';
import { showValue } from './errors.js';
import { refusal } from './messages.js';

/**
 * How a list given on the command line quotes a value that holds its separator, for --help, the docs and
 * messages alike. Real names hold commas ("Al-Qahhar, the Crippled"; "Great Hammer/Maul/Club, Mace"):
 * a value is quoted as a spreadsheet quotes a cell.
 */
export const LIST_QUOTING = 'a value holding a comma goes in double quotes, as a spreadsheet writes it ("Al-Qahhar, the Crippled"), with "" for a quote inside';

/**
 * A list as the user typed it, split at `separator` (a comma unless said), each value trimmed; a value
 * may be quoted as a CSV cell is ("A, B" in double quotes, "" for a quote inside it). A quote inside an
 * unquoted value is kept as written (`5" barrel`): lists that never quote read as they always did. Empty
 * values are returned ("a,,b" gives "a", "", "b"; "" gives none): whether one is a typo is the caller's
 * to say. A quote never closed, or text after a closing quote, is refused in one line naming `flag`,
 * the value and what is allowed. The one reader of every such list: --vary's values, price's --models,
 * --weapons and --where.
 */
export function parseQuotedList(text: string, flag: string, separator = ','): string[] {
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: separator,
      // A command-line argument never holds a NUL: the whole text is one record, so a line break is part of a value.
      record_delimiter: '\u0000',
      relax_quotes: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const problem = code === 'CSV_QUOTE_NOT_CLOSED' ? 'has a quote that is never closed' : code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE' ? 'has text after a closing quote' : 'is not a list';
    throw refusal(flag, `${showValue(text)} ${problem}`, `allowed: values separated by "${separator}"; ${LIST_QUOTING.replace('a comma', `"${separator}"`)}`);
  }
  return records[0] ?? [];
}

/** A value written back into a list that parseQuotedList reads as this value: quoted where it must be. */
export function quoteListValue(value: string, separator = ','): string {
  const plain = !value.includes(separator) && !value.startsWith('"') && value === value.trim();
  return plain ? value : `"${value.replaceAll('"', '""')}"`;
}
