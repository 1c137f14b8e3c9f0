import type { ReportLayout, Scenario } from '../../model/types.js';
import { notOneOf, refusal } from '../../messages.js';
import { resolveKind } from '../../rules/registry.js';
import { unionOutcomes } from '../../analysis/cells.js';
import type { Dimension } from '../../analysis/dimension-core.js';
import type { ChartDef } from './definition.js';
import { MAX_BARS } from './stacked-bars.js';

/**
 * The charts a grid is drawn with when nobody names them: a report's analysis without "charts", and the
 * one chart of `exact`, `simulate`, `compare` and `sweep` with --chart (src/present/write/one-off-chart.ts).
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


/** The option a command line gives its chart with, for messages. */
export const CHART_FLAG = '--chart';

/** The layout the chart of several scenarios reads: the first one's, with every outcome any of them can have. */
export function gridLayout(scenarios: readonly Scenario[]): ReportLayout {
  const layouts = scenarios.map((s) => resolveKind(s).kind.layout(s));
  return { ...layouts[0]!, outcomes: unionOutcomes(layouts.map((l) => l.outcomes)) };
}

/**
 * The one chart a command line draws (--chart) for a grid of `dims` (none varied for one scenario) of a
 * kind laid out as `layout`: the report's default for those dimensions, with the outcome and "or worse"
 * asked for where the chart shows one outcome (lines, heat maps), and `context` under its title. The
 * CLI's planChart (src/present/write/one-off-chart.ts) checks the file first; the web page asks for the same.
 */
export function chooseChart(dims: readonly Dimension[], layout: ReportLayout, context: string, ask: { readonly outcome?: string; readonly cumulative: boolean }): ChartDef {
  if (ask.outcome !== undefined && !layout.outcomes.includes(ask.outcome)) throw notOneOf('--outcome', ask.outcome, 'an outcome of this kind', layout.outcomes);
  if (ask.cumulative && layout.unranked) throw refusal('--cumulative', 'the outcomes of this kind are not ranked from mildest to most severe, so none is "or worse"', 'leave it out');
  if (dims.length > 2) {
    throw refusal(CHART_FLAG, `a chart of ${dims.length} varied fields needs to be told which goes on which axis`, 'vary at most two fields, or write a report file (docs/reports.md) whose "charts" say it');
  }
  const charts = defaultCharts(dims, layout);
  // One outcome asked for: the first chart that shows one (lines, a heat map); stacked bars show them all.
  const oneOutcome = ask.outcome !== undefined || ask.cumulative;
  const chosen = oneOutcome ? charts.find((c) => c.type !== 'stacked-bars') : charts[0];
  if (!chosen) {
    throw oneOutcome
      ? refusal(ask.outcome !== undefined ? '--outcome' : '--cumulative', 'a chart of this grid is stacked bars, which show every outcome', 'leave it out, or vary a numeric field (lines) or two fields (a heat map)')
      : refusal(CHART_FLAG, 'this grid has too many cells for stacked bars', 'vary two fields (a heat map), or fewer values');
  }
  const base = { ...chosen, file: 'chart', context } as Record<string, unknown>;
  if (chosen.type === 'lines' && ask.outcome !== undefined) base.outcomes = [ask.outcome];
  if (chosen.type === 'heatmap' && ask.outcome !== undefined) base.outcome = ask.outcome;
  if (chosen.type !== 'stacked-bars' && oneOutcome) base.cumulative = ask.cumulative;
  return base as unknown as ChartDef;
}
