import type { CommandModule } from 'yargs';
import { coerceFlagValue, kebab } from '../../input/scenario.js';
import { describeAllowed } from '../../model/field-schema.js';
import { BATTLE_SETTING_FIELDS, BATTLE_TEXT_SETTINGS, battleJsonSchema, checkBattleSettings, readBattleFile, resolveBattle, sideSettingName } from '../../input/battle.js';
import { jsonText } from '../../text.js';
import { battlePresenter } from '../../present/tables/battle.js';
import { simulateSource } from '../../pool/simulate.js';
import { battleLayoutOf } from '../../rules/trench-crusade/battle/report.js';
import { battlePlanOf } from '../../rules/trench-crusade/battle/resolved.js';
import { BATTLE_SIDES } from '../../rules/trench-crusade/battle/kind.js';
import { tallyLength } from '../../model/tally.js';
import { addFormatOption, parseFormat } from '../options.js';
import { withRunControls } from '../sim-controls.js';
import { addSimOptions, parseSimFlags } from '../sim-options.js';
import { addQueueOption, queueOf, withRemote } from '../queue-option.js';
import { chartRequestFromArgv } from '../chart-options.js';
import { CHART_ENDINGS, checkChartFile, writeChartSpec } from '../../present/write/one-off-chart.js';
import { battleChartSpec } from '../../present/chart/battle.js';
import { terminalSafe } from '../../terminal-safe.js';
import { refusal } from '../../messages.js';
import { SWAP_VARIANTS, type AttacksRead } from '../../input/battle-core.js';
import { tallyOffsets } from '../../model/tally.js';
import { A_WINS, B_WINS, DRAW } from '../../rules/trench-crusade/battle/report.js';
import { sideShareOf, swapWorth } from '../../pricing/swap-worth.js';
import { swapPresenter } from '../../present/tables/battle-swap.js';

/**
 * `injury-lab battle --profiles FILE --a "..." --b "..."` (or --roster, --catalogue): two warbands fight
 * whole games of Trench Crusade, simulated on the worker threads (issue 50; rulings B1-B49 of
 * docs/rules.md). Its settings are declared once (src/rules/trench-crusade/battle/fields.ts): these
 * flags, their --help and the messages that refuse a value come from there.
 */
