import type { Profiles } from '../model/profiles.js';
import type { RuleTable } from '../model/types.js';
import type { RosterTree } from '../import/read-roster.js';
import { rosterProfiles, rosterSystem } from '../import/roster.js';
import { joinWarbandProfiles } from '../model/warband-profiles.js';
import { showValue } from '../errors.js';
import { refusal } from '../messages.js';

/**
 * The profiles built from a roster's or catalogues' tree, once per tree, source and rule table: the
 * layer of src/input/read-once.ts that reads no file, so that scenario parsing (src/input/scenario-core.ts)
 * keeps it in a browser too. A sweep's cells share one table object; a variant file read again per cell
 * is a new table of the same content, found by its JSON.
 */

export type Source = 'roster' | 'catalogue';

/** Table contents kept per tree and source: the editions and variants of one report are a few. */
const MAX_TABLES = 8;

/** The profiles of one tree and source, by rule table. */
interface ProfilesByTable {
  readonly byTable: WeakMap<RuleTable, Profiles>;
  /** By the table's JSON (a table is plain JSON data), least recently made first. */
  readonly byContent: Map<string, Profiles>;
}

/** Profiles by tree and source; they go with their tree. */
const profilesByTree = new WeakMap<RosterTree, Map<Source, ProfilesByTable>>();

/**
 * rosterProfiles, once per tree, source and rule table (the table object, or one of the same content):
 * the same inputs give the very same Profiles.
 */
export function rosterProfilesOnce(tree: RosterTree, rules: RuleTable, source: Source = 'roster'): Profiles {
  let bySource = profilesByTree.get(tree);
  if (!bySource) profilesByTree.set(tree, (bySource = new Map()));
  let kept = bySource.get(source);
  if (!kept) bySource.set(source, (kept = { byTable: new WeakMap(), byContent: new Map() }));
  const known = kept.byTable.get(rules);
  if (known) return known;
  const content = JSON.stringify(rules);
  let profiles = kept.byContent.get(content);
  if (!profiles) {
    profiles = rosterProfiles(tree, rules, source);
    kept.byContent.set(content, profiles);
    if (kept.byContent.size > MAX_TABLES) kept.byContent.delete(kept.byContent.keys().next().value!);
  }
  kept.byTable.set(rules, profiles);
  return profiles;
}

/** What a scenario imports: a roster, catalogue files, or both (my warband against theirs). */
export interface ImportedTrees {
  readonly roster?: RosterTree;
  readonly catalogue?: RosterTree;
}

/** Joined profiles by the roster's and the catalogue's: the same two give the very same Profiles. */
const joinedProfiles = new WeakMap<Profiles, WeakMap<Profiles, Profiles>>();

/**
 * The profiles of a roster, of catalogue files, or of both joined (src/model/warband-profiles.ts), each
 * once per tree and rule table. Both must be of one system (one rule table reads them); a renaming that
 * would give a name either already holds is refused. `at` prefixes the messages ("scenario file ...: ").
 */
export function importedProfilesOnce(trees: ImportedTrees, rules: RuleTable, at = ''): Profiles {
  const { roster, catalogue } = trees;
  if (roster === undefined || catalogue === undefined) {
    const only = roster ?? catalogue;
    if (only === undefined) throw new Error('importedProfilesOnce: no roster and no catalogue');
    return rosterProfilesOnce(only, rules, roster ? 'roster' : 'catalogue');
  }
  const [rosterOf, catalogueOf] = [rosterSystem(roster), rosterSystem(catalogue)];
  if (rosterOf.id !== catalogueOf.id) {
    throw refusal(`${at}roster and catalogue`, `roster ${showValue(roster.file)} is of ${rosterOf.id}, catalogue files ${showValue(catalogue.file)} of ${catalogueOf.id}`, 'allowed: a roster and catalogues of one system');
  }
  const mine = rosterProfilesOnce(roster, rules, 'roster');
  const theirs = rosterProfilesOnce(catalogue, rules, 'catalogue');
  let byCatalogue = joinedProfiles.get(mine);
  if (!byCatalogue) joinedProfiles.set(mine, (byCatalogue = new WeakMap()));
  const kept = byCatalogue.get(theirs);
  if (kept) return kept;
  const joined = joinWarbandProfiles(mine, theirs);
  if ('clash' in joined) {
    const { role, from, to } = joined.clash;
    throw refusal(
      `${at}roster and catalogue`,
      `both hold ${role} ${showValue(from)}, and the catalogue's would be named ${showValue(to)}, which is already a name of one of them`,
      'allowed: a roster and catalogues that do not both hold NAME where one already holds NAME (catalogue)',
    );
  }
  byCatalogue.set(theirs, joined.profiles);
  return joined.profiles;
}
