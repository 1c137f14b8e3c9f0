import type { Argv } from 'yargs';
import { notAllowed } from '../messages.js';
import { DEFAULT_DIGITS, MAX_DIGITS } from '../text.js';

/** `--digits N`: decimals of a table's exact percentages (exact, sweep), instead of the fewest that tell every value apart. */
export function addDigitsOption<T>(y: Argv<T>): Argv<T> {
  return y.option('digits', {
    type: 'string',
    describe: `Decimals of the table's percentages, 0-${MAX_DIGITS} (default: the fewest from ${DEFAULT_DIGITS.fewest} that never show two different exact values alike)`,
  }) as Argv<T>;
}

export function digitsFromArgv(argv: Readonly<Record<string, unknown>>): number | undefined {
  const given = argv.digits;
  if (given === undefined) return undefined;
  const text = Array.isArray(given) ? given.join(' ') : String(given);
  if (!/^\s*\d+\s*$/.test(text) || Number(text) > MAX_DIGITS) throw notAllowed('--digits', given, `a whole number from 0 to ${MAX_DIGITS}`);
  return Number(text);
}
