/**
 * Charts: the report engine's own Vega-Lite specs (what `exact --chart` and the reports draw), drawn
 * interactively in the answer's and the grid's boxes; and the page's downloads, made from what it shows.
 */
import { wordWrap } from '../engine.js';
import { input, systemOf } from './state.js';

export interface ChartView {
  toSVG(): Promise<string>;
  toImageURL(type: string, scale?: number): Promise<string>;
  finalize(): void;
}

/**
 * Draws a spec into `box`, replacing `previous`, unless the answer it belongs to is no longer wanted by
 * the time the libraries are in. vega-embed (vega and vega-lite with it) loads with the first chart, in
 * its own chunk: the form and the first answer do not wait for it. Its tooltips show each mark's `tip`:
 * the exact fraction, and the estimate with its interval once simulated. Its actions menu is off: the
 * editor and source actions open web pages, and the page has its own downloads.
 */
export async function embedChart(box: HTMLElement, spec: Record<string, unknown>, stillWanted: () => boolean, previous: ChartView | undefined): Promise<ChartView | undefined> {
  box.dataset.state = 'drawing';
  const { default: embed } = await import('vega-embed');
  if (!stillWanted()) return undefined;
  previous?.finalize();
  const fits = fitsBox(spec);
  const shown = fits ? { ...spec, ...subtitleWrapped(spec, box.clientWidth), ...legendWrapped(spec, box.clientWidth) } : spec;
  const result = await embed(box, shown as never, { renderer: 'svg', actions: false, tooltip: { theme: 'light' }, ...(fits ? { patch: widthFittedToBox } : {}) });
  box.dataset.state = 'drawn';
  return result.view;
}

/**
 * A single view (one chart, or layers of one) is drawn at its box's width rather than at the width the
 * report engine gives it (about 900 px) and then scaled down, which shrank its 12 px labels to 6 px in
 * a narrow column. Facets and concatenations keep their own widths (Vega-Lite cannot fit them) and
 * scroll in their box instead. The downloads are drawn from this view: the same chart as on screen.
 */
function fitsBox(spec: Record<string, unknown>): boolean {
  return !['facet', 'repeat', 'concat', 'hconcat', 'vconcat'].some((k) => k in spec) && typeof spec.width === 'number';
}

/** The part of a compiled Vega spec the fit changes. */
interface VegaSpec {
  readonly width?: unknown;
  readonly autosize?: unknown;
  readonly signals?: readonly { readonly name: string }[];
}

/**
 * The fit to the box's width is asked of Vega, in the spec Vega-Lite compiled at the chart's own width,
 * and not of Vega-Lite (width "container"): Vega-Lite warns 'Dropping "fit-y" because spec has discrete
 * height' whenever a fit meets a height set in steps (a row of bars, a heat map's rows), even a fit-x
 * that asks nothing of the height (vega/vega-lite#8579, a fix still open in 6.4), so the console showed
 * it for nearly every chart the page drew. This is the Vega that Vega-Lite writes for width "container",
 * to the signal: the box's width, again on every resize of the window, the padding and axes inside it.
 */
function widthFittedToBox<S extends VegaSpec>(vg: S): S {
  if (typeof vg.width !== 'number' || vg.signals?.some((s) => s.name === 'width')) return vg;
  const { width, ...rest } = vg;
  const boxWidth = `isFinite(containerSize()[0]) ? containerSize()[0] : ${width}`;
  const signal = { name: 'width', init: boxWidth, on: [{ update: boxWidth, events: 'window:resize' }] };
  return { ...rest, autosize: { type: 'fit-x', contains: 'padding' }, signals: [signal, ...(vg.signals ?? [])] } as unknown as S;
}

/** About how wide one entry of a horizontal legend is (a symbol and an outcome's name), in pixels. */
const LEGEND_ENTRY_PX = 130;

/**
 * A legend laid out in a row above the chart, in as many columns as the box has room for: in a
 * phone's column the row of outcomes ran past the box's edge ("out of action" at 470 px of 378).
 */
function legendWrapped(spec: Record<string, unknown>, boxWidth: number): Record<string, unknown> {
  const config = spec.config as { legend?: { direction?: string } } | undefined;
  if (!config?.legend || config.legend.direction !== 'horizontal' || boxWidth <= 0) return {};
  return { config: { ...config, legend: { ...config.legend, columns: Math.max(1, Math.floor((boxWidth - 24) / LEGEND_ENTRY_PX)) } } };
}

/** About how wide one character of a chart's subtitle is on screen, in pixels (12.5 px DejaVu Sans). */
const SUBTITLE_CHAR_PX = 7.2;

/**
 * The subtitle wrapped again to the box: the report engine wraps it for its own width (about 900 px),
 * so in the page's column its longer lines (a duel's two sides) ran past the box's edge.
 */
function subtitleWrapped(spec: Record<string, unknown>, boxWidth: number): Record<string, unknown> {
  const title = spec.title as { subtitle?: unknown } | undefined;
  if (!title || !Array.isArray(title.subtitle) || boxWidth <= 0) return {};
  const chars = Math.max(30, Math.floor((boxWidth - 24) / SUBTITLE_CHAR_PX));
  return { title: { ...title, subtitle: (title.subtitle as string[]).flatMap((line) => wordWrap(line, chars)) } };
}

export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A download's name: the scenario's system and kind ("trench-crusade-attack"). */
export const fileName = () => [input.system ?? systemOf(undefined).id, input.kind ?? 'scenario'].join('-').replace(/[^A-Za-z0-9_-]+/g, '-');
