import type { CommandModule } from 'yargs';
import { notAllowed, notOneOf } from '../../messages.js';
import { readProfilesFile } from '../../input/read-files.js';
import { fieldFromProfiles } from '../../pricing/field.js';
import { priceField } from '../../pricing/price.js';
import { DEFAULT_PRICE_LINE, PRICE_LINES, type PriceLine } from '../../pricing/fair-price.js';
import { pricePresenter } from '../../present/price.js';
import { addFormatOption, parseFormat } from '../options.js';
import { chartRequestFromArgv } from '../chart-options.js';
import { CHART_ENDINGS, checkChartFile, writeChartSpec } from '../../present/one-off-chart.js';
import { priceChartSpec } from '../../present/price-chart.js';
import { terminalSafe } from '../../terminal-safe.js';

const ATTACK_TYPES = ['melee', 'ranged'] as const;
const POLICIES = ['none', 'injury', 'hinder', 'optimal'] as const;

/**
 * `injury-lab price --profiles FILE`: every model of a profiles file with every weapon of one attack
 * type fights every other in an exact duel; a Bradley-Terry fit rates them, and a rating-against-log-price
 * line gives each its fair price (src/pricing/price.ts, docs/pricing.md).
 */
export const priceCommand: CommandModule = {
  command: 'price',
  describe: 'Fair prices from exact duels: every model with every weapon of a profiles file against every other, rated (Bradley-Terry) and priced; the most mispriced first, with why',
  builder: (y) =>
    addFormatOption(
      y
        .option('profiles', { type: 'string', demandOption: true, describe: 'The profiles file whose models and weapons make the field (injury-lab profiles exports one from a roster or catalogue)' })
        .option('models', { type: 'string', describe: 'Only these models, by name, separated by commas (default: every model of the file)' })
        .option('weapons', { type: 'string', describe: 'Only these weapons, by name, separated by commas (default: every weapon of the attack type)' })
        .option('attack-type', { type: 'string', default: 'melee', describe: `The weapons taken: ${ATTACK_TYPES.join(', ')}` })
        .option('rounds', { type: 'number', default: 10, describe: 'Rounds of each duel; a duel still on after them is undecided (half a win each)' })
        .option('policy', { type: 'string', default: 'none', describe: `What both sides do with blood markers: ${POLICIES.join(', ')}` })
        .option('edition', { type: 'string', describe: "The edition (default: the system's newest)" })
        .option('anchor', { type: 'string', describe: 'An entry whose price is fair by definition: the price line goes through it' })
        .option('line', { type: 'string', default: DEFAULT_PRICE_LINE, describe: `How the line of rating against ln(price) is fitted: ${PRICE_LINES.join(', ')} (medians: the mispriced entries being judged do not tilt it; least squares: every entry pulls on it)` })
        .option('tolerance', { type: 'number', default: 5, describe: 'Percent of its price an entry may be from fair and still be called fair' })
        .option('prior', { type: 'number', default: 0, describe: 'Virtual tied games per pair in the fit: lets a field with an unbeatable entry be rated (0: the duels alone)' })
        .option('chart', { type: 'string', describe: `Also draw fair against current price (with the diagonal) and the pairwise matrix as a heat map into this file: ${CHART_ENDINGS.join(', ')} (.vl.json: the Vega-Lite spec; .html: a page that works offline)` })
        .option('force', { type: 'boolean', default: false, describe: 'Replace an existing --chart file' }),
      pricePresenter({ field: '', system: '', edition: '', leftOut: [] }),
    )
      .example('$0 price --profiles examples/profiles.json', 'every model with every melee weapon of the example profiles, priced')
      .example('$0 price --profiles examples/profiles.json --chart prices.svg', 'the same, drawn: fair against current price, and every pair\'s share'),
  handler: async (argv) => {
    const format = parseFormat(argv.format, pricePresenter({ field: '', system: '', edition: '', leftOut: [] }), 'price');
    const attackType = argv['attack-type'];
    if (!(ATTACK_TYPES as readonly unknown[]).includes(attackType)) throw notOneOf('--attack-type', attackType, 'an attack type', ATTACK_TYPES);
    const policy = argv.policy;
    if (!(POLICIES as readonly unknown[]).includes(policy)) throw notOneOf('--policy', policy, 'a blood-marker policy', POLICIES);
    const rounds = argv.rounds;
    if (typeof rounds !== 'number' || !Number.isInteger(rounds) || rounds < 1) throw notAllowed('--rounds', rounds, 'a whole number from 1');
    const line = argv.line;
    if (!(PRICE_LINES as readonly unknown[]).includes(line)) throw notOneOf('--line', line, 'a way to fit the price line', PRICE_LINES);
    const tolerance = argv.tolerance;
    if (typeof tolerance !== 'number' || !(tolerance >= 0)) throw notAllowed('--tolerance', tolerance, 'a percentage, 0 or more');
    const prior = argv.prior;
    if (typeof prior !== 'number' || !(prior >= 0)) throw notAllowed('--prior', prior, 'a number of games, 0 or more');
    const path = String(argv.profiles);
    // The chart's file is checked before any duel: a file that cannot be written costs nothing.
    const chartRequest = chartRequestFromArgv(argv);
    if (chartRequest) checkChartFile(chartRequest, [path]);
    const profiles = readProfilesFile(path);
    const names = (flag: unknown) => (typeof flag === 'string' ? flag.split(',').map((n) => n.trim()).filter((n) => n !== '') : undefined);
    const models = names(argv.models);
    const weapons = names(argv.weapons);
    const field = fieldFromProfiles(profiles, { attackType: attackType as string, ...(models ? { models } : {}), ...(weapons ? { weapons } : {}) });
    const progress = process.stderr.isTTY ? (done: number, total: number) => process.stderr.write(`\r  exact duels ${done} / ${total}\x1b[K`) : undefined;
    const result = priceField(field, {
      base: { system: profiles.system.id, profiles: path, ...(typeof argv.edition === 'string' ? { edition: argv.edition } : {}) },
      rounds,
      policy: policy as string,
      tolerancePercent: tolerance,
      line: line as PriceLine,
      prior,
      ...(typeof argv.anchor === 'string' ? { anchor: argv.anchor } : {}),
      ...(progress ? { onProgress: progress } : {}),
    });
    if (progress) process.stderr.write('\r\x1b[K');
    const narrowed = models || weapons ? ` (${[models ? `models: ${models.join(', ')}` : '', weapons ? `weapons: ${weapons.join(', ')}` : ''].filter(Boolean).join('; ')})` : '';
    // What each profile could not model, as the profiles file says it (a catalogue's or roster's export
    // writes "not modelled: ..." into the description): every duel leaves it out.
    const used = new Set(field.flatMap((e) => [String(e.side.model), String(e.side.weapon)]));
    const leftOut = [...profiles.models.values(), ...profiles.weapons.values()]
      .filter((p) => used.has(p.name) && p.description !== undefined && /not modelled/i.test(p.description))
      .map((p) => ({ name: p.name, note: p.description! }));
    const context = { leftOut, field: `every model with every ${attackType} weapon of ${path}${narrowed}`, system: String(result.matrix.scenario.system), edition: String(result.matrix.scenario.edition) };
    // The chart first: if it cannot be written, nothing has been printed.
    if (chartRequest) {
      const { spec, notes } = priceChartSpec(result, context);
      await writeChartSpec(chartRequest, spec, notes, [`${context.system} (${context.edition} edition): fair prices from exact duels, ${context.field}`]);
      process.stderr.write(`injury-lab: wrote ${terminalSafe(chartRequest.file)}${notes.length ? ` (${notes.map(terminalSafe).join('; ')})` : ''}\n`);
    }
    process.stdout.write(pricePresenter(context)[format](result));
  },
};
