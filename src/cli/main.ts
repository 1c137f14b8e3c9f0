#!/usr/bin/env node
import yargs, { type Argv, type CommandModule } from 'yargs';
import { UsageError } from '../errors.js';
import { terminalSafe } from '../text.js';
import { systems } from '../rules/registry.js';
import { toolVersion } from '../version.js';
import { cliArgs, declaredOptions, helpWidth, scanArgs } from './args.js';
import { unknownArgumentsMessage } from './did-you-mean.js';
import { fieldReference, fieldReferenceScope, scenarioHelp, scenarioScope, scopeFlags } from './options.js';
/**
 * Commands in the order --help lists them, each loaded only when needed: a run imports its own
 * command's code (the report command's charts, the simulator's pool), not every command's, which keeps
 * each start of the CLI short.
 */
const commandLoaders: readonly [string, () => Promise<CommandModule>][] = [
  ['exact', async () => (await import('./commands/exact.js')).exactCommand],
  ['simulate', async () => (await import('./commands/simulate.js')).simulateCommand],
  ['check', async () => (await import('./commands/check.js')).checkCommand],
  ['sweep', async () => (await import('./commands/sweep.js')).sweepCommand],
  ['solve', async () => (await import('./commands/solve.js')).solveCommand],
  ['compare', async () => (await import('./commands/compare.js')).compareCommand],
  ['report', async () => (await import('./commands/report.js')).reportCommand],
  ['worker', async () => (await import('./commands/worker.js')).workerCommand],
  ['serve', async () => (await import('./commands/serve.js')).serveCommand],
  ['diff', async () => (await import('./commands/diff.js')).diffCommand],
  ['profiles', async () => (await import('./commands/profiles.js')).profilesCommand],
  ['price', async () => (await import('./commands/price.js')).priceCommand],
  ['battle', async () => (await import('./commands/battle.js')).battleCommand],
  ['rules', async () => (await import('./commands/rules.js')).rulesCommand],
  ['systems', async () => (await import('./commands/systems.js')).systemsCommand],
  ['schema', async () => (await import('./commands/systems.js')).schemaCommand],
];

/** The command the first word names; every command when it names none (top-level help, a typo to suggest for). */
async function loadCommands(args: readonly string[]): Promise<CommandModule[]> {
  const first = args.find((a) => !a.startsWith('-'));
  const named = commandLoaders.find(([name]) => name === first);
  return named ? [await named[1]()] : Promise.all(commandLoaders.map(([, load]) => load()));
}

/** A message is a line or two of a terminal; one longer than this echoes a huge value (a list from a file, a pasted text), and is cut. */
const MESSAGE_MOST_CHARS = 2000;

/**
 * User mistakes: one line on stderr, exit 2, never a stack trace. The last line of defence for what a
 * message quotes: yargs names an unknown flag as typed, and a message may hold text not passed through
 * showValue; escaping (not cutting at) a newline keeps the line whole and every control visible.
 */
function failUsage(message: string): never {
  const line = terminalSafe(message);
  const cut = line.length > MESSAGE_MOST_CHARS ? `${line.slice(0, MESSAGE_MOST_CHARS)} ... (${(line.length - MESSAGE_MOST_CHARS).toLocaleString('en-US')} more characters)` : line;
  process.stderr.write(`injury-lab: ${cut}\n`);
  process.exit(2);
}

/** What the running command declared, for the suggestions after an unknown flag. */
let inPlay: { command: string; flags: () => string[] } | undefined;

/**
 * A command whose builder, once its options are declared, reads the command line (yargs' own parser,
 * before yargs parses it for real) for the system and kind it names: its --help names their editions and
 * kinds, --help-fields lists the field flags of that system and kind (all of them, per system, when it
 * names none), and an unknown flag is matched against the command's own flags and those fields.
 */
function scoped(c: CommandModule, args: readonly string[]): CommandModule {
  const name = String(c.command).split(' ')[0]!;
  const positionals = new Set([...String(c.command).matchAll(/[<[]([^\]>.]+)/g)].map((m) => m[1]!));
  return {
    ...c,
    builder: (y) => {
      const built = (typeof c.builder === 'function' ? c.builder(y) : c.builder ? y.options(c.builder) : y) as Argv;
      const declared = declaredOptions(built);
      const scan = scanArgs(args, declared.booleans);
      const fields = new Set(declared.keys.includes('kind') ? scopeFlags({ systems }) : []);
      const scope = () => scenarioScope(scan);
      inPlay = {
        command: name,
        flags: () => [
          ...declared.keys.filter((k) => !positionals.has(k) && !fields.has(k) && !/[A-Z]/.test(k)),
          ...(fields.size > 0 ? scopeFlags(scope()) : []),
        ],
      };
      if (fields.size > 0 && scan.helpFields) {
        // Printed here, as yargs prints --help, before it checks the command line: `compare --help-fields`
        // needs none of compare's scenarios, nor `sweep --help-fields` a --vary.
        process.stdout.write(`${fieldReference(fieldReferenceScope(scan), helpWidth())}\n`);
        process.exit(0);
      }
      return fields.size > 0 && scan.help ? scenarioHelp(built, name, scope(), helpWidth()) : built;
    },
  };
}

/**
 * A reader that stops reading (`injury-lab rules --schema | head`) closes the pipe under the output: the
 * reader has what it wanted, so the run ends quietly, as Unix tools do, and never with a stack trace.
 */
function endQuietlyWhenTheReaderLeaves(): void {
  // Once per process: a test runs main.ts many times in one process (test/helpers/cli-in-process.ts).
  const once = Symbol.for('injury-lab.endQuietlyWhenTheReaderLeaves');
  const stdout = process.stdout as typeof process.stdout & { [once]?: true };
  if (stdout[once]) return;
  stdout[once] = true;
  stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

async function main(): Promise<void> {
  endQuietlyWhenTheReaderLeaves();
  const args = cliArgs();
  let cli = yargs(args)
    .scriptName('injury-lab')
    .usage('$0 <command> [options]\n\nExact and Monte-Carlo answers to what tabletop wargame injury rules do.')
    .version(toolVersion)
    .strict()
    .demandCommand(1, 'name a command; `injury-lab --help` lists them')
    .recommendCommands()
    .wrap(helpWidth())
    .fail((msg, err) => {
      if (err && !(err instanceof UsageError)) throw err;
      const text = err ? err.message : msg;
      // yargs names unknown flags but not the ones meant, nor where to look.
      failUsage(/^Unknown arguments?:/.test(text) ? unknownArgumentsMessage(text, { command: inPlay?.command, flags: inPlay?.flags() ?? [], args }) : text);
    });
  for (const c of await loadCommands(args)) cli = cli.command(scoped(c, args));
  try {
    await cli.parseAsync();
  } catch (e) {
    if (e instanceof UsageError) failUsage(e.message);
    throw e;
  }
}

await main();
