import { stringify } from 'csv-stringify/sync';
import type { ExactResult } from '../evaluate.js';
import { exactJson } from '../evaluate.js';

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

export function csv(rows: readonly (readonly unknown[])[]): string {
  return stringify(rows as unknown[][], { record_delimiter: 'unix' });
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
      r.outcomes.map((o) => [o.outcome, percent(o.probability), o.exact, percent(o.orWorse)]),
      [false, true, true, true],
    ),
  );
  lines.push('');
  for (const [key, v] of Object.entries(r.means)) lines.push(`${key}: ${v.value.toFixed(4)} (${v.exact})`);
  for (const [id, bins] of Object.entries(r.histograms)) {
    lines.push('', renderTable([id, 'probability', 'exact'], bins.map((b) => [b.bin, percent(b.probability), b.exact]), [false, true, true]));
  }
  return lines.join('\n') + '\n';
}
