import type { CommandModule } from 'yargs';
import { listAllowed, showValue } from '../../errors.js';
import { notOneOf, refusal } from '../../messages.js';
import { ruleListing } from '../../model/rule-table.js';
import { rulesPresenter } from '../../present/tables/rules.js';
import { DEFAULT_SYSTEM, findSystem, systems } from '../../rules/registry.js';
import { readVariantFile } from '../../input/read-files.js';
import { variantJsonSchema } from '../../input/variant.js';
import { jsonText } from '../../text.js';
import { addFormatOption, parseFormat } from '../options.js';


export const rulesCommand: CommandModule = {
  command: 'rules',
  describe: "Print an edition's rule table: every number the engines use, what it means, and the sentence it comes from",
  builder: (y) =>
    addFormatOption(
      y
        .option('system', { type: 'string', describe: `Rule system: ${listAllowed(systems.map((s) => s.id))} (default: ${DEFAULT_SYSTEM}, or the variant's)` })
        .option('edition', { type: 'string', describe: "Edition (default: the system's newest)" })
        .option('rules', { type: 'string', describe: 'A variant file: list its table, its changes marked' })
        .option('schema', { type: 'boolean', describe: 'Print the JSON Schema for variant files instead' }),
      rulesPresenter,
    )
      .example('$0 rules --edition playtest', 'the playtest Injury Chart as data')
      .example('$0 rules --rules reports/variants/late-down.json', 'a variant: its table, the changed rules marked')
      .example('$0 rules --schema > variant.schema.json', 'the format of variant files'),
  handler: (argv) => {
    if (argv.schema) {
      process.stdout.write(jsonText(variantJsonSchema()));
      return;
    }
    const format = parseFormat(argv.format, rulesPresenter, 'rules');
    if (typeof argv.rules === 'string') {
      const variant = readVariantFile(argv.rules);
      for (const [flag, given, own] of [['--system', argv.system, variant.system.id], ['--edition', argv.edition, variant.edition]] as const) {
        if (given !== undefined && given !== own) {
          throw refusal(flag, `${showValue(given)} is not the ${flag.slice(2)} of variant file ${showValue(argv.rules)}`, `allowed: ${showValue(own)}, or leave ${flag} out`);
        }
      }
      const edition = variant.system.editions.find((e) => e.id === variant.edition)!;
      process.stdout.write(rulesPresenter[format](ruleListing(variant.system, edition, variant)));
      return;
    }
    const systemId = argv.system ?? DEFAULT_SYSTEM;
    const system = typeof systemId === 'string' ? findSystem(systemId) : undefined;
    if (!system) throw notOneOf('--system', argv.system, 'a known system', systems.map((s) => s.id));
    const editionId = argv.edition ?? system.defaultEdition;
    const edition = system.editions.find((e) => e.id === editionId);
    if (!edition) {
      throw notOneOf('--edition', argv.edition, `an edition of ${system.id}`, system.editions.map((e) => e.id));
    }
    process.stdout.write(rulesPresenter[format](ruleListing(system, edition)));
  },
};
