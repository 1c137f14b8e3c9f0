import type { CommandModule } from 'yargs';
import { existsSync } from 'node:fs';
import { namedFiles, parseScenario } from '../../input/scenario.js';
import { comparePresenter } from '../../present/tables/compare.js';
import { checkComparable, compareScenarios } from '../../analysis/compare.js';
import { compareInputs } from '../compare-sides.js';
import { checkOutputFile, writeOutputFile } from '../../present/write/output-file.js';
import { addScenarioOptions, parseFormat, rawScenarioFromArgv } from '../options.js';
import { requireSomethingToCompute } from '../run-plan.js';
import { withRunControls } from '../sim-controls.js';
import { queueOf, withRemote } from '../queue-option.js';
import { addFileOutOptions, addSweepSimOptions, computedFor, simPlanFromArgv } from '../sweep-options.js';
import { terminalSafe } from '../../terminal-safe.js';
import { askedLineOfComparison } from '../../analysis/asked.js';
import { addChartOptions, chartRequestFromArgv, gridLayout, writeChartAndSay } from '../chart-options.js';
import { planChart } from '../../present/write/one-off-chart.js';
import { scenarioDimension, scenariosSweep } from '../../analysis/single.js';
import { outcomeRowsOf, pickedOutcomes } from '../outcome-pick.js';
import { unionOutcomes } from '../../analysis/cells.js';
import { resolveKind } from '../../rules/registry.js';
import { addWideFormatOption, checkWideCumulative, compareGrid, compareSources, formatWithWide, wideText } from '../wide-option.js';

export const compareCommand: CommandModule = {
  command: 'compare <scenario> <versus> [more..]',
  describe: 'Scenarios side by side: per outcome the probabilities, differences and ratios against the first, and a verdict',
  builder: (y) =>
    addWideFormatOption(
      addChartOptions(addFileOutOptions(addSweepSimOptions(
        addScenarioOptions(
          y
            .positional('scenario', { type: 'string', describe: "The scenario the others are compared with: a scenario file, its fields ('armour=reinforced,shield=true'), or a model or weapon of --profiles, --roster or --catalogue" })
            .positional('versus', { type: 'string', describe: 'A scenario, in any of those forms' })
            .positional('more', { type: 'string', array: true, describe: 'More scenarios' }),
        ),
      )), { cumulative: false, force: true }, true),
      comparePresenter,
    )
      .option('exact', { type: 'boolean', describe: 'Compute the exact answers (--no-exact for simulation only)', default: true })
      .option('allow-mixed', { type: 'boolean', describe: 'Compare scenarios of different systems or kinds (refused otherwise: their outcomes answer different questions)', default: false })
      .example('$0 compare examples/reinforced.json examples/standard.json', 'exact differences and verdicts')
      .example('$0 compare examples/reinforced.json examples/standard.json --trials 1e6', 'with simulation: intervals of paired differences')
      .example("$0 compare 'armour=reinforced,shield=true' 'armour=machine' --kind attack --injury-dice 2", 'without files: the shared fields as flags')
      .example("$0 compare 'Shield Bearer' 'Machine Brute' --profiles examples/profiles.json --weapon 'Great Hammer' --kind attack", 'two models of a profiles file'),
  handler: async (argv) => {
    const { format, wide } = formatWithWide(argv, parseFormat(argv.format, comparePresenter, 'compare'));
    const texts = [argv.scenario, argv.versus, ...((argv.more as unknown[] | undefined) ?? [])].map(String);
    const inputs = compareInputs(texts, rawScenarioFromArgv(argv, undefined));
    const queue = queueOf(argv);
    const allowMixed = argv.allowMixed === true;
    // compareScenarios checks this too; here it comes before the run, and so before any note on stderr.
    const parsed = inputs.map((i) => ({ file: i.file, scenario: parseScenario(i.raw, i.file) }));
    checkComparable(parsed, allowMixed);
    const { exact, sim } = computedFor(resolveKind(parsed[0]!.scenario).kind, argv, argv.exact !== false, simPlanFromArgv(argv));
    requireSomethingToCompute(exact, sim, 'compare');
    const inputFiles = [...texts.filter((t) => existsSync(t)), ...inputs.flatMap((i) => namedFiles(i.raw))];
    if (typeof argv.out === 'string') checkOutputFile(argv.out, inputFiles, '--out', argv.force === true);
    // The chart is one bar per scenario (or one outcome's lines), planned before the run. Its subtitle
    // says what every scenario shared: an edition only where they all have it.
    const chartRequest = chartRequestFromArgv(argv);
    const first = parsed[0]!.scenario;
    const outcomes = unionOutcomes(parsed.map((p) => resolveKind(p.scenario).kind.layout(p.scenario).outcomes));
    checkWideCumulative(wide, argv.cumulative === true, gridLayout(parsed.map((p) => p.scenario)));
    const picked = pickedOutcomes(argv, outcomes, `${first.system} ${first.kind}`, format);
    const chart =
      chartRequest &&
      planChart(chartRequest, [scenarioDimension(inputs.map((i) => i.name), 'Scenario')], gridLayout(parsed.map((p) => p.scenario)), askedLineOfComparison(parsed.map((p) => p.scenario), inputs.map((i) => i.name)), inputFiles);
    const result = await withRunControls(({ signal }) =>
      withRemote(queue, (remote) => compareScenarios(inputs, { exact, ...(sim ? { sim } : {}), signal, allowMixed, ...(remote ? { player: remote, solver: remote } : {}) })),
    );
    if (chartRequest && chart) await writeChartAndSay(chartRequest, scenariosSweep(result.scenarios.map((s) => ({ ...s.cell, labels: [s.name] })), 'Scenario'), { ...chart, title: 'Outcomes, scenario by scenario' });
    // --outcome keeps the rows (and verdicts) of the outcomes it names.
    const kept = (rows: typeof result.rows) => rows.filter((row) => picked!.includes(row.outcome));
    const written = comparePresenter[format](picked && format === 'table' ? { ...result, rows: kept(result.rows), cumulativeRows: kept(result.cumulativeRows) } : result);
    const text = wide ? wideText(compareGrid(result), picked, argv.cumulative === true, compareSources(argv.cumulative === true)) : format === 'csv' ? outcomeRowsOf(written, picked, outcomes) : written;
    if (typeof argv.out === 'string') {
      writeOutputFile(argv.out, text, '--out', argv.force === true);
      process.stderr.write(`injury-lab: wrote ${terminalSafe(argv.out)}\n`);
    } else process.stdout.write(text);
  },
};
