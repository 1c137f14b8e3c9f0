import { UsageError, showValue } from '../errors.js';
import { list, named, readBattleScribeFile, readCosts, text, type RosterForce, type RosterNamed, type RosterProfile, type RosterSelection, type RosterTree } from './read-roster.js';

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

/** Reads one catalogue file: its root element (catalogue or gameSystem), or one line saying it is not one. */
function readCatalogueRoot(path: string): { root: Node; isSystem: boolean } {
  const at = `catalogue file ${showValue(path)}: `;
  const zipped = /gstz$/i.test(path) ? '.gst' : '.cat';
  const doc = readBattleScribeFile(path, at, zipped, `${zipped}z`, 'a catalogue; allowed: a BattleScribe .gst or .cat (XML), or one zipped');
  const d = typeof doc === 'object' && doc !== null ? (doc as Node) : {};
  const root = d.catalogue ?? d.gameSystem;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new UsageError(`${at}not a catalogue: no "catalogue" or "gameSystem" element (a BattleScribe .cat or .gst has one)`);
  }
  return { root: root as Node, isSystem: d.gameSystem !== undefined };
}

/**
 * Catalogue files as one roster tree: a force per file (named by its catalogue), holding its entries
 * and its links to entries of any of the files.
 */
export function readCatalogueFiles(paths: readonly string[]): RosterTree {
  if (paths.length === 0) throw new UsageError('catalogue: name at least one .gst or .cat file');
  const index: Index = { entries: new Map(), profiles: new Map(), rules: new Map(), categories: new Map(), links: [] };
  const files = paths.map((path) => {
    const { root, isSystem } = readCatalogueRoot(path);
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
    file: paths.join(', '),
    label: `catalogue files ${showValue(paths.join(', '))}`,
    name: files.map((f) => f.catalogue).join(', '),
    ...(system ? { gameSystemName: text(system.root.name) } : {}),
    costTypes: [...new Set(costTypes)],
    forces,
  };
}
