#!/usr/bin/env node
import yargs, { type CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { UsageError } from '../errors.js';
import { toolVersion } from '../project.js';
import { exactCommand } from './commands/exact.js';
import { schemaCommand, systemsCommand } from './commands/systems.js';
import { sweepCommand } from './commands/sweep.js';
import { reportCommand } from './commands/report.js';
import { compareCommand } from './commands/compare.js';
import { simulateCommand } from './commands/simulate.js';
import { checkCommand } from './commands/check.js';

const commands: CommandModule[] = [
  exactCommand,
  simulateCommand,
  checkCommand,
  sweepCommand,
  compareCommand,
  reportCommand,
  systemsCommand,
  schemaCommand,
];

/** User mistakes: one line on stderr, exit 2, never a stack trace. */
function failUsage(message: string): never {
  process.stderr.write(`injury-lab: ${message.split('\n')[0]}\n`);
  process.exit(2);
}

/**
 * A lone "-" is a value for the flag before it (`--defence -`, the d20 "no Defence" stat); yargs would
 * otherwise read it as a positional argument.
 */
function dashAsValue(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--') && !a.includes('=') && args[i + 1] === '-') {
      out.push(`${a}=-`);
      i++;
    } else out.push(a);
  }
  return out;
}

async function main(): Promise<void> {
  let cli = yargs(dashAsValue(hideBin(process.argv)))
    .scriptName('injury-lab')
    .usage('$0 <command> [options]\n\nExact and Monte-Carlo answers to what tabletop wargame injury rules do.')
    .version(toolVersion)
    .strict()
    .demandCommand(1, 'name a command; `injury-lab --help` lists them')
    .recommendCommands()
    .wrap(Math.min(120, process.stdout.columns ?? 100))
    .fail((msg, err) => {
      if (err && !(err instanceof UsageError)) throw err;
      const text = err ? err.message : msg;
      // yargs names unknown flags but not where to look; point at the command's help.
      failUsage(/^Unknown arguments?:/.test(text) ? `${text} (\`injury-lab <command> --help\` lists the options)` : text);
    });
  for (const c of commands) cli = cli.command(c);
  try {
    await cli.parseAsync();
  } catch (e) {
    if (e instanceof UsageError) failUsage(e.message);
    throw e;
  }
}

await main();
