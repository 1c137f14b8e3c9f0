import type { Argv } from 'yargs';
import { hideBin, Parser } from 'yargs/helpers';
import { notAllowed } from '../messages.js';

/** Width of every help text: the terminal's, at most 120 (100 when stdout is not a terminal). */
export function helpWidth(): number {
  return Math.min(120, process.stdout.columns ?? 100);
}

/**
 * A lone "-" is a value for the flag before it (`--defence -`, the d20 "no Defence" stat); yargs would
 * otherwise read it as a positional argument.
 */
export function dashAsValue(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--') && !a.includes('=') && args[i + 1] === '-') {
      out.push(`${a}=-`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * Whether a lone "-" stands as a positional argument (`report -`: the definition on standard input).
 * yargs reads such a "-" as an empty string, which is also what `report ''` gives: the raw arguments tell.
 */
export function dashPositional(args: readonly string[] = cliArgs()): boolean {
  return args.includes('-');
}

/** The arguments the CLI parses: the user's, "-" values attached to their flags. */
export function cliArgs(): string[] {
  return dashAsValue(hideBin(process.argv));
}

/** The flag that shows the field reference of a command line's scope, found by scanArgs before yargs parses. */
export const HELP_FIELDS = 'help-fields';

/** What a command's arguments say before yargs has parsed them: enough to choose the help and the suggestions. */
export interface ArgsScan {
  /** Positional arguments, the command name first. */
  readonly positionals: readonly string[];
  readonly system?: string;
  readonly kind?: string;
  readonly help: boolean;
  /** --help-fields: the field reference instead of the command's help. */
  readonly helpFields: boolean;
}

/**
 * Reads the arguments with yargs' own parser (yargs-parser), told which flags are booleans so that a
 * positional after one is found where yargs will find it. Every other flag takes a value, as the
 * CLI's string flags do. Never throws: a malformed command line is for yargs to refuse.
 */
export function scanArgs(args: readonly string[], booleans: readonly string[]): ArgsScan {
  const parsed = Parser([...args], { string: ['system', 'kind'], boolean: [...booleans, 'help', HELP_FIELDS, 'version'] });
  const one = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const system = one(parsed.system);
  const kind = one(parsed.kind);
  return {
    positionals: parsed._.map(String),
    ...(system !== undefined ? { system } : {}),
    ...(kind !== undefined ? { kind } : {}),
    help: parsed.help === true,
    helpFields: parsed[HELP_FIELDS] === true,
  };
}

/**
 * The options a command's builder declared (flag names and which are booleans). yargs keeps them on
 * the instance (`getOptions()`, which its own help and validation read) but @types/yargs does not
 * declare it; if it is ever missing, the suggestions fall back to the scenario fields alone.
 */
export function declaredOptions(y: Argv<unknown>): { keys: string[]; booleans: string[] } {
  const get = (y as unknown as { getOptions?: () => { key?: Record<string, unknown>; boolean?: unknown } }).getOptions;
  if (typeof get !== 'function') return { keys: [], booleans: [] };
  const o = get.call(y);
  const booleans = Array.isArray(o.boolean) ? o.boolean.filter((b): b is string => typeof b === 'string') : [];
  return { keys: Object.keys(o.key ?? {}), booleans };
}

/**
 * Refuses `--NAME=VALUE` for a boolean flag whose VALUE is neither true nor false: yargs reads
 * `--strict=maybe` as false, silently, which would run the very thing the flag was meant to stop.
 */
export function checkBooleanFlag(name: string, args: readonly string[] = cliArgs()): void {
  const prefix = `--${name}=`;
  for (const a of args) {
    if (a === '--') return;
    if (a.startsWith(prefix) && !['true', 'false'].includes(a.slice(prefix.length))) {
      throw notAllowed(`--${name}`, a.slice(prefix.length), `true, false (or --${name} alone, --no-${name})`);
    }
  }
}
