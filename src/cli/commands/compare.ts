import type { CommandModule } from 'yargs';
import { namedFiles, parseScenario, readScenarioFile } from '../../input/scenario.js';
import { comparePresenter } from '../../present/compare.js';
import { checkComparable, compareScenarios, scenarioName } from '../../analysis/compare.js';
import { checkOutputFile, writeOutputFile } from '../../present/output-folder.js';
import { addFormatOption, parseFormat } from '../options.js';
import { requireSomethingToCompute } from '../run-plan.js';
import { withRunControls } from '../sim-controls.js';
import { addFileOutOptions, addSweepSimOptions, simPlanFromArgv } from '../sweep-options.js';
import { terminalSafe } from '../../terminal-safe.js';
import { addChartOptions, chartRequestFromArgv, gridLayout, writeChartAndSay } from '../chart-options.js';
import { planChart } from '../../present/one-off-chart.js';
import { scenarioDimension, scenariosSweep } from '../../analysis/single.js';

export const compareCommand: CommandModule = {
  command: 'compare <a> <b> [more..]',
  describe: 'Scenarios side by side: per outcome the probabilities, differences and ratios against the first, and a verdict',
  builder: (y) =>
    addFormatOption(
      addChartOptions(addFileOutOptions(addSweepSimOptions(
        y
          .positional('a', { type: 'string', describe: 'The scenario file the others are compared with' })
          .positional('b', { type: 'string', describe: 'A scenario file' })
          .positional('more', { type: 'string', array: true, describe: 'More scenario files' }),
      )), { cumulative: false, force: true }),
      comparePresenter,
    )
      .option('exact', { type: 'boolean', describe: 'Compute the exact answers (--no-exact for simulation only)', default: true })
      .option('rules', { type: 'string', describe: "A variant file: every scenario under its rules (replacing the files' own)" })
      .example('$0 compare examples/reinforced.json examples/standard.json', 'exact differences and verdicts')
      .example('$0 compare examples/reinforced.json examples/standard.json --trials 1e6', 'with simulation: intervals of paired differences'),
  handler: async (argv) => {
    const format = parseFormat(argv.format, comparePresenter, 'compare');
    const files = [argv.a, argv.b, ...((argv.more as unknown[] | undefined) ?? [])].map(String);
    const inputs = files.map((file) => {
      const raw = { ...readScenarioFile(file), ...(typeof argv.rules === 'string' ? { rules: argv.rules } : {}) };
      return { name: scenarioName(raw, file), file, raw };
    });
    const names = new Set(inputs.map((i) => i.name));
    // Two files of one name in different folders: tell them apart by path.
    if (names.size < inputs.length) for (const i of inputs) (i as { name: string }).name = i.file;
    const sim = simPlanFromArgv(argv);
    requireSomethingToCompute(argv.exact !== false, sim, 'compare');
    // compareScenarios checks this too; here it comes before the run, and so before any note on stderr.
    const parsed = inputs.map((i) => ({ file: i.file, scenario: parseScenario(i.raw, i.file) }));
    checkComparable(parsed);
    const inputFiles = [...files, ...inputs.flatMap((i) => namedFiles(i.raw))];
    if (typeof argv.out === 'string') checkOutputFile(argv.out, inputFiles, '--out', argv.force === true);
    // The chart is one bar per scenario (or one outcome's lines), planned before the run.
    const chartRequest = chartRequestFromArgv(argv);
    const first = parsed[0]!.scenario;
    const chart =
      chartRequest &&
      planChart(chartRequest, [scenarioDimension(inputs.map((i) => i.name), 'Scenario')], gridLayout(parsed.map((p) => p.scenario)), `${first.system} (${first.edition} edition), ${first.kind}: ${inputs.map((i) => i.name).join(' against ')}`, inputFiles);
    const result = await withRunControls(({ signal }) => compareScenarios(inputs, { exact: argv.exact !== false, ...(sim ? { sim } : {}), signal }));
    if (chartRequest && chart) await writeChartAndSay(chartRequest, scenariosSweep(result.scenarios.map((s) => ({ ...s.cell, labels: [s.name] })), 'Scenario'), { ...chart, title: 'Outcomes, scenario by scenario' });
    const text = comparePresenter[format](result);
    if (typeof argv.out === 'string') {
      writeOutputFile(argv.out, text, '--out', argv.force === true);
      process.stderr.write(`injury-lab: wrote ${terminalSafe(argv.out)}\n`);
    } else process.stdout.write(text);
  },
};
