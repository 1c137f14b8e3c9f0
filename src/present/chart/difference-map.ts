import { percent } from '../../text.js';
import { orWorseLabel, outcomeLabel, points, textColourOn } from '../../labels.js';
import type { SweepResult } from '../../analysis/cells.js';
import type { ChartDef, VlSpec } from './definition.js';
import { mapAxes, mapLayers, mapPlan, mapRows, MAX_HEATMAP_ROWS, topRowsNote, toughZeroLine } from './map-base.js';
import { panelColumns, panelHeader } from './shared/axes.js';
import { allExact, countOf, dim, labelsOf, shown, titlePhrase } from './shared/cells.js';
import { textWidth } from './shared/text.js';
import { CONFIG, FALL_COLOUR, NO_CHANGE_COLOUR, RISE_COLOUR, TITLE_SIZE, mix } from './shared/theme.js';
import { type ChartOptions, header, notAllowedSubtitle, provenance } from './shared/titles.js';

/**
 * The heat map of changes: each cell against the same cell under one value of the facet (a variant
 * against the edition's rules), in percentage points on a diverging scale.
 */

/**
 * The colour scale of changes in probability (`p`, -1..1): blue for less likely, red for more, from none
 * to `reach`, a multiple of 5 points (at least 5) past the largest change either way; and each row's
 * text colour (`ink`), readable on its cell. A report's map of changes and diff's (./diff-map.ts) alike.
 */
export function changeInk<R extends { readonly p: number }>(rows: readonly R[]): { reach: number; inked: (R & { ink: string })[] } {
  const reach = Math.max(0.05, Math.ceil(Math.max(...rows.map((r) => Math.abs(r.p))) * 20 - 1e-9) / 20);
  return { reach, inked: rows.map((r) => ({ ...r, ink: textColourOn(mix(NO_CHANGE_COLOUR, r.p < 0 ? FALL_COLOUR : RISE_COLOUR, Math.min(1, Math.abs(r.p) / reach))) })) };
}

/** The diverging scale of changeInk's `reach`. */
export function changeScale(reach: number): VlSpec {
  return { domain: [-reach, 0, reach], range: [FALL_COLOUR, NO_CHANGE_COLOUR, RISE_COLOUR], interpolate: 'rgb', clamp: true };
}

/**
 * A heat map of changes: every cell minus the cell with the same other coordinates at the facet's
 * `differenceFrom` value, one panel per other facet value. Exact values where both cells have them,
 * else the estimates. Past MAX_HEATMAP_ROWS rows it shows the rows that change most, either way.
 */
export function differenceHeatmap(sweep: SweepResult, def: Extract<ChartDef, { type: 'heatmap' }>, baseline: string, opts: ChartOptions): VlSpec {
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
  const { reach, inked } = changeInk(rows);
  const legendWidth = textWidth(`P(${name})`, TITLE_SIZE) + 24;
  const panels = labelsOf(fd.d).filter((l) => l !== baseline);
  const facets = panelColumns(panels.length, 2);
  const plan = mapPlan(xd.values.length, shownRows.labels.length, shownRows.labels, facets, legendWidth, (digits) => rows.map((r) => (digits === 1 ? r.label : r.label0)));
  const color = {
    field: 'p',
    type: 'quantitative',
    title: ['Change in', `P(${name})`],
    scale: changeScale(reach),
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
