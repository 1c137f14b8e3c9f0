import type { CommandModule } from 'yargs';
import { evaluateParsed } from '../../evaluate.js';
import { exactPresenter } from '../../present/exact.js';
import { addFormatOption, addScenarioOptions, parseFormat, scenarioFromArgv } from '../options.js';

export const exactCommand: CommandModule = {
  command: 'exact [scenario]',
  describe: 'Exact outcome probabilities of a scenario (a JSON file and/or field flags)',
  builder: (y) =>
    addFormatOption(addScenarioOptions(y.positional('scenario', { type: 'string', describe: 'Scenario JSON file' })), exactPresenter)
      .example('$0 exact --kind injury --injury-dice 1 --armour standard', 'one injury roll, +1 injury dice against Standard Armour')
      .example('$0 exact examples/standard.json --format json', 'a scenario file, as JSON')
      .example('$0 exact --system d20-warband --kind fall --height-inches 5', 'a d20 Warband fall of 5 inches'),
  handler: (argv) => {
    const format = parseFormat(argv.format, exactPresenter, 'exact');
    const scenario = scenarioFromArgv(argv);
    process.stdout.write(exactPresenter[format](evaluateParsed(scenario)));
  },
};
