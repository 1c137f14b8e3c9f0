import type { CommandModule } from 'yargs';
import { evaluateParsed } from '../../evaluate.js';
import { checkPresenter } from '../../present/tables/check.js';
import { simulate } from '../../pool/simulate.js';
import { crossCheck } from '../../stats/cross-check.js';
import { addFormatOption, addScenarioOptions, parseFormat, scenarioFromArgv } from '../options.js';
import { requireExactKind } from '../run-plan.js';
import { withRunControls } from '../sim-controls.js';
import { addSimOptions, parseSimFlags } from '../sim-options.js';

/** Exit status when the simulation disagrees with the exact answer (2 stays for usage errors). */
export const DISAGREES_EXIT = 1;

export const checkCommand: CommandModule = {
  command: 'check [scenario]',
  describe: 'Simulate a scenario and test the result against the exact answer (exit 1 if they disagree)',
  builder: (y) =>
    addSimOptions(addFormatOption(addScenarioOptions(y.positional('scenario', { type: 'string', describe: 'Scenario JSON file' })), checkPresenter), {
      precision: false,
    })
      .example('$0 check --kind attack --attack-dice 1 --trials 1e7', 'ten million attacks against the exact distribution')
      .example('$0 check examples/standard.json --seed 7 --format json', 'a scenario file, another seed, as JSON')
      .example('$0 check --system d20-warband --kind turns --turns 3 --defence 8', 'three d20 Warband turns of attacks'),
  handler: async (argv) => {
    const format = parseFormat(argv.format, checkPresenter, 'check');
    // A kind simulated only (a battle) is refused before its warbands are read.
    requireExactKind(argv);
    const scenario = scenarioFromArgv(argv);
    const flags = parseSimFlags(argv);
    const exact = evaluateParsed(scenario);
    const run = await withRunControls(({ signal, onProgress }) =>
      simulate(scenario, { trials: flags.trials, seed: flags.seed, workers: flags.workers, signal, onProgress }),
    );
    const report = crossCheck(exact.answer, run);
    process.stdout.write(checkPresenter[format]({ exact, run, report }));
    // exitCode rather than exit(): stdout may still be draining into a pipe.
    if (!report.passed) process.exitCode = DISAGREES_EXIT;
  },
};
