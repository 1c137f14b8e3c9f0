import type { ExactResult } from '../evaluate.js';
import { exactJson } from '../evaluate.js';
import { ZERO, add, formatFraction, toNumber } from '../exact/fraction.js';
import { csvText } from '../report/csv.js';

/** Plain-text table with right-aligned numeric columns. */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], alignRight: readonly boolean[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (alignRight[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function percent(p: number, digits = 2): string {
  return `${(p * 100).toFixed(digits)}%`;
}

/** One-line description of a scenario's non-default fields, for headings. */
export function scenarioHeading(r: { system: string; edition: string; kind: string }): string {
  return `${r.system} (${r.edition} edition), ${r.kind}`;
}

/** The one CSV writer (formula escaping included), under the name the CLI formatters use. */
export const csv = csvText;

/**
 * Exact fractions of long sequences run to dozens of digits; in a table they would push every other
 * column off the screen, so they are summarised there (the JSON and CSV output keep them whole).
 */
export function tableFraction(exact: string): string {
  if (exact.length <= 28) return exact;
  const den = exact.split('/')[1] ?? '';
  return `exact over ${den.length} digits (JSON)`;
}

export function formatExact(r: ExactResult, format: 'table' | 'json' | 'csv'): string {
  if (format === 'json') return JSON.stringify(exactJson(r), null, 2) + '\n';
  if (format === 'csv') {
    const rows: unknown[][] = [['system', 'edition', 'kind', 'outcome', 'exact', 'probability', 'or_worse_exact', 'or_worse']];
    for (const o of r.outcomes) rows.push([r.system, r.edition, r.kind, o.outcome, o.exact, o.probability, o.orWorseExact, o.orWorse]);
    return csv(rows);
  }
  const lines: string[] = [scenarioHeading(r)];
  for (const n of r.notes) lines.push(`  ${n}`);
  lines.push('');
  lines.push(
    renderTable(
      ['outcome', 'probability', 'exact', 'this or worse'],
      r.outcomes.map((o) => [o.outcome, percent(o.probability), tableFraction(o.exact), percent(o.orWorse)]),
      [false, true, true, true],
    ),
  );
  lines.push('');
  for (const [key, v] of Object.entries(r.means)) lines.push(`${key}: ${v.value.toFixed(4)} = ${tableFraction(v.exact)}`);
  for (const [id, bins] of Object.entries(r.histograms)) {
    lines.push('', renderTable([id, 'probability', 'exact'], bins.map((b) => [b.bin, percent(b.probability), tableFraction(b.exact)]), [false, true, true]));
  }
  // "Within n" views: running sums of when-did-it-happen histograms.
  r.layout.histograms.forEach((h, i) => {
    if (!h.cumulative) return;
    let acc = ZERO;
    const rows = h.bins.slice(0, -1).map((_, j) => {
      acc = add(acc, r.answer.histograms[i]![j]!);
      return [String(j + 1), percent(toNumber(acc)), tableFraction(formatFraction(acc))];
    });
    lines.push('', renderTable([`${h.cumulative.jsonKey} (${h.cumulative.indexKey})`, 'probability', 'exact'], rows, [true, true, true]));
  });
  return lines.join('\n') + '\n';
}
