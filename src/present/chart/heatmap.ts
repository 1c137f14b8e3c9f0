import { percent, percentPlusMinus } from '../../text.js';
import { RAMP_START, orWorseLabel, outcomeColour, outcomeLabel, textColourOn } from '../../labels.js';
import type { SweepResult } from '../../analysis/cells.js';
import type { ChartDef, VlSpec } from './definition.js';
import { mapAxes, mapLayers, mapPlan, mapRows, MAX_HEATMAP_ROWS, topRowsNote, toughZeroLine } from './map-base.js';
import { panelColumns, panelHeader } from './shared/axes.js';
import { allExact, countOf, dim, labelsOf, shown, simulated, titlePhrase, type Shown, valueTip } from './shared/cells.js';
import { textWidth } from './shared/text.js';
import { CONFIG, TITLE_SIZE, mix } from './shared/theme.js';
import { type ChartOptions, header, notAllowedSubtitle, onePanelPer, provenance } from './shared/titles.js';

/**
 * The heat map of one outcome over two dimensions, coloured from near white to the outcome's own colour;
 * maps of one outcome in a report may share one colour scale (sharedScaleKey).
 */

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
export function heatmap(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>, opts: ChartOptions): VlSpec {
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
