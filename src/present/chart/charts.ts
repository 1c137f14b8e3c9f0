import type { SweepResult } from '../../analysis/cells.js';
import { notAllowedLines } from '../../analysis/not-allowed.js';
import { chartDimensions, type ChartDef, type ChartType, type VlSpec } from './definition.js';
import { differenceHeatmap } from './difference-map.js';
import { heatmap } from './heatmap.js';
import { lines } from './lines.js';
import { mapNotes } from './map-base.js';
import { withChartLabels } from './shared/labels.js';
import type { ChartOptions } from './shared/titles.js';
import { stackedBars } from './stacked-bars.js';
import { valueChart, valueNotes } from './value.js';

/**
 * The charts a report draws, as Vega-Lite specs: which builder draws each chart type, and what every
 * chart gets whatever its type. Every spec carries its data inline, so the .vl.json file opens in the
 * Vega editor as it is, and every chart shares one outcome -> colour map (labels.ts): out of action is
 * the same dark red in bars, lines, legends and heat maps.
 *
 * The room: one file per chart type (stacked-bars.ts, lines.ts, heatmap.ts and difference-map.ts over
 * their family's map-base.ts, value.ts), each importing what they share from shared/ (sizes and colours,
 * text width, what a cell shows, titles, axes, labels) and never another type's file. Sizes are planned
 * for CHART_WIDTH px of width. Vega measures text without a canvas by estimating 0.8 em per character,
 * so the plans use the same estimate; real text is narrower, never wider. Nothing here reads or writes a
 * file: the web page bundles these builders.
 */

/** One chart type's builder: its spec, and what the report page says under it. */
interface ChartBuilder<T extends ChartType> {
  spec(sweep: SweepResult, def: Extract<ChartDef, { type: T }>, opts: ChartOptions): VlSpec;
  notes(sweep: SweepResult, def: Extract<ChartDef, { type: T }>): string[];
}

/** Every chart type's builder: a type added to ChartDef without one does not compile. */
const BUILDERS: { readonly [T in ChartType]: ChartBuilder<T> } = {
  'stacked-bars': { spec: stackedBars, notes: () => [] },
  lines: { spec: lines, notes: () => [] },
  heatmap: { spec: (sweep, def, opts) => (def.differenceFrom !== undefined ? differenceHeatmap(sweep, def, def.differenceFrom, opts) : heatmap(sweep, def, opts)), notes: mapNotes },
  value: { spec: valueChart, notes: valueNotes },
};

const builderOf = <T extends ChartType>(def: Extract<ChartDef, { type: T }>): ChartBuilder<T> => BUILDERS[def.type as T];

/** The Vega-Lite spec of one chart of an analysis. */
export function chartSpec(given: SweepResult, def: ChartDef, opts: ChartOptions = {}): VlSpec {
  const sweep = withChartLabels(given);
  return { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', ...builderOf(def).spec(sweep, def, opts) };
}

/**
 * What the report page says under a chart that could not show everything: the values a value chart
 * left out for having no cost, the rows a heat map cut to its top ones. One line each, or none.
 */
export function chartNotes(sweep: SweepResult, def: ChartDef): string[] {
  const labelled = withChartLabels(sweep);
  return [...builderOf(def).notes(labelled, def), ...notAllowedNotes(labelled, def)];
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
