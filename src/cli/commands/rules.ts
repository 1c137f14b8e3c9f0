import type { CommandModule } from 'yargs';
import { UsageError, listAllowed, showValue } from '../../errors.js';
import { ruleListing } from '../../model/rule-table.js';
import { rulesPresenter } from '../../present/rules.js';
import { findSystem, systems } from '../../rules/registry.js';
import { addFormatOption, parseFormat } from '../options.js';

const DEFAULT_SYSTEM = systems[0]!.id;

export const rulesCommand: CommandModule = {
  command: 'rules',
  describe: "Print an edition's rule table: every number the engines use, what it means, and the sentence it comes from",
  builder: (y) =>
    addFormatOption(
      y
        .option('system', { type: 'string', describe: `Rule system: ${listAllowed(systems.map((s) => s.id))}`, default: DEFAULT_SYSTEM })
        .option('edition', { type: 'string', describe: "Edition (default: the system's newest)" }),
      rulesPresenter,
    ).example('$0 rules --edition playtest', 'the playtest Injury Chart as data'),
  handler: (argv) => {
    const format = parseFormat(argv.format, rulesPresenter, 'rules');
    const system = typeof argv.system === 'string' ? findSystem(argv.system) : undefined;
    if (!system) throw new UsageError(`--system: ${showValue(argv.system)} is not a known system; allowed: ${listAllowed(systems.map((s) => s.id))}`);
    const editionId = argv.edition ?? system.defaultEdition;
    const edition = system.editions.find((e) => e.id === editionId);
    if (!edition) {
      throw new UsageError(`--edition: ${showValue(argv.edition)} is not an edition of ${system.id}; allowed: ${listAllowed(system.editions.map((e) => e.id))}`);
    }
    process.stdout.write(rulesPresenter[format](ruleListing(system, edition)));
  },
};
