import type { CommandModule } from 'yargs';
import { refusal } from '../../messages.js';
import { readCatalogueProfilesOnce, readRosterProfilesOnce } from '../../input/read-once.js';
import { type Profile, type Profiles } from '../../model/profiles.js';
import { profilesJsonSchema } from '../../input/profiles-file.js';
import { readProfilesFile, readVariantFile } from '../../input/read-files.js';
import { explainPresenter, profilesPresenter } from '../../present/profiles.js';
import { jsonText } from '../../text.js';
import { addFormatOption, parseFormat } from '../options.js';

/**
 * The profiles as a command given --allow-unmodelled uses them (see checkUnmodelled): a token that would
 * stop a command is left out instead, and says so. A profiles file written by hand has none.
 */
function leftOutWhereUnmodelled(profiles: Profiles): Profiles {
  const relaxed = (p: Profile): Profile =>
    p.unmodelled?.some((u) => u.stops) ? { ...p, unmodelled: p.unmodelled.map((u) => (u.stops ? { ...u, stops: false, why: `${u.why}; left out (--allow-unmodelled)` } : u)) } : p;
  const each = (m: ReadonlyMap<string, Profile>) => new Map([...m].map(([name, p]) => [name, relaxed(p)]));
  return { ...profiles, weapons: each(profiles.weapons), models: each(profiles.models) };
}

export const profilesCommand: CommandModule = {
  command: 'profiles [file]',
  describe: 'List the weapons and models of a profiles file or a roster with their costs and fields (--schema: the file format)',
  builder: (y) =>
    addFormatOption(
      y
        .positional('file', { type: 'string', describe: 'A profiles file' })
        .option('roster', { type: 'string', describe: 'A roster exported from NewRecruit (.rosz, .ros or its JSON): what it holds, and what is not modelled' })
        .option('catalogue', { type: 'string', array: true, describe: 'BattleScribe catalogue files (.gst, .cat): everything they offer, each at its faction\'s price' })
        .option('rules', { type: 'string', describe: "A variant file whose keyword table reads the roster or catalogues (default: the edition's)" })
        .option('allow-unmodelled', {
          type: 'boolean',
          describe: 'Show the profiles as commands given --allow-unmodelled use them: what nothing models is left out, with a note, instead of stopping a command',
        })
        .option('explain', { type: 'boolean', describe: 'For each profile, each effect with the item, keyword or sentence it was read from, and what was not read and why' })
        .option('schema', { type: 'boolean', describe: 'Print the JSON Schema for profiles files instead' }),
      profilesPresenter,
    )
      .example('$0 profiles examples/profiles.json', 'the shipped archetypes')
      .example('$0 profiles --roster examples/roster-example.ros', 'what a roster holds, and what is not modelled')
      .example('$0 profiles --roster examples/roster-example.ros --format json', 'the roster as a profiles file to edit and pass back with --profiles')
      .example('$0 profiles --catalogue system.gst faction.cat', "everything a faction's catalogue offers, at its prices")
      .example('$0 profiles --catalogue system.gst faction.cat --explain', 'what each effect was read from, and each sentence not read and why')
      .example('$0 exact --profiles examples/profiles.json --weapon "Great Hammer" --target "Shield Bearer" --kind attack', 'one named matchup'),
  handler: (argv) => {
    if (argv.schema) {
      process.stdout.write(jsonText(profilesJsonSchema()));
      return;
    }
    const format = parseFormat(argv.format, profilesPresenter, 'profiles');
    const sources = [argv.file !== undefined && 'a profiles file', argv.roster !== undefined && '--roster', argv.catalogue !== undefined && '--catalogue'].filter(Boolean);
    if (sources.length > 1) throw refusal('profiles', `give one of a profiles file, --roster FILE and --catalogue FILE..., not ${sources.join(' and ')}`);
    const rules = typeof argv.rules === 'string' ? readVariantFile(argv.rules).table : undefined;
    const shown = (p: Profiles): Profiles => (argv.allowUnmodelled === true ? leftOutWhereUnmodelled(p) : p);
    const presenter = argv.explain === true ? explainPresenter : profilesPresenter;
    if (typeof argv.roster === 'string') {
      process.stdout.write(presenter[format](shown(readRosterProfilesOnce(argv.roster, rules))));
      return;
    }
    if (Array.isArray(argv.catalogue)) {
      process.stdout.write(presenter[format](shown(readCatalogueProfilesOnce(argv.catalogue.map(String), rules))));
      return;
    }
    if (argv.rules !== undefined) throw refusal('--rules', "reads a roster's or catalogue's keywords", 'give it with --roster FILE or --catalogue FILE...');
    if (typeof argv.file !== 'string') throw refusal('profiles', 'name a profiles file (e.g. examples/profiles.json), or give --roster FILE, --catalogue FILE... or --schema');
    process.stdout.write(presenter[format](readProfilesFile(argv.file)));
  },
};
