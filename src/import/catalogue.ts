import { UsageError, showValue } from '../errors.js';
import { refusal, refusalAt } from '../messages.js';
import { loadoutOf, type LoadoutIndex } from './loadout.js';
import { list, mb, named, parseBattleScribeDocument, readCosts, text, type BattleScribeDocument, type CatalogueLoadout, type RosterForce, type RosterNamed, type RosterProfile, type RosterSelection, type RosterTree } from './read-roster.js';

/**
 * BattleScribe catalogue files (a game system .gst, faction catalogues .cat) read as a roster of
 * everything they offer: each selection entry that is a model or a weapon becomes one selection, read
 * by src/import/roster.ts as a roster's are. Options are not chosen, so a model is its own entry (its
 * base cost, no weapons). A faction prices an item on its link to it: each link is a selection with the
 * link's price, and says whose price it is; an entry that no link names is listed at its own price.
 * A hidden entry or link that a modifier shows (for a faction, a variant, a campaign) is read as shown;
 * one that nothing shows is listed as hidden. A price a modifier sets with no condition is the price;
 * prices that conditions change are not read (docs/import.md).
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
  /** Entry groups by id: a link to one is no link to a missing entry, and a compulsory one is a choice. */
  readonly groups: Map<string, Node>;
  /** Entry links, in file order, with the catalogue that holds each. */
  readonly links: Indexed[];
  /** Cost type names by id: a modifier names the cost it sets by its type's id. */
  readonly costTypes: Map<string, string>;
  /** Ids of the profiles some entry links (an infoLink of type profile): a shared one no entry links is offered by nothing. */
  readonly linkedProfiles: Set<string>;
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
        else if ((key === 'selectionEntryGroups' || key === 'sharedSelectionEntryGroups') && id) index.groups.set(id, item);
        else if ((key === 'profiles' || key === 'sharedProfiles') && id) index.profiles.set(id, item);
        else if ((key === 'rules' || key === 'sharedRules') && id) index.rules.set(id, item);
        else if (key === 'categoryEntries' && id) index.categories.set(id, item);
        else if (key === 'costTypes' && id) index.costTypes.set(id, text(item.name));
        else if (key === 'entryLinks') index.links.push({ node: item, catalogue });
        else if (key === 'infoLinks' && text(item.type) === 'profile') index.linkedProfiles.add(text(item.targetId));
      }
      stack.push(...items);
    }
  }
}

const isHidden = (n: Node) => n.hidden === true || n.hidden === 'true';

/** The modifiers of a node, with those of its modifier groups (nested), each with whether any condition guards it. */
function modifiersOf(n: Node): { readonly modifier: Node; readonly conditional: boolean }[] {
  const out: { modifier: Node; conditional: boolean }[] = [];
  const guarded = (x: Node) => list(x.conditions).length > 0 || list(x.conditionGroups).length > 0;
  const stack: { node: Node; conditional: boolean }[] = [{ node: n, conditional: false }];
  for (let at = stack.pop(); at; at = stack.pop()) {
    for (const m of list(at.node.modifiers)) out.push({ modifier: m, conditional: at.conditional || guarded(m) });
    for (const g of list(at.node.modifierGroups)) stack.push({ node: g, conditional: at.conditional || guarded(g) });
  }
  return out;
}

/**
 * Whether a catalogue shows an entry or link to some roster: it is not hidden, or a modifier sets its
 * `hidden` to false under some condition. The real catalogue hides most of its shared armoury and
 * shows each item to the factions and variants that may take it; read as hidden, 40% of it was lost.
 */
function isShown(n: Node): boolean {
  if (!isHidden(n)) return true;
  return modifiersOf(n).some(({ modifier: m }) => text(m.type) === 'set' && text(m.field) === 'hidden' && text(m.value) === 'false');
}

