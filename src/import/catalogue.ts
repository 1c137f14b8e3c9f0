import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, showValue } from '../errors.js';
import { MAX_ROSTER_BYTES, list, mb, named, parseBattleScribeDocument, readBattleScribeDocument, readCosts, text, type BattleScribeDocument, type RosterForce, type RosterNamed, type RosterProfile, type RosterSelection, type RosterTree } from './read-roster.js';

/**
 * BattleScribe catalogue files (a game system .gst, faction catalogues .cat) read as a roster of
 * everything they offer: each selection entry that is a model or a weapon becomes one selection, read
 * by src/import/roster.ts as a roster's are. Options are not chosen, so a model is its own entry (its
 * base cost, no weapons). A faction prices an item on its link to it: each link is a selection with the
 * link's price, and says whose price it is; an entry that no link names is listed at its own price.
 * Costs changed by modifiers and conditions are not read (docs/import.md).
 */

type Node = Record<string, unknown>;

interface Indexed {
  readonly node: Node;
  /** The catalogue (file) that holds it, by its name. */
  readonly catalogue: string;
}

/** Every element with an id under the lists that hold entries, groups, profiles, rules and categories. */
interface Index {
  readonly entries: Map<string, Indexed>;
  readonly profiles: Map<string, Node>;
  readonly rules: Map<string, Node>;
  readonly categories: Map<string, Node>;
  /** Entry links, in file order, with the catalogue that holds each. */
  readonly links: Indexed[];
}

/** Entries are listed in these, in a file's shared entries and under entries and groups alike. */
const ENTRY_LISTS = ['selectionEntries', 'sharedSelectionEntries'];

/** Walks a catalogue's tree (explicit stack: never recurses) and files each element by the list it is in. */
function indexCatalogue(root: Node, catalogue: string, index: Index): void {
  const stack: Node[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    for (const [key, value] of Object.entries(node)) {
      const items = list(value);
      for (const item of items) {
        const id = text(item.id);
        if (ENTRY_LISTS.includes(key) && id) index.entries.set(id, { node: item, catalogue });
        else if ((key === 'profiles' || key === 'sharedProfiles') && id) index.profiles.set(id, item);
        else if ((key === 'rules' || key === 'sharedRules') && id) index.rules.set(id, item);
        else if (key === 'categoryEntries' && id) index.categories.set(id, item);
        else if (key === 'entryLinks') index.links.push({ node: item, catalogue });
      }
      stack.push(...items);
    }
  }
}

const isHidden = (n: Node) => n.hidden === true || n.hidden === 'true';

function readProfile(p: Node): RosterProfile {
  return {
    name: text(p.name),
    typeName: text(p.typeName),
    hidden: isHidden(p),
    characteristics: list(p.characteristics).map((c) => ({ name: text(c.name), $text: text(c.$text) })),
  };
}

/** An entry (and the link to it, which may rename it and add its own links) as an unchosen selection. */
function asSelection(entry: Node, index: Index, link?: Node, priceOf?: string): RosterSelection {
  const parts = link ? [entry, link] : [entry];
  const infoLinks = parts.flatMap((p) => list(p.infoLinks)).filter((l) => !isHidden(l));
  const linked = (type: string, table: Map<string, Node>) => infoLinks.filter((l) => text(l.type) === type).map((l) => table.get(text(l.targetId))).filter((x): x is Node => x !== undefined);
  const rules: RosterNamed[] = [...parts.flatMap((p) => named(p.rules)), ...linked('rule', index.rules).map((r) => ({ name: text(r.name) }))];
  const categories: RosterNamed[] = parts
    .flatMap((p) => list(p.categoryLinks))
    .map((c) => ({ name: text(c.name) || text(index.categories.get(text(c.targetId))?.name) }))
    .filter((c) => c.name !== '');
  // A link's own price replaces the entry's (a faction's price for a shared item).
  const linkCosts = link ? readCosts(link.costs).filter((c) => c.value !== 0) : [];
  return {
    name: text(link?.name) || text(entry.name),
    type: text(entry.type),
    number: 1,
    selections: [],
    profiles: [...list(entry.profiles), ...linked('profile', index.profiles)].map(readProfile),
    rules: rules.filter((r) => r.name !== ''),
    categories,
    costs: linkCosts.length ? linkCosts : readCosts(entry.costs),
    ...(link && linkCosts.length && priceOf ? { priceOf } : {}),
  };
}

