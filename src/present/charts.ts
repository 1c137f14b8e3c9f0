import type { CostOf, Dimension, DimensionValue } from '../analysis/dimension-core.js';
import { percent, percentPlusMinus, wordWrap } from '../text.js';
import { RAMP_START, orWorseLabel, outcomeColour, outcomeLabel, points, textColourOn } from '../labels.js';
import type { CellOutcome, SweepResult } from '../analysis/cells.js';
import { notAllowedLines } from '../analysis/not-allowed.js';
import { refusal } from '../messages.js';
import { showValue } from '../errors.js';

/**
 * Vega-Lite specs for the three chart types a report draws. Every spec carries its data inline, so the
 * .vl.json file opens in the Vega editor as it is, and every chart shares one outcome -> colour map
 * (labels.ts): out of action is the same dark red in bars, lines, legends and heat maps.
 *
 * Sizes are planned for CHART_WIDTH px of width. Vega measures text without a canvas by estimating 0.8 em per
 * character, so the plans below use the same estimate; real text is narrower, never wider.
 */

/**
 * Panels a row of a faceted chart holds, at most `most`: where `most` leaves a last row part empty (4
 * panels in rows of 3), vega draws the empty places' axes as empty panels; as many columns, down to 2,
 * as fill every row instead, else `most`.
 */
function panelColumns(panels: number, most: number): number {
  if (panels <= most) return panels;
  for (let columns = most; columns >= 2; columns--) if (panels % columns === 0) return columns;
  return most;
}

/**
 * A panel's title never widens its panel (a long keyword name would push the chart past its width): it
 * may take the gap between panels too (PANEL_GAP, vega's default spacing), then is cut with an
 * ellipsis; the tooltips say it in full.
 */
const PANEL_GAP = 20;
const panelHeader = (plotWidth: number) => ({ labelLimit: plotWidth + PANEL_GAP });

export type ChartDef = (
  | { readonly type: 'stacked-bars'; readonly y: string; readonly facet?: string; readonly title?: string; readonly file: string }
  | {
      readonly type: 'lines';
      readonly x: string;
      readonly series?: string;
      readonly facet?: string;
      readonly outcomes?: readonly string[];
      readonly cumulative?: boolean;
      /** "step-after" for quantities that hold until the next threshold (fall heights). */
      readonly interpolate?: 'linear' | 'step-after';
      readonly title?: string;
      readonly file: string;
    }
  | {
      readonly type: 'heatmap';
      readonly x: string;
      readonly y: string;
      readonly facet?: string;
      readonly outcome: string;
      readonly cumulative?: boolean;
      /**
       * A value (its label) of the facet dimension: each other facet shows its change against that one,
       * in percentage points (e.g. a variant against the edition's rules), on a diverging scale.
       */
      readonly differenceFrom?: string;
      /**
       * Colour the cells on a scale from 0% to 100% instead of from 0 to the largest value (rounded up to
       * a tenth): maps of chances read whole (who wins a duel) look alike whatever their largest cell.
       */
      readonly fullScale?: boolean;
      readonly title?: string;
      readonly file: string;
    }
  | {
      /**
       * What each weapon (or model) gives for its price: `outcome`'s chance (or, with `survive`, the
       * chance of escaping it; or the mean `mean`) per `per` of cost, averaged over the analysis's other
       * dimensions, as bars from best to worst value, with the outliers marked.
       */
      readonly type: 'value';
      readonly by: string;
      readonly outcome?: string;
      readonly cumulative?: boolean;
      readonly survive?: boolean;
      readonly mean?: string;
      readonly per?: number;
      readonly title?: string;
      readonly file: string;
    }
) & {
  /** What the chart was asked about, as the first line under its title ("attack; pierce 2, stat 10"). */
  readonly context?: string;
};

export type ChartType = ChartDef['type'];

/** How far from the median value a weapon or model is marked as priced too low or too high. */
export const VALUE_OUTLIER_RATIO = 1.5;
/**
 * A value chart reads a chance per ducat as "twice the cost should buy twice the chance", which no
 * chance above one half can do: when every bar's chance is above it, the bars differ by less than a
 * factor of two in what they measure, and dividing by costs that differ by more ranks them by
 * cheapness (a model's 71% to 99% chance of escaping Out of Action per attack). Such a chart is refused
 * (valueRows); the chance of the outcome itself, or the attacks it takes, is what tells them apart.
 */
export const MAX_VALUE_CHANCE = 0.5;
export const DEFAULT_VALUE_PER = 10;
export const CHART_TYPES: readonly ChartType[] = ['stacked-bars', 'lines', 'heatmap', 'value'];

/** The dimensions a chart puts on its channels, in the order they are listed. */
export function chartDimensions(c: ChartDef): string[] {
  switch (c.type) {
    case 'stacked-bars':
      return [c.y, ...(c.facet ? [c.facet] : [])];
    case 'lines':
      return [c.x, ...(c.series ? [c.series] : []), ...(c.facet ? [c.facet] : [])];
    case 'heatmap':
      return [c.x, c.y, ...(c.facet ? [c.facet] : [])];
    case 'value':
      return [c.by];
  }
}

/** A spec as plain JSON (vega-lite's own types are far larger than what this file uses). */
export type VlSpec = Record<string, unknown>;

/** The report page's column (html.ts: 1,060 px less its padding) less the figure's border. */
export const CHART_WIDTH = 1000;
const FONT = 'DejaVu Sans, Verdana, Arial, sans-serif';
const LABEL_SIZE = 12;
const TITLE_SIZE = 13;
const TITLE_FONT_SIZE = 17;

/** Width vega will reserve for a text, by its own estimate. */
/**
 * Room between row labels and the axis title. Vega places the title by its own estimate of the labels'
 * width, which falls short of what the font draws by about a twentieth of ours (0.8 em a letter): long
 * labels ("Lantern Warden with Thornpike (102)") would run under the title without it.
 */
function rowTitlePadding(labelWidth: number): number {
  return 4 + Math.ceil(0.15 * labelWidth);
}

export function textWidth(text: string, size = LABEL_SIZE): number {
  return Math.floor(0.8 * text.length * size);
}

/** Line colours of a chart's series, each of its own hue (two greens would read as one series). */
export const SERIES_COLOURS = ['#1f4e79', '#4c9f70', '#8e6bbf', '#3fa7c4', '#7f6f5f', '#c05aa8', '#2b2b2b', '#8b6914'];
const SERIES_DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3]];

/**
 * The colour and dash of series `i`: the dash steps on with the colour and once more each time the
 * colours start over, so no two of the first colours x dashes series share both.
 */
export function seriesStyle(i: number): { colour: string; dash: number[] } {
  const round = Math.floor(i / SERIES_COLOURS.length);
  return { colour: SERIES_COLOURS[i % SERIES_COLOURS.length]!, dash: SERIES_DASHES[(i + round) % SERIES_DASHES.length]! };
}

export const CONFIG = {
  font: FONT,
  background: 'white',
  padding: 12,
  title: { fontSize: TITLE_FONT_SIZE, subtitleFontSize: 12.5, subtitleColor: '#444444', anchor: 'start', offset: 12, subtitlePadding: 4, limit: CHART_WIDTH - 30 },
  axis: { labelFontSize: LABEL_SIZE, titleFontSize: TITLE_SIZE, titleFontWeight: 'bold', labelLimit: 400, titleColor: '#222222', labelColor: '#222222', gridColor: '#e6e6e6' },
  // Vega cuts legend titles at 180 px by default ("Chance of at lea..."); the plans below give them room.
  legend: { labelFontSize: LABEL_SIZE, titleFontSize: TITLE_SIZE, labelLimit: 400, titleLimit: 400, symbolSize: 140 },
  header: { labelFontSize: LABEL_SIZE, titleFontSize: TITLE_SIZE, labelLimit: 400 },
  view: { stroke: '#cccccc' },
} as const;

/** Text colour from the row's precomputed `ink` (white on dark segments), without a second colour scale. */
export const INK = { condition: { test: "datum.ink === '#ffffff'", value: '#ffffff' }, value: '#111111' };

interface Shown {
  value: number;
  low?: number;
  high?: number;
  /** The simulated estimate, when the value shown is exact and a simulation was run too. */
  estimate?: number;
  /** The exact fraction, when the value shown is exact. */
  fraction?: string;
}

/**
 * What a mark says on hover (and to a screen reader): the value with its exact fraction, and the simulated
 * estimate with its 95% interval where a simulation was run.
 */
export function valueTip(s: Shown | undefined): string {
  if (!s) return 'not computed';
  const value = `${percent(s.value, 2)}${s.fraction !== undefined ? ` = ${s.fraction}` : ''}`;
  if (s.low === undefined) return value;
  const interval = `95% ${percent(s.low, 2)}-${percent(s.high!, 2)}`;
  return s.estimate !== undefined ? `${value}; simulated ${percent(s.estimate, 2)} (${interval})` : `${value} simulated (${interval})`;
}

