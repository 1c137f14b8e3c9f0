import { LIST_QUOTING } from '../../quoted-list.js';
import type { CommandModule } from 'yargs';
import { checkBooleanFlag } from '../args.js';
import { NO_VARIANT, namedFiles } from '../../input/scenario.js';
import { skippedLines, sweepPresenter } from '../../present/tables/sweep.js';
import { checkOutputFile, writeOutputFile } from '../../present/write/output-file.js';
import { checkGridSize } from '../../analysis/dimensions.js';
import { checkSimBudget, planGrid, runSweep, sweepDimensions, type GridPlan } from '../../analysis/sweep.js';
import { addScenarioOptions, parseFormat, rawScenarioFromArgv } from '../options.js';
import { requireSomethingToCompute } from '../run-plan.js';
import { withRunControls } from '../sim-controls.js';
import { queueOf, withRemote } from '../queue-option.js';
import { addFileOutOptions, addSweepSimOptions, computedFor, kindSpecOf, refuseVariedFieldFlags, simPlanFromArgv } from '../sweep-options.js';
import { terminalSafe } from '../../terminal-safe.js';
import { cellProgress } from './report.js';
import { outcomeRowsOf, pickedOutcomes } from '../outcome-pick.js';
import { addChartOptions, chartRequestFromArgv, gridLayout, writeChartAndSay } from '../chart-options.js';
import { planChart } from '../../present/write/one-off-chart.js';
import { askedLineOfGrid } from '../../analysis/asked.js';
import { addDigitsOption, digitsFromArgv } from '../digits-option.js';
import { addWideFormatOption, checkWideCumulative, formatWithWide, wideText } from '../wide-option.js';

const GRID_GROUP = 'Grid:';

