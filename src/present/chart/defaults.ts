import type { ReportLayout, Scenario } from '../../model/types.js';
import { notOneOf, refusal } from '../../messages.js';
import { resolveKind } from '../../rules/registry.js';
import { unionOutcomes } from '../../analysis/cells.js';
import type { Dimension } from '../../analysis/dimension-core.js';
import type { ChartDef, ChartInput } from './definition.js';

export type { ChartInput };
import { MAX_BARS } from './stacked-bars.js';
import { checkChart } from './check.js';
import { showValue } from '../../errors.js';

/**
 * The charts a grid is drawn with when nobody names them: a report's analysis without "charts", and the
 * one chart of `exact`, `simulate`, `compare` and `sweep` with --chart (src/present/write/one-off-chart.ts).
 * Reads no file, so the web page draws the same charts.
 */


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
    return d.numeric ? [{ type: 'lines', x: d.id, ...(layout.unranked ? {} : { cumulative: true }), ...stepsOf(d) }, ...bars] : bars;
  }
  if (dims.length === 2) {
    const [a, b] = dims as [Dimension, Dimension];
    const numeric = b.numeric ? b : a.numeric ? a : undefined;
    const other = numeric === b ? a : b;
    return [
      { type: 'heatmap', x: b.id, y: a.id, outcome: worst },
      ...(numeric && small ? [{ type: 'lines' as const, x: numeric.id, series: other.id, outcomes: [worst], ...stepsOf(numeric) }] : []),
      ...(small ? [{ type: 'stacked-bars' as const, y: a.id, facet: b.id }] : []),
    ];
  }
  throw refusal('charts', `give the charts for a grid of ${dims.length} dimensions (which dimension goes on which axis and facet)`);
}


/** Lines along a dimension whose answer holds between whole thresholds (a fall's height) are drawn as steps. */
function stepsOf(d: Dimension): { interpolate?: 'step-after' } {
  return d.steps ? { interpolate: 'step-after' } : {};
}

/** The option a command line gives its chart with, for messages. */
export const CHART_FLAG = '--chart';

/** The layout the chart of several scenarios reads: the first one's, with every outcome any of them can have. */
export function gridLayout(scenarios: readonly Scenario[]): ReportLayout {
  const layouts = scenarios.map((s) => resolveKind(s).kind.layout(s));
  return { ...layouts[0]!, outcomes: unionOutcomes(layouts.map((l) => l.outcomes)) };
}

/** The chart types a command line names (--chart-type), each the report chart type it draws. */
export const CHART_TYPE_CHOICES = { lines: 'lines', bars: 'stacked-bars', heatmap: 'heatmap' } as const satisfies Record<string, ChartDef['type']>;
export type ChartTypeChoice = keyof typeof CHART_TYPE_CHOICES;

/** The flags a command line puts a varied field on a chart with (--x, --y, --series, --facet). */
export const CHART_AXES = ['x', 'y', 'series', 'facet'] as const;
export type ChartAxis = (typeof CHART_AXES)[number];

/** The flag a command line names its chart's type with, for messages. */
export const CHART_TYPE_FLAG = '--chart-type';

/** What a command line asks of its chart: one outcome or "or worse", and the chart's type and axes where it names them. */
export interface ChartAsk {
  readonly outcome?: string;
  readonly cumulative: boolean;
  readonly type?: ChartTypeChoice;
  readonly axes?: Readonly<Partial<Record<ChartAxis, string>>>;
}

/**
 * Each chart type's channels: the definition key each flag fills, and the order in which fields no
 * flag names fill the rest. A heat map's first field goes on its rows and a lines chart's x is a
 * numeric field where there is one, as the defaults have them. Stacked bars lie along y, so --x and
 * --y both name the field with one bar per value; a heat map's rows may be named --series as well
 * (what a lines chart colours by, a heat map lays out as rows). A lines chart's y is the chance.
 */
