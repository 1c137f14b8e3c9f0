import type { Dimension } from '../../../analysis/dimension-core.js';
import { wordWrap } from '../../../text.js';
import { orWorseLabel, outcomeLabel } from '../../../labels.js';
import type { SweepResult } from '../../../analysis/cells.js';
import type { ChartDef, VlSpec } from '../definition.js';
import { allExact, possibleOutcomes, simulated, trialsText } from './cells.js';
import { SUBTITLE_CHARS, capitalise } from './text.js';
import { CHART_WIDTH, TITLE_FONT_SIZE } from './theme.js';

/**
 * Titles and subtitles: a chart's title (the definition's, or its default with a report's qualifier), and
 * the lines that say what its marks are, which outcomes never happen and which cells the rules forbid.
 */

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
export function header(def: ChartDef, fallback: string, sub: string[], suffix = '', opts: ChartOptions = {}): VlSpec {
  const own = def.title ?? `${capitalise(fallback)}${opts.qualifier ? ` — ${opts.qualifier}` : ''}`;
  const text = wordWrap(`${own}${suffix}`, Math.floor((CHART_WIDTH - 40) / (0.8 * TITLE_FONT_SIZE)));
  const lines = [...(def.context ? [def.context] : []), ...sub];
  return { title: { text: text.length === 1 ? text[0] : text, subtitle: lines.flatMap((l) => wordWrap(l, SUBTITLE_CHARS)) } };
}

/** The subtitle line saying what the marks are: exact values, estimates, intervals. */
export function provenance(sweep: SweepResult, marks: { exact: string; sim: string }): string {
  if (!simulated(sweep)) return 'Exact probabilities.';
  if (allExact(sweep)) return `${marks.exact} exact; ${marks.sim} simulation with 95% intervals (${trialsText(sweep)}).`;
  return `Simulated estimates with 95% intervals (${trialsText(sweep)}).`;
}

/**
 * The subtitle line of a chart with cells the rules forbid: they are left empty (the notes under the
 * chart and the tables say which and why). None when every cell is allowed.
 */
export function notAllowedSubtitle(sweep: SweepResult): string[] {
  const n = sweep.notAllowed.length;
  return n ? [`Left empty: ${n} of ${n + sweep.cells.length} cells the rules do not allow (see the notes and the tables).`] : [];
}

/** The line saying which outcomes a chart leaves out for never happening; none when none is. */
export function impossibleLine(sweep: SweepResult, ids: readonly string[], cumulative: boolean): string[] {
  const possible = new Set(possibleOutcomes(sweep, ids, cumulative));
  const never = ids.filter((id) => !possible.has(id)).map((id) => (cumulative ? orWorseLabel(id) : outcomeLabel(id)));
  return never.length ? [`Left out of the legend, at 0% in every cell: ${never.join(', ')}.`] : [];
}

/** ", one panel per edition" in a faceted chart's title: what tells its panels apart; "" without panels. */
export const onePanelPer = (facet: Dimension | undefined) => (facet ? `, one panel per ${facet.title.toLowerCase()}` : '');