/** Costs a modifier sets with no condition (a faction's price on its link): by cost type name. */
function unconditionalCosts(n: Node, costTypes: ReadonlyMap<string, string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const { modifier: m, conditional } of modifiersOf(n)) {
    const name = costTypes.get(text(m.field));
    const value = Number(text(m.value));
    if (!conditional && text(m.type) === 'set' && name !== undefined && text(m.value) !== '' && Number.isFinite(value)) out.set(name, value);
  }
  return out;
}

/**
 * A name a modifier sets with no condition: a faction renames a shared model on its link to it (the real
 * catalogue's "Sipahi Captain" is a link to the Mamluk Faris). A modifier that `affects` a profile
 * renames that profile, not the entry, and is not read here.
 */
function unconditionalName(n: Node): string | undefined {
  let name: string | undefined;
  for (const { modifier: m, conditional } of modifiersOf(n)) {
    if (!conditional && text(m.type) === 'set' && text(m.field) === 'name' && text(m.affects) === '' && text(m.value).trim() !== '') name = text(m.value).trim();
  }
  return name;
}

/** What a roster would call an entry reached through `link`: a name set with no condition, else the link's, else the entry's. */
const entryName = (entry: Node, link?: Node) => (link && unconditionalName(link)) ?? unconditionalName(entry) ?? (text(link?.name).trim() || text(entry.name).trim());

/** The entries nested in an entry: its own, and those of its groups (nested), in file order. */
function nestedEntries(entry: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [entry];
  for (let n = stack.shift(); n; n = stack.shift()) {
    for (const e of list(n.selectionEntries)) out.push(e);
    stack.push(...list(n.selectionEntryGroups), ...list(n.selectionEntries));
  }
  return out;
}

const hasUnitProfile = (n: Node) => list(n.profiles).some((p) => list(p.characteristics).some((c) => text(c.name).toLowerCase() === 'armour'));

/**
 * A model entry whose Unit profile is on options under it, one of which a roster chooses (the real
 * catalogue's thralls: "Grounded", "Winged"): those options, each read as part of the model
 * (entry-characteristics.ts's modelProfileOf) and never listed on their own. Their profiles differ where it matters (only the
 * grounded thrall has Undead Fortitude's -1 INJURY DICE).
 */
function unitOptions(entry: Node): Node[] {
  if (!/^model$/i.test(text(entry.type)) || hasUnitProfile(entry)) return [];
  return nestedEntries(entry).filter((e) => !/^(model|unit)$/i.test(text(e.type)) && hasUnitProfile(e));
}

/** An entry that would be a model or a weapon (it carries a profile with an Armour characteristic, or a weapon's): worth listing when hidden. */
function looksPlayable(entry: Node, index: Index): boolean {
  return entryProfiles(entry, index).some((p) => isWeaponProfile(p) || list(p.characteristics).some((c) => text(c.name).toLowerCase() === 'armour'));
}

/** An entry's profiles, its own and those it links (an infoLink of type profile). */
const entryProfiles = (entry: Node, index: Index): Node[] => [...list(entry.profiles), ...list(entry.infoLinks).filter((l) => text(l.type) === 'profile').map((l) => index.profiles.get(text(l.targetId))).filter((x): x is Node => x !== undefined)];
const isWeaponProfile = (p: Node) => /weapon/i.test(text(p.typeName));

/** Whether an entry is read as a model: of type model (or unit), or with a Unit profile of its own. */
const isModelEntry = (entry: Node) => /^(model|unit)$/i.test(text(entry.type)) || hasUnitProfile(entry);

const loadoutIndexes = new WeakMap<Index, LoadoutIndex>();

/**
 * A model entry's loadout (src/import/loadout.ts), seen through `link` if it is reached through one. What
 * it must take is its own "MODEL with WEAPON" already, and its unit options are part of it: neither is in it.
 */
function modelLoadout(entry: Node, link: Node | undefined, index: Index): CatalogueLoadout {
  let seen = loadoutIndexes.get(index);
  if (!seen) loadoutIndexes.set(index, (seen = loadoutIndex(index)));
  const required = compulsoryOf(entry, index);
  const carried = new Set([...required.items, ...required.choices.flat()].map((t) => text((t.link ?? t.entry).id)));
  return loadoutOf(entry, link, seen, carried, new Set(unitOptions(entry)));
}