const CHANNELS: Record<ChartTypeChoice, { readonly fill: readonly string[]; readonly flags: Readonly<Partial<Record<ChartAxis, string>>> }> = {
  lines: { fill: ['x', 'series', 'facet'], flags: { x: 'x', series: 'series', facet: 'facet' } },
  heatmap: { fill: ['y', 'x', 'facet'], flags: { x: 'x', y: 'y', series: 'y', facet: 'facet' } },
  bars: { fill: ['y', 'facet'], flags: { x: 'y', y: 'y', facet: 'facet' } },
};

/** A channel as a message names it. */
const CHANNEL_WORDS: Readonly<Record<string, string>> = { x: 'x axis', y: 'rows (or bars)', series: 'lines', facet: 'panels' };

/** The type a command line means when it names axes but no type: lines for a series, else the grid's default heat map or first chart. */
function impliedType(dims: readonly Dimension[], ask: ChartAsk): ChartTypeChoice {
  if (ask.axes?.series !== undefined) return 'lines';
  if (dims.length >= 2) return 'heatmap';
  return dims[0]?.numeric ? 'lines' : 'bars';
}

/**
 * The chart a command line lays out itself (--chart-type, --x, --y, --series, --facet): each named
 * field on its channel, the fields left on the channels left in order, and the outcome and "or worse"
 * asked for, checked as a report's chart is (./check.ts).
 */
function placedChart(dims: readonly Dimension[], layout: ReportLayout, ask: ChartAsk): ChartInput {
  const type = ask.type ?? impliedType(dims, ask);
  const { fill, flags } = CHANNELS[type];
  const ids = dims.map((d) => d.id);
  const placed = new Map<string, string>();
  for (const axis of CHART_AXES) {
    const field = ask.axes?.[axis];
    if (field === undefined) continue;
    const channel = flags[axis];
    const allowed = `allowed with ${CHART_TYPE_FLAG} ${type}: ${Object.keys(flags).map((f) => `--${f}`).join(', ')}`;
    if (channel === undefined) throw refusal(`--${axis}`, type === 'lines' && axis === 'y' ? "a lines chart's y axis is the chance" : `a ${type} chart has no ${axis} field`, allowed);
    if (!ids.includes(field)) throw notOneOf(`--${axis}`, field, 'a field this run varies', ids);
    const holder = placed.get(channel);
    if (holder !== undefined) throw refusal(`--${axis}`, `${showValue(field)}: ${showValue(holder)} is already on the ${CHANNEL_WORDS[channel] ?? channel}`, allowed);
    if ([...placed.values()].includes(field)) throw refusal(`--${axis}`, `${showValue(field)} is named for another channel too`, 'name each varied field once');
    placed.set(channel, field);
  }
  const rest = ids.filter((id) => ![...placed.values()].includes(id));
  const numeric = type === 'lines' && !placed.has('x') ? dims.find((d) => d.numeric && rest.includes(d.id)) : undefined;
  if (numeric) rest.sort((a, b) => Number(b === numeric.id) - Number(a === numeric.id));
  for (const channel of fill) if (!placed.has(channel) && rest.length > 0) placed.set(channel, rest.shift()!);
  if (rest.length > 0) {
    throw refusal(CHART_TYPE_FLAG, `${type}: ${dims.length} fields are varied, and a ${type} chart shows ${fill.length} (${fill.join(', ')})`, 'vary fewer fields');
  }
  if (type === 'heatmap' && !placed.has('x')) throw refusal(CHART_TYPE_FLAG, `heatmap: a heat map needs two varied fields (its rows and columns), and ${dims.length === 1 ? 'one is' : `${dims.length} are`} varied`, 'allowed: lines or bars');
  const worst = layout.unranked ? layout.outcomes[0]! : layout.outcomes[layout.outcomes.length - 1]!;
  const channels = Object.fromEntries(placed);
  if (type === 'heatmap') return { type: 'heatmap', ...channels, outcome: ask.outcome ?? worst, ...(ask.cumulative ? { cumulative: true } : {}) };
  if (type === 'bars') {
    if (ask.outcome !== undefined) throw refusal('--outcome', 'stacked bars show every outcome', `leave it out, or ${CHART_TYPE_FLAG} lines or heatmap (one outcome)`);
    return { type: 'stacked-bars', ...channels, ...(ask.cumulative ? { cumulative: true } : {}) };
  }
  const x = dims.find((d) => d.id === placed.get('x'))!;
  const oneOutcome = placed.has('series') || ask.outcome !== undefined;
  return {
    type: 'lines',
    ...channels,
    ...(oneOutcome ? { outcomes: [ask.outcome ?? worst] } : {}),
    // Every outcome on one chart reads best as "this or worse" (the default lines); one outcome as asked.
    ...(ask.cumulative || (!oneOutcome && !layout.unranked) ? { cumulative: true } : {}),
    ...stepsOf(x),
  };
}

