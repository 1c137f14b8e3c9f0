import { realpathSync, statSync } from 'node:fs';
import { editionTable } from '../model/edition-table.js';
import { type Profiles } from '../model/profiles.js';
import { readProfilesFile } from './read-files.js';
import type { RuleTable } from '../model/types.js';
import { MAX_CATALOGUE_TOTAL_BYTES } from '../import/catalogue.js';
import { readCatalogueFiles, readRosterFile } from '../import/read-battlescribe.js';
import type { RosterTree } from '../import/read-roster.js';
import { rosterSystem } from '../import/roster.js';
import { importedProfilesOnce, rosterProfilesOnce, type ImportedTrees, type Source } from './profiles-once.js';

/**
 * Rosters and catalogues read, parsed and turned into profiles once per process for the same inputs
 * (issue 22, item 8). A sweep parses every cell's scenario, and a report's weapon and target axes read
 * the profiles again: with a catalogue of a few MB, reading it per cell took minutes where the same
 * profiles from a profiles file took seconds. Worker threads never read these files: they are handed
 * scenarios already parsed.
 *
 * Two layers:
 * - the tree a list of files reads into, by the paths as given (messages name the files so) and each
 *   file's identity: its real path, device and inode, size, and modification and change times to the
 *   nanosecond. A file edited, replaced or touched between two reads is read again;
 * - the profiles built from a tree (src/input/profiles-once.ts, which reads no file), by the tree and the rule table (a table's keywords decide what a
 *   token of the roster means): by the table object first (edition tables are made once per process,
 *   an inline variant's once per changes object, so the cells of a sweep share them), else by the
 *   table's content. A variant file is read again by every cell that names it, into a new table of
 *   the same content; keyed by identity alone, a 14 x 53 matrix under one variant file made the
 *   profiles of a 1.7 MB catalogue list 742 times (37 s).
 *
 * What a file's identity cannot tell: a file rewritten to the same size within the same tick of the
 * file system's clock as the read before it (a few milliseconds), in one process. A command line reads
 * its files within one run, and a person saves a file seconds apart.
 *
 * Failures are never kept: a file that is refused is read, and refused, again each time, with the same
 * one line. A path that is not a regular file we can stat (missing, a folder, a FIFO) is never cached
 * either: the reader refuses it in its own words.
 */

/** Trees kept at once: a report names one list or a few; a long process (the test suite) names many. */
const MAX_TREES = 8;
/**
 * The file bytes the kept trees were read from, all together. A tree takes several times its files' size
 * in memory; one list of catalogues at its largest is kept, and older ones make room for it.
 */
const MAX_TREE_BYTES = MAX_CATALOGUE_TOTAL_BYTES;
interface KeptTree {
  readonly tree: RosterTree;
  readonly bytes: number;
}

/** Least recently used first: a Map iterates in insertion order, and a hit is moved to the end. */
const trees = new Map<string, KeptTree>();

interface FileIdentity {
  readonly key: string;
  readonly bytes: number;
}

/** What tells a file's content apart without reading it, or undefined if it is no regular file we can stat. */
function fileIdentity(path: string): FileIdentity | undefined {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!st?.isFile()) return undefined;
    return { key: `${realpathSync(path)}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`, bytes: Number(st.size) };
  } catch {
    return undefined;
  }
}

/** The identities of a list of files, or undefined if any has none. */
function filesIdentity(paths: readonly string[]): { key: string; bytes: number } | undefined {
  const ids: FileIdentity[] = [];
  for (const path of paths) {
    const id = fileIdentity(path);
    if (!id) return undefined;
    ids.push(id);
  }
  return { key: ids.map((id) => id.key).join('\0\0'), bytes: ids.reduce((sum, id) => sum + id.bytes, 0) };
}

/** Keeps a tree as the most recently used, letting the least recently used go past MAX_TREES or MAX_TREE_BYTES. */
function keep(key: string, kept: KeptTree): void {
  trees.set(key, kept);
  let bytes = [...trees.values()].reduce((sum, t) => sum + t.bytes, 0);
  // The newest tree always stays: it is the one being used.
  for (const [oldKey, old] of trees) {
    if (trees.size <= 1 || (trees.size <= MAX_TREES && bytes <= MAX_TREE_BYTES)) break;
    trees.delete(oldKey);
    bytes -= old.bytes;
  }
}