/** The catalogue as the loadout reader (src/import/loadout.ts) sees it. */
function loadoutIndex(index: Index): LoadoutIndex {
  const linkIds = new Map(index.links.map((l) => [text(l.node.id), l.node] as const));
  return {
    entries: index.entries,
    groups: index.groups,
    categories: index.categories,
    linkIds: new Set(linkIds.keys()),
    // A weapon entry: one with a visible Weapon profile (a hidden one is an alternative an option shows, docs/import.md).
    isWeapon: (entry) => entryProfiles(entry, index).some((p) => isWeaponProfile(p) && !isHidden(p)),
    isModel: (entry) => isModelEntry(entry),
    nameOf: (id) => {
      const n = index.entries.get(id)?.node ?? index.groups.get(id) ?? index.categories.get(id) ?? linkIds.get(id);
      return n === undefined ? undefined : text(n.name) || undefined;
    },
  };
}

/** Whether a node's own constraints make at least one selection of it compulsory in its model. */
function isCompulsory(n: Node): boolean {
  return list(n.constraints).some((c) => text(c.type) === 'min' && text(c.field) === 'selections' && /^(parent|self)$/.test(text(c.scope)) && Number(text(c.value)) >= 1);
}

/** An entry a model takes, reached through a link (whose price and name it then has) or nested in the model. */
interface Taken {
  readonly entry: Node;
  readonly link?: Node;
}

/** What a model entry must take: items it always has, and choices of which it has one (each a list of takes). */
interface Compulsory {
  readonly items: Taken[];
  readonly choices: Taken[][];
}

/** The most models one entry's compulsory choices make (their product): past it, the choices are listed, not read. */
const MAX_CHOICE_MODELS = 32;

/**
 * What a model entry must take (docs/import.md, "Compulsory selections"): its entries and links with a
 * `min` constraint of 1 or more on the model (the real catalogue's Gas Masks, Combat Helmets, a
 * Sharpshooter's Sniper Rifle), and its groups (or links to groups) with one: a choice (a Plague
 * Knight's armour). Hidden ones nothing shows, and its unit options (read apart), are not.
 */
function compulsoryOf(entry: Node, index: Index): Compulsory {
  // Part of every such model only when nothing hides it: one a modifier shows for a variant or a
  // campaign (the real Plague Knight's Role, which gives TOUGH to The Executor) is no part of the others.
  // Through a link, the link's own hidden is what a roster sees (as for a faction's links, above): the
  // real Witch Coven Matriarch's Byzantinium Hearth is a hidden shared entry, linked unhidden.
  const alwaysShown = (n: Node) => !isHidden(n);
  const items: Taken[] = [];
  const choices: Taken[][] = [];
  const unit = new Set(unitOptions(entry));
  const choiceOf = (group: Node): Taken[] => {
    const picks: Taken[] = list(group.selectionEntries).filter(alwaysShown).map((e) => ({ entry: e }));
    for (const l of list(group.entryLinks).filter(alwaysShown)) {
      const target = index.entries.get(text(l.targetId))?.node;
      if (target) picks.push({ entry: target, link: l });
    }
    return picks.filter((t) => !unit.has(t.entry));
  };
  for (const e of list(entry.selectionEntries)) if (alwaysShown(e) && isCompulsory(e) && !unit.has(e)) items.push({ entry: e });
  for (const g of list(entry.selectionEntryGroups)) {
    if (!alwaysShown(g) || !isCompulsory(g)) continue;
    const picks = choiceOf(g);
    if (picks.length === 1) items.push(picks[0]!);
    else if (picks.length > 1) choices.push(picks);
  }
  for (const l of list(entry.entryLinks)) {
    if (!alwaysShown(l)) continue;
    const targetId = text(l.targetId);
    const target = index.entries.get(targetId)?.node;
    const group = index.groups.get(targetId);
    if (target && (isCompulsory(l) || isCompulsory(target))) items.push({ entry: target, link: l });
    else if (group && (isCompulsory(l) || isCompulsory(group))) {
      const picks = choiceOf(group);
      if (picks.length === 1) items.push(picks[0]!);
      else if (picks.length > 1) choices.push(picks);
    }
  }
  return { items, choices };
}

