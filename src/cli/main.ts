#!/usr/bin/env node
import yargs, { type CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { UsageError } from '../errors.js';
import { toolVersion } from '../project.js';
import { exactCommand } from './commands/exact.js';
import { schemaCommand, systemsCommand } from './commands/systems.js';
import { demoCommand } from './commands/demo.js';

const commands: CommandModule[] = [exactCommand, systemsCommand, schemaCommand, demoCommand];

/** User mistakes: one line on stderr, exit 2, never a stack trace. */
function failUsage(message: string): never {
  process.stderr.write(`injury-lab: ${message.split('\n')[0]}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let cli = yargs(hideBin(process.argv))
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
