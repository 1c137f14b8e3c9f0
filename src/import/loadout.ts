import { list, text, type CatalogueLoadout } from './read-roster.js';

/**
 * The weapons a catalogue lets one model carry (issue 40, docs/import.md "Loadouts"): every weapon entry
 * reachable from the model's entry through its entry links and groups, shared ones included, recursively,
 * less those the catalogue hides for this model. A condition is evaluated only where the model alone
 * answers it: whether the model is an instance of an entry (itself, or another) or of a category it has
 * (its own category links). A condition on the roster (a variant chosen, a campaign), on other selections
 * (an upgrade taken beside the weapon) or on a category a modifier gives the model under a condition
 * cannot be answered by a catalogue, which chooses nothing: the weapon stays in the loadout, as a roster
 * that meets the condition has it, and a note names the condition (never a silent guess either way).
 * Counts (at most 2 weapons, "Max 1 Heavy item on Non-Strong Unit") are rules on combinations of
 * selections: one weapon alone meets every limit of 1 or more; a limit of 0, or an error that the model
 * alone makes hold, leaves the weapon out; an error that depends on other selections is named in a note.
 */

type Node = Record<string, unknown>;
/** Three-valued: undefined where the catalogue's condition cannot be answered for the model alone. */
type Truth = boolean | undefined;

/** What the loadout reader needs of a catalogue's index (src/import/catalogue.ts). */
export interface LoadoutIndex {
  readonly entries: ReadonlyMap<string, { readonly node: Node }>;
  readonly groups: ReadonlyMap<string, Node>;
  readonly categories: ReadonlyMap<string, Node>;
  /** Ids of entry links, by id: a condition may name a link ("instanceOf" a faction's link to a model). */
  readonly linkIds: ReadonlySet<string>;
  /** Whether an entry is a weapon (a Weapon profile, its own or linked). */
  readonly isWeapon: (entry: Node) => boolean;
  /** Whether an entry is a model (a model of its own under another is not this model's weapon). */
  readonly isModel: (entry: Node) => boolean;
  /** A name for an id a condition names (an entry, a group, a category, a link), for notes. */
  readonly nameOf: (id: string) => string | undefined;
}

/** What the model alone says: the ids it answers to (its entry's, its link's) and its categories. */
interface ModelFacts {
  readonly ids: ReadonlySet<string>;
  /** Category id → whether the model has it; undefined where a modifier adds or removes it under a condition. */
  readonly categories: ReadonlyMap<string, Truth>;
}

/** An evaluation with the conditions it could not answer, described for notes. */
interface Evaluated {
  readonly truth: Truth;
  readonly unknown: readonly string[];
}

const isHidden = (n: Node) => n.hidden === true || n.hidden === 'true';

/** A modifier with the nodes that guard it (the modifier groups it sits in, then itself): all must hold. */
interface Guarded {
  readonly modifier: Node;
  readonly guards: readonly Node[];
}

function guardedModifiers(n: Node): Guarded[] {
  const out: Guarded[] = [];
  const stack: { node: Node; guards: Node[] }[] = [{ node: n, guards: [] }];
  for (let at = stack.pop(); at; at = stack.pop()) {
    for (const m of list(at.node.modifiers)) out.push({ modifier: m, guards: [...at.guards, m] });
    for (const g of list(at.node.modifierGroups).reverse()) stack.push({ node: g, guards: [...at.guards, g] });
  }
  return out;
}

const COUNTS: Readonly<Record<string, string>> = { atLeast: 'at least', atMost: 'at most', greaterThan: 'more than', lessThan: 'fewer than', equalTo: 'exactly', notEqualTo: 'other than' };
const SCOPES: Readonly<Record<string, string>> = { roster: 'in the roster', force: 'in the force', parent: 'beside it', self: 'under it', model: 'on the model' };

/** A condition as a note says it: `at least 1 "War Pilgrimage of Saint Methodius" in the roster`. */
function describe(c: Node, index: LoadoutIndex): string {
  const id = text(c.childId);
  const name = JSON.stringify(index.nameOf(id) ?? id);
  const scope = text(c.scope);
  const type = text(c.type);
  if (type === 'instanceOf' || type === 'notInstanceOf') return `the ${scope || 'selection'} is ${type === 'notInstanceOf' ? 'not ' : ''}${name}`;
  const field = text(c.field);
  return `${COUNTS[type] ?? type} ${text(c.value)} ${field === 'selections' ? '' : `${field} of `}${name} ${SCOPES[scope] ?? `in scope ${JSON.stringify(scope)}`}`;
}

