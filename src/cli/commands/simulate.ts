import type { CommandModule } from 'yargs';
import { simulationPresenter } from '../../present/simulation.js';
import { simulate, simulateToPrecision } from '../../pool/simulate.js';
import { addFormatOption, addScenarioOptions, parseFormat, scenarioFromArgv } from '../options.js';
import { withRunControls } from '../sim-controls.js';
import { addSimOptions, parseSimFlags } from '../sim-options.js';
import { addChartOptions, planOneScenarioChart, writeChartAndSay } from '../chart-options.js';
import { refusal } from '../../messages.js';
import { parseQueueUrl, type QueueAddress } from '../../queue/shards.js';
import { scenarioCell, scenariosSweep } from '../../analysis/single.js';

/** --queue, checked; refused with --workers (a queue's workers choose their own --concurrency) and --precision (not yet through a queue). */
function queueOf(argv: Record<string, unknown>): QueueAddress | undefined {
  if (argv.queue === undefined) return undefined;
  if (Array.isArray(argv.queue)) throw refusal('--queue', 'given more than once', 'give it once');
  const address = parseQueueUrl(argv.queue);
  if (argv.workers !== undefined) throw refusal('--workers', 'does not go with --queue', 'the run is played by `injury-lab worker` processes, each with its own --concurrency');
  if (argv.precision !== undefined) throw refusal('--precision', 'does not go with --queue yet', 'give --trials');
  return address;
}

function sayNoWorkers(address: QueueAddress): void {
  process.stderr.write(`injury-lab: no worker is taking shards from ${address.shown} yet; the run waits for one (\`injury-lab worker --queue redis://${address.shown}\`)\n`);
}

/** The queue's code (BullMQ, ioredis) is loaded only by a run that uses it. */
async function simulateOnQueueLoaded(...args: Parameters<typeof import('../../queue/submit.js').simulateOnQueue>) {
  return (await import('../../queue/submit.js')).simulateOnQueue(...args);
}

export const simulateCommand: CommandModule = {
  command: 'simulate [scenario]',
  describe: 'Monte-Carlo estimate of a scenario, with 95% intervals (seeded: the same on any number of workers)',
  builder: (y) =>
    addChartOptions(
      addSimOptions(
        addFormatOption(addScenarioOptions(y.positional('scenario', { type: 'string', describe: 'Scenario JSON file' })), simulationPresenter),
        { precision: true },
      ),
      { cumulative: false, force: false },
    )
      .example('$0 simulate --kind injury --injury-dice 2 --trials 1e7 --seed 42', 'ten million injury rolls with +2 injury dice')
      .example('$0 simulate examples/standard.json --precision 0.0005 --format json', 'until every interval is within +-0.05%')
      .option('queue', {
        type: 'string',
        describe: 'Play the run on `injury-lab worker`s of a Redis server, redis://[:PASSWORD@]HOST[:PORT][/DB]: the same numbers as a local run',
        group: 'Simulation:',
      })
      .example('$0 simulate --system d20-warband --kind attack --attacks 2 --defence 8 --seed 7', 'two d20 Warband attacks against Def 8, another seed'),
  handler: async (argv) => {
    // Everything the user typed is checked before a thread starts.
    const format = parseFormat(argv.format, simulationPresenter, 'simulate');
    const scenario = scenarioFromArgv(argv);
    const flags = parseSimFlags(argv);
    const chart = planOneScenarioChart(argv, scenario);
    const queue = queueOf(argv);
    const run = await withRunControls(({ signal, onProgress }) =>
      queue !== undefined
        ? simulateOnQueueLoaded(scenario, { trials: flags.trials, seed: flags.seed, address: queue, signal, onProgress, onNoWorkers: () => sayNoWorkers(queue) })
        : flags.precision !== undefined
        ? simulateToPrecision(scenario, { precision: flags.precision, maxTrials: flags.maxTrials, seed: flags.seed, workers: flags.workers, signal, onProgress })
        : simulate(scenario, { trials: flags.trials, seed: flags.seed, workers: flags.workers, signal, onProgress }),
    );
    if (chart) await writeChartAndSay(chart.request, scenariosSweep([scenarioCell(scenario, chart.label, { run })], chart.title), chart.def);
    process.stdout.write(simulationPresenter[format]({ run, ...(flags.precision !== undefined ? { precision: flags.precision } : {}) }));
  },
};
