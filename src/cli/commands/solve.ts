import { LIST_QUOTING } from '../../quoted-list.js';
import type { CommandModule } from 'yargs';
import { showValue } from '../../errors.js';
import { refusal } from '../../messages.js';
import { checkCondition, CONDITION_FORM, parseCondition, solveSweep } from '../../analysis/solve.js';
import { baseSystemAndKind } from '../../analysis/dimensions.js';
import { planCells, runSweep, sweepDimensions } from '../../analysis/sweep.js';
import { solvePresenter } from '../../present/tables/solve.js';
import { resolveKind } from '../../rules/registry.js';
import { addFormatOption, addScenarioOptions, parseFormat, rawScenarioFromArgv } from '../options.js';
import { withRunControls } from '../sim-controls.js';
import { refuseVariedFieldFlags } from '../sweep-options.js';
import { cellProgress } from './report.js';
import { addChartOptions, chartRequestFromArgv, gridLayout, writeChartAndSay } from '../chart-options.js';
import { planChart } from '../../present/write/one-off-chart.js';
import { askedLineOfGrid } from '../../analysis/asked.js';
import { namedFiles } from '../../input/scenario.js';

/** A flag given as one value: yargs makes a repeated one an array, of which solve would silently use one. */
function once(argv: Readonly<Record<string, unknown>>, flag: string, why: string): string {
  const given = ([] as unknown[]).concat(argv[flag] ?? []).map(String);
  if (given.length > 1) throw refusal(`--${flag}`, `given ${given.length} times (${given.map((g) => showValue(g)).join(', ')})`, why);
  return given[0]!;
}

const SEARCH_GROUP = 'Search:';

export const solveCommand: CommandModule = {
  command: 'solve [scenario]',
  describe: 'Goal-seek over one field: the values that meet a condition on an outcome, "or worse" or a mean, and where it flips (exact)',
  builder: (y) =>
    addFormatOption(
      addChartOptions(addScenarioOptions(
        // The search first in --help: the two flags solve requires.
        y
          .positional('scenario', { type: 'string', describe: 'Base scenario JSON file (field flags override it)' })
          .option('vary', {
            type: 'string',
            describe: 'The one field to search and its values: field=lo..hi[:step] (a numeric field, read in increasing order: the ranges that meet the condition and the values either side) or field=v1,v2,... (a list; numbers are put in order); in a list, ' + LIST_QUOTING,
            demandOption: 'give the field to search, e.g. --vary defence=1..20',
            group: SEARCH_GROUP,
          })
          .option('where', {
            type: 'string',
            describe: `The condition, ${CONDITION_FORM}. Quote it: < and > redirect in a shell`,
            demandOption: "give the condition, e.g. --where 'incapacitated<=0.2'",
            group: SEARCH_GROUP,
          }),
      ), { cumulative: false, force: false }, true),
      solvePresenter,
    )
      .example("$0 solve --system d20-warband --kind attack --stat 10 --pierce 2 --vary defence=1..20 --where 'stunned+<=10%'", 'the Defence values that keep stunned or worse at 10% or less')
      .example("$0 solve --kind sequence --vary attacks=1..30 --where 'out-of-action>=0.9'", 'how many attacks until P(out of action) >= 90%')
      .example("$0 solve --kind attack --vary armour=none,standard,reinforced,machine --where 'down+<0.25' --format json", 'which armours keep Down or worse under 25%, as JSON')
      .example("$0 solve --kind fall --vary heightInches=0..12 --where 'out-of-action<=10%' --chart fall.svg", "the heights a fall stays under 10% Out of Action at, and the condition's outcome drawn along them"),
  handler: async (argv) => {
    const format = parseFormat(argv.format, solvePresenter, 'solve');
    // The condition's form first: a typo in it costs nothing, not even reading the scenario file.
    const condition = parseCondition(once(argv, 'where', 'give one condition'));
    const vary = once(argv, 'vary', 'solve searches one field: give one --vary (`injury-lab sweep` takes several)');
    const base = rawScenarioFromArgv(argv, argv.scenario);
    const dims = sweepDimensions(base, [vary]);
    refuseVariedFieldFlags(argv, base, dims);
    const progress = cellProgress(process.stderr);
    let cells: ReturnType<typeof planCells>;
    try {
      cells = planCells(base, dims, progress && ((done, total) => progress.update('checking', done, total)));
    } finally {
      progress?.clear();
    }
    // Checked against every cell's outcomes and means before anything is computed.
    const { system, kind } = baseSystemAndKind(base);
    const checked = checkCondition(condition, cells.map((c) => resolveKind(c.scenario).kind.layout(c.scenario)), `${system.id} kind "${kind}"`);
    // The chart draws what the condition is about along the field searched: lines of its outcome ("or
    // worse" if it says so) unless --outcome names another, or stacked bars of every outcome if asked.
    const chartRequest = chartRequestFromArgv(argv);
    const conditionOutcome = checked.target.kind === 'outcome' && chartRequest?.type !== 'bars' && chartRequest?.outcome === undefined && !chartRequest?.cumulative ? { outcome: checked.target.outcome, cumulative: checked.target.orWorse } : {};
    const chartAsk = chartRequest && { type: 'lines' as const, ...chartRequest, ...conditionOutcome };
    const scenarios = cells.map((c) => c.scenario);
    const inputs = [...(typeof argv.scenario === 'string' ? [argv.scenario] : []), ...namedFiles(base)];
    const chart = chartAsk && planChart(chartAsk, dims, gridLayout(scenarios), `${askedLineOfGrid(scenarios)}; where ${condition.text}`, inputs);
    const sweep = await withRunControls(async ({ signal }) => {
      try {
        return await runSweep({
          base,
          vary: [vary],
          exact: true,
          planned: { dimensions: dims, cells, notAllowed: [] },
          signal,
          ...(progress ? { onCell: (done: number, total: number) => progress.update('solve', done, total) } : {}),
        });
      } finally {
        progress?.clear();
      }
    });
    // The chart first: if it cannot be written, nothing has been printed.
    if (chartAsk && chart) await writeChartAndSay(chartAsk, sweep, chart);
    process.stdout.write(solvePresenter[format](solveSweep(sweep, checked)));
  },
};
