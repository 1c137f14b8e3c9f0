/**
 * Plain text for people: numbers as the tables, headings and verdicts show them. Imports nothing of the
 * project, so the HTML page and the charts (src/present/) use the same percentages as the terminal.
 */

import { terminalSafe } from './terminal-safe.js';

export { terminalSafe, terminalSafeLines } from './terminal-safe.js';

/** Plain-text table with right-aligned numeric columns; every cell is made terminalSafe, and widths are measured on what is printed. */
/** How wide a table may be before a command splits it or abbreviates its headers: a terminal's 100 columns. */
export const TABLE_COLUMNS = 100;

/** The widest line of a rendered table. */
export const tableWidth = (table: string) => Math.max(0, ...table.split('\n').map((l) => l.length));

export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], alignRight: readonly boolean[] = []): string {
  const shownHeaders = headers.map(terminalSafe);
  const shownRows = rows.map((r) => r.map(terminalSafe));
  const widths = shownHeaders.map((h, i) => Math.max(h.length, ...shownRows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (alignRight[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(shownHeaders), widths.map((w) => '-'.repeat(w)).join('  '), ...shownRows.map(line)].join('\n');
}

/** A probability as a percentage with a fixed number of decimals: percent(0.16885, 1) is "16.9%". */
/** Text safe inside HTML, an attribute's value included: the report pages' and the web page's. */
export const esc = (s: unknown): string => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function percent(p: number, digits: number): string {
  return `${(p * 100).toFixed(digits)}%`;
}

/** The fewest and most decimals exact tables use by default; `--digits` sets any from 0 to MAX_DIGITS. */
export const DEFAULT_DIGITS = { fewest: 2, most: 6 } as const;
export const MAX_DIGITS = 10;

/** An exact probability to show: its value, and its fraction as text (equal texts are equal values). */
export interface ShownExact {
  readonly probability: number;
  readonly exact: string;
}

/**
 * A probability with `digits` decimals that never says a false 0% or 100%: a chance above 0 too small to
 * show reads "<0.01%", one below 1 too close to show reads ">99.99%".
 */
export function honestPercent(v: ShownExact, digits: number): string {
  const text = percent(v.probability, digits);
  const step = (10 ** -digits).toFixed(digits);
  if (v.exact !== '0' && Number(text.slice(0, -1)) === 0) return `<${step}%`;
  if (v.exact !== '1' && Number(text.slice(0, -1)) === 100) return `>${(100 - 10 ** -digits).toFixed(digits)}%`;
  return text;
}

/**
 * The decimals a column of exact probabilities needs: the fewest (from DEFAULT_DIGITS) at which no two
 * different values read the same, so a table never shows two unequal cells as equal; values that read
 * "<0.01%" or ">99.99%" say so themselves. `fixed` (a --digits option) wins.
 */
export function digitsFor(values: readonly ShownExact[], fixed?: number): number {
  if (fixed !== undefined) return fixed;
  for (let d: number = DEFAULT_DIGITS.fewest; d < DEFAULT_DIGITS.most; d++) {
    const seen = new Map<string, string>();
    let clash = false;
    for (const v of values) {
      const text = honestPercent(v, d);
      const before = seen.get(text);
      if (before !== undefined && before !== v.exact && !/^[<>]/.test(text)) clash = true;
      seen.set(text, v.exact);
    }
    if (!clash) return d;
  }
  return DEFAULT_DIGITS.most;
}

/** "16.9% ±0.2": an estimate and the larger half of its 95% interval, in percentage points. */
export function percentPlusMinus(estimate: number, ciLow: number, ciHigh: number, digits: number): string {
  return `${percent(estimate, digits)} ±${(Math.max(estimate - ciLow, ciHigh - estimate) * 100).toFixed(digits)}`;
}

/** "41.61% to 41.80%": a 95% interval. */
export function percentInterval(low: number, high: number, digits: number): string {
  return `${percent(low, digits)} to ${percent(high, digits)}`;
}

/** Digits after the percent point that resolve a 95% interval of this many trials, and no more. */
export function percentDigits(trials: number): number {
  return Math.min(6, Math.max(2, Math.ceil(Math.log10(Math.sqrt(trials))) - 1));
}

/**
 * Exact fractions of long sequences run to dozens of digits; in a table they would push every other
 * column off the screen, so they are summarised there (the JSON and CSV output keep them whole).
 */
export function tableFraction(exact: string): string {
  const digits = longFractionDigits(exact);
  return digits === undefined ? exact : `exact over ${digits} digits (JSON)`;
}

/** The digits of a fraction's denominator when it is too long to show whole beside others (the CLI's tables, the page), else undefined. */
export function longFractionDigits(exact: string): number | undefined {
  if (exact.length <= 28) return undefined;
  return (exact.split('/')[1] ?? exact).length;
}

/** A p-value: three decimals, or two significant digits once it is below 0.001. */
export function pText(p: number): string {
  return p >= 0.001 ? p.toFixed(3) : p.toExponential(1);
}

/** A z-score; an impossible outcome that was seen has an infinite one. */
export function zText(z: number): string {
  return Number.isFinite(z) ? z.toFixed(2) : z > 0 ? 'inf' : '-inf';
}

/** 12.3M, 4.56G: trial counts at a glance. */
export function compact(n: number): string {
  if (n >= 1e12) return `${(n / 1e12).toFixed(2)}T`;
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

/** The first line of a single scenario's table: "trench-crusade (core edition), attack", with its variant if any. */
export function scenarioHeading(r: {
  readonly system: string;
  readonly edition: string;
  readonly kind: string;
  readonly variant?: string | undefined;
  readonly weapon?: string | undefined;
  readonly target?: string | undefined;
}): string {
  const matchup = r.weapon !== undefined || r.target !== undefined ? `: ${r.weapon ?? 'the weapon given'} against ${r.target ?? 'the target given'}` : '';
  // Profile and variant names are the user's.
  return terminalSafe(`${r.system} (${r.edition} edition${r.variant === undefined ? '' : `, variant ${JSON.stringify(r.variant)}`}), ${r.kind}${matchup}`);
}

/** A JSON document as every command prints it: two-space indents and a final newline. */
export function jsonText(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}

/** Greedy word wrap to `width` columns (a word longer than that gets a line of its own). */
export function wordWrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The time a run has left, as a progress line says it ("about 40 s left", "about 3 min left"), from the
 * time its `done` of `total` took so far; nothing before the first is done, or within the first second.
 */
export function timeLeft(elapsedMs: number, done: number, total: number): string {
  // Before a second has gone by, the rate so far says little.
  if (done <= 0 || elapsedMs < 1000) return '';
  const seconds = ((elapsedMs / done) * Math.max(0, total - done)) / 1000;
  return seconds < 100 ? `about ${Math.ceil(seconds)} s left` : `about ${Math.ceil(seconds / 60)} min left`;
}
