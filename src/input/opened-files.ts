import { injuryDiceUnlessText } from '../model/keywords.js';
import { showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { MAX_JSON_BYTES, forbiddenKeyIn, forbiddenKeyProblem, parseJsonText } from '../json-text.js';
import { MAX_CATALOGUE_TOTAL_BYTES, catalogueAt, catalogueTree, tooMuchCatalogue } from '../import/catalogue.js';
import { MAX_ROSTER_BYTES, battleScribeDocument, mb, rosterAt, rosterFromDocument, type RosterTree } from '../import/read-roster.js';
import { rosterProfiles, rosterSystem } from '../import/roster.js';
import { editionTable } from '../model/edition-table.js';
import type { Profiles } from '../model/profiles.js';
import { parseProfiles } from './profiles-file.js';
import type { ScenarioFiles, UnmodelledHost } from './scenario-core.js';
import { parseVariant, type Variant } from './variant.js';

/**
 * The files a user opened in the web page, by name: a ScenarioFiles reader over them for the same parser
 * the CLI runs (parseScenarioWith), read by the same parsers and bounds as the CLI's disk readers
 * (src/input/read-files.ts, src/import/read-battlescribe.ts), in the same words. Nothing here touches a
 * disk: the bytes come from the browser's file input. A name the user has not opened is refused as the
 * page's default reader refuses it.
 */

/** Opened files by the name a scenario gives them (the file's own name: a browser gives no folder). */
export type OpenedFiles = ReadonlyMap<string, Uint8Array>;

const decode = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');

export function notOpened(field: string, path: unknown) {
  return refusal(field, `${showValue(path)} has not been opened in this page`, 'open the file in the page first');
}

function jsonFile(shelf: OpenedFiles, field: string, path: string, label: string, what: string): unknown {
  const bytes = shelf.get(path);
  if (!bytes) throw notOpened(field, path);
  if (bytes.length > MAX_JSON_BYTES) throw refusal(label, `is ${mb(bytes.length)}`, `${what} is at most ${MAX_JSON_BYTES / 1024 / 1024} MiB`);
  return parseJsonText(decode(bytes), label).value;
}

function battleScribe(shelf: OpenedFiles, field: string, path: string, at: string, ext: string, zipName: string) {
  const bytes = shelf.get(path);
  if (!bytes) throw notOpened(field, path);
  if (bytes.length > MAX_ROSTER_BYTES) throw refusal(at.replace(/: $/, ''), `is ${mb(bytes.length)}`, `${ext === '.ros' ? 'a roster' : 'a catalogue file'} is at most ${mb(MAX_ROSTER_BYTES)}`);
  return battleScribeDocument(bytes, at, ext, zipName);
}

export function variantOf(shelf: OpenedFiles, path: string): Variant {
  const label = `variant file ${showValue(path)}`;
  return parseVariant(jsonFile(shelf, 'rules', path, label, 'a variant file'), label, path.replace(/\.json$/i, ''));
}

export function profilesOf(shelf: OpenedFiles, path: string): Profiles {
  const label = `profiles file ${showValue(path)}`;
  return parseProfiles(jsonFile(shelf, 'profiles', path, label, 'a profiles file'), label, path);
}

export function rosterOf(shelf: OpenedFiles, path: string): RosterTree {
  return rosterFromDocument(battleScribe(shelf, 'roster', path, rosterAt(path), '.ros', '.rosz'), path);
}

export function cataloguesOf(shelf: OpenedFiles, paths: readonly string[]): RosterTree {
  const distinct = [...new Set(paths)];
  let read = 0;
  const docs = distinct.map((path) => {
    const zipped = /gstz$/i.test(path) ? '.gst' : '.cat';
    const doc = battleScribe(shelf, 'catalogue', path, catalogueAt(path), zipped, `${zipped}z`);
    read += doc.bytes;
    if (read > MAX_CATALOGUE_TOTAL_BYTES) throw tooMuchCatalogue(distinct.length, `at least ${mb(read)}`);
    return { path, doc };
  });
  return catalogueTree(docs);
}

/** The page's reader: every file a scenario names is one the user opened. */
export function openedFiles(shelf: OpenedFiles, host: UnmodelledHost = {}): ScenarioFiles {
  return {
    variant: (path) => variantOf(shelf, path),
    profiles: (path) => profilesOf(shelf, path),
    roster: (path) => rosterOf(shelf, path),
    catalogue: (paths) => cataloguesOf(shelf, paths),
    // The page's words for its own controls ("tick ..."), and whoever it tells what was left out.
    ...host,
  };
}

/** What an opened file is to a scenario: the field that names it, and the profiles it offers. */
export interface OpenedFile {
  readonly name: string;
  readonly bytes: number;
  /** The scenario field that takes it; undefined when it is none of them (with `problem` saying why). */
  readonly field?: 'rules' | 'profiles' | 'roster' | 'catalogue';
  readonly system?: string;
  readonly weapons?: readonly string[];
  readonly models?: readonly string[];
  /** Each weapon's and model's keywords as written, its cost, and what nothing models in it (a roster's). */
  readonly profiles?: Readonly<Record<string, ProfileSummary>>;
  /**
   * A catalogue file's own share of what the catalogue files offer read together (`weapons` and `models`
   * are the set's, which a scenario's `weapon` and `target` may name): the weapons and models whose entry
   * this file holds (heldBy says why that is the honest share).
   */
  readonly held?: { readonly weapons: readonly string[]; readonly models: readonly string[] };
  readonly problem?: string;
}

export interface ProfileSummary {
  readonly keywords: readonly string[];
  readonly cost?: number;
  /** "TEXT (why)" for each thing the roster says that the rules do not model. */
  readonly unmodelled: readonly string[];
}

function summaries(p: Profiles): Record<string, ProfileSummary> {
  const out: Record<string, ProfileSummary> = {};
  for (const profile of [...p.weapons.values(), ...p.models.values()]) {
    out[profile.name] = {
      // A condition read as data is shown as a designer would write it among the keywords.
      keywords: [...profile.keywords, ...(profile.injuryDiceUnless ?? []).map(injuryDiceUnlessText)],
      ...(profile.cost !== undefined ? { cost: profile.cost } : {}),
      unmodelled: (profile.unmodelled ?? []).map((u) => `${u.text} (${u.why})`),
    };
  }
  return out;
}

/**
 * Each opened file as the page lists it: a variant (`rules`), a profiles file, a roster, or catalogue
 * files (read together: a catalogue's links reach into its game system file), with the names a scenario's
 * `weapon` and `target` may give. Told apart by content, as the CLI tells rosters apart, not by name.
 */
export function describeOpened(shelf: OpenedFiles): OpenedFile[] {
  const catalogues = [...shelf.keys()].filter((n) => /\.(cat|gst)z?$/i.test(n));
  const out: OpenedFile[] = [];
  const names = (p: Profiles) => ({ system: p.system.id, weapons: [...p.weapons.keys()], models: [...p.models.keys()], profiles: summaries(p) });
  const attempt = (name: string, field: OpenedFile['field'], read: () => Omit<OpenedFile, 'name' | 'bytes' | 'field'>) => {
    try {
      out.push({ name, bytes: shelf.get(name)!.length, field, ...read() });
    } catch (e) {
      out.push({ name, bytes: shelf.get(name)!.length, field, problem: e instanceof Error ? e.message : String(e) });
    }
  };
  for (const [name, bytes] of shelf) {
    if (catalogues.includes(name)) continue;
    if (/\.rosz?$/i.test(name) || (bytes[0] === 0x50 && bytes[1] === 0x4b)) {
      attempt(name, 'roster', () => names(treeProfiles(rosterOf(shelf, name), 'roster')));
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(decode(bytes));
    } catch {
      out.push({ name, bytes: bytes.length, problem: 'not JSON, a roster (.ros, .rosz) or a catalogue (.cat, .gst)' });
      continue;
    }
    const forbidden = forbiddenKeyIn(value);
    if (forbidden !== undefined) {
      out.push({ name, bytes: bytes.length, problem: forbiddenKeyProblem(forbidden).problem });
      continue;
    }
    const keys = value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
    if (keys.includes('roster')) attempt(name, 'roster', () => names(treeProfiles(rosterOf(shelf, name), 'roster')));
    else if (keys.includes('rules') && !keys.includes('kind')) attempt(name, 'rules', () => ({ system: variantOf(shelf, name).system.id }));
    else if (keys.includes('weapons') || keys.includes('models')) attempt(name, 'profiles', () => names(profilesOf(shelf, name)));
    else out.push({ name, bytes: bytes.length, problem: 'not a variant, profiles file, roster or catalogue' });
  }
  if (catalogues.length) {
    // Read together (a catalogue's links reach into its game system file): each catalogue file offers
    // what all of them offer, and says its own share of it.
    let together: Omit<OpenedFile, 'name' | 'bytes' | 'field'>;
    let tree: RosterTree | undefined;
    try {
      tree = cataloguesOf(shelf, catalogues);
      together = names(treeProfiles(tree, 'catalogue'));
    } catch (e) {
      together = { problem: e instanceof Error ? e.message : String(e) };
    }
    catalogues.forEach((name, i) => {
      const held = tree && !together.problem ? heldBy(tree, i) : undefined;
      out.push({ name, bytes: shelf.get(name)!.length, field: 'catalogue', ...together, ...(held ? { held } : {}) });
    });
  }
  return out;
}

/**
 * The weapons and models the `i`-th catalogue file holds, read with the others. A weapon or model is the
 * file's whose entry it is (where its profile is written), wherever the link that prices it is: the game
 * system's shared Thornpike, linked at 12 ducats by a faction's .cat, is the .gst's, and the faction's own
 * Lantern Warden is the .cat's. Counted so, each profile is one file's, and the files' counts add up to
 * what the set offers (less a name two files both hold). The other reading, crediting a .cat with every
 * shared item its links price, would count one weapon on every faction that links it and leave the game
 * system file, which defines most of the armoury, with none. Read from the set's tree (each selection says
 * which catalogue holds its entry, read-roster.ts's `catalogue`): a file read alone would lose the links'
 * prices and the entries its links reach.
 */
function heldBy(tree: RosterTree, i: number): OpenedFile['held'] | undefined {
  // The forces are the files in the order given (catalogueTree), each named by its catalogue.
  const holder = tree.forces[i]?.name;
  if (holder === undefined) return undefined;
  try {
    const own = treeProfiles({ ...tree, forces: tree.forces.map((f) => ({ ...f, selections: f.selections.filter((s) => s.catalogue === holder) })) }, 'catalogue');
    return { weapons: [...own.weapons.keys()], models: [...own.models.keys()] };
  } catch {
    // A share that cannot be read apart from the others: the file is listed with the set's counts.
    return undefined;
  }
}

function treeProfiles(tree: RosterTree, source: 'roster' | 'catalogue'): Profiles {
  const system = rosterSystem(tree);
  return rosterProfiles(tree, editionTable(system, system.defaultEdition), source);
}
