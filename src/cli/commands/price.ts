import { setMaxListeners } from 'node:events';
import type { CommandModule } from 'yargs';
import { timeLeft } from '../../text.js';
import { coerceFlagValue, kebab } from '../../input/scenario.js';
import { describeAllowed } from '../../model/field-schema.js';
import { PRICE_FIELDS, PRICE_TEXT_SETTINGS, checkPriceSettings, priceSourceFiles } from '../../pricing/price-settings.js';
import { priceOfSettings } from '../../pricing/price-run.js';
import { pricePresenter } from '../../present/tables/price.js';
import { parseFormat } from '../options.js';
import { addWideFormatOption, formatWithWide, saidWide } from '../wide-option.js';
import { battlePriceWide, priceWide } from '../../present/tables/price-wide.js';
import { exactThreads } from '../../pool/exact.js';
import { addQueueOption, queueOf, withRemote } from '../queue-option.js';
import { withRunControls } from '../sim-controls.js';
import { workersOf, workersOptionDeclaration } from '../sim-options.js';
import { chartRequestFromArgv } from '../chart-options.js';
import { CHART_ENDINGS, type ChartRequest, checkChartFile, writeChartSpec } from '../../present/write/one-off-chart.js';
import { priceChartSpec } from '../../present/chart/price.js';
import { terminalSafe } from '../../terminal-safe.js';
import { LIST_QUOTING, parseQuotedList } from '../../quoted-list.js';
import { battlePriceChartSpec } from '../../present/chart/battle-price.js';
import type { Format } from '../../present/tables/presenter.js';
import type { BattlePriceSettings } from '../../pricing/price-settings.js';
import type { QueueAddress } from '../../queue/shards.js';
import { battlePriceOfSettings } from '../../pricing/battle-price-run.js';
import { battlePricePresenter } from '../../present/tables/battle-price.js';

const REDRAW_MS = 100;
const NO_CONTEXT = { field: '', system: '', edition: '', leftOut: [] };

/**
 * `injury-lab price --profiles FILE` (or --roster, --catalogue): every model of a profiles file with every weapon of one attack
 * type (each model with its loadout, where the file gives one) fights every other in an exact duel; a
 * Bradley-Terry fit rates them, and a rating-against-log-price line gives each its fair price
 * (src/pricing/, docs/pricing.md). Its settings are declared once (src/pricing/price-settings.ts), for
 * these flags and a report's price analysis alike.
 */