/**
 * One condition, for the model alone: "instanceOf"/"notInstanceOf" with scope model (or parent, where the
 * parent is the model) is answered by the model's ids and categories; every other condition asks about
 * selections a catalogue does not make, and is unknown.
 */
function condition(c: Node, facts: ModelFacts, parentIsModel: boolean, index: LoadoutIndex): Evaluated {
  const type = text(c.type);
  const scope = text(c.scope);
  const id = text(c.childId);
  const aboutModel = scope === 'model' || (scope === 'parent' && parentIsModel);
  if ((type === 'instanceOf' || type === 'notInstanceOf') && aboutModel) {
    let is: Truth;
    if (facts.ids.has(id)) is = true;
    else if (index.categories.has(id)) is = facts.categories.has(id) ? facts.categories.get(id) : false;
    else if (index.entries.has(id) || index.linkIds.has(id)) is = false;
    if (is !== undefined) return { truth: type === 'instanceOf' ? is : !is, unknown: [] };
  }
  return { truth: undefined, unknown: [describe(c, index)] };
}

/** Kleene logic over a node's conditions and condition groups, joined by `kind` ("and" for a modifier's own). */
function conditions(n: Node, kind: string, facts: ModelFacts, parentIsModel: boolean, index: LoadoutIndex): Evaluated {
  const parts = [...list(n.conditions).map((c) => condition(c, facts, parentIsModel, index)), ...list(n.conditionGroups).map((g) => conditions(g, text(g.type) || 'and', facts, parentIsModel, index))];
  const decisive = kind === 'or';
  if (parts.some((p) => p.truth === decisive)) return { truth: decisive, unknown: [] };
  const unknown = parts.filter((p) => p.truth === undefined).flatMap((p) => p.unknown);
  return unknown.length ? { truth: undefined, unknown: [unknown.join(kind === 'or' ? ' or ' : ' and ')] } : { truth: !decisive, unknown: [] };
}

/** Whether a modifier applies to the model: every guard holds (a modifier that repeats is never answered). */
function applies({ modifier, guards }: Guarded, facts: ModelFacts, parentIsModel: boolean, index: LoadoutIndex): Evaluated {
  if (list(modifier.repeats).length > 0) return { truth: undefined, unknown: ['a modifier that repeats with selections'] };
  return conditions({ conditionGroups: guards.map((g) => ({ type: 'and', conditions: g.conditions, conditionGroups: g.conditionGroups })) }, 'and', facts, parentIsModel, index);
}

/** What the catalogue says of one entry or group on the way to a weapon (with the link to it). */
interface Step {
  /** true: hidden for this model; false: shown; undefined: it depends on what `because` names. */
  readonly hidden: Truth;
  readonly because: readonly string[];
  /** An error or a limit of 0 that holds for this model alone: nothing under it can be taken. */
  readonly forbidden: boolean;
  /** Errors that depend on other selections: rules on combinations, named in notes. */
  readonly combinations: readonly string[];
  /** Modifiers of `hidden` that act on what is under it (`affects`), which are not read: named in notes. */
  readonly unread: readonly string[];
}

/**
 * A `set hidden` modifier that `affects` what is under its node ("self.entries.recursive": the real
 * catalogues' storage "Pile of Stuff" shows everything in it so) acts on no node itself, and is not
 * read: what it would show or hide is read as the rest of the catalogue says, and a note says so.
 */
function unreadAffects(name: string, m: Node): string {
  return `${JSON.stringify(name)}'s modifier that ${text(m.value) === 'true' ? 'hides' : 'shows'} ${JSON.stringify(text(m.affects))}`;
}

/**
 * An entry or group as the model sees it. A link's own `hidden` is where it starts (docs/import.md: a link's
 * hidden is what a roster sees); the entry's modifiers and then the link's are applied in order, the last
 * that holds deciding. One that may hold makes it depend, unless it sets what is already so.
 */
