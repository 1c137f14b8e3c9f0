import { percent } from '../../text.js';
import { orWorseLabel, outcomeColour, outcomeLabel, textColourOn } from '../../labels.js';
import type { SweepResult } from '../../analysis/cells.js';
import type { ChartDef, VlSpec } from './definition.js';
import { facetField, outcomeScale, probabilityAxis } from './shared/axes.js';
import { dim, labelsOf, possibleOutcomes, shown, titlePhrase, trialsName, valueTip } from './shared/cells.js';
import { maxWidth, textWidth } from './shared/text.js';
import { CHART_WIDTH, CONFIG, INK } from './shared/theme.js';
import { type ChartOptions, header, impossibleLine, notAllowedSubtitle, provenance } from './shared/titles.js';

/**
 * The stacked-bar chart: one bar per cell, its segments the outcomes from mildest to most severe, with
 * the boundaries' intervals when simulated.
 */

/** Stacked bars draw one bar per cell, 24 px each: past this many the chart is refused (report/definition.ts). */
export const MAX_BARS = 300;

/** The narrowest share written inside its segment, as before: 6% of a 700 px plot (42 px) holds "9.9%" at 11 px. */
const INSIDE_MIN = 0.06;
const LABEL_FONT = 11;

/**
 * Shares too narrow to be written inside are written outside, in a column right of the plot. Every bar
 * ends at 100%, so that column is "beside the bar's end" for every bar alike, and nothing else is drawn
 * there: it can never meet an inside label or a boundary's interval, and its numbers line up from bar to
 * bar. A bar's 24 px row holds one line of text, so several narrow shares of one bar go side by side, in
 * the bar's order, not stacked. A sliver of 0.6% may lie at the far end of the bar from its number, so no
 * leader line could reach it without crossing other segments: each number carries instead a swatch of
 * its segment's colour and, while the column stays narrow, the outcome's name ("a wins 0.6%"). The
 * column's room is taken from the plot, so the chart keeps its planned width.
 */
const OUTSIDE = {
  /** From the plot's right edge to the first swatch. */
  gap: 6,
  swatch: 9,
  /** From a swatch to its number. */
  afterSwatch: 3,
  /**
   * Between one share and the next of the same bar, past the estimate of its text (0.8 em a character,
   * which real text never fills): wider than a word space, so each swatch reads with its own number.
   */
  between: 8,
  /**
   * The widest the column may be with outcome names, by vega's estimate: a duel's bar with both wins
   * narrow ("a wins 0.03%", "b wins 0.03%") fits; past it the names would take the plot's room, and the
   * swatches alone, read against the legend, say which share is which.
   */
  namedWidth: 260,
} as const;

/**
 * A share written outside its bar: as inside ("0.6%"), but a share under 0.05% gets the decimals that
 * show it is not nothing ("0.03%", not "0.0%"), down to 0.0001%.
 */
function outsidePercent(p: number): string {
  if (p >= 0.0005) return percent(p, 1);
  if (p < 0.000001) return '<0.0001%';
  return percent(p, Math.min(4, Math.ceil(-Math.log10(p * 100))));
}

interface OutsideShare {
  readonly row: Record<string, unknown>;
  readonly id: string;
  /** The number written: the share, or with "or worse" the chance of this outcome or worse. */
  readonly p: number;
  /** What the number is of: the outcome, or "down or worse". */
  readonly name: string;
}

/** A bar's narrow shares laid out left to right from the plot's edge: each text's left and its swatch's centre, in px. */
function outsideLayout(shares: readonly OutsideShare[], named: boolean) {
  let at = OUTSIDE.gap;
  const placed = shares.map((s) => {
    const text = named ? `${s.name} ${outsidePercent(s.p)}` : outsidePercent(s.p);
    const swatch = at + OUTSIDE.swatch / 2;
    const left = at + OUTSIDE.swatch + OUTSIDE.afterSwatch;
    at = left + textWidth(text, LABEL_FONT) + OUTSIDE.between;
    return { ...s, text, swatch, left };
  });
  return { placed, width: shares.length ? at - OUTSIDE.between : 0 };
}