/** What a chart shows for one outcome of a cell: exact where known, else the estimate; intervals when simulated. */
function shown(o: CellOutcome | undefined, cumulative: boolean): Shown | undefined {
  if (!o) return undefined;
  const exact = cumulative ? o.orWorse : o.probability;
  const fraction = cumulative ? o.orWorseExact : o.exact;
  const est = cumulative ? o.orWorseEstimate : o.estimate;
  const low = cumulative ? o.orWorseCiLow : o.ciLow;
  const high = cumulative ? o.orWorseCiHigh : o.ciHigh;
  if (exact === undefined && est === undefined) return undefined;
  return {
    value: exact ?? est!,
    ...(low !== undefined && high !== undefined ? { low, high } : {}),
    ...(exact !== undefined && est !== undefined ? { estimate: est } : {}),
    ...(exact !== undefined && fraction !== undefined ? { fraction } : {}),
  };
}

function dim(sweep: SweepResult, id: string): { d: Dimension; index: number } {
  const index = sweep.dimensions.findIndex((x) => x.id === id);
  return { d: sweep.dimensions[index]!, index };
}

const labelsOf = (d: Dimension) => d.values.map((v) => v.label);
const maxWidth = (texts: readonly string[], size = LABEL_SIZE) => Math.max(0, ...texts.map((t) => textWidth(t, size)));

function simulated(sweep: SweepResult): boolean {
  return sweep.cells.some((c) => c.sim);
}

function allExact(sweep: SweepResult): boolean {
  return sweep.cells.every((c) => c.exact);
}

function trialsText(sweep: SweepResult): string {
  const t = [...new Set(sweep.cells.filter((c) => c.sim).map((c) => c.sim!.trials))];
  return t.length === 1 ? `${t[0]!.toLocaleString('en-GB')} simulated trials per cell` : 'simulated trials per cell as listed in the table';
}

/** The subtitle line saying what the marks are: exact values, estimates, intervals. */
function provenance(sweep: SweepResult, marks: { exact: string; sim: string }): string {
  if (!simulated(sweep)) return 'Exact probabilities.';
  if (allExact(sweep)) return `${marks.exact} exact; ${marks.sim} simulation with 95% intervals (${trialsText(sweep)}).`;
  return `Simulated estimates with 95% intervals (${trialsText(sweep)}).`;
}

/**
 * The subtitle line of a chart with cells the rules forbid: they are left empty (the notes under the
 * chart and the tables say which and why). None when every cell is allowed.
 */
function notAllowedSubtitle(sweep: SweepResult): string[] {
  const n = sweep.notAllowed.length;
  return n ? [`Left empty: ${n} of ${n + sweep.cells.length} cells the rules do not allow (see the notes and the tables).`] : [];
}

/**
 * The outcomes of `ids` that happen in some cell (exactly or as estimated): an outcome at 0 in every cell
 * (a Staggered result no target of the chart can take) would only crowd the legend.
 */
function possibleOutcomes(sweep: SweepResult, ids: readonly string[], cumulative: boolean): string[] {
  return ids.filter((id) =>
    sweep.cells.some((c) => {
      const s = shown(c.outcomes.find((o) => o.outcome === id), cumulative);
      return s !== undefined && (s.value > 0 || (s.estimate ?? 0) > 0);
    }),
  );
}

/** The line saying which outcomes a chart leaves out for never happening; none when none is. */
function impossibleLine(sweep: SweepResult, ids: readonly string[], cumulative: boolean): string[] {
  const possible = new Set(possibleOutcomes(sweep, ids, cumulative));
  const never = ids.filter((id) => !possible.has(id)).map((id) => (cumulative ? orWorseLabel(id) : outcomeLabel(id)));
  return never.length ? [`Left out of the legend, at 0% in every cell: ${never.join(', ')}.`] : [];
}

/** Characters per subtitle line that vega will not cut short (its estimate: 0.8 em per character). */
const SUBTITLE_CHARS = Math.floor((CHART_WIDTH - 40) / (0.8 * 12.5));

const capitalise = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/**
 * How a report tells apart charts whose default titles would be the same (the same chart of two
 * analyses that differ only in their scenario): `qualifier`, the analysis's title, ends the default title.
 */
export interface ChartOptions {
  readonly qualifier?: string;
  /**
   * The top of a heat map's colour scale when the report's other maps of its outcome reach higher
   * (sharedScaleKey): one colour is one chance on every map of the report. Not for fullScale maps.
   */
  readonly scaleTop?: number;
}

/**
 * The title (the definition's, else `fallback` with the qualifier, then `suffix`: "(top 60 of 127
 * weapons)") and subtitle lines.
 */
function header(def: ChartDef, fallback: string, sub: string[], suffix = '', opts: ChartOptions = {}): VlSpec {
  const own = def.title ?? `${capitalise(fallback)}${opts.qualifier ? ` — ${opts.qualifier}` : ''}`;
  const text = wordWrap(`${own}${suffix}`, Math.floor((CHART_WIDTH - 40) / (0.8 * TITLE_FONT_SIZE)));
  const lines = [...(def.context ? [def.context] : []), ...sub];
  return { title: { text: text.length === 1 ? text[0] : text, subtitle: lines.flatMap((l) => wordWrap(l, SUBTITLE_CHARS)) } };
}

function outcomeScale(ids: readonly string[], cumulative: boolean) {
  return {
    domain: ids.map((id) => (cumulative ? orWorseLabel(id) : outcomeLabel(id))),
    range: ids.map(outcomeColour),
  };
}

/** Axis for probabilities: 0-100% with a title naming what is measured. */
function probabilityAxis(title: string) {
  return { format: '.0%', title, tickCount: 5 };
}

function facetField(sweep: SweepResult, facetId: string | undefined, orient: 'row' | 'column') {
  if (!facetId) return undefined;
  const { d } = dim(sweep, facetId);
  return {
    [orient]: {
      field: 'facet',
      type: 'ordinal',
      sort: labelsOf(d),
      title: d.title,
      header: orient === 'row' ? { labelAngle: 0, labelAlign: 'left', labelPadding: 6, titleOrient: 'left' } : { labelPadding: 4 },
    },
  };
}

/** Stacked bars draw one bar per cell, 24 px each: past this many the chart is refused (definition.ts). */
export const MAX_BARS = 300;

/**
 * Stacked horizontal bars: one bar per value of `y` (and facet row), its segments the outcome
 * distribution from the mildest (left) to the most severe (right), with the percentage written in each
 * segment wide enough to hold it. When simulated, a black interval marks each boundary between
 * segments: the 95% interval of "this outcome or worse".
 */
