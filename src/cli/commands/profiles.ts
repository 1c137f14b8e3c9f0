import type { CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { profilesJsonSchema, readProfilesFile } from '../../model/profiles.js';
import { profilesPresenter } from '../../present/profiles.js';
import { jsonText } from '../../present/text.js';
import { addFormatOption, parseFormat } from '../options.js';

export const profilesCommand: CommandModule = {
  command: 'profiles [file]',
  describe: 'List the weapons and models of a profiles file with their costs and fields (--schema: the file format)',
  builder: (y) =>
    addFormatOption(
      y.positional('file', { type: 'string', describe: 'A profiles file' }).option('schema', { type: 'boolean', describe: 'Print the JSON Schema for profiles files instead' }),
      profilesPresenter,
    )
      .example('$0 profiles examples/profiles.json', 'the shipped archetypes')
      .example('$0 exact --profiles examples/profiles.json --weapon "Great Hammer" --target "Shield Bearer" --kind attack', 'one named matchup'),
  handler: (argv) => {
    if (argv.schema) {
      process.stdout.write(jsonText(profilesJsonSchema()));
      return;
    }
    const format = parseFormat(argv.format, profilesPresenter, 'profiles');
    if (typeof argv.file !== 'string') throw new UsageError('profiles: name a profiles file (e.g. examples/profiles.json), or give --schema');
    process.stdout.write(profilesPresenter[format](readProfilesFile(argv.file)));
  },
};
