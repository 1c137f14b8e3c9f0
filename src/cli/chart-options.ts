import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { notOneOf, refusal } from '../messages.js';
import { listAllowed, showValue } from '../errors.js';
import { CHART_ENDINGS, CHART_FLAG, type ChartRequest, planChart, writeChart } from '../present/write/one-off-chart.js';
import { scenarioDimension } from '../analysis/single.js';
import { askedLine } from '../analysis/asked.js';
import { namedFiles } from '../input/scenario.js';
import type { SweepResult } from '../analysis/sweep.js';
import type { ChartDef } from '../present/chart/definition.js';
import type { Scenario } from '../model/types.js';
import { terminalSafe } from '../terminal-safe.js';
import { CHART_AXES, CHART_TYPE_CHOICES, CHART_TYPE_FLAG, type ChartAxis, type ChartTypeChoice, gridLayout } from '../present/chart/defaults.js';

export { gridLayout };

/**
 * `--chart FILE` and what it takes, for the commands that answer one question (exact, simulate, sweep,
 * compare, solve; with `grid`, the layout flags too). `--cumulative` and `--force` are the command's own where it has them (sweep's table, the
 * --out file), and added here where it does not.
 */
export function addChartOptions<T>(y: Argv<T>, has: { readonly cumulative: boolean; readonly force: boolean }, grid = false): Argv<T> {
  let out = y
    .option('chart', {
      type: 'string',
      describe: `Also draw the answer as a chart into this file: ${CHART_ENDINGS.join(', ')} (.vl.json: the Vega-Lite spec; .html: a page that works offline)`,
    })
    .option('outcome', { type: 'string', describe: "Keep only this outcome's row (several: ids separated by commas); with --chart, the chart's one outcome (default: the most severe)" }) as Argv<T>;
  // A grid's chart may be laid out (--chart-type, --x, ...); one scenario's is one bar.
  if (grid) out = addChartLayoutOptions(out);
  if (!has.cumulative) out = out.option('cumulative', { type: 'boolean', describe: 'Chart "this outcome or worse" (lines, heat maps)', default: false }) as Argv<T>;
  if (!has.force) out = out.option('force', { type: 'boolean', describe: 'Replace an existing --chart file', default: false }) as Argv<T>;
  return out;
}

/** What each layout flag places, for --help: declared once here, the channels in src/present/chart/defaults.ts. */
const AXIS_HELP: Record<ChartAxis, string> = {
  x: 'x axis',
  y: "heat map's rows",
  series: 'one line each',
  facet: 'one panel each',
};

/**
 * --chart-type and the axes (--x, --y, --series, --facet): the chart laid out as asked, not as the
 * defaults choose. The axes are told in --chart-type's help, one line for four flags: --help stays short.
 */
export function addChartLayoutOptions<T>(y: Argv<T>): Argv<T> {
  let out = y.option('chart-type', {
    type: 'string',
    describe: `The --chart's type: ${Object.keys(CHART_TYPE_CHOICES).join(', ')}; place varied fields with ${CHART_AXES.map((a) => `--${a} (${AXIS_HELP[a]})`).join(', ')}`,
  }) as Argv<T>;
  for (const axis of CHART_AXES) out = out.option(axis, { type: 'string', describe: `The varied field on the --chart's ${AXIS_HELP[axis]}`, hidden: true }) as Argv<T>;
  return out;
}

/** The chart type and axes the flags name; a layout flag with no --chart to draw is refused, as it would do nothing. */
function chartLayoutFromArgv(argv: Record<string, unknown>): Pick<ChartRequest, 'type' | 'axes'> {
  const given = ['chart-type', ...CHART_AXES].filter((flag) => argv[flag] !== undefined);
  if (given.length === 0) return {};
  if (argv.chart === undefined) throw refusal(`--${given[0]}`, 'lays out the --chart, and no --chart FILE is given', 'add --chart FILE (.png, .svg, .vl.json, .html)');
  const text = (flag: string): string | undefined => {
    const value = argv[flag];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw refusal(`--${flag}`, `${showValue(value)} is not one value`, flag === 'chart-type' ? `allowed: ${listAllowed(Object.keys(CHART_TYPE_CHOICES))}` : 'give one varied field');
    return value;
  };
  const type = text('chart-type');
  if (type !== undefined && !Object.hasOwn(CHART_TYPE_CHOICES, type)) throw notOneOf(CHART_TYPE_FLAG, type, 'a chart type', Object.keys(CHART_TYPE_CHOICES));
  const axes = Object.fromEntries(CHART_AXES.flatMap((axis) => (text(axis) === undefined ? [] : [[axis, text(axis)!]])));
  return { ...(type !== undefined ? { type: type as ChartTypeChoice } : {}), ...(Object.keys(axes).length ? { axes } : {}) };
}

/** The chart the flags ask for, or undefined (--outcome alone picks a table's rows: ./outcome-pick.ts). */
export function chartRequestFromArgv(argv: Record<string, unknown>): ChartRequest | undefined {
  const layout = chartLayoutFromArgv(argv);
  const file = argv.chart;
  if (file === undefined) return undefined;
  if (typeof file !== 'string' || file === '') throw refusal(CHART_FLAG, 'needs a file name', `allowed: a file name ending ${CHART_ENDINGS.join(', ')}`);
  if (typeof argv.out === 'string' && resolve(argv.out) === resolve(file)) throw refusal(CHART_FLAG, 'names the --out file too', 'name another file');
  return {
    file,
    ...(typeof argv.outcome === 'string' ? { outcome: argv.outcome } : {}),
    cumulative: argv.cumulative === true,
    force: argv.force === true,
    ...layout,
  };
}


/** Writes the chart and says so on stderr, with what it could not show. */
export async function writeChartAndSay(req: ChartRequest, sweep: SweepResult, def: ChartDef): Promise<void> {
  const notes = await writeChart(req, sweep, def);
  process.stderr.write(`injury-lab: wrote ${terminalSafe(req.file)}${notes.length ? ` (${notes.map(terminalSafe).join('; ')})` : ''}\n`);
}

/** A one-scenario command's chart, planned before it runs: one bar of its outcomes, labelled by its kind. */
export function planOneScenarioChart(argv: Record<string, unknown>, scenario: Scenario): { request: ChartRequest; def: ChartDef; label: string; title: string } | undefined {
  const request = chartRequestFromArgv(argv);
  if (!request) return undefined;
  const label = scenario.kind;
  const title = 'Scenario';
  const inputs = [...(typeof argv.scenario === 'string' ? [argv.scenario] : []), ...namedFiles(scenario as unknown as Record<string, unknown>)];
  const def = planChart(request, [scenarioDimension([label], title)], gridLayout([scenario]), askedLine(scenario), inputs);
  return { request, def: { ...def, title: `Outcomes of one ${scenario.kind}` }, label, title };
}