/**
 * Stacked horizontal bars: one bar per value of `y` (and facet row), its segments the outcome
 * distribution from the mildest (left) to the most severe (right), with the percentage written in each
 * segment wide enough to hold it. When simulated, a black interval marks each boundary between
 * segments: the 95% interval of "this outcome or worse".
 *
 * With `cumulative` ("this or worse"), the same segments are laid the other way, the most severe on the
 * left, so that each outcome's segment ends where the chance of it or worse does: each is labelled at
 * that end with the chance of this outcome or worse, and a bar reads as every "or worse" at once, nested
 * (a bar per "or worse" would draw the same lengths overlapping). The mildest outcome's "or worse" is
 * every trial, and is left unlabelled.
 */
export function stackedBars(sweep: SweepResult, def: Extract<ChartDef, { type: 'stacked-bars' }>, opts: ChartOptions): VlSpec {
  const { d: yd, index: yi } = dim(sweep, def.y);
  const fd = def.facet ? dim(sweep, def.facet) : undefined;
  const cumulative = def.cumulative === true;
  const ids = cumulative ? [...sweep.outcomes].reverse() : sweep.outcomes;
  const possible = new Set(possibleOutcomes(sweep, sweep.outcomes, false));
  const mildest = sweep.outcomes[0];
  const bars: Record<string, unknown>[] = [];
  const bounds: Record<string, unknown>[] = [];
  const outside: OutsideShare[][] = [];
  for (const cell of sweep.cells) {
    const narrow: OutsideShare[] = [];
    const byId = new Map(cell.outcomes.map((o) => [o.outcome, o]));
    let x = 0;
    ids.forEach((id, k) => {
      const s = shown(byId.get(id), false);
      const p = s?.value ?? 0;
      const cum = shown(byId.get(id), true);
      // "Or worse": the chance written is where this segment ends, this outcome or a more severe one.
      const written = cumulative ? x + p : p;
      const labelled = !cumulative || id !== mildest;
      const row = {
        kind: 'bar',
        y: cell.labels[yi],
        ...(fd ? { facet: cell.labels[fd.index] } : {}),
        outcome: outcomeLabel(id),
        order: k,
        x0: x,
        x1: x + p,
        mid: cumulative ? x + p : x + p / 2,
        p,
        label: labelled && p >= INSIDE_MIN ? percent(written, written >= 0.9995 ? 0 : 1) : '',
        ink: textColourOn(outcomeColour(id)),
        tip: `${cell.labels.join(', ')}: ${outcomeLabel(id)} ${valueTip(s)}`,
      };
      if (possible.has(id)) bars.push(row);
      // A share of exactly 0 draws no segment, so it has nothing to name.
      if (labelled && possible.has(id) && p > 0 && p < INSIDE_MIN) narrow.push({ row, id, p: written, name: cumulative ? orWorseLabel(id) : outcomeLabel(id) });
      // No mark where nothing is this bad: that boundary is the end of the bar.
      if (id !== mildest && cum?.low !== undefined && (cum.estimate ?? cum.value) > 0) {
        // Outcome k's "or worse" boundary: its right edge laid most severe first, else its left edge,
        // 1 - P(k or worse), whose interval mirrors that of P(k or worse).
        const at = cum.estimate ?? cum.value;
        bounds.push({ kind: 'bound', y: row.y, ...(fd ? { facet: row.facet } : {}), ...(cumulative ? { lo: cum.low, hi: cum.high!, at } : { lo: 1 - cum.high!, hi: 1 - cum.low, at: 1 - at }) });
      }
      x += p;
    });
    if (narrow.length) outside.push(narrow);
  }
  // A duel's outcomes (a wins, b wins, undecided) are not ranked: the bar reads in the legend's order.
  const unranked = sweep.cells.some((c) => c.layout.unranked);
  const trial = trialsName(sweep);
  const share = `Share of ${trial.many}`;
  const yLabelWidth = maxWidth(labelsOf(yd));
  // A row the rules forbid whole keeps its place on the axis, empty.
  const yScale = sweep.notAllowed.length ? { scale: { domain: labelsOf(yd) } } : {};
  const facetWidth = fd ? maxWidth(labelsOf(fd.d)) + 40 : 0;
  const named = outside.every((shares) => outsideLayout(shares, true).width <= OUTSIDE.namedWidth);
  const laidOut = outside.map((shares) => outsideLayout(shares, named));
  const outsideWidth = Math.max(0, ...laidOut.map((l) => l.width));
  // The column of narrow shares takes its room from the plot (a chart without one is as it was).
  const width = Math.max(300, CHART_WIDTH - 24 - yLabelWidth - 30 - facetWidth - 10 - outsideWidth);
  // Pixels right of the plot as values of the x scale, whose domain 0-1 spans `width` px.
  const past = (px: number) => 1 + px / width;
  const notes = laidOut.flatMap((l) =>
    l.placed.map((o) => ({ kind: 'outside', y: o.row.y, ...(fd ? { facet: o.row.facet } : {}), outcome: o.row.outcome, colour: outcomeColour(o.id), swatchAt: past(o.swatch), textAt: past(o.left), label: o.text, tip: o.row.tip })),
  );
  const layers: VlSpec[] = [
    {
      transform: [{ filter: "datum.kind === 'bar'" }],
      mark: { type: 'bar', stroke: 'white', strokeWidth: 0.5 },
      encoding: {
        y: { field: 'y', type: 'nominal', sort: labelsOf(yd), title: fd ? null : yd.title, ...yScale },
        x: { field: 'x0', type: 'quantitative', scale: { domain: [0, 1], nice: false }, axis: probabilityAxis(share) },
        x2: { field: 'x1' },
        color: { field: 'outcome', type: 'nominal', scale: outcomeScale([...possible], false), title: 'Outcome', sort: ids.filter((id) => possible.has(id)).map(outcomeLabel) },
        tooltip: { field: 'tip', type: 'nominal' }, description: { field: 'tip', type: 'nominal' },
      },
    },
    {
      transform: [{ filter: "datum.kind === 'bar' && datum.label !== ''" }],
      // "Or worse" is written at the segment's right end, where that chance is; a share in its middle.
      mark: { type: 'text', fontSize: LABEL_FONT, baseline: 'middle', ...(cumulative ? { align: 'right', dx: -4 } : { align: 'center' }) },
      encoding: {
        y: { field: 'y', type: 'nominal', sort: labelsOf(yd), title: fd ? null : yd.title },
        x: { field: 'mid', type: 'quantitative', title: share },
        text: { field: 'label' },
        color: INK,
      },
    },
  ];
  if (notes.length > 0) {
    layers.push(
      {
        transform: [{ filter: "datum.kind === 'outside'" }],
        // No hover title of its own (report/render.ts gives one to every described symbol): the segment has it.
        mark: { type: 'point', shape: 'square', filled: true, size: OUTSIDE.swatch ** 2, opacity: 1, aria: false },
        encoding: {
          y: { field: 'y', type: 'nominal', sort: labelsOf(yd), title: fd ? null : yd.title },
          x: { field: 'swatchAt', type: 'quantitative', title: share },
          // The segment's own colour, as it is: a second use of the outcome scale would add to the legend.
          color: { field: 'colour', type: 'nominal', scale: null },
        },
      },
      {
        transform: [{ filter: "datum.kind === 'outside'" }],
        mark: { type: 'text', fontSize: LABEL_FONT, baseline: 'middle', align: 'left', color: '#222222' },
        encoding: {
          y: { field: 'y', type: 'nominal', sort: labelsOf(yd), title: fd ? null : yd.title },
          x: { field: 'textAt', type: 'quantitative', title: share },
          text: { field: 'label' },
          tooltip: { field: 'tip', type: 'nominal' },
        },
      },
    );
  }
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
    cumulative
      ? `Outcome of each ${trial.one}, most severe on the left: each colour ends at the chance of that outcome or worse, written there${fd ? `; one panel per ${fd.d.title.toLowerCase()}` : ''}.`
      : `Outcome of each ${trial.one}, ${unranked ? "in the legend's order" : 'mildest on the left'}${fd ? `, one panel per ${fd.d.title.toLowerCase()}` : ''}.`,
    provenance(sweep, { exact: 'Bars', sim: 'black marks: the boundaries from' }),
    ...impossibleLine(sweep, ids, false),
    ...notAllowedSubtitle(sweep),
  ];
  const top = {
    ...header(def, `Outcomes${cumulative ? ', this or worse,' : ''}${titlePhrase(sweep)} by ${yd.title.toLowerCase()}${fd ? ` and ${fd.d.title.toLowerCase()}` : ''}`, subtitle, '', opts),
    data: { values: [...bars, ...bounds, ...notes] },
  };
  const legend = { config: { ...CONFIG, legend: { ...CONFIG.legend, orient: 'top', direction: 'horizontal', titleOrient: 'top' } } };
  if (fd) {
    return { ...top, facet: facetField(sweep, def.facet, 'row'), spacing: 8, spec: inner, ...legend };
  }
  return { ...top, ...inner, ...legend };
}