function step(target: Node, link: Node | undefined, facts: ModelFacts, parentIsModel: boolean, index: LoadoutIndex): Step {
  let hidden: Truth = isHidden(link ?? target);
  let because: string[] = [];
  let forbidden = false;
  const combinations: string[] = [];
  const unread: string[] = [];
  const parts = link ? [target, link] : [target];
  const modifiers = parts.flatMap(guardedModifiers);
  for (const g of modifiers) {
    const m = g.modifier;
    const type = text(m.type);
    const field = text(m.field);
    if (type === 'set' && field === 'hidden' && text(m.affects) !== '') unread.push(unreadAffects(text(target.name), m));
    else if (type === 'set' && field === 'hidden') {
      const value = text(m.value) === 'true';
      const holds = applies(g, facts, parentIsModel, index);
      if (holds.truth === true) [hidden, because] = [value, []];
      else if (holds.truth === undefined && hidden !== value) [hidden, because] = [undefined, [...because, `${value ? 'hides' : 'shows'} it when ${holds.unknown.join(' and ')}`]];
    } else if (type === 'add' && field === 'error') {
      const holds = applies(g, facts, parentIsModel, index);
      if (holds.truth === true) forbidden = true;
      else if (holds.truth === undefined) combinations.push(`the error ${JSON.stringify(text(m.value))} when ${holds.unknown.join(' and ')}`);
    }
  }
  // A limit of 0 that nothing changes: nothing of it can be taken. One a modifier changes is a count rule like any other.
  for (const c of parts.flatMap((p) => list(p.constraints))) {
    if (text(c.type) !== 'max' || text(c.field) !== 'selections' || Number(text(c.value)) !== 0) continue;
    const changed = modifiers.some((g) => text(g.modifier.field) === text(c.id));
    if (changed) combinations.push(`a limit of 0 on ${JSON.stringify(text(target.name))} that a modifier raises under a condition`);
    else forbidden = true;
  }
  return { hidden, because, forbidden, combinations, unread };
}

/** A weapon found, by the id the catalogue reading names its selection by, with why it may not be there. */
interface Found {
  readonly name: string;
  /** Each way it was reached, with the conditions on that way (none: it is offered as it is). */
  readonly ways: (readonly string[])[];
}

/** The ways to a weapon that no other way offers with fewer conditions (a way with none makes every other moot). */
function fewestConditions(ways: readonly (readonly string[])[]): (readonly string[])[] {
  const within = (a: readonly string[], b: readonly string[]) => a.every((x) => b.includes(x));
  const kept = ways.filter((w, i) => !ways.some((o, j) => j !== i && within(o, w) && (o.length < w.length || j < i)));
  return kept.some((w) => w.length === 0) ? [] : kept;
}

/**
 * The most steps (an entry, group or link seen on one way from the model) one model's loadout takes. A real
 * model takes a few hundred (at most 843 in the whole community set, its Praetor); groups that link
 * the next one twice, over and over, would take 2^depth: past this the loadout is not read, and said so.
 */
export const MAX_LOADOUT_STEPS = 20_000;

/**
 * The loadout of a model entry (reached through `link`, a faction's link to it, or not): the weapons it
 * may carry by their link's id (or entry's, where nested), less `carried` (what it must take: already its
 * own "MODEL with WEAPON") and `skip` (its unit options, part of the model itself).
 */
