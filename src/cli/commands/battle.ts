import type { CommandModule } from 'yargs';
import { coerceFlagValue, kebab } from '../../input/scenario.js';
import { describeAllowed } from '../../model/field-schema.js';
import { BATTLE_SETTING_FIELDS, checkBattleSettings, resolveBattle, sideSettingName } from '../../input/battle.js';
import { battlePresenter } from '../../present/tables/battle.js';
import { simulateSource } from '../../pool/simulate.js';
import { battleLayoutOf } from '../../rules/trench-crusade/battle/simulate.js';
import { battlePlanOf } from '../../rules/trench-crusade/battle/resolved.js';
import { BATTLE_SIDES } from '../../rules/trench-crusade/battle/kind.js';
import { tallyLength } from '../../model/tally.js';
import { addFormatOption, parseFormat } from '../options.js';
import { withRunControls } from '../sim-controls.js';
import { addSimOptions, parseSimFlags } from '../sim-options.js';
import { addQueueOption, queueOf, withRemote } from '../queue-option.js';
import { LIST_QUOTING } from '../../quoted-list.js';
import { chartRequestFromArgv } from '../chart-options.js';
import { CHART_ENDINGS, checkChartFile, writeChartSpec } from '../../present/write/one-off-chart.js';
import { battleChartSpec } from '../../present/chart/battle.js';
import { terminalSafe } from '../../terminal-safe.js';

/**
 * `injury-lab battle --profiles FILE --a "..." --b "..."` (or --roster, --catalogue): two warbands fight
 * whole games of Trench Crusade, simulated on the worker threads (issue 50; rulings B1-B45 of
 * docs/rules.md). Its settings are declared once (src/rules/trench-crusade/battle/fields.ts): these
 * flags, their --help and the messages that refuse a value come from there.
 */
export const battleCommand: CommandModule = {
  command: 'battle',
  describe: 'Two warbands fight whole games (Trench Crusade): who wins, with 95% intervals, how, and what each entry does; simulated, seeded',
  builder: (y) => {
    let out = y
      .option('a', { type: 'string', describe: `Side a's warband: entries separated by commas, each "MODEL with WEAPON + WEAPON xCOUNT" of the profiles (${LIST_QUOTING})` })
      .option('b', { type: 'string', describe: "Side b's warband, as --a" })
      .option('a-roster', { type: 'string', describe: 'Or side a is this roster (NewRecruit .rosz, .ros or JSON) as fielded: every model with the kit it holds; the other side\'s entries are read from it too (or from --catalogue files with it)' })
      .option('b-roster', { type: 'string', describe: 'Or side b is this roster as fielded, as --a-roster' })
      .option('profiles', { type: 'string', describe: 'The profiles file the warbands are read from (injury-lab profiles exports one from a roster or catalogue)' })
      .option('roster', { type: 'string', describe: 'Or a roster exported from NewRecruit (.rosz, .ros or its JSON)' })
      .option('catalogue', { type: 'string', array: true, describe: 'Or BattleScribe catalogue files (.gst, .cat): every model they offer with the weapons of its loadout' })
      .option('allow-unmodelled', { type: 'boolean', describe: 'Use entries that hold what nothing models (a weapon\'s unknown keyword): left out, with a warning' })
      .option('edition', { type: 'string', describe: "The edition (default: the system's newest)" });
    for (const [name, f] of BATTLE_SETTING_FIELDS) {
      const side = BATTLE_SIDES.find((s) => name === sideSettingName(s, f.name));
      out = out.option(kebab(name), { type: 'string', describe: `${side ? `Side ${side}: ` : ''}${f.description} (${describeAllowed(f.schema)}; default ${String(f.default)})` });
    }
    out = out
      .option('chart', { type: 'string', describe: `Also draw who wins and each entry's survival, with their intervals, into this file: ${CHART_ENDINGS.join(', ')} (.vl.json: the Vega-Lite spec; .html: a page that works offline)` })
      .option('force', { type: 'boolean', default: false, describe: 'Replace an existing --chart file' });
    return addFormatOption(addQueueOption(addSimOptions(out, { precision: false }), 'Simulation:'), battlePresenter)
      .example('$0 battle --profiles examples/profiles.json --a "Trooper with Rifle x4" --b "Brute with Maul x2" --trials 1e5', 'four riflemen against two brutes')
      .example('$0 battle --a-roster mine.rosz --catalogue system.gst faction.cat --b "Trench Pilgrim with Bolt-Action Rifle x8"', 'my roster as fielded against entries of their catalogue')
      .example('$0 battle --catalogue system.gst faction.cat --a "Trench Pilgrim with Rifle x6" --b "Castigator with Great Hammer/Maul x2" --b-tactic charge', "a catalogue's entries, b charging");
  },
  handler: async (argv) => {
    const format = parseFormat(argv.format, battlePresenter, 'battle');
    const given: Record<string, unknown> = {};
    for (const key of ['a', 'b', 'profiles', 'roster', 'catalogue', 'edition'] as const) if (argv[key] !== undefined) given[key] = argv[key];
    if (argv['allow-unmodelled'] !== undefined) given.allowUnmodelled = argv['allow-unmodelled'];
    if (argv['a-roster'] !== undefined) given.aRoster = argv['a-roster'];
    if (argv['b-roster'] !== undefined) given.bRoster = argv['b-roster'];
    for (const [name, f] of BATTLE_SETTING_FIELDS) if (argv[kebab(name)] !== undefined) given[name] = coerceFlagValue(f, argv[kebab(name)]);
    // Everything the user typed is checked, and every name read, before a thread starts.
    const nameOf = (name: string) => `--${kebab(name)}`;
    const settings = checkBattleSettings(given, nameOf);
    const flags = parseSimFlags(argv);
    // The chart's file is checked before any game: a file that cannot be written costs nothing.
    const chartRequest = chartRequestFromArgv(argv);
    if (chartRequest) checkChartFile(chartRequest, [settings.profiles, settings.roster, ...(settings.catalogue ?? [])].filter((f): f is string => f !== undefined));
    const { battle, notes } = resolveBattle(settings, nameOf);
    const layout = battleLayoutOf(battlePlanOf(battle));
    const queue = queueOf(argv);
    const run = await withRunControls(({ signal, onProgress }) =>
      withRemote(queue, (remote) =>
        simulateSource({ type: 'battle', battle }, tallyLength(layout), { trials: flags.trials, seed: flags.seed, workers: flags.workers, signal, onProgress, ...(remote ? { player: remote } : {}) }),
      ),
    );
    const view = { battle, run: { ...run, layout }, notes };
    // The chart first: if it cannot be written, nothing has been printed.
    if (chartRequest) {
      const { spec, notes: chartNotes } = battleChartSpec(view);
      await writeChartSpec(chartRequest, spec, chartNotes, [`a battle: ${battle.a.label} (a) against ${battle.b.label} (b)`]);
      process.stderr.write(`injury-lab: wrote ${terminalSafe(chartRequest.file)}\n`);
    }
    process.stdout.write(battlePresenter[format](view));
  },
};