export const battleCommand: CommandModule = {
  command: 'battle [file]',
  describe: 'Two warbands fight whole games (Trench Crusade): who wins, with 95% intervals, how, and what each entry does; simulated, seeded',
  builder: (y) => {
    let out = y
      .positional('file', { type: 'string', describe: 'A battle file: one JSON object of the settings below (camelCase keys; `injury-lab battle --schema` its format); a flag given too wins' })
      .option('schema', { type: 'boolean', describe: 'Print the JSON Schema of a battle file and exit' });
    for (const t of BATTLE_TEXT_SETTINGS) {
      out = out.option(kebab(t.name), t.type === 'boolean' ? { type: 'boolean', describe: t.description } : { type: 'string', ...(t.type === 'files' ? { array: true } : {}), describe: t.description });
    }
    for (const [name, f] of BATTLE_SETTING_FIELDS) {
      const side = BATTLE_SIDES.find((s) => name === sideSettingName(s, f.name));
      out = out.option(kebab(name), { type: 'string', describe: `${side ? `Side ${side}: ` : ''}${f.description} (${describeAllowed(f.schema)}; default ${String(f.default)})` });
    }
    out = out
      .option('chart', { type: 'string', describe: `Also draw who wins and each entry's survival, with their intervals, into this file: ${CHART_ENDINGS.join(', ')} (.vl.json: the Vega-Lite spec; .html: a page that works offline)` })
      .option('force', { type: 'boolean', default: false, describe: 'Replace an existing --chart file' });
    return addFormatOption(addQueueOption(addSimOptions(out, { precision: false }), 'Simulation:'), battlePresenter)
      .example('$0 battle my-battle.json --trials 1e6', 'a battle file (injury-lab battle --schema), with more games than it says')
      .example('$0 battle --profiles examples/profiles.json --a "Trooper with Rifle x4" --b "Brute with Maul x2" --trials 1e5', 'four riflemen against two brutes')
      .example('$0 battle --a-roster mine.rosz --catalogue system.gst faction.cat --b "Trench Pilgrim with Bolt-Action Rifle x8"', 'my roster as fielded against entries of their catalogue')
      .example('$0 battle --catalogue system.gst faction.cat --a "Trench Pilgrim with Rifle x6" --b "Castigator with Great Hammer/Maul x2" --b-tactic charge', "a catalogue's entries, b charging")
      .example('$0 battle --a-roster mine.rosz --b-roster mine.rosz --swap "Castigator with Great Hammer/Maul for Trench Pilgrim with Rifle x2"', 'what a Castigator is worth in my warband, in place of two riflemen');
  },
  handler: async (argv) => {
    if (argv.schema === true) {
      process.stdout.write(jsonText(battleJsonSchema()));
      return;
    }
    const format = parseFormat(argv.format, battlePresenter, 'battle');
    // A battle file's settings, then the flags over them: a setting is named as it was given.
    const file = typeof argv.file === 'string' ? argv.file : undefined;
    const given: Record<string, unknown> = file === undefined ? {} : readBattleFile(file);
    const fromFlags = new Set<string>();
    for (const t of BATTLE_TEXT_SETTINGS) {
      if (argv[kebab(t.name)] === undefined) continue;
      given[t.name] = argv[kebab(t.name)];
      fromFlags.add(t.name);
    }
    for (const [name, f] of BATTLE_SETTING_FIELDS) {
      if (argv[kebab(name)] === undefined) continue;
      given[name] = coerceFlagValue(f, argv[kebab(name)]);
      fromFlags.add(name);
    }
    // Everything the user typed is checked, and every name read, before a thread starts.
    const nameOf = (name: string) => (file !== undefined && !fromFlags.has(name) && given[name] !== undefined ? `battle file ${JSON.stringify(file)}: ${name}` : `--${kebab(name)}`);
    const settings = checkBattleSettings(given, nameOf);
    const flags = parseSimFlags(argv);
    // The chart's file is checked before any game: a file that cannot be written costs nothing.
    const chartRequest = chartRequestFromArgv(argv);
    if (chartRequest) checkChartFile(chartRequest, [settings.profiles, settings.roster, ...(settings.catalogue ?? [])].filter((f): f is string => f !== undefined));
    const queue = queueOf(argv);
    if (settings.swap !== undefined) {
      if (chartRequest) throw refusal('--chart', 'draws one battle; --swap plays three', 'allowed: --format table, json or csv with --swap, or no --swap');
      // Every battle read before any is played: a swap that names no entry of side a costs nothing.
      const attacksRead: AttacksRead = new Map();
      const read = SWAP_VARIANTS.map((variant) => resolveBattle(settings, nameOf, variant, attacksRead));
      const shares = await withRunControls(({ signal, onProgress }) =>
        withRemote(queue, async (remote) => {
          const out = [];
          // One progress bar over the three: each battle's trials after the ones before it.
          for (const [k, { battle }] of read.entries()) {
            const layout = battleLayoutOf(battlePlanOf(battle));
            const run = await simulateSource({ type: 'battle', battle }, tallyLength(layout), {
              trials: flags.trials,
              seed: flags.seed,
              workers: flags.workers,
              signal,
              ...(onProgress ? { onProgress: (done: number) => onProgress(k * flags.trials + done, SWAP_VARIANTS.length * flags.trials) } : {}),
              ...(remote ? { player: remote } : {}),
            });
            const at = tallyOffsets(layout).outcomes;
            out.push(sideShareOf({ aWins: run.tally[at + A_WINS]!, bWins: run.tally[at + B_WINS]!, draws: run.tally[at + DRAW]! }));
          }
          return out;
        }),
      );
      const worth = swapWorth(read[0]!.swap!, shares[0]!, shares[1]!, shares[2]!);
      const notes = [...new Set(read.flatMap((r) => r.notes))];
      process.stdout.write(swapPresenter[format]({ worth, battle: read[0]!.battle, seed: flags.seed, notes }));
      return;
    }
    const { battle, notes } = resolveBattle(settings, nameOf);
    const layout = battleLayoutOf(battlePlanOf(battle));
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
