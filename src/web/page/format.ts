/** How the page writes probabilities and fractions, and reads a run's seed and trials: as the CLI does. */
import { DEFAULT_SEED, DEFAULT_TRIALS, esc, longFractionDigits, parseSeed, parseTrials, percent } from '../engine.js';

export const pct = (p: number) => percent(p, 2);

/**
 * An exact fraction as the page shows it: whole when short; a duel's of 100+ digits as the CLI's tables
 * say it ("exact over N digits"), the whole fraction one click away and selectable to copy, so it never
 * pushes the answer off the screen.
 */
export function fractionHtml(exact: string): string {
  const digits = longFractionDigits(exact);
  if (digits === undefined) return `<span class="fraction">${esc(exact)}</span>`;
  return `<details class="fraction long"><summary>exact over ${digits} digits</summary><code>${esc(exact)}</code></details>`;
}

/** Fractions as n/d always ("0" is "0/1"), as data-exact promises. */
export const ratio = (f: string) => (f.includes('/') ? f : `${f}/1`);

/** A run's seed and trials as the CLI reads --seed and --trials (its one-line message if not); an empty text takes the CLI's default. */
export function seedAndTrials(seed: string, trials: string): { seed: number; trials: number } {
  return {
    seed: parseSeed(seed.trim() === '' ? String(DEFAULT_SEED) : seed, 'seed'),
    trials: parseTrials(trials.trim() === '' ? String(DEFAULT_TRIALS) : trials, 'trials'),
  };
}
