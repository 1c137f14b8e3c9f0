import type { CommandModule } from 'yargs';
import { simulationPresenter } from '../../present/tables/simulation.js';
import { simulate, simulateToPrecision } from '../../pool/simulate.js';
import { addFormatOption, addScenarioOptions, parseFormat, scenarioFromArgv } from '../options.js';
import { withRunControls } from '../sim-controls.js';
import { addSimOptions, parseSimFlags } from '../sim-options.js';
import { addChartOptions, planOneScenarioChart, writeChartAndSay } from '../chart-options.js';
import { scenarioCell, scenariosSweep } from '../../analysis/single.js';
import { addQueueOption, queueOf, withRemote } from '../queue-option.js';
import { outcomeRowsOf, pickedOutcomes } from '../outcome-pick.js';
import { resolveKind } from '../../rules/registry.js';

export const simulateCommand: CommandModule = {
  command: 'simulate [scenario]',
  describe: 'Monte-Carlo estimate of a scenario, with 95% intervals (seeded: the same on any number of workers)',
  builder: (y) =>
    addChartOptions(
      addQueueOption(addSimOptions(
        addFormatOption(addScenarioOptions(y.positional('scenario', { type: 'string', describe: 'Scenario JSON file' })), simulationPresenter),
        { precision: true },
      ), 'Simulation:'),
      { cumulative: false, force: false },
    )
      .example('$0 simulate --kind injury --injury-dice 2 --trials 1e7 --seed 42', 'ten million injury rolls with +2 injury dice')
      .example('$0 simulate examples/standard.json --precision 0.0005 --format json', 'until every interval is within +-0.05%')
      .example('$0 simulate --system d20-warband --kind attack --attacks 2 --defence 8 --seed 7', 'two d20 Warband attacks against Def 8, another seed'),
  handler: async (argv) => {
    // Everything the user typed is checked before a thread starts.
    const format = parseFormat(argv.format, simulationPresenter, 'simulate');
    const scenario = scenarioFromArgv(argv);
    const flags = parseSimFlags(argv);
    const picked = pickedOutcomes(argv, resolveKind(scenario).kind.layout(scenario).outcomes, `${scenario.system} ${scenario.kind}`, format);
    const chart = planOneScenarioChart(argv, scenario);
    const queue = queueOf(argv);
    const run = await withRunControls(({ signal, onProgress }) =>
      withRemote(queue, (remote) => {
        const where = { workers: flags.workers, signal, onProgress, ...(remote ? { player: remote } : {}) };
        return flags.precision !== undefined
          ? simulateToPrecision(scenario, { precision: flags.precision, maxTrials: flags.maxTrials, seed: flags.seed, ...where })
          : simulate(scenario, { trials: flags.trials, seed: flags.seed, ...where });
      }),
    );
    if (chart) await writeChartAndSay(chart.request, scenariosSweep([scenarioCell(scenario, chart.label, { run })], chart.title), chart.def);
    const text = simulationPresenter[format]({ run, ...(flags.precision !== undefined ? { precision: flags.precision } : {}), ...(picked && format === 'table' ? { picked } : {}) });
    process.stdout.write(format === 'csv' ? outcomeRowsOf(text, picked, run.layout.outcomes) : text);
  },
};