export const sweepCommand: CommandModule = {
  command: 'sweep [scenario]',
  describe: 'Every cell of a grid of scenario values: exact, and simulated with common random numbers when asked',
  builder: (y) =>
    addWideFormatOption(
      addDigitsOption(addChartOptions(addFileOutOptions(addSweepSimOptions(
        addScenarioOptions(
          // The grid first in --help: it is what a sweep is about, and --vary is the one flag it requires.
          y
            .positional('scenario', { type: 'string', describe: 'Base scenario JSON file (field flags override it)' })
            .option('vary', {
              type: 'string',
              describe: "A field and its values: field=v1,v2 or field=lo..hi[:step]; together: armour,shield=none/false,standard/true; keyword lists: \"weaponKeywords=none;IGNORE ARMOUR\"; a side's field: a.policy=none,injury (sides.armour: both). Repeat for a grid; in a list, " + LIST_QUOTING,
              demandOption: 'give at least one --vary',
              group: GRID_GROUP,
            }),
        ),
      )), { cumulative: true, force: true }, true)),
      sweepPresenter,
    )
      .option('cumulative', { type: 'boolean', describe: 'Show "this or worse" for each outcome (table format, and a chart of lines or a heat map)', default: false, group: GRID_GROUP })
      .option('exact', { type: 'boolean', describe: 'Compute the exact answers (--no-exact for simulation only)', default: true, group: GRID_GROUP })
      .option('strict', { type: 'boolean', describe: 'Refuse a grid with a cell the rules forbid (machine armour with a shield, a fall in the playtest), as one run of it would, instead of showing it as "not allowed"', default: false, group: GRID_GROUP })
      .option('independent-seeds', {
        type: 'boolean',
        describe: 'Give every cell its own seeds instead of common random numbers (to see what they save)',
        default: false,
        hidden: true,
      })
      .example('$0 sweep --kind injury --vary armour=none,standard,reinforced,machine --vary injuryDice=-1..3', 'exact grid, 4 x 5 cells')
      .example('$0 sweep examples/standard.json --vary shield=false,true --trials 1e6 --format csv --out grid.csv', 'exact and simulated, tidy CSV')
      .example('$0 sweep --system d20-warband --kind attack --pierce 2 --vary defence=4..8 --chart defence.png', 'and a chart of it (lines)'),
  handler: async (argv) => {
    const { format, wide } = formatWithWide(argv, parseFormat(argv.format, sweepPresenter, 'sweep'));
    checkBooleanFlag('strict');
    const base = rawScenarioFromArgv(argv, argv.scenario);
    const vary = ([] as unknown[]).concat(argv.vary ?? []).map(String);
    const queue = queueOf(argv);
    const { exact, sim } = computedFor(kindSpecOf(base, typeof argv.scenario === 'string' ? argv.scenario : ''), argv, argv.exact !== false, simPlanFromArgv(argv));
    requireSomethingToCompute(exact, sim, 'sweep');
    // Checks the grid, its size and --out before any pool starts, so a typo costs nothing.
    checkSimBudget(checkGridSize(vary) ?? 0, sim);
    const dims = sweepDimensions(base, vary, { strict: argv.strict === true });
    refuseVariedFieldFlags(argv, base, dims);
    if (typeof argv.out === 'string') {
      const variants = dims.flatMap((d) => (d.fields[0] === 'rules' ? d.values.map((v) => v.values[0]).filter((x): x is string => typeof x === 'string' && x !== NO_VARIANT) : []));
      checkOutputFile(argv.out, [...(typeof argv.scenario === 'string' ? [argv.scenario] : []), ...namedFiles(base), ...variants], '--out', argv.force === true);
    }
    const cumulative = argv.cumulative === true;
    const digits = digitsFromArgv(argv);
    const chartRequest = chartRequestFromArgv(argv);
    // Planned before the run, after --out is checked; a catalogue's thousands of cells take a while, counted on a terminal.
    const progress = cellProgress(process.stderr);
    let grid: GridPlan;
    try {
      grid = planGrid(base, dims, { ...(progress ? { onCell: (done: number, total: number) => progress.update('checking', done, total) } : {}), strict: argv.strict === true });
    } finally {
      progress?.clear();
    }
    // The chart is planned from the grid before the run, so a wrong --outcome or file costs nothing.
    const inputs = [...(typeof argv.scenario === 'string' ? [argv.scenario] : []), ...namedFiles(base)];
    const chart =
      chartRequest && planChart(chartRequest, dims, gridLayout(grid.cells.map((c) => c.scenario)), askedLineOfGrid(grid.cells.map((c) => c.scenario)), inputs);
    const layout = gridLayout(grid.cells.map((c) => c.scenario));
    checkWideCumulative(wide, cumulative, layout);
    const picked = pickedOutcomes(argv, cumulative ? layout.outcomes.slice(1) : layout.outcomes, `${grid.cells[0]!.scenario.system} ${grid.cells[0]!.scenario.kind}${cumulative ? ' "or worse"' : ''}`, format);
    for (const line of skippedLines(dims, grid)) process.stderr.write(`injury-lab: ${line}\n`);
    const sweep = await withRunControls(async ({ signal }) => {
      try {
        return await withRemote(queue, (remote) =>
          runSweep({
            base,
            vary,
            exact,
            ...(sim ? { sim: { ...sim, independentSeeds: argv['independent-seeds'] === true } } : {}),
            planned: { dimensions: dims, ...grid },
            signal,
            ...(progress ? { onCell: (done: number, total: number) => progress.update('sweep', done, total) } : {}),
            ...(remote ? { player: remote, solver: remote } : {}),
          }),
        );
      } finally {
        progress?.clear();
      }
    });
    // The chart first: if it cannot be written, nothing has been printed.
    if (chartRequest && chart) await writeChartAndSay(chartRequest, sweep, chart);
    const written = sweepPresenter[format]({ sweep, cumulative, ...(digits !== undefined ? { digits } : {}), ...(picked && format === 'table' ? { picked } : {}) });
    const text = wide ? wideText(sweep, picked, cumulative) : format === 'csv' ? outcomeRowsOf(written, picked, layout.outcomes) : written;
    if (typeof argv.out === 'string') {
      writeOutputFile(argv.out, text, '--out', argv.force === true);
      const skipped = sweep.notAllowed.length ? `, ${sweep.notAllowed.length} not allowed` : '';
      process.stderr.write(`injury-lab: wrote ${terminalSafe(argv.out)} (${sweep.cells.length} cells${skipped})\n`);
    } else {
      process.stdout.write(text);
    }
  },
};
