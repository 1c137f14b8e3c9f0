import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readBoundedFile } from '../json-input.js';
import { editionTable } from '../model/edition-table.js';
import type { Profiles } from '../model/profiles.js';
import type { RuleTable } from '../model/types.js';
import { MAX_CATALOGUE_TOTAL_BYTES, catalogueAt, catalogueTree, tooMuchCatalogue } from './catalogue.js';
import { MAX_ROSTER_BYTES, battleScribeDocument, mb, rosterAt, rosterFromDocument, type BattleScribeDocument, type RosterTree } from './read-roster.js';
import { rosterProfiles, rosterSystem } from './roster.js';

/**
 * Rosters and catalogue files read from disk for the CLI: the bytes, bounded, handed to the parsers of
 * src/import/read-roster.ts and src/import/catalogue.ts, which read no file (a page in a browser hands
 * them the files the user opened).
 */

/**
 * The document of a BattleScribe file the user named: a zip holding one file ending in `ext` (`zipName`
 * says what the zip is called) is inflated; anything else is read as UTF-8 text.
 */
export function readBattleScribeDocument(path: string, at: string, ext: string, zipName: string): BattleScribeDocument {
  const noun = ext === '.ros' ? 'a roster' : 'a catalogue file';
  const bytes = readBoundedFile(path, { label: at.replace(/: $/, ''), what: noun, missing: 'no such file', maxBytes: MAX_ROSTER_BYTES });
  return battleScribeDocument(bytes, at, ext, zipName);
}

/**
 * Reads a roster file: a .rosz (a zip holding one .ros), a .ros (BattleScribe roster XML) or
 * NewRecruit's JSON export, told apart by their first bytes, not their names.
 */
export function readRosterFile(path: string): RosterTree {
  return rosterFromDocument(readBattleScribeDocument(path, rosterAt(path), '.ros', '.rosz'), path);
}

/** The paths naming different files, each once, in the order given: one file by two names (a link, "./a.cat") is read once. */
function distinctFiles(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((path) => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      // A missing file is refused when it is read, in its own words.
      real = resolve(path);
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

/** The size of a regular file, or 0 for what reading it will refuse in its own words (missing, a folder, over 8 MiB). */
function regularFileSize(path: string): number {
  try {
    const st = statSync(path);
    return st.isFile() && st.size <= MAX_ROSTER_BYTES ? st.size : 0;
  } catch {
    return 0;
  }
}

/**
 * Reads catalogue files' documents, each once, refusing more than MAX_CATALOGUE_TOTAL_BYTES in all before parsing any:
 * first by the sizes the files have, then by what each holds once read (a zip inflated).
 */
function readCatalogueDocuments(paths: readonly string[]): { path: string; doc: BattleScribeDocument }[] {
  const files = distinctFiles(paths);
  const onDisk = files.reduce((sum, path) => sum + regularFileSize(path), 0);
  if (onDisk > MAX_CATALOGUE_TOTAL_BYTES) throw tooMuchCatalogue(files.length, mb(onDisk));
  let read = 0;
  const docs = files.map((path) => {
    const zipped = /gstz$/i.test(path) ? '.gst' : '.cat';
    const doc = readBattleScribeDocument(path, catalogueAt(path), zipped, `${zipped}z`);
    read += doc.bytes;
    if (read > MAX_CATALOGUE_TOTAL_BYTES) throw tooMuchCatalogue(files.length, `at least ${mb(read)}`);
    return { path, doc };
  });
  return docs;
}

/**
 * Reads catalogue files as one roster tree (catalogueTree): a force per file (named by its catalogue),
 * holding its entries and its links to entries of any of the files.
 */
export function readCatalogueFiles(paths: readonly string[]): RosterTree {
  return catalogueTree(readCatalogueDocuments(paths));
}

/** Reads a roster file into profiles by the edition table of its system (the `profiles` listing's view). */
export function readRosterProfiles(path: string, rules?: RuleTable): Profiles {
  const tree = readRosterFile(path);
  const system = rosterSystem(tree);
  return rosterProfiles(tree, rules ?? editionTable(system, system.defaultEdition));
}

/** Reads catalogue files into profiles of everything they offer, by the edition table of their system unless given one. */
export function readCatalogueProfiles(paths: readonly string[], rules?: RuleTable): Profiles {
  const tree = readCatalogueFiles(paths);
  const system = rosterSystem(tree);
  return rosterProfiles(tree, rules ?? editionTable(system, system.defaultEdition), 'catalogue');
}
