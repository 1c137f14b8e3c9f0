import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { refusal } from '../messages.js';
import { CHART_ENDINGS, CHART_FLAG, type ChartRequest, planChart, writeChart } from '../present/write/one-off-chart.js';
import { scenarioDimension } from '../analysis/single.js';
import { askedLine } from '../analysis/asked.js';
import { namedFiles } from '../input/scenario.js';
import type { SweepResult } from '../analysis/sweep.js';
import type { ChartDef } from '../present/chart/definition.js';
import type { Scenario } from '../model/types.js';
import { terminalSafe } from '../terminal-safe.js';
import { gridLayout } from '../present/chart/defaults.js';

export { gridLayout };

/**
 * `--chart FILE` and what it takes, for the commands that answer one question (exact, simulate, sweep,
 * compare). `--cumulative` and `--force` are the command's own where it has them (sweep's table, the
 * --out file), and added here where it does not.
 */
export function addChartOptions<T>(y: Argv<T>, has: { readonly cumulative: boolean; readonly force: boolean }): Argv<T> {
  let out = y
    .option('chart', {
      type: 'string',
      describe: `Also draw the answer as a chart into this file, the one a report draws for what varies: ${CHART_ENDINGS.join(', ')} (.vl.json: the Vega-Lite spec; .html: a page that works offline)`,
    })
    .option('outcome', { type: 'string', describe: "Keep only this outcome's row of the table (several: ids separated by commas), for a one-line answer; with --chart, the chart's one outcome (lines, heat maps; default: the most severe)" }) as Argv<T>;
  if (!has.cumulative) out = out.option('cumulative', { type: 'boolean', describe: 'Chart "this outcome or worse" (lines, heat maps)', default: false }) as Argv<T>;
  if (!has.force) out = out.option('force', { type: 'boolean', describe: 'Replace an existing --chart file', default: false }) as Argv<T>;
  return out;
}

/** The chart the flags ask for, or undefined (--outcome alone picks a table's rows: ./outcome-pick.ts). */
export function chartRequestFromArgv(argv: Record<string, unknown>): ChartRequest | undefined {
  const file = argv.chart;
  if (file === undefined) return undefined;
  if (typeof file !== 'string' || file === '') throw refusal(CHART_FLAG, 'needs a file name', `allowed: a file name ending ${CHART_ENDINGS.join(', ')}`);
  if (typeof argv.out === 'string' && resolve(argv.out) === resolve(file)) throw refusal(CHART_FLAG, 'names the --out file too', 'name another file');
  return {
    file,
    ...(typeof argv.outcome === 'string' ? { outcome: argv.outcome } : {}),
    cumulative: argv.cumulative === true,
    force: argv.force === true,
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