/**
 * The tree `read` makes of `paths`, read once while the files stay as they were. The files are identified
 * before they are read: one edited during the read is kept under its old identity, which its next look
 * no longer matches, so it is read again.
 */
function readTreeOnce(source: Source, paths: readonly string[], read: () => RosterTree): RosterTree {
  const files = filesIdentity(paths);
  if (!files) return read();
  // The paths as given are part of the key: the tree's messages name the files as the user did.
  const key = JSON.stringify([source, paths, files.key]);
  const hit = trees.get(key);
  if (hit) {
    trees.delete(key);
    trees.set(key, hit);
    return hit.tree;
  }
  const tree = read();
  keep(key, { tree, bytes: files.bytes });
  return tree;
}

/** readRosterFile, once per file as it is. */
export function readRosterFileOnce(path: string): RosterTree {
  return readTreeOnce('roster', [path], () => readRosterFile(path));
}

/** readCatalogueFiles, once per list of files as they are. */
export function readCatalogueFilesOnce(paths: readonly string[]): RosterTree {
  return readTreeOnce('catalogue', paths, () => readCatalogueFiles(paths));
}

/** readRosterProfiles (src/import/read-battlescribe.ts), read once: by the edition table of its system unless given one. */
export function readRosterProfilesOnce(path: string, rules?: RuleTable): Profiles {
  const tree = readRosterFileOnce(path);
  const system = rosterSystem(tree);
  return rosterProfilesOnce(tree, rules ?? editionTable(system, system.defaultEdition));
}

/** readCatalogueProfiles (src/import/read-battlescribe.ts), read once: by the edition table of their system unless given one. */
export function readCatalogueProfilesOnce(paths: readonly string[], rules?: RuleTable): Profiles {
  const tree = readCatalogueFilesOnce(paths);
  const system = rosterSystem(tree);
  return rosterProfilesOnce(tree, rules ?? editionTable(system, system.defaultEdition), 'catalogue');
}

/**
 * Profiles files read once while they stay as they are (the same identity as a roster's), by the path as
 * given (messages name the file so). A sweep names one in every cell's scenario: a 216 kB catalogue
 * export read and checked for each of 742 cells took 2.5 s, four times the catalogue files themselves.
 * A refused file is never kept: it is read, and refused, again each time.
 */
const profilesFiles = new Map<string, Profiles>();

export function readProfilesFileOnce(path: string): Profiles {
  const id = fileIdentity(path);
  if (!id) return readProfilesFile(path);
  const key = `${path}\0${id.key}`;
  const kept = profilesFiles.get(key);
  if (kept) {
    // Most recently used last: a Map iterates in insertion order.
    profilesFiles.delete(key);
    profilesFiles.set(key, kept);
    return kept;
  }
  const profiles = readProfilesFile(path);
  profilesFiles.set(key, profiles);
  for (const old of profilesFiles.keys()) {
    if (profilesFiles.size <= MAX_TREES) break;
    profilesFiles.delete(old);
  }
  return profiles;
}

/**
 * The profiles a raw scenario names by file, `profiles`, or `roster` and `catalogue` (one or both: a
 * roster with catalogues is one set of names, src/model/warband-profiles.ts), names and costs, as a
 * report's weapon and target dimensions read them, rosters and catalogues read once; undefined if it
 * names none.
 */
export function scenarioProfilesOnce(raw: Readonly<Record<string, unknown>>): Profiles | undefined {
  const imported: ImportedTrees = {
    ...(typeof raw.roster === 'string' ? { roster: readRosterFileOnce(raw.roster) } : {}),
    ...(raw.catalogue !== undefined ? { catalogue: readCatalogueFilesOnce((Array.isArray(raw.catalogue) ? raw.catalogue : [raw.catalogue]).map(String)) } : {}),
  };
  const tree = imported.roster ?? imported.catalogue;
  if (tree !== undefined) {
    const system = rosterSystem(tree);
    return importedProfilesOnce(imported, editionTable(system, system.defaultEdition));
  }
  return typeof raw.profiles === 'string' ? readProfilesFileOnce(raw.profiles) : undefined;
}
