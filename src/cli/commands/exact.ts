import type { CommandModule } from 'yargs';
import { evaluateParsed } from '../../evaluate.js';
import { exactPresenter } from '../../present/tables/exact.js';
import { addFormatOption, addScenarioOptions, parseFormat, scenarioFromArgv } from '../options.js';
import { requireExactKind } from '../run-plan.js';
import { addChartOptions, planOneScenarioChart, writeChartAndSay } from '../chart-options.js';
import { scenarioCell, scenariosSweep } from '../../analysis/single.js';
import { addDigitsOption, digitsFromArgv } from '../digits-option.js';
import { outcomeRowsOf, pickedOutcomes } from '../outcome-pick.js';
import { resolveKind } from '../../rules/registry.js';

export const exactCommand: CommandModule = {
  command: 'exact [scenario]',
  describe: 'Exact outcome probabilities of a scenario (a JSON file and/or field flags)',
  builder: (y) =>
    addDigitsOption(addChartOptions(addFormatOption(addScenarioOptions(y.positional('scenario', { type: 'string', describe: 'Scenario JSON file' })), exactPresenter), { cumulative: false, force: false }))
      .example('$0 exact --kind injury --injury-dice 1 --armour standard', 'one injury roll, +1 injury dice against Standard Armour')
      .example('$0 exact examples/standard.json --format json', 'a scenario file, as JSON')
      .example('$0 exact --system d20-warband --kind fall --height-inches 5', 'a d20 Warband fall of 5 inches')
      .example('$0 exact --kind attack --armour reinforced --injury-dice 1 --chart attack.png', 'and its outcomes as a chart'),
  handler: async (argv) => {
    const format = parseFormat(argv.format, exactPresenter, 'exact');
    // A kind simulated only (a battle) is refused before its warbands are read.
    requireExactKind(argv);
    const scenario = scenarioFromArgv(argv);
    const digits = digitsFromArgv(argv);
    const picked = pickedOutcomes(argv, resolveKind(scenario).kind.layout(scenario).outcomes, `${scenario.system} ${scenario.kind}`, format);
    const chart = planOneScenarioChart(argv, scenario);
    const result = evaluateParsed(scenario);
    if (chart) await writeChartAndSay(chart.request, scenariosSweep([scenarioCell(scenario, chart.label, { exact: result })], chart.title), chart.def);
    const text = exactPresenter[format]({ ...result, ...(digits !== undefined ? { digits } : {}), ...(picked && format === 'table' ? { picked } : {}) });
    process.stdout.write(format === 'csv' ? outcomeRowsOf(text, picked, result.layout.outcomes) : text);
  },
};
