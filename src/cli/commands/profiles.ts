import type { CommandModule } from 'yargs';
import { notOneOf, refusal } from '../../messages.js';
import { readCatalogueProfilesOnce, readRosterProfilesOnce } from '../../input/read-once.js';
import { type LeftOutKind, type Profile, type Profiles } from '../../model/profiles.js';
import { profilesJsonSchema } from '../../input/profiles-file.js';
import { readProfilesFile, readVariantFile } from '../../input/read-files.js';
import { explainJson, explainPresenter, profilesPresenter } from '../../present/tables/profiles.js';
import { LEFT_OUT_KINDS, STOP_CAUSES, leftOutJson, leftOutTable, profileTotals, stoppingJson, stoppingTable, totalsJson, totalsTable, type StopCause } from '../../present/tables/profile-totals.js';
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

/** A word as a POSIX shell reads it back: as is where it is safe, else in single quotes. */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/**
 * `--stopping [CAUSE]` or `--left-out [KIND]` as given: undefined where absent, 'all' where given bare,
 * else one of the keys the summary prints, or one line naming the flag and what is allowed.
 */
function listingChoice<K extends string>(flag: string, value: unknown, what: string, keys: readonly K[]): K | 'all' | undefined {
  if (value === undefined) return undefined;
  if (value === '') return 'all';
  if (typeof value === 'string' && (keys as readonly string[]).includes(value)) return value as K;
  throw notOneOf(flag, value, what, ['(nothing: all of them)', ...keys]);
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
        .option('stopping', {
          type: 'string',
          describe: `Only the entries of a roster or catalogue files that stop some question, each with the questions it stops and the first item that stops it; give a cause for those of one: ${Object.keys(STOP_CAUSES).join(', ')}`,
        })
        .option('left-out', {
          type: 'string',
          describe: `Only what a roster or catalogue files name that is read into no profile; give a kind for those of one: ${Object.keys(LEFT_OUT_KINDS).join(', ')}`,
        })
        .option('explain', { type: 'boolean', describe: 'For each profile, each effect with the item, keyword or sentence it was read from, and what was not read and why' })
        .option('schema', { type: 'boolean', describe: 'Print the JSON Schema for profiles files instead' }),
      profilesPresenter,
    )
      .example('$0 profiles examples/profiles.json', 'the shipped archetypes')
      .example('$0 profiles --roster examples/roster-example.ros', 'what a roster holds, and what is not modelled')
      .example('$0 profiles --roster examples/roster-example.ros --format json', 'the roster as a profiles file to edit and pass back with --profiles')
      .example('$0 profiles --catalogue system.gst faction.cat', "everything a faction's catalogue offers, at its prices")
      .example('$0 profiles --catalogue system.gst faction.cat --stopping', 'the entries that stop some question, and the first item that stops each (the table starts with their counts by cause)')
      .example('$0 profiles --catalogue system.gst faction.cat --stopping keyword', 'those stopped by a keyword token the rule table does not know')
      .example('$0 profiles --catalogue system.gst faction.cat --left-out hidden', 'the entries hidden for every faction, which are not read')
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
    const stopping = listingChoice<StopCause>('--stopping', argv.stopping, 'a cause of a stop', Object.keys(STOP_CAUSES) as StopCause[]);
    const leftOut = listingChoice<LeftOutKind>('--left-out', argv.leftOut, 'a kind of what is left out', Object.keys(LEFT_OUT_KINDS) as LeftOutKind[]);
    const listings = [argv.explain === true && '--explain', stopping !== undefined && '--stopping', leftOut !== undefined && '--left-out'].filter(Boolean);
    if (listings.length > 1) throw refusal(String(listings[1]), `cannot be given with ${String(listings[0])} (each is a listing of its own)`, 'give one of --explain, --stopping and --left-out');
    // --allow-unmodelled turns stops into notes: nothing would be left to list.
    if (stopping !== undefined && argv.allowUnmodelled === true) throw refusal('--stopping', 'lists what stops a command without --allow-unmodelled', 'leave out --allow-unmodelled');
    const rules = typeof argv.rules === 'string' ? readVariantFile(argv.rules).table : undefined;
    const read = typeof argv.roster === 'string' ? readRosterProfilesOnce(argv.roster, rules) : Array.isArray(argv.catalogue) ? readCatalogueProfilesOnce(argv.catalogue.map(String), rules) : undefined;
    if (read) {
      const totals = profileTotals(read);
      if (stopping !== undefined) {
        const cause = stopping === 'all' ? undefined : stopping;
        process.stdout.write(format === 'json' ? jsonText(stoppingJson(totals, cause, read.file)) : stoppingTable(totals, cause, read.file));
        return;
      }
      if (leftOut !== undefined) {
        const kind = leftOut === 'all' ? undefined : leftOut;
        process.stdout.write(format === 'json' ? jsonText(leftOutJson(totals, kind, read.file)) : leftOutTable(totals, kind, read.file));
        return;
      }
      const shown = argv.allowUnmodelled === true ? leftOutWhereUnmodelled(read) : read;
      if (argv.explain === true) {
        // The summary joins the explanation's JSON as a key of its own; the plain JSON is a profiles file, with no key more.
        process.stdout.write(format === 'json' ? jsonText({ summary: totalsJson(totals), ...explainJson(shown) }) : explainPresenter.table(shown));
        return;
      }
      const source = typeof argv.roster === 'string' ? ['--roster', argv.roster] : ['--catalogue', ...(argv.catalogue as unknown[]).map(String)];
      const command = ['injury-lab', 'profiles', ...source, ...(typeof argv.rules === 'string' ? ['--rules', argv.rules] : [])].map(shellWord).join(' ');
      process.stdout.write(format === 'json' ? profilesPresenter.json(shown) : totalsTable(totals, command) + profilesPresenter.table(shown));
      return;
    }
    if (stopping !== undefined || leftOut !== undefined) {
      throw refusal(stopping !== undefined ? '--stopping' : '--left-out', 'lists what a roster or catalogue files hold (a profiles file has nothing that stops or is left out)', 'give it with --roster FILE or --catalogue FILE...');
    }
    if (argv.rules !== undefined) throw refusal('--rules', "reads a roster's or catalogue's keywords", 'give it with --roster FILE or --catalogue FILE...');
    const presenter = argv.explain === true ? explainPresenter : profilesPresenter;
    if (typeof argv.file !== 'string') throw refusal('profiles', 'name a profiles file (e.g. examples/profiles.json), or give --roster FILE, --catalogue FILE... or --schema');
    process.stdout.write(presenter[format](readProfilesFile(argv.file)));
  },
};