function stackedBars(sweep: SweepResult, def: Extract<ChartDef, { type: 'stacked-bars' }>, opts: ChartOptions): VlSpec {
  const { d: yd, index: yi } = dim(sweep, def.y);
  const fd = def.facet ? dim(sweep, def.facet) : undefined;
  const ids = sweep.outcomes;
  const possible = new Set(possibleOutcomes(sweep, ids, false));
  const bars: Record<string, unknown>[] = [];
  const bounds: Record<string, unknown>[] = [];
  for (const cell of sweep.cells) {
    const byId = new Map(cell.outcomes.map((o) => [o.outcome, o]));
    let x = 0;
    ids.forEach((id, k) => {
      const s = shown(byId.get(id), false);
      const p = s?.value ?? 0;
      const cum = shown(byId.get(id), true);
      const row = {
        kind: 'bar',
        y: cell.labels[yi],
        ...(fd ? { facet: cell.labels[fd.index] } : {}),
        outcome: outcomeLabel(id),
        order: k,
        x0: x,
        x1: x + p,
        mid: x + p / 2,
        p,
        label: p >= 0.06 ? percent(p, p >= 0.9995 ? 0 : 1) : '',
        ink: textColourOn(outcomeColour(id)),
        tip: `${cell.labels.join(', ')}: ${outcomeLabel(id)} ${valueTip(s)}`,
      };
      if (possible.has(id)) bars.push(row);
      // No mark where nothing is this bad: that boundary is the end of the bar.
      if (k > 0 && cum?.low !== undefined && (cum.estimate ?? cum.value) > 0) {
        // Left edge of outcome k = 1 - P(k or worse); its interval mirrors that of P(k or worse).
        bounds.push({ kind: 'bound', y: row.y, ...(fd ? { facet: row.facet } : {}), lo: 1 - cum.high!, hi: 1 - cum.low, at: 1 - (cum.estimate ?? cum.value) });
      }
      x += p;
    });
  }
  // A duel's outcomes (a wins, b wins, undecided) are not ranked: the bar reads in the legend's order.
  const unranked = sweep.cells.some((c) => c.layout.unranked);
  const trial = trialsName(sweep);
  const share = `Share of ${trial.many}`;
  const yLabelWidth = maxWidth(labelsOf(yd));
  // A row the rules forbid whole keeps its place on the axis, empty.
  const yScale = sweep.notAllowed.length ? { scale: { domain: labelsOf(yd) } } : {};
  const facetWidth = fd ? maxWidth(labelsOf(fd.d)) + 40 : 0;
  const width = Math.max(300, CHART_WIDTH - 24 - yLabelWidth - 30 - facetWidth - 10);
  const layers: VlSpec[] = [
    {
      transform: [{ filter: "datum.kind === 'bar'" }],
      mark: { type: 'bar', stroke: 'white', strokeWidth: 0.5 },
      encoding: {
        y: { field: 'y', type: 'nominal', sort: labelsOf(yd), title: fd ? null : yd.title, ...yScale },
        x: { field: 'x0', type: 'quantitative', scale: { domain: [0, 1], nice: false }, axis: probabilityAxis(share) },
        x2: { field: 'x1' },
        color: { field: 'outcome', type: 'nominal', scale: outcomeScale([...possible], false), title: 'Outcome', sort: [...possible].map(outcomeLabel) },
        tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' },
      },
    },
    {
      transform: [{ filter: "datum.kind === 'bar' && datum.label !== ''" }],
      mark: { type: 'text', fontSize: 11, baseline: 'middle', align: 'center' },
      encoding: {
        y: { field: 'y', type: 'nominal', sort: labelsOf(yd), title: fd ? null : yd.title },
        x: { field: 'mid', type: 'quantitative', title: share },
        text: { field: 'label' },
        color: INK,
      },
    },
  ];
  if (bounds.length > 0) {
    layers.push({
      transform: [{ filter: "datum.kind === 'bound'" }],
      mark: { type: 'errorbar', ticks: { size: 8, color: '#000000' }, rule: { color: '#000000', strokeWidth: 1.5 } },
      encoding: {
        y: { field: 'y', type: 'nominal', sort: labelsOf(yd), title: fd ? null : yd.title },
        x: { field: 'lo', type: 'quantitative', title: share },
        x2: { field: 'hi' },
      },
    });
  }
  const inner = { width, height: { step: 24 }, layer: layers };
  const subtitle = [
    `Outcome of each ${trial.one}, ${unranked ? "in the legend's order" : 'mildest on the left'}${fd ? `, one panel per ${fd.d.title.toLowerCase()}` : ''}.`,
    provenance(sweep, { exact: 'Bars', sim: 'black marks: the boundaries from' }),
    ...impossibleLine(sweep, ids, false),
    ...notAllowedSubtitle(sweep),
  ];
  const top = {
    ...header(def, `Outcomes${titlePhrase(sweep)} by ${yd.title.toLowerCase()}${fd ? ` and ${fd.d.title.toLowerCase()}` : ''}`, subtitle, '', opts),
    data: { values: [...bars, ...bounds] },
  };
  const legend = { config: { ...CONFIG, legend: { ...CONFIG.legend, orient: 'top', direction: 'horizontal', titleOrient: 'top' } } };
  if (fd) {
    return { ...top, facet: facetField(sweep, def.facet, 'row'), spacing: 8, spec: inner, ...legend };
  }
  return { ...top, ...inner, ...legend };
}

/** The outcomes a lines chart is asked for: the definition's, else every one ("this or worse": but the mildest). */
function lineOutcomes(sweep: SweepResult, def: Extract<ChartDef, { type: 'lines' }>): readonly string[] {
  return def.outcomes ?? (def.cumulative === true ? sweep.outcomes.slice(1) : sweep.outcomes);
}

/**
 * Lines over an ordered dimension: one line per outcome (or per "this or worse"), or, with `series`,
 * one line per value of another dimension for a single outcome. Exact values are drawn as lines; when
 * simulated, the estimates are points with 95% interval bars on top, so exact and simulation can be
 * compared by eye.
 */
