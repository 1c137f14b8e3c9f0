import type { CommandModule } from 'yargs';
import { scenarioJsonSchema } from '../../input/scenario.js';
import { systemsPresenter } from '../../present/tables/systems.js';
import { systems } from '../../rules/registry.js';
import { addFormatOption, parseFormat } from '../options.js';

export const systemsCommand: CommandModule = {
  command: 'systems',
  describe: 'List the rule systems, editions, kinds and fields with their allowed values',
  builder: (y) => addFormatOption(y, systemsPresenter),
  handler: (argv) => {
    process.stdout.write(systemsPresenter[parseFormat(argv.format, systemsPresenter, 'systems')](systems));
  },
};

export const schemaCommand: CommandModule = {
  command: 'schema',
  describe: 'Print the JSON Schema for scenario files',
  handler: () => {
    process.stdout.write(JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
  },
};