export function loadoutOf(entry: Node, link: Node | undefined, index: LoadoutIndex, carried: ReadonlySet<string>, skip: ReadonlySet<Node>): CatalogueLoadout {
  const parts = link ? [entry, link] : [entry];
  const categories = new Map<string, Truth>();
  for (const c of parts.flatMap((p) => list(p.categoryLinks))) categories.set(text(c.targetId), true);
  // A category a modifier adds or removes: with no condition it is so; under one, "is it Strong?" depends.
  for (const { modifier: m, guards } of parts.flatMap(guardedModifiers)) {
    const type = text(m.type);
    if (text(m.field) !== 'category' || (type !== 'add' && type !== 'remove')) continue;
    const conditional = guards.some((g) => list(g.conditions).length > 0 || list(g.conditionGroups).length > 0);
    categories.set(text(m.value), conditional ? undefined : type === 'add');
  }
  const facts: ModelFacts = { ids: new Set(parts.map((p) => text(p.id)).filter((id) => id !== '')), categories };
  const found = new Map<string, Found>();
  const combinations = new Set<string>();
  const unread = new Set<string>();
  // The model's own modifiers that act on what is under it are not read either.
  const modelUnread = parts.flatMap(guardedModifiers).filter(({ modifier: m }) => text(m.type) === 'set' && text(m.field) === 'hidden' && text(m.affects) !== '').map(({ modifier: m }) => unreadAffects(text(entry.name), m));
  const children = (nodes: readonly Node[]) => nodes.flatMap((n) => [
    ...list(n.selectionEntries).map((e) => ({ target: e, link: undefined as Node | undefined, group: false })),
    ...list(n.selectionEntryGroups).map((g) => ({ target: g, link: undefined as Node | undefined, group: true })),
    ...list(n.entryLinks).flatMap((l) => {
      const id = text(l.targetId);
      const e = index.entries.get(id)?.node;
      const g = index.groups.get(id);
      return e ? [{ target: e, link: l as Node | undefined, group: false }] : g ? [{ target: g, link: l as Node | undefined, group: true }] : [];
    }),
  ]);
  // Explicit stack (never recursing); `seen` on the path stops a group that links itself.
  const stack = [{ nodes: parts, parentIsModel: true, because: [] as string[], combinations: [] as string[], unread: modelUnread, seen: new Set<Node>([entry]) }];
  let steps = 0;
  for (let at = stack.pop(); at; at = stack.pop()) {
    for (const child of children(at.nodes)) {
      if (++steps > MAX_LOADOUT_STEPS) {
        return { notes: [{ text: text(entry.name), why: `not read: its groups and links reach entries more than ${MAX_LOADOUT_STEPS} ways; paired with every weapon, as a model without a loadout is` }] };
      }
      if (at.seen.has(child.target) || skip.has(child.target)) continue;
      if (!child.group && index.isModel(child.target)) continue;
      const s = step(child.target, child.link, facts, at.parentIsModel, index);
      if (s.hidden === true || s.forbidden) continue;
      const name = JSON.stringify(text((child.link ?? child.target).name));
      const because = [...at.because, ...s.because.map((b) => `${name} ${b}`)];
      const combos = [...at.combinations, ...s.combinations];
      const unreadHere = [...at.unread, ...s.unread];
      if (!child.group && index.isWeapon(child.target)) {
        const key = text((child.link ?? child.target).id);
        // Reached twice, it is offered when either way offers it.
        if (!carried.has(key)) {
          found.set(key, { name: text((child.link ?? child.target).name), ways: [...(found.get(key)?.ways ?? []), because] });
          for (const c of combos) combinations.add(c);
          for (const u of unreadHere) unread.add(u);
        }
      }
      const childParts = child.link ? [child.target, child.link] : [child.target];
      // Under a group the parent selection is still the model; under an entry it is that entry, which what
      // is found under it needs beside it (a bayonet on its rifle): said, as a combination is.
      const needs = child.group ? [] : [`it is an option of ${name}, taken with it`];
      stack.push({ nodes: childParts, parentIsModel: child.group && at.parentIsModel, because: [...because, ...needs], combinations: combos, unread: unreadHere, seen: new Set([...at.seen, child.target]) });
    }
  }
  // One note per reason, naming the weapons it touches: what was not evaluated, never dropped silently.
  const byReason = new Map<string, string[]>();
  for (const f of found.values()) {
    const ways = fewestConditions(f.ways);
    if (ways.length === 0) continue;
    const reason = ways.map((w) => w.join(' and ')).join('; or ');
    byReason.set(reason, [...(byReason.get(reason) ?? []), f.name]);
  }
  const notes = [
    ...[...byReason].map(([reason, names]) => ({
      text: names.join(', '),
      why: `in the loadout, though ${reason}: a condition the catalogue files do not answer for the model alone (the roster, other selections, an id no file given holds), so it is not evaluated`,
    })),
    ...[...combinations].map((c) => ({ text: c, why: 'a rule on a combination of selections, not read: each weapon is paired with the model alone' })),
    ...[...unread].map((u) => ({ text: u, why: 'a modifier that acts on the entries under it, not read: they are read as the rest of the catalogue says' })),
  ];
  return { weapons: [...found.keys()], notes };
}
