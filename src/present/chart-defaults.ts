import type { ReportLayout } from '../model/types.js';
import { refusal } from '../messages.js';
import type { Dimension } from '../analysis/dimension-core.js';
import { MAX_BARS, type ChartDef } from './charts.js';

/**
 * The charts a grid is drawn with when nobody names them: a report's analysis without "charts", and the
 * one chart of `exact`, `simulate`, `compare` and `sweep` with --chart (src/present/one-off-chart.ts).
 * Reads no file, so the web page draws the same charts.
 */

/** A chart as a definition gives it, before its file name is settled. */
export type ChartInput = { readonly type: ChartDef['type']; readonly file?: string; readonly [option: string]: unknown };

/**
 * Charts for an analysis that names none: what its dimensions are best shown by. A grid of more cells
 * than stacked bars can hold (a catalogue's weapons against its models) gets its heat map alone: one
 * line per model would be as unreadable as thousands of bars.
 */
export function defaultCharts(dims: readonly Dimension[], layout: ReportLayout): ChartInput[] {
  // Outcomes not ranked by severity (a duel's winners) have no worst and no "or worse": the first is shown.
  const worst = layout.unranked ? layout.outcomes[0]! : layout.outcomes[layout.outcomes.length - 1]!;
  const small = dims.reduce((n, d) => n * d.values.length, 1) <= MAX_BARS;
  if (dims.length === 1) {
    const d = dims[0]!;
    const bars: ChartInput[] = small ? [{ type: 'stacked-bars', y: d.id }] : [];
    return d.numeric ? [{ type: 'lines', x: d.id, ...(layout.unranked ? {} : { cumulative: true }) }, ...bars] : bars;
  }
  if (dims.length === 2) {
    const [a, b] = dims as [Dimension, Dimension];
    const numeric = b.numeric ? b : a.numeric ? a : undefined;
    const other = numeric === b ? a : b;
    return [
      { type: 'heatmap', x: b.id, y: a.id, outcome: worst },
      ...(numeric && small ? [{ type: 'lines' as const, x: numeric.id, series: other.id, outcomes: [worst] }] : []),
      ...(small ? [{ type: 'stacked-bars' as const, y: a.id, facet: b.id }] : []),
    ];
  }
  throw refusal('charts', `give the charts for a grid of ${dims.length} dimensions (which dimension goes on which axis and facet)`);
}

