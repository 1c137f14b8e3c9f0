/**
 * A chart from one command line (`exact`, `simulate`, `sweep`, `compare` with `--chart FILE`): the chart
 * a report would draw for what varies (src/present/chart/defaults.ts, defaultCharts), written as the file's
 * ending asks: the Vega-Lite spec, SVG, PNG, or a page of its own. The chart is planned from the grid's
 * dimensions and the kind's outcomes before anything runs, so a wrong --outcome costs nothing.
 */
import { showValue } from '../../errors.js';
import { refusal } from '../../messages.js';
import type { Dimension } from '../../analysis/dimensions.js';
import type { SweepResult } from '../../analysis/sweep.js';
import type { ReportLayout } from '../../model/types.js';
import { toolVersion } from '../../version.js';
import { jsonText } from '../../text.js';
import { chartNotes, chartSpec } from '../chart/charts.js';
import type { ChartDef, VlSpec } from '../chart/definition.js';
import { CHART_FLAG, type ChartAsk, chooseChart } from '../chart/defaults.js';
import { chartPageHtml } from '../report/page.js';
import { checkOutputFile, writeOutputFile } from './output-file.js';
import { renderChart } from '../report/render.js';

/** The files a chart can be written as, by their ending. */
export const CHART_ENDINGS = ['.png', '.svg', '.vl.json', '.html'] as const;
type ChartEnding = (typeof CHART_ENDINGS)[number];

/** The option a command line gives its chart with, for messages. */
export { CHART_FLAG };

/** What the command line asks of its chart: the file, one outcome or "or worse" for lines and heat maps, and its type and axes where named. */
export interface ChartRequest extends ChartAsk {
  readonly file: string;
  /** Replace the file if it exists. */
  readonly force: boolean;
}

function endingOf(file: string): ChartEnding {
  const lower = file.toLowerCase();
  // .vl.json first: ".json" alone is no chart.
  const ending = CHART_ENDINGS.find((e) => lower.endsWith(e));
  if (!ending) throw refusal(CHART_FLAG, `${showValue(file)} is not a chart file`, `allowed: a file name ending ${CHART_ENDINGS.join(', ')}`);
  return ending;
}

/**
 * The chart for a grid of `dims` (none for one scenario) of a kind laid out as `layout`: the report's
 * default for those dimensions, with the request's outcome and "or worse" where the chart shows one
 * outcome (lines, heat maps), and `context` under its title. The file is checked here too (its ending,
 * and that it is no input of the run), before anything is computed.
 */
export function planChart(req: ChartRequest, dims: readonly Dimension[], layout: ReportLayout, context: string, inputs: readonly string[]): ChartDef {
  checkChartFile(req, inputs);
  return chooseChart(dims, layout, context, req);
}

/** Draws the planned chart of the run's grid into the request's file; returns the chart's notes (what it could not show). */
export async function writeChart(req: ChartRequest, sweep: SweepResult, def: ChartDef): Promise<readonly string[]> {
  const notes = chartNotes(sweep, def);
  await writeChartSpec(req, chartSpec(sweep, def), notes, def.context ? [def.context] : []);
  return notes;
}

/**
 * Writes a Vega-Lite spec into the request's file as its ending asks: the spec itself, SVG, PNG, or a
 * page of its own that names what was asked (`asked`) and what the chart could not show (`notes`).
 */
export async function writeChartSpec(req: Pick<ChartRequest, 'file' | 'force'>, spec: VlSpec, notes: readonly string[], asked: readonly string[]): Promise<void> {
  const ending = endingOf(req.file);
  let content: string | Uint8Array;
  if (ending === '.vl.json') content = jsonText(spec);
  else {
    const rendered = await renderChart(spec, { png: ending === '.png' });
    if (ending === '.png') content = rendered.png;
    else if (ending === '.svg') content = rendered.svg;
    else {
      const title = (spec.title as { text?: string | string[] } | undefined)?.text;
      content = chartPageHtml({ title: Array.isArray(title) ? title.join(' ') : (title ?? 'Chart'), asked, svg: rendered.svg, notes, version: toolVersion });
    }
  }
  writeOutputFile(req.file, content, CHART_FLAG, req.force);
}

/** Checks a chart file before anything is computed: its ending, and that it is no input of the run. */
export function checkChartFile(req: Pick<ChartRequest, 'file' | 'force'>, inputs: readonly string[]): void {
  endingOf(req.file);
  checkOutputFile(req.file, inputs, CHART_FLAG, req.force);
}
