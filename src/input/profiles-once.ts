import type { Profiles } from '../model/profiles.js';
import type { RuleTable } from '../model/types.js';
import type { RosterTree } from '../import/read-roster.js';
import { rosterProfiles } from '../import/roster.js';

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
