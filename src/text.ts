/**
 * Plain text for people: numbers as the tables, headings and verdicts show them. Imports nothing of the
 * project, so the HTML page and the charts (src/present/) use the same percentages as the terminal.
 */

import { terminalSafe } from './terminal-safe.js';

export { terminalSafe, terminalSafeLines } from './terminal-safe.js';

/** Plain-text table with right-aligned numeric columns; every cell is made terminalSafe, and widths are measured on what is printed. */
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
export function percent(p: number, digits: number): string {
  return `${(p * 100).toFixed(digits)}%`;
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
  if (exact.length <= 28) return exact;
  const den = exact.split('/')[1] ?? '';
  return `exact over ${den.length} digits (JSON)`;
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