/**
 * The most catalogue input one list of catalogue files may hold, all files together (a zipped one counted
 * inflated). A game system and the factions a user plays are a few MB (the largest catalogue we know of
 * is 7.8 MB); parsing takes about 8 times a file's size in memory (40 copies of that one took 2.5 GB),
 * so this bounds what a list of catalogues costs to about half a GB.
 */
export const MAX_CATALOGUE_TOTAL_BYTES = 64 * 1024 * 1024;

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

function tooMuchCatalogue(files: number, total: string): UsageError {
  return new UsageError(`catalogue: the ${files} files given hold ${total} in all; allowed: at most ${mib(MAX_CATALOGUE_TOTAL_BYTES)} of catalogue files together (a file named twice is read once)`);
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

/** The message prefix for one catalogue file. */
const catalogueAt = (path: string) => `catalogue file ${showValue(path)}: `;

/** Parses one catalogue file's document: its root element (catalogue or gameSystem), or one line saying it is not one. */
function catalogueRoot(doc: BattleScribeDocument, path: string): { root: Node; isSystem: boolean } {
  const parsed = parseBattleScribeDocument(doc, 'a catalogue; allowed: a BattleScribe .gst or .cat (XML), or one zipped');
  const d = typeof parsed === 'object' && parsed !== null ? (parsed as Node) : {};
  const root = d.catalogue ?? d.gameSystem;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new UsageError(`${catalogueAt(path)}not a catalogue: no "catalogue" or "gameSystem" element (a BattleScribe .cat or .gst has one)`);
  }
  return { root: root as Node, isSystem: d.gameSystem !== undefined };
}

/**
 * Reads catalogue files, each once, refusing more than MAX_CATALOGUE_TOTAL_BYTES in all before parsing any:
 * first by the sizes the files have, then by what each holds once read (a zip inflated).
 */
function readCatalogueRoots(paths: readonly string[]): { path: string; root: Node; isSystem: boolean }[] {
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
  return docs.map(({ path, doc }) => ({ path, ...catalogueRoot(doc, path) }));
}

/**
 * Catalogue files as one roster tree: a force per file (named by its catalogue), holding its entries
 * and its links to entries of any of the files.
 */
export function readCatalogueFiles(paths: readonly string[]): RosterTree {
  if (paths.length === 0) throw new UsageError('catalogue: name at least one .gst or .cat file');
  const index: Index = { entries: new Map(), profiles: new Map(), rules: new Map(), categories: new Map(), links: [] };
  const files = readCatalogueRoots(paths).map(({ path, root, isSystem }) => {
    const catalogue = text(root.name) || path;
    indexCatalogue(root, catalogue, index);
    return { path, root, isSystem, catalogue };
  });
  const system = files.find((f) => f.isSystem);
  const linkedTo = new Set(index.links.map((l) => text(l.node.targetId)));
  const forces: RosterForce[] = files.map((f) => {
    const selections: RosterSelection[] = [];
    // The file's own entries that no link prices: at their own cost.
    for (const [id, e] of index.entries) if (e.catalogue === f.catalogue && !linkedTo.has(id) && !isHidden(e.node)) selections.push(asSelection(e.node, index));
    // The file's links to an entry, at the link's price (a link to a group adds nothing: its entries are listed).
    for (const l of index.links) {
      if (l.catalogue !== f.catalogue || isHidden(l.node)) continue;
      const target = index.entries.get(text(l.node.targetId));
      if (target && !isHidden(target.node)) selections.push(asSelection(target.node, index, l.node, f.catalogue));
    }
    return { name: f.catalogue, selections, rules: [], forces: [] };
  });
  const costTypes = files.flatMap((f) => list(f.root.costTypes).map((c) => text(c.name))).filter((n) => n !== '');
  return {
    file: files.map((f) => f.path).join(', '),
    label: `catalogue files ${showValue(files.map((f) => f.path).join(', '))}`,
    name: files.map((f) => f.catalogue).join(', '),
    ...(system ? { gameSystemName: text(system.root.name) } : {}),
    costTypes: [...new Set(costTypes)],
    forces,
  };
}
