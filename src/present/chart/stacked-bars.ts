import { percent } from '../../text.js';
import { outcomeColour, outcomeLabel, textColourOn } from '../../labels.js';
import type { SweepResult } from '../../analysis/cells.js';
import type { ChartDef, VlSpec } from './definition.js';
import { facetField, outcomeScale, probabilityAxis } from './shared/axes.js';
import { dim, labelsOf, possibleOutcomes, shown, titlePhrase, trialsName, valueTip } from './shared/cells.js';
import { maxWidth } from './shared/text.js';
import { CHART_WIDTH, CONFIG, INK } from './shared/theme.js';
import { type ChartOptions, header, impossibleLine, notAllowedSubtitle, provenance } from './shared/titles.js';

/**
 * The stacked-bar chart: one bar per cell, its segments the outcomes from mildest to most severe, with
 * the boundaries' intervals when simulated.
 */

/** Stacked bars draw one bar per cell, 24 px each: past this many the chart is refused (report/definition.ts). */
export const MAX_BARS = 300;

/**
 * Stacked horizontal bars: one bar per value of `y` (and facet row), its segments the outcome
 * distribution from the mildest (left) to the most severe (right), with the percentage written in each
 * segment wide enough to hold it. When simulated, a black interval marks each boundary between
 * segments: the 95% interval of "this outcome or worse".
 */
export function stackedBars(sweep: SweepResult, def: Extract<ChartDef, { type: 'stacked-bars' }>, opts: ChartOptions): VlSpec {
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