/** Every way to make one pick of each choice, in order; undefined past MAX_CHOICE_MODELS. */
function choiceCombinations(choices: readonly Taken[][]): Taken[][] | undefined {
  let combos: Taken[][] = [[]];
  for (const picks of choices) {
    if (combos.length * picks.length > MAX_CHOICE_MODELS) return undefined;
    combos = combos.flatMap((c) => picks.map((p) => [...c, p]));
  }
  return combos;
}

/**
 * What a condition says once a model's unit option is chosen: true or false where it asks only whether
 * one of `options` (the model's unit options) is selected, undefined where it asks anything else (a
 * faction's variant, another option), which a catalogue does not choose.
 */
function optionCondition(c: Node, chosen: string, options: ReadonlySet<string>): boolean | undefined {
  const child = text(c.childId);
  const value = Number(text(c.value));
  if (!options.has(child) || text(c.field) !== 'selections' || !Number.isFinite(value)) return undefined;
  const count = child === chosen ? 1 : 0;
  switch (text(c.type)) {
    case 'atLeast':
      return count >= value;
    case 'greaterThan':
      return count > value;
    case 'equalTo':
      return count === value;
    case 'notEqualTo':
      return count !== value;
    case 'lessThan':
      return count < value;
    case 'atMost':
      return count <= value;
    default:
      return undefined;
  }
}

/** Whether every condition of a modifier holds with `chosen` taken (undefined if one cannot be told). */
function modifierHolds(m: Node, chosen: string, options: ReadonlySet<string>): boolean | undefined {
  if (list(m.conditionGroups).length > 0 || list(m.repeats).length > 0) return undefined;
  const conditions = list(m.conditions);
  if (conditions.length === 0) return undefined;
  let all = true;
  for (const c of conditions) {
    const holds = optionCondition(c, chosen, options);
    if (holds === undefined) return undefined;
    all &&= holds;
  }
  return all;
}

/** The childIds a node's `set hidden false` modifiers ask about, sorted: what shows it. */
const shownBy = (n: Node): string =>
  JSON.stringify(
    list(n.modifiers)
      .filter((m) => text(m.type) === 'set' && text(m.field) === 'hidden' && text(m.value) === 'false')
      .flatMap((m) => list(m.conditions).map((c) => `${text(c.scope)}:${text(c.childId)}`))
      .sort(),
  );

/**
 * How a model sees a profile of its entry. With a unit option chosen (a thrall, "Grounded" or "Winged"),
 * a modifier that hides or shows the profile when that option is selected is applied: the real
 * catalogue hides Undead Fortitude for the winged thrall and the Pummel attack for the grounded one.
 * A profile hidden and shown by the same conditions that show its hidden entry (the Stalker's abilities
 * and Void Blade, shown with the Stalker) is shown: the entry is only ever in a roster when they hold.
 */
function profileAsSeen(p: Node, entry: Node, chosen?: { readonly id: string; readonly options: ReadonlySet<string> }): Node {
  let hidden = isHidden(p);
  if (chosen) {
    for (const m of list(p.modifiers)) {
      if (text(m.type) !== 'set' || text(m.field) !== 'hidden') continue;
      if (modifierHolds(m, chosen.id, chosen.options) === true) hidden = text(m.value) === 'true';
    }
  }
  if (hidden && isHidden(entry)) {
    const conditions = shownBy(p);
    if (conditions !== '[]' && conditions === shownBy(entry)) hidden = false;
  }
  return hidden === isHidden(p) ? p : { ...p, hidden: String(hidden), modifiers: [] };
}