export const priceCommand: CommandModule = {
  command: 'price',
  describe: 'Fair prices from exact duels (every model with every weapon of a profiles file against every other, rated and priced), or --by battles from whole battles at equal ducats; the most mispriced first, with why',
  builder: (y) => {
    let withSettings = addQueueOption(y);
    for (const t of PRICE_TEXT_SETTINGS) {
      withSettings = withSettings.option(kebab(t.name), t.switch ? { type: 'boolean', describe: t.description } : { type: 'string', ...(t.files ? { array: true } : {}), describe: `${t.description}${t.list ? `, separated by commas (${LIST_QUOTING})` : ''}` });
    }
    for (const f of PRICE_FIELDS) {
      // No default handed to yargs: a setting is "given" only when typed, so one the chosen --by does not read is refused.
      withSettings = withSettings.option(kebab(f.name), { type: 'string', describe: `${f.description} (${describeAllowed(f.schema)})`, ...(typeof f.default === 'function' ? {} : { defaultDescription: String(f.default) }) });
    }
    return addWideFormatOption(
      withSettings
        .option('workers', workersOptionDeclaration())
        .option('chart', { type: 'string', describe: `Also draw fair against current price (with the diagonal; with --by battles each fair price's interval) and the pairwise matrix as a heat map into this file: ${CHART_ENDINGS.join(', ')} (.vl.json: the Vega-Lite spec; .html: a page that works offline)` })
        .option('force', { type: 'boolean', default: false, describe: 'Replace an existing --chart file' }),
      pricePresenter(NO_CONTEXT),
    )
      .example('$0 price --profiles examples/profiles.json', 'every model with every melee weapon of the example profiles, priced')
      .example('$0 price --profiles examples/profiles.json --chart prices.svg', "the same, drawn: fair against current price, and every pair's share")
      .example('$0 price --catalogue system.gst faction.cat --allow-unmodelled', "a faction's catalogue read straight: every model with each melee weapon of its loadout")
      .example('$0 price --profiles catalogue.json --queue redis://127.0.0.1:6379', "a whole catalogue's duels solved by `injury-lab worker`s")
      .example('$0 price --by battles --catalogue system.gst faction.cat --allow-unmodelled', 'each entry fielded at 700 ducats against every other; its fair price where its warband wins half against the field');
  },
  handler: async (argv) => {
    // --wide is read first: refused with another --format before any duel or battle.
    const { format, wide } = formatWithWide(argv, parseFormat(argv.format, pricePresenter(NO_CONTEXT), 'price'));
    const given: Record<string, unknown> = {};
    for (const t of PRICE_TEXT_SETTINGS) {
      const value = argv[t.name];
      if (value === undefined) continue;
      // A list flag given again comes as an array of texts, each a list of its own ("--where a,b --where c").
      given[t.name] = t.list && Array.isArray(value) ? value.flatMap((text: unknown) => (typeof text === 'string' ? parseQuotedList(text, `--${kebab(t.name)}`) : [text])) : value;
    }
    for (const f of PRICE_FIELDS) if (argv[kebab(f.name)] !== undefined) given[f.name] = coerceFlagValue(f, argv[kebab(f.name)]);
    const settings = checkPriceSettings(given, (name) => `--${kebab(name)}`);
    // The chart's file is checked before any duel: a file that cannot be written costs nothing.
    const chartRequest = chartRequestFromArgv(argv);
    if (chartRequest) checkChartFile(chartRequest, priceSourceFiles(settings));
    if (settings.by === 'battles') {
      await priceByBattlesCommand(settings, format, wide, queueOf(argv), workersOf(argv), chartRequest);
      return;
    }
    // --workers is refused with --queue (queueOf): a queue's hosts choose their own concurrency. Without
    // one, the exact threads solve as many duels at a time as --workers says (default the cores).
    const queue = queueOf(argv);
    const threads = queue === undefined ? { solver: exactThreads, atOnce: workersOf(argv) } : undefined;
    const progress = progressLine((done, total) => `exact duels ${done} / ${total}`);
    // Ctrl-C and SIGTERM as a sweep's: the duels in the threads or the queue abandoned, exit 130 (143), nothing on stdout.
    const priced = await withRunControls(async ({ signal }) => {
      // Every duel in the threads' or the queue's hands listens to the one signal.
      setMaxListeners(0, signal);
      try {
        return await withRemote(queue, (remote) => priceOfSettings(settings, { signal, ...(progress ? { onProgress: progress } : {}), ...(remote ? { solver: remote } : threads) }));
      } finally {
        if (progress) process.stderr.write('\r\x1b[K');
      }
    });
    const { result, ...context } = priced;
    // The chart first: if it cannot be written, nothing has been printed.
    if (chartRequest) {
      const { spec, notes } = priceChartSpec(result, context);
      await writeChartSpec(chartRequest, spec, notes, [`${priced.system} (${priced.edition} edition): fair prices from exact duels, ${priced.field}`]);
      process.stderr.write(`injury-lab: wrote ${terminalSafe(chartRequest.file)}${notes.length ? ` (${notes.map(terminalSafe).join('; ')})` : ''}\n`);
    }
    process.stdout.write(wide ? saidWide(priceWide(result)) : pricePresenter(context)[format](result));
  },
};

/**
 * A run's progress on stderr, one line redrawn in place at most every REDRAW_MS (a faction is tens of
 * thousands of duels or match-ups, each a few milliseconds), and always at the last; none off a terminal.
 */
function progressLine(say: (done: number, total: number, now: number) => string): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let drawnAt = 0;
  return (done, total) => {
    const now = performance.now();
    if (now - drawnAt < REDRAW_MS && done < total) return;
    drawnAt = now;
    process.stderr.write(`\r  ${say(done, total, now)}\x1b[K`);
  };
}

/** `price --by battles`: every match-up played on the threads (or a queue's hosts), the progress and time left on stderr. */
async function priceByBattlesCommand(settings: BattlePriceSettings, format: Format, wide: boolean, queue: QueueAddress | undefined, workers: number, chartRequest: ChartRequest | undefined): Promise<void> {
  const started = performance.now();
  // The search asks for match-ups as it goes: the total is a guess that grows, and so is the time left.
  const progress = progressLine((done, expected, now) => {
    const left = timeLeft(now - started, done, expected);
    return `battles: match-ups ${done} of about ${expected}${left ? `, ${left}` : ''}`;
  });
  const priced = await withRunControls(async ({ signal }) => {
    setMaxListeners(0, signal);
    try {
      return await withRemote(queue, (remote) =>
        battlePriceOfSettings(settings, {
          signal,
          ...(progress ? { onProgress: progress } : {}),
          ...(remote ? { player: remote } : { workers }),
        }),
      );
    } finally {
      if (progress) process.stderr.write('\r\x1b[K');
    }
  });
  const { result, ...context } = priced;
  // The chart first: if it cannot be written, nothing has been printed.
  if (chartRequest) {
    const { spec, notes } = battlePriceChartSpec(result, context);
    await writeChartSpec(chartRequest, spec, notes, [`${priced.system} (${priced.edition} edition): fair prices from battles at ${result.ducats} ducats, ${priced.field}`]);
    process.stderr.write(`injury-lab: wrote ${terminalSafe(chartRequest.file)}${notes.length ? ` (${notes.map(terminalSafe).join('; ')})` : ''}\n`);
  }
  process.stdout.write(wide ? saidWide(battlePriceWide(result)) : battlePricePresenter(context)[format](result));
}