function lines(sweep: SweepResult, def: Extract<ChartDef, { type: 'lines' }>, opts: ChartOptions): VlSpec {
  const { d: xd, index: xi } = dim(sweep, def.x);
  const sd = def.series ? dim(sweep, def.series) : undefined;
  const fd = def.facet ? dim(sweep, def.facet) : undefined;
  const cumulative = def.cumulative === true;
  const asked = lineOutcomes(sweep, def);
  // One line per outcome: those never happening left out; a series' one outcome is drawn at 0 all the same.
  const ids = sd ? asked : possibleOutcomes(sweep, asked, cumulative);
  const name = (id: string) => (cumulative ? orWorseLabel(id) : outcomeLabel(id));
  const rows: Record<string, unknown>[] = [];
  for (const cell of sweep.cells) {
    const byId = new Map(cell.outcomes.map((o) => [o.outcome, o]));
    for (const id of ids) {
      const s = shown(byId.get(id), cumulative);
      if (!s) continue;
      const xValue = cell.scenario[xd.fields[0]!];
      rows.push({
        x: xd.numeric ? xValue : cell.labels[xi],
        series: sd ? cell.labels[sd.index] : name(id),
        ...(fd ? { facet: cell.labels[fd.index] } : {}),
        p: s.value,
        ...(s.low !== undefined ? { lo: s.low, hi: s.high, est: s.estimate ?? s.value } : {}),
        tip: `${cell.labels.join(', ')}: ${name(id)} ${valueTip(s)}`,
      });
    }
  }
  const xNumbers = xd.values.map((v) => v.values[0] as number);
  const x = xd.numeric
    ? {
        field: 'x',
        type: 'quantitative',
        title: xd.title,
        scale: { domain: [Math.min(...xNumbers), Math.max(...xNumbers)], nice: false, zero: false },
        axis: { values: xNumbers.length <= 25 ? xNumbers : undefined, format: xNumbers.every(Number.isInteger) ? 'd' : undefined, labelExpr: signedLabelExpr(xd) },
      }
    : { field: 'x', type: 'ordinal', sort: labelsOf(xd), title: xd.title, axis: { labelAngle: 0 } };
  const seriesLabels = sd ? labelsOf(sd.d) : ids.map(name);
  const lineLegend = { symbolType: 'stroke', symbolStrokeWidth: 3, symbolSize: 400 };
  const colour = sd
    ? {
        field: 'series',
        type: 'nominal',
        sort: seriesLabels,
        title: sd.d.title,
        scale: { domain: seriesLabels, range: seriesLabels.map((_, i) => seriesStyle(i).colour) },
        legend: lineLegend,
      }
    : { field: 'series', type: 'nominal', sort: seriesLabels, title: cumulative ? 'Chance of at least' : 'Outcome', scale: outcomeScale(ids, cumulative), legend: lineLegend };
  const dash = sd ? { strokeDash: { field: 'series', type: 'nominal', sort: seriesLabels, scale: { domain: seriesLabels, range: seriesLabels.map((_, i) => seriesStyle(i).dash) }, title: sd.d.title } } : {};
  const yTitle = sd ? `P(${name(ids[0]!)})` : cumulative ? 'Chance of at least this bad' : 'Probability';
  const hasSim = rows.some((r) => r.lo !== undefined);
  const layers: VlSpec[] = [
    {
      mark: { type: 'line', strokeWidth: 2.5, interpolate: def.interpolate ?? 'linear', point: hasSim && !allExact(sweep) ? false : { filled: true, size: 45 } },
      encoding: { x, y: { field: 'p', type: 'quantitative', axis: probabilityAxis(yTitle), scale: { zero: true } }, color: colour, ...dash, tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' } },
    },
  ];
  if (hasSim) {
    layers.push({
      mark: { type: 'errorbar', ticks: { size: 7 }, rule: { strokeWidth: 1.5 } },
      encoding: { x, y: { field: 'lo', type: 'quantitative', title: yTitle }, y2: { field: 'hi' }, color: colour },
    });
    layers.push({
      mark: { type: 'point', shape: 'diamond', filled: true, size: 50, opacity: 1 },
      encoding: { x, y: { field: 'est', type: 'quantitative', title: yTitle }, color: colour, tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' } },
    });
  }
  const legendWidth = Math.max(textWidth(sd ? sd.d.title : 'Chance of at least', TITLE_SIZE), maxWidth(seriesLabels)) + 40;
  const facets = fd ? panelColumns(fd.d.values.length, 3) : 1;
  const plotWidth = Math.floor((CHART_WIDTH - 24 - 70 - legendWidth - (facets - 1) * 30) / facets);
  const subtitle = [
    sd
      ? `${cumulative ? 'Chance of' : 'Probability of'} ${name(ids[0]!)} by ${xd.title.toLowerCase()}, one line per ${sd.d.title.toLowerCase()}.`
      : `${cumulative ? 'Chance of each outcome or a worse one' : 'Probability of each outcome'} by ${xd.title.toLowerCase()}.`,
    provenance(sweep, { exact: 'Lines', sim: 'diamonds and bars:' }),
    ...(sd ? [] : impossibleLine(sweep, asked, cumulative)),
    ...coincidingSeries(rows),
    ...notAllowedSubtitle(sweep),
  ];
  const inner = { width: plotWidth, height: fd ? 240 : 340, layer: layers };
  const what = `${sd ? name(ids[0]!) : 'Outcomes'}${titlePhrase(sweep)} by ${xd.title.toLowerCase()}${sd ? `, one line per ${sd.d.title.toLowerCase()}` : ''}${onePanelPer(fd?.d)}`;
  const top = { ...header(def, what, subtitle, '', opts), data: { values: rows }, config: CONFIG };
  if (fd) return { ...top, facet: { field: 'facet', type: 'ordinal', sort: labelsOf(fd.d), title: fd.d.title, header: panelHeader(plotWidth) }, columns: facets, spec: inner };
  return { ...top, ...inner };
}

/**
 * Lines that lie exactly on top of each other hide one another; say which, e.g. "Same values
 * throughout: none + shield = standard." (a shield is worth one step of armour).
 */
function coincidingSeries(rows: readonly Record<string, unknown>[]): string[] {
  const bySeries = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${String(r.facet ?? '')}|${String(r.x)}:${(r.p as number).toPrecision(12)}`;
    bySeries.set(r.series as string, [...(bySeries.get(r.series as string) ?? []), key]);
  }
  const groups = new Map<string, string[]>();
  for (const [series, keys] of bySeries) {
    const sig = keys.join(';');
    groups.set(sig, [...(groups.get(sig) ?? []), series]);
  }
  const same = [...groups.values()].filter((g) => g.length > 1).map((g) => g.join(' = '));
  return same.length ? [`Same values throughout (lines on top of each other): ${same.join('; ')}.`] : [];
}

/** ", one panel per edition" in a faceted chart's title: what tells its panels apart; "" without panels. */
const onePanelPer = (facet: Dimension | undefined) => (facet ? `, one panel per ${facet.title.toLowerCase()}` : '');

/** "+1" labels for signed numeric axes (injury dice), plain numbers otherwise. */
function signedLabelExpr(d: Dimension): string | undefined {
  const signed = d.values.some((v) => v.label.startsWith('+'));
  return signed ? "datum.value > 0 ? '+' + datum.label : datum.label" : undefined;
}

/** Linear interpolation between two #rrggbb colours, as the heat map's rgb scale does it. */
export function mix(a: string, b: string, t: number): string {
  const ca = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
  const cb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
  return `#${ca.map((v, i) => Math.round(v + (cb[i]! - v) * t).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Heat maps of big grids (a catalogue's weapons against its models). A cell is never smaller than
 * MIN_CELL, room for one 12 px axis label per row or per tilted column without overprinting: a grid too
 * wide for the planned CHART_WIDTH grows wider instead of collapsing. Rows are ROW_STEP tall until the map
 * would pass MAX_MAP_HEIGHT, then shrink towards MIN_CELL.
 */
const MIN_CELL = 16;
const ROW_STEP = 40;
const MAX_MAP_HEIGHT = 640;
/**
 * Row labels past this are cut with an ellipsis (the tooltips say them whole), so they cannot squeeze
 * out the map: the limit every axis has (CONFIG), now also planned with.
 */
const MAX_ROW_LABEL = CONFIG.axis.labelLimit;
/**
 * Tilted column labels past this (by vega's 0.8 em a character: about 33 characters) are cut too: a
 * catalogue's longest model name would make the header taller than the map.
 */
const MAX_COLUMN_LABEL = 320;
/** Above this many rows a heat map shows the top rows by its measure, and says so in its title and a note. */
export const MAX_HEATMAP_ROWS = 60;

/**
 * Styles of the numbers in the cells, the preferred first: a map draws them in the first that fits
 * every cell, or not at all (its values are in the tables and results.csv).
 */
const CELL_TEXT = [
  { size: 13, digits: 1 },
  { size: 10, digits: 1 },
  { size: 10, digits: 0 },
] as const;
type CellText = (typeof CELL_TEXT)[number];

/** Advance widths (em) in DejaVu Sans Bold, the font the PNG is drawn in, of the characters of a cell's number. */
const BOLD_WIDTHS: Readonly<Record<string, number>> = { '.': 0.38, '%': 1.002, ' ': 0.348, '±': 0.838, '+': 0.838, '-': 0.415, '−': 0.838 };
const BOLD_DIGIT = 0.696;

/**
 * The width of a cell's number as drawn. Vega's 0.8 em a character (textWidth) is what the layout must
 * be planned with, vega planning by that same estimate, but it overstates digits by a seventh and would
 * hide numbers that fit their cells.
 */
function numberWidth(text: string, size: number): number {
  let em = 0;
  for (const ch of text) em += BOLD_WIDTHS[ch] ?? (ch >= '0' && ch <= '9' ? BOLD_DIGIT : 0.8);
  return em * size;
}

interface MapPlan {
  /** Width of one panel. */
  readonly width: number;
  readonly rowStep: number;
  /** The row labels' width as planned: cut at MAX_ROW_LABEL. */
  readonly yLabelWidth: number;
  /** How the cells' numbers are drawn, or undefined where the cells are too small for them. */
  readonly text?: CellText;
}

/**
 * A heat map's size from its rows and columns: the room left of CHART_WIDTH when every column gets at least
 * MIN_CELL of it, else MIN_CELL a column (wider than CHART_WIDTH, never negative); and the style of the cell
 * numbers, if any fits: `labels(digits)` gives every cell's number at that many decimals.
 */
function mapPlan(columns: number, rows: number, yLabels: readonly string[], facets: number, legendWidth: number, labels: (digits: number) => string[]): MapPlan {
  const yLabelWidth = Math.min(maxWidth(yLabels), MAX_ROW_LABEL);
  const room = Math.floor((CHART_WIDTH - 24 - yLabelWidth - rowTitlePadding(yLabelWidth) - 36 - legendWidth - (facets - 1) * 20) / facets);
  const width = Math.max(room, columns * MIN_CELL);
  const rowStep = Math.max(MIN_CELL, Math.min(ROW_STEP, Math.floor(MAX_MAP_HEIGHT / rows)));
  const column = width / columns;
  // 4 px above and below a number, 3 px each side: the cells have a 2 px white border.
  const text = CELL_TEXT.find((t) => t.size + 8 <= rowStep && Math.max(0, ...labels(t.digits).map((l) => numberWidth(l, t.size))) + 6 <= column);
  return { width, rowStep, yLabelWidth, ...(text ? { text } : {}) };
}

/** "127 weapons", "53 models", "5 values of injury dice (net)": how many values a dimension has, in words. */
function countOf(d: Dimension, n = d.values.length): string {
  const field = d.fields.length === 1 ? d.fields[0] : undefined;
  if (d.side !== undefined) return `${n} ${d.side} side${n === 1 ? '' : 's'}`;
  return field === 'target' ? `${n} model${n === 1 ? '' : 's'}` : field === 'weapon' ? `${n} weapon${n === 1 ? '' : 's'}` : `${n} values of ${d.title.toLowerCase()}`;
}

/**
 * The rows a heat map shows, in order: every value of its y dimension, or, above MAX_HEATMAP_ROWS, the
 * top MAX_HEATMAP_ROWS by their average `score` over their cells (columns and panels), highest first.
 */
function mapRows(yd: Dimension, yi: number, cells: readonly { readonly labels: readonly string[] }[], score: (cell: number) => number): { labels: string[]; cut: boolean } {
  const labels = labelsOf(yd);
  if (labels.length <= MAX_HEATMAP_ROWS) return { labels, cut: false };
  const sums = new Map(labels.map((l) => [l, { sum: 0, n: 0 }]));
  cells.forEach((c, i) => {
    const s = sums.get(c.labels[yi]!)!;
    s.sum += score(i);
    s.n++;
  });
  const mean = (l: string) => sums.get(l)!.sum / Math.max(1, sums.get(l)!.n);
  // A stable sort: rows that tie keep the dimension's order.
  const ranked = [...labels].sort((a, b) => mean(b) - mean(a));
  return { labels: ranked.slice(0, MAX_HEATMAP_ROWS), cut: true };
}

/**
 * The values of a heat map's axes whose every cell is at 0% because its target is Tough and takes one
 * attack (or injury roll): Tough saves a model from its first Out of Action, so one attack never takes it
 * out. Said under the map, so a column of 0.0% does not read as a model no weapon can hurt.
 */
function toughZeroLine(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>): string[] {
  const zero = (cell: SweepResult['cells'][number]) => {
    const s = shown(cell.outcomes.find((o) => o.outcome === def.outcome), def.cumulative === true);
    return (s?.value ?? 0) === 0 && (s?.estimate ?? 0) === 0;
  };
  const oneRollAtTough = (cell: SweepResult['cells'][number]) => cell.scenario.tough === true && (cell.scenario.kind === 'attack' || cell.scenario.kind === 'injury');
  const labels = [def.x, def.y].flatMap((id) => {
    const { d, index } = dim(sweep, id);
    return d.values.flatMap((v, i) => {
      const cells = sweep.cells.filter((c) => c.point[index] === i);
      return cells.length > 0 && cells.every((c) => oneRollAtTough(c) && zero(c)) ? [v.label] : [];
    });
  });
  if (!labels.length) return [];
  const roll = sweep.cells[0]?.scenario.kind === 'injury' ? 'injury roll' : 'attack';
  return [`0% throughout for ${labels.join(', ')}: Tough saves a model from its first Out of Action, so one ${roll} never takes it out.`];
}

/** What a heat map cut to its top rows says of itself: in its subtitle, and as a note on the report page. */
function topRowsNote(yd: Dimension, def: Extract<ChartDef, { type: 'heatmap' }>): string {
  const name = def.cumulative ? orWorseLabel(def.outcome) : outcomeLabel(def.outcome);
  const ranking = def.differenceFrom !== undefined ? `largest average change of P(${name}), either way` : `highest average P(${name})`;
  return `Shows ${MAX_HEATMAP_ROWS} of the ${countOf(yd)}: those with the ${ranking}, in that order; every row is in the tables and in results.csv.`;
}

/** The heat map's rectangles and numbers; no number layer where the cells are too small for one. */
function mapLayers(enc: Record<string, unknown>, color: Record<string, unknown>, plan: MapPlan): VlSpec[] {
  return [
    { mark: { type: 'rect', stroke: 'white', strokeWidth: plan.rowStep < 24 ? 1 : 2 }, encoding: { ...enc, color, tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' } } },
    ...(plan.text ? [{ mark: { type: 'text', fontSize: plan.text.size, fontWeight: 'bold' }, encoding: { ...enc, text: { field: plan.text.digits === 1 ? 'label' : 'label0' }, color: INK } }] : []),
  ];
}

/**
 * The axes of a heat map: column labels on top (tilted and cut where wide), row labels cut at
 * MAX_ROW_LABEL. With `keepEmpty` (cells the rules forbid) every row and column keeps its place, so a
 * forbidden cell is an empty square, not a missing column.
 */
function mapAxes(xd: Dimension, rows: readonly string[], yd: Dimension, plan: MapPlan, keepEmpty: boolean) {
  const domain = (labels: readonly string[]) => (keepEmpty ? { scale: { domain: labels } } : {});
  return {
    x: { field: 'x', type: 'ordinal', sort: labelsOf(xd), title: xd.title, axis: topAxis(xd, plan.width), ...domain(labelsOf(xd)) },
    y: { field: 'y', type: 'ordinal', sort: rows, title: yd.title, axis: { domain: false, ticks: false, labelLimit: MAX_ROW_LABEL, titlePadding: rowTitlePadding(plan.yLabelWidth) }, ...domain(rows) },
  };
}

function heatmapValues(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>): (Shown | undefined)[] {
  return sweep.cells.map((c) => shown(c.outcomes.find((o) => o.outcome === def.outcome), def.cumulative === true));
}

/** The top of a heat map's own colour scale: its largest value rounded up to a tenth, at least a tenth. */
export function heatmapTop(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>): number {
  return Math.max(0.1, Math.ceil(Math.max(...heatmapValues(sweep, def).map((v) => v?.value ?? 0)) * 10 - 1e-9) / 10);
}

/**
 * Which heat maps of a report share one colour scale: those of one outcome ("this or worse" apart),
 * coloured from 0 to their largest value; none for a map of changes or a fullScale one (undefined).
 */
export function sharedScaleKey(def: ChartDef): string | undefined {
  if (def.type !== 'heatmap' || def.differenceFrom !== undefined || def.fullScale) return undefined;
  return `${def.outcome}${def.cumulative ? ' or worse' : ''}`;
}

/**
 * A heat map of one outcome (or "this or worse") over two dimensions, each cell labelled with its
 * percentage (and the interval's half-width when only simulated) where the cells are big enough. The
 * ramp runs from near white to the outcome's own colour, so an out-of-action map is red and a down map
 * orange. Past MAX_HEATMAP_ROWS rows it shows the rows most likely to suffer the outcome.
 */
function heatmap(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>, opts: ChartOptions): VlSpec {
  const { d: xd, index: xi } = dim(sweep, def.x);
  const { d: yd, index: yi } = dim(sweep, def.y);
  const fd = def.facet ? dim(sweep, def.facet) : undefined;
  const cumulative = def.cumulative === true;
  const name = cumulative ? orWorseLabel(def.outcome) : outcomeLabel(def.outcome);
  const colour = outcomeColour(def.outcome);
  const values = heatmapValues(sweep, def);
  const ownTop = heatmapTop(sweep, def);
  const top = def.fullScale ? 1 : Math.max(ownTop, opts.scaleTop ?? 0);
  const shownRows = mapRows(yd, yi, sweep.cells, (i) => values[i]?.value ?? 0);
  const kept = new Set(shownRows.labels);
  const label = (s: Shown | undefined, digits: number) => {
    const p = s?.value ?? 0;
    return s?.low !== undefined && s.estimate === undefined ? percentPlusMinus(p, s.low, s.high!, digits) : percent(p, digits);
  };
  const rows = sweep.cells.flatMap((cell, i) => {
    if (!kept.has(cell.labels[yi]!)) return [];
    const s = values[i];
    const p = s?.value ?? 0;
    return [
      {
        x: cell.labels[xi],
        y: cell.labels[yi],
        ...(fd ? { facet: cell.labels[fd.index] } : {}),
        p,
        label: label(s, 1),
        label0: label(s, 0),
        ink: textColourOn(mix(RAMP_START, colour, Math.min(1, p / top))),
        tip: `${cell.labels.join(', ')}: ${name} ${valueTip(s)}`,
      },
    ];
  });
  const legendWidth = textWidth(`P(${name})`, TITLE_SIZE) + 24;
  const facets = fd ? panelColumns(fd.d.values.length, 2) : 1;
  const plan = mapPlan(xd.values.length, shownRows.labels.length, shownRows.labels, facets, legendWidth, (digits) => rows.map((r) => (digits === 1 ? r.label : r.label0)));
  const color = {
    field: 'p',
    type: 'quantitative',
    title: [`P(${name})`],
    scale: { domain: [0, top], range: [RAMP_START, colour], interpolate: 'rgb', clamp: true },
    legend: { format: '.0%', gradientLength: 200, orient: 'right' },
  };
  const inner = { width: plan.width, height: { step: plan.rowStep }, layer: mapLayers(mapAxes(xd, shownRows.labels, yd, plan, sweep.notAllowed.length > 0), color, plan) };
  const subtitle = [
    `Probability of ${name} for every combination${plan.text ? '' : ' (the cells are too small for their numbers: see the tables)'}.`,
    ...(shownRows.cut ? [topRowsNote(yd, def)] : []),
    ...toughZeroLine(sweep, def),
    ...(top > ownTop && !def.fullScale ? [`Coloured on the scale of the report's other maps of ${name}, 0 to ${percent(top, 0)}.`] : []),
    simulated(sweep) && allExact(sweep)
      ? "Exact values; the check of the simulation against them is listed with the table."
      : provenance(sweep, { exact: '', sim: '' }),
    ...notAllowedSubtitle(sweep),
  ];
  const title = `${name}${titlePhrase(sweep)}: ${yd.title.toLowerCase()} × ${xd.title.toLowerCase()}${onePanelPer(fd?.d)}`;
  const head = { ...header(def, title, subtitle, shownRows.cut ? ` (top ${MAX_HEATMAP_ROWS} of ${countOf(yd)})` : '', opts), data: { values: rows }, config: CONFIG };
  if (fd) return { ...head, facet: { field: 'facet', type: 'ordinal', sort: labelsOf(fd.d), title: fd.d.title, header: panelHeader(plan.width) }, columns: facets, spec: inner };
  return { ...head, ...inner };
}

/** Diverging colours for changes: blue down, white none, red up (ColorBrewer RdBu, colour-blind safe). */
export const FALL_COLOUR = '#2166ac';
export const NO_CHANGE_COLOUR = '#f7f7f7';
export const RISE_COLOUR = '#b2182b';

/**
 * A heat map of changes: every cell minus the cell with the same other coordinates at the facet's
 * `differenceFrom` value, one panel per other facet value. Exact values where both cells have them,
 * else the estimates. Past MAX_HEATMAP_ROWS rows it shows the rows that change most, either way.
 */
function differenceHeatmap(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>, baseline: string, opts: ChartOptions): VlSpec {
  const { d: xd, index: xi } = dim(sweep, def.x);
  const { d: yd, index: yi } = dim(sweep, def.y);
  const fd = dim(sweep, def.facet!);
  const cumulative = def.cumulative === true;
  const name = cumulative ? orWorseLabel(def.outcome) : outcomeLabel(def.outcome);
  const valueOf = (cell: SweepResult['cells'][number]) => shown(cell.outcomes.find((o) => o.outcome === def.outcome), cumulative)?.value ?? 0;
  const key = (labels: readonly string[]) => labels.filter((_, i) => i !== fd.index).join('\u0000');
  const base = new Map(sweep.cells.filter((c) => c.labels[fd.index] === baseline).map((c) => [key(c.labels), valueOf(c)]));
  // A cell whose baseline the rules forbid has nothing to change from: it is left empty, as a forbidden cell is.
  const changed = sweep.cells.filter((c) => c.labels[fd.index] !== baseline && base.has(key(c.labels)));
  const changes = changed.map((c) => valueOf(c) - base.get(key(c.labels))!);
  const shownRows = mapRows(yd, yi, changed, (i) => Math.abs(changes[i]!));
  const kept = new Set(shownRows.labels);
  const rows = changed.flatMap((cell, i) => {
    if (!kept.has(cell.labels[yi]!)) return [];
    const from = base.get(key(cell.labels))!;
    const change = changes[i]!;
    return [
      {
        x: cell.labels[xi],
        y: cell.labels[yi],
        facet: cell.labels[fd.index],
        p: change,
        label: points(change, 1),
        label0: points(change, 0),
        tip: `${cell.labels.join(', ')}: ${name} ${percent(valueOf(cell), 2)} against ${percent(from, 2)} under ${baseline} (${points(change, 2)} points)`,
      },
    ];
  });
  const reach = Math.max(0.05, Math.ceil(Math.max(...rows.map((r) => Math.abs(r.p))) * 20 - 1e-9) / 20);
  const inked = rows.map((r) => ({ ...r, ink: textColourOn(mix(NO_CHANGE_COLOUR, r.p < 0 ? FALL_COLOUR : RISE_COLOUR, Math.min(1, Math.abs(r.p) / reach))) }));
  const legendWidth = textWidth(`P(${name})`, TITLE_SIZE) + 24;
  const panels = labelsOf(fd.d).filter((l) => l !== baseline);
  const facets = panelColumns(panels.length, 2);
  const plan = mapPlan(xd.values.length, shownRows.labels.length, shownRows.labels, facets, legendWidth, (digits) => rows.map((r) => (digits === 1 ? r.label : r.label0)));
  const color = {
    field: 'p',
    type: 'quantitative',
    title: ['Change in', `P(${name})`],
    scale: { domain: [-reach, 0, reach], range: [FALL_COLOUR, NO_CHANGE_COLOUR, RISE_COLOUR], interpolate: 'rgb', clamp: true },
    legend: { format: '+.0%', gradientLength: 200, orient: 'right' },
  };
  const inner = { width: plan.width, height: { step: plan.rowStep }, layer: mapLayers(mapAxes(xd, shownRows.labels, yd, plan, sweep.notAllowed.length > 0), color, plan) };
  const subtitle = [
    `Change in the probability of ${name} against ${baseline}, in percentage points (red: more likely, blue: less)${plan.text ? '' : '; the cells are too small for their numbers: see the tables'}.`,
    ...(shownRows.cut ? [topRowsNote(yd, def)] : []),
    ...toughZeroLine(sweep, def),
    allExact(sweep) ? 'Exact values on both sides.' : provenance(sweep, { exact: '', sim: '' }),
    ...notAllowedSubtitle(sweep),
  ];
  const title = `${name}${titlePhrase(sweep)}: change against ${baseline}, ${yd.title.toLowerCase()} × ${xd.title.toLowerCase()}`;
  const head = { ...header(def, title, subtitle, shownRows.cut ? ` (top ${MAX_HEATMAP_ROWS} of ${countOf(yd)})` : '', opts), data: { values: inked }, config: CONFIG };
  if (panels.length === 1) return { ...head, ...inner };
  return { ...head, facet: { field: 'facet', type: 'ordinal', sort: panels, title: fd.d.title, header: panelHeader(plan.width) }, columns: facets, spec: inner };
}

/**
 * The column labels of a heat map, on top. Labels wider than their column (model names with costs) are
 * tilted upright, so neighbours do not overprint each other (a column is at least MIN_CELL wide, room
 * for one line of label), and cut at MAX_COLUMN_LABEL.
 */
function topAxis(xd: Dimension, plotWidth: number): Record<string, unknown> {
  const column = plotWidth / Math.max(1, xd.values.length);
  const fits = maxWidth(labelsOf(xd)) <= column - 6;
  if (fits) return { labelAngle: 0, orient: 'top', domain: false, ticks: false };
  const wrapped = wrappedLabels(labelsOf(xd), column - 6);
  if (wrapped) {
    // Vega draws a label's further lines below its first, into the map: the padding lifts them clear.
    const lineHeight = LABEL_SIZE + 2;
    return { labelAngle: 0, orient: 'top', domain: false, ticks: false, labelExpr: wrapped.expr, labelLineHeight: lineHeight, labelPadding: 2 + (wrapped.lines - 1) * lineHeight };
  }
  // Upright, so that the last label cannot reach past the chart's planned width.
  return { labelAngle: -90, labelAlign: 'left', labelBaseline: 'middle', orient: 'top', domain: false, ticks: false, labelLimit: MAX_COLUMN_LABEL };
}

/** Lines a wrapped column label may take: more would be as tall as a tilted one. */
const MAX_LABEL_LINES = 3;

/**
 * Column labels too wide for their columns ("Unarmoured Trooper (30)") wrapped at their spaces into at
 * most MAX_LABEL_LINES lines that fit, as a vega expression from each label to its lines; undefined
 * where some label cannot be wrapped so. Tilted labels would take a third of the figure's height.
 */
function wrappedLabels(labels: readonly string[], width: number): { expr: string; lines: number } | undefined {
  const chars = Math.floor(width / (0.8 * LABEL_SIZE));
  const lines = labels.map((l) => wordWrap(l, chars));
  if (lines.some((ls) => ls.length > MAX_LABEL_LINES || ls.some((line) => line.length > chars))) return undefined;
  const table = labels.map((l, i) => `${JSON.stringify(l)}: ${JSON.stringify(lines[i])}`).join(', ');
  return { expr: `{${table}}[datum.label]`, lines: Math.max(...lines.map((ls) => ls.length)) };
}

/** Past this many bars a value chart draws them thinner. */
const VALUE_BARS = 30;
const UNDER_PRICED = '#1a9850';
const OVER_PRICED = '#d73027';
const FAIR_PRICE = '#8c8c8c';

/** The median of a non-empty list. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A value of a value chart's `by` dimension with a cost to divide by. */
const priced = (v: DimensionValue) => v.cost !== undefined && v.cost > 0;

/**
 * The values of a value chart's `by` dimension it leaves out: those whose cost is 0 or not given (a
 * weapon that comes with its model, an innate one), which have no value per ducat to show.
 */
export function valueSkipped(sweep: SweepResult, def: Extract<ChartDef, { type: 'value' }>): DimensionValue[] {
  return dim(sweep, def.by).d.values.filter((v) => !priced(v));
}

/** The one line that says which values a value chart left out, naming at most `most` of them. */
function skippedText(d: Dimension, skipped: readonly DimensionValue[], most = Infinity): string {
  const names = skipped.map((v) => String(v.values[0]));
  const listed = names.length > most ? `${names.slice(0, most).join(', ')} and ${names.length - most} more` : names.join(', ');
  const one = skipped.length === 1;
  // A side is priced by the model and weapon it names from the profiles (sideCost); a weapon may come with its model.
  const why = d.side !== undefined ? `naming no model or weapon of the profiles, or one without a cost` : `innate, or priced with ${one ? 'its' : 'their'} model`;
  return `Left out: ${countOf(d, skipped.length)} whose cost is 0 or not given (${why}): ${listed}.`;
}

type ValueDef = Extract<ChartDef, { type: 'value' }>;

/**
 * What a value chart's bars measure, in words: `what` ("chance of escaping out of action per attack"),
 * `unit` for the axis ("P(escaping out of action)"), `of` (what the bars are: "weapon", "model", "side
 * a") and `buyer`, for whom more is better (definition.ts's checkValueDirection allows no other measure).
 */
export function valueMeasure(sweep: SweepResult, def: ValueDef): { what: string; unit: string; of: string; buyer: string } {
  const { d } = dim(sweep, def.by);
  const of = d.side !== undefined ? `side ${d.side}` : d.fields[0] === 'weapon' ? 'weapon' : 'model';
  const buyer = d.side !== undefined ? `side ${d.side}'s buyer` : `the ${of}'s buyer`;
  if (def.mean !== undefined) {
    const label = sweep.cells[0]?.means.find((m) => m.jsonKey === def.mean)?.label ?? def.mean;
    return { what: `expected ${label}`, unit: label, of, buyer };
  }
  const outcome = def.cumulative ? orWorseLabel(def.outcome!) : outcomeLabel(def.outcome!);
  const named = d.side !== undefined ? `chance ${outcome}` : `chance of ${def.survive ? 'escaping ' : ''}${outcome}`;
  return { what: `${named}${chancePhrase(sweep)}`, unit: `P(${def.survive ? 'escaping ' : ''}${outcome})`, of, buyer };
}

/** How many attacks (turns, rounds) every cell of a sequence (turns, duel) plays: "3 attacks"; undefined where the cells differ. */
function playedCount(sweep: SweepResult, field: string, unit: string): string | undefined {
  const n = [...new Set(sweep.cells.map((c) => c.scenario[field]))];
  return n.length === 1 && typeof n[0] === 'number' ? `${n[0]} ${unit}${n[0] === 1 ? '' : 's'}` : undefined;
}

/** What a sequence kind plays, by its scenario field and unit; undefined for a kind of one roll. */
function playedOf(sweep: SweepResult): { field: string; unit: string } | undefined {
  const kind = sweep.cells[0]?.scenario.kind;
  if (kind === 'sequence') return { field: 'attacks', unit: 'attack' };
  if (kind === 'turns') return { field: 'turns', unit: 'turn' };
  if (kind === 'duel') return { field: 'rounds', unit: 'round' };
  return undefined;
}

/** Over what a chance of the sweep's kind is counted: " per attack", " within 3 attacks", "" where the kind says it. */
function chancePhrase(sweep: SweepResult): string {
  const kind = sweep.cells[0]?.scenario.kind;
  if (kind === 'attack') return ' per attack';
  if (kind === 'injury') return ' per injury roll';
  const played = playedOf(sweep);
  return played ? ` within ${playedCount(sweep, played.field, played.unit) ?? `the ${played.unit}s`}` : '';
}

/** The chance phrase of a default title; none where the number of attacks is what varies (it is on an axis). */
function titlePhrase(sweep: SweepResult): string {
  const played = playedOf(sweep);
  return played && playedCount(sweep, played.field, played.unit) === undefined ? '' : chancePhrase(sweep);
}

/**
 * What one bar of a stacked-bar chart is, plural: "rolls", "duels", "sequences of 10 attacks" (the
 * layout's trial names the noun; a sequence's length is the cells').
 */
function trialsName(sweep: SweepResult): { one: string; many: string } {
  const trial = sweep.cells[0]?.layout.trial ?? 'roll';
  const played = trial === 'sequence' ? playedOf(sweep) : undefined;
  const count = played ? playedCount(sweep, played.field, played.unit) : undefined;
  const of = count ? ` of ${count}` : '';
  return { one: `${trial}${of}`, many: `${trial}s${of}` };
}

/**
 * Per value of the `by` dimension with a cost (see valueSkipped): the measure averaged over the other
 * cells, its cost, and the value. A chance above MAX_VALUE_CHANCE for every bar is refused: divided by
 * cost it would rank the bars by cheapness alone.
 */
export function valueRows(sweep: SweepResult, def: ValueDef) {
  const { d, index } = dim(sweep, def.by);
  const per = def.per ?? DEFAULT_VALUE_PER;
  const measure = (cell: SweepResult['cells'][number]): number => {
    if (def.mean !== undefined) {
      const m = cell.means.find((x) => x.jsonKey === def.mean);
      return m?.value ?? m?.estimate ?? Number.NaN;
    }
    const p = shown(cell.outcomes.find((o) => o.outcome === def.outcome), def.cumulative === true)?.value ?? 0;
    return def.survive ? 1 - p : p;
  };
  const rows = d.values.flatMap((v, i) => {
    if (!priced(v)) return [];
    const cells = sweep.cells.filter((c) => c.point[index] === i);
    const average = cells.reduce((sum, c) => sum + measure(c), 0) / cells.length;
    const cost = v.cost!;
    return [{ name: String(v.values[0]), label: v.label, cost, costOf: v.costOf ?? defaultCostOf(d), measure: average, value: (average / cost) * per }];
  });
  const measured = rows.filter((r) => Number.isFinite(r.measure));
  if (def.mean === undefined && measured.length > 0 && measured.every((r) => r.measure > MAX_VALUE_CHANCE)) refuseSaturatedChance(sweep, def, measured);
  // Like with like: a bare weapon's price is ranked among bare weapons', a whole model's among whole models' (CostOf).
  const medians = new Map(
    COST_KINDS.map((kind) => {
      const mine = rows.filter((r) => r.costOf === kind);
      const finite = mine.map((r) => r.value).filter(Number.isFinite);
      const measures = mine.map((r) => r.measure).filter(Number.isFinite);
      return [kind, { value: finite.length ? median(finite) : Number.NaN, measure: measures.length ? median(measures) : Number.NaN }] as const;
    }),
  );
  return rows.map((r) => {
    const { value: mid, measure: midMeasure } = medians.get(r.costOf)!;
    // A mean some cell does not report (expected attacks where it is not finite) has no value.
    const verdict = !Number.isFinite(r.value) ? 'no value' : r.value >= mid * VALUE_OUTLIER_RATIO ? 'under-priced' : r.value <= mid / VALUE_OUTLIER_RATIO ? 'over-priced' : 'in line';
    // Marked by its price alone: under-priced though it measures less than the median bar (a 2-ducat club), or over-priced though more.
    const byPrice = (verdict === 'under-priced' && r.measure < midMeasure) || (verdict === 'over-priced' && r.measure > midMeasure);
    return { ...r, verdict, byPrice, median: mid, medianMeasure: midMeasure, priceOf: COST_OF_SAID[r.costOf] };
  });
}

/** The kinds of price a value chart ranks apart, in the order its panels show them. */
const COST_KINDS: readonly CostOf[] = ['weapon', 'loadout', 'model'];
/** What each kind of price is the price of, as a chart says it. */
const COST_OF_SAID: Readonly<Record<CostOf, string>> = {
  weapon: "the weapon's own cost",
  loadout: "the whole model's cost, with its weapon",
  model: "the model's cost",
};
/** What a value's cost prices when the dimension does not say: a weapon's its own, a model's or a side's the model's. */
const defaultCostOf = (d: Dimension): CostOf => (d.side !== undefined ? 'loadout' : d.fields[0] === 'weapon' ? 'weapon' : 'model');

function refuseSaturatedChance(sweep: SweepResult, def: ValueDef, rows: readonly { measure: number }[]): never {
  const { what, of } = valueMeasure(sweep, def);
  const lowest = Math.min(...rows.map((r) => r.measure));
  const instead =
    of === 'model'
      ? 'for a model, the attacks it takes ("mean": "expectedAttacks", in a sequence), or escaping a likelier outcome'
      : 'a rarer outcome (e.g. "out-of-action" rather than "down" or worse), or fewer attacks or rounds';
  throw refusal(
    `chart ${showValue(def.file)} (value)`,
    `the ${what} is above ${percent(MAX_VALUE_CHANCE, 0)} for every ${of} (the lowest ${percent(lowest, 1)}), so it cannot double however much is spent, and divided by cost it only ranks the ${of}s by cheapness`,
    `allowed: a chance of at most ${percent(MAX_VALUE_CHANCE, 0)} for some ${of}: ${instead}`,
  );
}

/** Number as a value chart shows its measure: a chance in percent, a mean to 3 decimals. */
const measureText = (def: ValueDef, v: number) => (def.mean !== undefined ? v.toFixed(3) : percent(v, 1));

/**
 * The one line naming the bars marked by their price alone (valueRows' byPrice): a cheap weapon that
 * does less than the median one is under-priced per ducat only for being cheap. None when there are none.
 */
function byPriceText(sweep: SweepResult, def: ValueDef, rows: ReturnType<typeof valueRows>, most = Infinity): string[] {
  const flagged = rows.filter((r) => r.byPrice);
  if (!flagged.length) return [];
  const { what, of } = valueMeasure(sweep, def);
  // With two kinds of price each bar is weighed against the median of its own kind.
  const mixed = new Set(rows.map((r) => r.costOf)).size > 1;
  const named = flagged.map((r) => `${r.label} ${r.verdict}, ${measureText(def, r.measure)}${mixed ? ` (median of its kind ${measureText(def, r.medianMeasure)})` : ''}`);
  const listed = named.length > most ? `${named.slice(0, most).join('; ')} and ${named.length - most} more` : named.join('; ');
  const median = mixed ? `the median ${of}'s priced the same way` : `the median ${of}'s, ${measureText(def, rows[0]!.medianMeasure)}`;
  return [`Marked by price alone (under-priced though its ${what} is below ${median}, or over-priced though above it): ${listed}.`];
}

function valueChart(sweep: SweepResult, def: ValueDef, opts: ChartOptions): VlSpec {
  const { d } = dim(sweep, def.by);
  const per = def.per ?? DEFAULT_VALUE_PER;
  // Best first; a value that cannot be computed last.
  const rank = (v: number) => (Number.isFinite(v) ? v : -Infinity);
  const rows = valueRows(sweep, def).sort((a, b) => (rank(a.value) === rank(b.value) ? 0 : rank(b.value) > rank(a.value) ? 1 : -1));
  const skipped = valueSkipped(sweep, def);
  const { what, unit, of, buyer } = valueMeasure(sweep, def);
  const others = sweep.dimensions.filter((x) => x.id !== def.by);
  const over = others.length ? `averaged over ${others.map((x) => countOf(x)).join(' and ')}` : 'one cell each';
  const data = rows.map((r) => ({
    ...r,
    text: `${r.value.toFixed(3)}${r.verdict === 'in line' ? '' : ` ${r.verdict}`}`,
    tip: `${r.label}: ${what} ${measureText(def, r.measure)}, cost ${r.cost} (${r.priceOf}): ${r.value.toFixed(4)} per ${per} (median ${r.median.toFixed(4)}; ${r.verdict}${r.byPrice ? ', by its price alone' : ''})`,
  }));
  const labelWidth = maxWidth(data.map((r) => r.label));
  const plotWidth = Math.max(200, CHART_WIDTH - 44 - labelWidth - rowTitlePadding(maxWidth(labelsOf(d))) - 200);
  const enc = {
    y: { field: 'label', type: 'nominal', sort: null, title: d.title, axis: { domain: false, ticks: false, titlePadding: rowTitlePadding(maxWidth(labelsOf(d))) } },
    // Room right of the longest bar for its label.
    x: { field: 'value', type: 'quantitative', title: `${unit} per ${per} of cost`, axis: { grid: true }, scale: { domain: [0, Math.max(...rows.map((r) => r.value).filter(Number.isFinite), 0) * 1.7 || 1], nice: false } },
  };
  // Two kinds of price (bare weapons and whole models) are two panels, each ranked among its own.
  const kinds = COST_KINDS.filter((k) => rows.some((r) => r.costOf === k));
  const mixed = kinds.length > 1;
  const subtitle = [
    `Each bar: ${what}, ${over}, per ${per} of ${mixed ? 'its price' : COST_OF_SAID[kinds[0] ?? defaultCostOf(d)]}; more is better for ${buyer}. Best value first.`,
    ...(mixed ? [`Two kinds of price, ranked apart: ${kinds.map((k) => `${COST_OF_SAID[k]} (${rows.filter((r) => r.costOf === k).length}, median ${rows.find((r) => r.costOf === k)!.median.toFixed(3)})`).join('; ')}.`] : []),
    mixed
      ? `Under-priced (${VALUE_OUTLIER_RATIO}x the median of its kind of price, or more): gives ${buyer} more for the money than the median ${of} priced the same way; over-priced (1/${VALUE_OUTLIER_RATIO} of it or less): less.`
      : `Under-priced (${VALUE_OUTLIER_RATIO}x the median, ${rows[0] ? rows[0].median.toFixed(3) : '-'}, or more): gives ${buyer} more for the money than the median ${of}; over-priced (1/${VALUE_OUTLIER_RATIO} of the median or less): less.`,
    // The page's notes name them all; the chart, which may be read alone, names the first few.
    ...byPriceText(sweep, def, rows, 3),
    ...(skipped.length ? [skippedText(d, skipped, 5)] : []),
    ...notAllowedSubtitle(sweep),
  ];
  // A catalogue's worth of bars at 32 px each would be metres tall: thinner bars past VALUE_BARS.
  const thin = rows.length > VALUE_BARS;
  const verdicts = ['under-priced', 'in line', 'over-priced', ...(rows.some((r) => r.verdict === 'no value') ? ['no value'] : [])];
  const layers = {
    width: plotWidth,
    height: { step: thin ? 18 : 32 },
    layer: [
      {
        mark: { type: 'bar', height: thin ? 12 : 20 },
        encoding: {
          ...enc,
          color: {
            field: 'verdict',
            type: 'nominal',
            title: 'Price',
            scale: { domain: verdicts, range: [UNDER_PRICED, FAIR_PRICE, OVER_PRICED, '#dddddd'].slice(0, verdicts.length) },
          },
          tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' },
        },
      },
      { mark: { type: 'text', align: 'left', dx: 4, fontSize: thin ? 11 : 12 }, encoding: { ...enc, text: { field: 'text' } } },
    ],
  };
  const top = { ...header(def, `Value for cost: ${d.title.toLowerCase()}`, subtitle, '', opts), data: { values: data }, config: CONFIG };
  if (!mixed) return { ...top, ...layers };
  // One panel per kind of price, each with only its own bars, titled with what its bars are divided by.
  return {
    ...top,
    facet: { row: { field: 'priceOf', type: 'nominal', sort: kinds.map((k) => COST_OF_SAID[k]), title: null, header: { labelAngle: 0, labelAlign: 'left', labelAnchor: 'start', labelOrient: 'top', labelFontWeight: 'bold', labelLimit: 0, labelExpr: "'Per ' + datum.value" } } },
    spec: layers,
    resolve: { scale: { y: 'independent' } },
  };
}

/**
 * What the report page says under a chart that could not show everything: the values a value chart
 * left out for having no cost, the rows a heat map cut to its top ones. One line each, or none.
 */
export function chartNotes(sweep: SweepResult, def: ChartDef): string[] {
  const labelled = withChartLabels(sweep);
  return [...ownNotes(labelled, def), ...notAllowedNotes(labelled, def)];
}

function ownNotes(sweep: SweepResult, def: ChartDef): string[] {
  if (def.type === 'value') {
    const skipped = valueSkipped(sweep, def);
    return [...byPriceText(sweep, def, valueRows(sweep, def)), ...(skipped.length ? [skippedText(dim(sweep, def.by).d, skipped)] : [])];
  }
  if (def.type === 'heatmap') {
    const { d } = dim(sweep, def.y);
    return [...(d.values.length > MAX_HEATMAP_ROWS ? [topRowsNote(d, def)] : []), ...toughZeroLine(sweep, def)];
  }
  return [];
}

/**
 * The cells the rules forbid, left empty, one line per reason; a value chart averages each value over
 * its allowed cells only, and a map of changes has nothing to show where either side is forbidden.
 */
function notAllowedNotes(sweep: SweepResult, def: ChartDef): string[] {
  if (sweep.notAllowed.length === 0) return [];
  const how =
    def.type === 'value'
      ? 'Not allowed by the rules, so left out of the averages'
      : def.type === 'heatmap' && def.differenceFrom !== undefined
        ? `Not allowed by the rules, so left empty (with the cells compared against them under ${def.differenceFrom})`
        : 'Not allowed by the rules, so left empty';
  return notAllowedLines(sweep.dimensions, sweep.notAllowed, sweep.cells.length + sweep.notAllowed.length).map((line) => `${how}: ${line}.`);
}

/**
 * What a chart calls a value whose label is a rule's shorthand: a d20 stat of "-" (the model makes no
 * such roll), which on an axis reads as a missing label.
 */
const SHORTHAND_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = { defence: { '-': 'no Defence roll' } };

function chartLabel(d: Dimension, label: string): string {
  const field = d.fields.length === 1 ? d.fields[0]! : '';
  return SHORTHAND_LABELS[field]?.[label] ?? label;
}

/** The sweep with its labels as charts say them (chartLabel): the dimensions' values and every cell's. */
function withChartLabels(sweep: SweepResult): SweepResult {
  const relabelled = sweep.dimensions.some((d) => d.values.some((v) => chartLabel(d, v.label) !== v.label));
  if (!relabelled) return sweep;
  const labels = (given: readonly string[]) => given.map((l, i) => chartLabel(sweep.dimensions[i]!, l));
  return {
    ...sweep,
    dimensions: sweep.dimensions.map((d) => ({ ...d, values: d.values.map((v) => ({ ...v, label: chartLabel(d, v.label) })) })),
    cells: sweep.cells.map((c) => ({ ...c, labels: labels(c.labels) })),
    notAllowed: sweep.notAllowed.map((c) => ({ ...c, labels: labels(c.labels) })),
  };
}

/** The Vega-Lite spec of one chart of an analysis. */
export function chartSpec(given: SweepResult, def: ChartDef, opts: ChartOptions = {}): VlSpec {
  const sweep = withChartLabels(given);
  const body =
    def.type === 'stacked-bars'
      ? stackedBars(sweep, def, opts)
      : def.type === 'value'
        ? valueChart(sweep, def, opts)
        : def.type === 'lines'
        ? lines(sweep, def, opts)
        : def.differenceFrom !== undefined
          ? differenceHeatmap(sweep, def, def.differenceFrom, opts)
          : heatmap(sweep, def, opts);
  return { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', ...body };
}

/**
 * Two charts of a report that would share a default title: the same type over the same dimensions and
 * outcome, neither titled by its definition. A report qualifies such charts by their analyses' titles.
 */
export function sameDefaultTitle(a: ChartDef, b: ChartDef): boolean {
  if (a.title !== undefined || b.title !== undefined || a.type !== b.type) return false;
  const shape = (c: ChartDef) => JSON.stringify([chartDimensions(c), 'outcome' in c ? c.outcome : undefined, 'outcomes' in c ? c.outcomes : undefined, 'cumulative' in c ? c.cumulative : undefined, 'differenceFrom' in c ? c.differenceFrom : undefined]);
  return shape(a) === shape(b);
}

/** A chart's title as one line of text (titles are wrapped into several lines for drawing). */
export function chartTitle(spec: VlSpec, fallback = ''): string {
  const text = (spec.title as { text?: string | string[] } | undefined)?.text;
  return Array.isArray(text) ? text.join(' ') : (text ?? fallback);
}