function readProfile(p: Node): RosterProfile {
  return {
    name: text(p.name),
    typeName: text(p.typeName),
    hidden: isHidden(p),
    ...(isHidden(p) && isShown(p) ? { shownWhen: true as const } : {}),
    characteristics: list(p.characteristics).map((c) => ({ name: text(c.name), $text: text(c.$text) })),
  };
}

/**
 * An entry (and the link to it, which may rename it and add its own links) as a selection: with the
 * unit option `chosen` (a thrall's), and the compulsory items and picks `takes` (a model's Gas Mask, its
 * armour of a compulsory choice), which are part of it. A pick of a choice names the model after it.
 */
function asSelection(entry: Node, index: Index, link?: Node, priceOf?: string, chosen?: { readonly option: Node; readonly first: boolean }, takes: { readonly items: readonly Taken[]; readonly picks: readonly Taken[] } = { items: [], picks: [] }): RosterSelection {
  const holder = index.entries.get(text(entry.id))?.catalogue;
  const parts = link ? [entry, link] : [entry];
  const infoLinks = parts.flatMap((p) => list(p.infoLinks)).filter((l) => !isHidden(l));
  const linked = (type: string, table: Map<string, Node>) => infoLinks.filter((l) => text(l.type) === type).map((l) => table.get(text(l.targetId))).filter((x): x is Node => x !== undefined);
  const rules: RosterNamed[] = [...parts.flatMap((p) => named(p.rules)), ...linked('rule', index.rules).map((r) => ({ name: text(r.name) }))];
  const categories: RosterNamed[] = parts
    .flatMap((p) => list(p.categoryLinks))
    .map((c) => ({ name: text(c.name) || text(index.categories.get(text(c.targetId))?.name) }))
    .filter((c) => c.name !== '');
  // A link's own price replaces the entry's (a faction's price for a shared item); a price a modifier
  // sets with no condition replaces both (the real catalogue prices a faction's shared model so).
  const linkCosts = link ? readCosts(link.costs).filter((c) => c.value !== 0) : [];
  const set = new Map([...unconditionalCosts(entry, index.costTypes), ...(link ? unconditionalCosts(link, index.costTypes) : [])]);
  const base = linkCosts.length ? linkCosts : readCosts(entry.costs);
  const costs = [...base.map((c) => (set.has(c.name) ? { name: c.name, value: set.get(c.name)! } : c)), ...[...set].filter(([name]) => !base.some((c) => c.name === name)).map(([name, value]) => ({ name, value }))];
  const option = chosen?.option;
  // The option chosen among the entry's unit options, as its profiles' modifiers ask about it.
  const seenWith = option && { id: text(option.id), options: new Set(unitOptions(entry).map((o) => text(o.id))) };
  // The first option that carries the Unit profile is the model's own; another is named after it, as is each pick of a compulsory choice.
  const suffixes = [...(chosen && !chosen.first ? [entryName(chosen.option)] : []), ...takes.picks.map((t) => entryName(t.entry, t.link))];
  return {
    name: suffixes.length ? `${entryName(entry, link)} (${suffixes.join(', ')})` : entryName(entry, link),
    type: text(entry.type),
    number: 1,
    selections: [...(option ? [asSelection(option, index)] : []), ...[...takes.items, ...takes.picks].map((t) => asSelection(t.entry, index, t.link))],
    profiles: [...list(entry.profiles), ...linked('profile', index.profiles)].map((p) => readProfile(profileAsSeen(p, entry, seenWith))),
    rules: rules.filter((r) => r.name !== ''),
    categories,
    costs,
    ...(link && (linkCosts.length || set.size) && priceOf ? { priceOf } : {}),
    ...(holder ? { catalogue: holder } : {}),
    ...(link && priceOf && isModelEntry(entry) ? { offeredBy: priceOf } : {}),
    catalogueIds: [text(link?.id), text(entry.id)].filter((id) => id !== ''),
    // Every model has one, a model another must take (a unit's model) too: none would pair it with every weapon.
    ...(isModelEntry(entry) ? { loadout: modelLoadout(entry, link, index) } : {}),
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

export function tooMuchCatalogue(files: number, total: string): UsageError {
  return refusal('catalogue', `the ${files} files given hold ${total} in all`, `allowed: at most ${mib(MAX_CATALOGUE_TOTAL_BYTES)} of catalogue files together (a file named twice is read once)`);
}

/** The message prefix for one catalogue file. */
export const catalogueAt = (path: string): string => `catalogue file ${showValue(path)}: `;

/** Parses one catalogue file's document: its root element (catalogue or gameSystem), or one line saying it is not one. */
function catalogueRoot(doc: BattleScribeDocument, path: string): { root: Node; isSystem: boolean } {
  const parsed = parseBattleScribeDocument(doc, 'a catalogue; allowed: a BattleScribe .gst or .cat (XML), or one zipped');
  const d = typeof parsed === 'object' && parsed !== null ? (parsed as Node) : {};
  const root = d.catalogue ?? d.gameSystem;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw refusalAt(catalogueAt(path), 'not a catalogue: no "catalogue" or "gameSystem" element (a BattleScribe .cat or .gst has one)');
  }
  return { root: root as Node, isSystem: d.gameSystem !== undefined };
}

/**
 * What a catalogue's links to entries that none of the files hold say: which catalogues it links
 * (`catalogueLinks`) that were not given, or, if it links none, that the entries are elsewhere.
 */
function missingCatalogues(root: Node, files: readonly { readonly root: Node }[], links: readonly string[]): { text: string; why: string; kind: 'file-not-given' } {
  const given = new Set(files.map((f) => text(f.root.id)));
  const missing = list(root.catalogueLinks).filter((c) => !given.has(text(c.targetId))).map((c) => text(c.name) || text(c.targetId));
  const names = [...new Set(links)];
  const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  return {
    text: `${links.length} link${links.length === 1 ? '' : 's'} to entries of no file given (${shown})`,
    why: missing.length
      ? `not read: it links the catalogue${missing.length === 1 ? '' : 's'} ${missing.map((m) => JSON.stringify(m)).join(', ')}, which ${missing.length === 1 ? 'was' : 'were'} not given; give ${missing.length === 1 ? 'its file' : 'their files'} too`
      : 'not read: their entries are in a file not given (the game system .gst, or another catalogue)',
    kind: 'file-not-given',
  };
}

/** One catalogue file's document (src/import/read-battlescribe.ts reads it, or a page opened it), by its path as given. */
export interface CatalogueDocument {
  readonly path: string;
  readonly doc: BattleScribeDocument;
}

/**
 * Catalogue files' documents as one roster tree: a force per file (named by its catalogue), holding its
 * entries and its links to entries of any of the files. The reader gives each file once (a file named
 * twice is one document) and bounds their bytes (MAX_CATALOGUE_TOTAL_BYTES).
 */
export function catalogueTree(docs: readonly CatalogueDocument[]): RosterTree {
  if (docs.length === 0) throw refusal('catalogue', 'name at least one .gst or .cat file');
  const index: Index = { entries: new Map(), profiles: new Map(), rules: new Map(), categories: new Map(), groups: new Map(), links: [], costTypes: new Map(), linkedProfiles: new Set() };
  const roots = docs.map(({ path, doc }) => ({ path, ...catalogueRoot(doc, path) }));
  const files = roots.map(({ path, root, isSystem }) => {
    const catalogue = text(root.name) || path;
    indexCatalogue(root, catalogue, index);
    return { path, root, isSystem, catalogue };
  });
  const system = files.find((f) => f.isSystem);
  // Entries a shown link prices: listed through their links, not at their own cost.
  const linkedTo = new Set(index.links.filter((l) => isShown(l.node)).map((l) => text(l.node.targetId)));
  // Options that carry their model's Unit profile are read with the model, not listed on their own.
  const partOfModel = new Set([...index.entries.values()].flatMap((e) => unitOptions(e.node)));
  // A model whose Unit profiles are on its options (a thrall, "Grounded" or "Winged") is one model per option.
  // Each with what it must take: its compulsory items, and one model per pick of its compulsory choices.
  const tooManyChoices: string[] = [];
  const asModels = (entry: Node, link?: Node, priceOf?: string): RosterSelection[] => {
    const options = unitOptions(entry);
    const units = options.length > 0 ? options.map((o, i) => ({ option: o, first: i === 0 })) : [undefined];
    const required = isModelEntry(entry) ? compulsoryOf(entry, index) : { items: [], choices: [] };
    const combos = choiceCombinations(required.choices);
    if (combos === undefined) tooManyChoices.push(entryName(entry, link));
    return units.flatMap((unit) => (combos ?? [[]]).map((picks) => asSelection(entry, index, link, priceOf, unit, { items: required.items, picks })));
  };
  const forces: RosterForce[] = files.map((f) => {
    const selections: RosterSelection[] = [];
    const hiddenEntries: string[] = [];
    // The file's own entries that no link prices: at their own cost.
    for (const [id, e] of index.entries) {
      if (e.catalogue !== f.catalogue || linkedTo.has(id) || partOfModel.has(e.node)) continue;
      if (isShown(e.node)) selections.push(...asModels(e.node));
      else if (looksPlayable(e.node, index)) hiddenEntries.push(entryName(e.node));
    }
    // The file's links to an entry, at the link's price (a link to a group adds nothing: its entries are
    // listed). A shown link offers its entry even where the entry itself is hidden with nothing to show
    // it: a link's own `hidden` is what a roster sees (the real catalogue's Grand Cannon is an entry
    // hidden everywhere, offered only through a shown link).
    const unreachable: string[] = [];
    for (const l of index.links) {
      if (l.catalogue !== f.catalogue) continue;
      const targetId = text(l.node.targetId);
      const target = index.entries.get(targetId);
      if (!target) {
        if (!index.groups.has(targetId) && isShown(l.node)) unreachable.push(text(l.node.name).trim() || targetId);
        continue;
      }
      if (isShown(l.node)) selections.push(...asModels(target.node, l.node, f.catalogue));
      else if (!linkedTo.has(targetId) && looksPlayable(target.node, index)) hiddenEntries.push(entryName(target.node, l.node));
    }
    // A shared Weapon or Unit profile no entry links (the game system file's "Great Hammer/Maul/Club/Mace"):
    // nothing offers it, so it is listed, never dropped without a word.
    const unlinked = list(f.root.sharedProfiles)
      .filter((p) => /weapon|unit/i.test(text(p.typeName)) && !index.linkedProfiles.has(text(p.id)))
      .map((p) => ({ text: text(p.name), why: 'a shared profile that no entry links: no model or weapon offers it, so it is not read', kind: 'unlinked' as const }));
    const notRead = [...(unreachable.length ? [missingCatalogues(f.root, files, unreachable)] : []), ...unlinked];
    return { name: f.catalogue, selections, rules: [], forces: [], ...(hiddenEntries.length ? { hiddenEntries: [...new Set(hiddenEntries)] } : {}), ...(notRead.length ? { notRead } : {}) };
  });
  if (tooManyChoices.length && forces[0]) {
    forces[0] = { ...forces[0], notRead: [...(forces[0].notRead ?? []), { text: `compulsory choices of ${[...new Set(tooManyChoices)].join(', ')}`, why: `they would make more than ${MAX_CHOICE_MODELS} models of one entry: read without them`, kind: 'too-many-choices' as const }] };
  }
  if (!system && forces[0]) {
    forces[0] = { ...forces[0], notRead: [...(forces[0].notRead ?? []), { text: 'no game system file (.gst)', why: 'the shared weapons, armour and rules a game system holds are not read; give its .gst too', kind: 'file-not-given' as const }] };
  }
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
