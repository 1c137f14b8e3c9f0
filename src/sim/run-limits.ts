import { notAllowed } from '../messages.js';

/**
 * A simulation's trials and seed: their limits, defaults and the one check of each, for the CLI's flags
 * (src/cli/sim-options.ts) and the web page's fields alike, so both refuse a bad value in the same words.
 * Given as text, checked here once: `1e7` notation is accepted because nobody types seven zeros twice alike.
 */

export const MAX_TRIALS = 1e12;
export const MAX_SEED = Number.MAX_SAFE_INTEGER;
export const DEFAULT_TRIALS = 1e6;
export const DEFAULT_SEED = 1;
export const DEFAULT_MAX_TRIALS = 1e9;

export const TRIALS_ALLOWED = 'a whole number from 1 to 1e12 (such as 1000000 or 1e6)';
export const SEED_ALLOWED = `a whole number from 0 to ${MAX_SEED} (2^53 - 1)`;

/** Trials to simulate, refused as `where: "x" is not allowed; allowed: ...` (where: "--trials" on the command line). */
export function parseTrials(text: unknown, where: string): number {
  return wholeNumber(text, where, 1, MAX_TRIALS, TRIALS_ALLOWED);
}

/** A seed, refused in the same words as parseTrials. */
export function parseSeed(text: unknown, where: string): number {
  return wholeNumber(text, where, 0, MAX_SEED, SEED_ALLOWED);
}

export function wholeNumber(text: unknown, where: string, min: number, max: number, allowed: string): number {
  const n = parseDecimal(text);
  if (n === undefined || !Number.isInteger(n) || n < min || n > max) throw notAllowed(where, text, allowed);
  return n;
}

/**
 * A plain decimal such as 1000000, 1e6, 2.5e6 or 0.001. Number() alone would also take "", " ", "0x10"
 * and "Infinity", none of which anyone means as a trial count.
 */
export function parseDecimal(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || !/^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(value)) return undefined;
  return Number(value);
}