/**
 * The one chart a command line draws (--chart) for a grid of `dims` (none varied for one scenario) of a
 * kind laid out as `layout`: the report's default for those dimensions, with the outcome and "or worse"
 * asked for where the chart shows one outcome (lines, heat maps), and `context` under its title. The
 * CLI's planChart (src/present/write/one-off-chart.ts) checks the file first; the web page asks for the same.
 */
export function chooseChart(dims: readonly Dimension[], layout: ReportLayout, context: string, ask: ChartAsk): ChartDef {
  if (ask.outcome !== undefined && !layout.outcomes.includes(ask.outcome)) throw notOneOf('--outcome', ask.outcome, 'an outcome of this kind', layout.outcomes);
  if (ask.cumulative && layout.unranked) throw refusal('--cumulative', 'the outcomes of this kind are not ranked from mildest to most severe, so none is "or worse"', 'leave it out');
  if (ask.type !== undefined || (ask.axes !== undefined && Object.keys(ask.axes).length > 0)) {
    const placed = placedChart(dims, layout, ask);
    return { ...checkChart(placed, dims, layout, `${CHART_TYPE_FLAG} ${ask.type ?? placed.type}`), file: 'chart', context } as unknown as ChartDef;
  }
  if (dims.length > 2) {
    throw refusal(CHART_FLAG, `a chart of ${dims.length} varied fields needs to be told which goes where`, `name them, e.g. ${CHART_TYPE_FLAG} heatmap --x ${dims[1]!.id} --y ${dims[0]!.id} --facet ${dims[2]!.id}`);
  }
  const charts = defaultCharts(dims, layout);
  // One outcome asked for: the first chart that shows one (lines, a heat map); stacked bars show them
  // all. "Or worse" alone is drawn by stacked bars too, laid most severe first (./stacked-bars.ts).
  const oneOutcome = ask.outcome !== undefined || ask.cumulative;
  const chosen = oneOutcome ? (charts.find((c) => c.type !== 'stacked-bars') ?? (ask.outcome === undefined ? charts[0] : undefined)) : charts[0];
  if (!chosen) {
    throw ask.outcome !== undefined && charts.length > 0
      ? refusal('--outcome', 'a chart of this grid is stacked bars, which show every outcome', `leave it out, or ${CHART_TYPE_FLAG} lines (one outcome)`)
      : refusal(CHART_FLAG, 'this grid has too many cells for stacked bars', 'vary two fields (a heat map), or fewer values');
  }
  const base = { ...chosen, file: 'chart', context } as Record<string, unknown>;
  if (chosen.type === 'lines' && ask.outcome !== undefined) base.outcomes = [ask.outcome];
  if (chosen.type === 'heatmap' && ask.outcome !== undefined) base.outcome = ask.outcome;
  if (oneOutcome && (chosen.type !== 'stacked-bars' || ask.cumulative)) base.cumulative = ask.cumulative;
  return base as unknown as ChartDef;
}
