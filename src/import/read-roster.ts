import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { UsageError, showValue } from '../errors.js';
import { refusalAt } from '../messages.js';
import { checkJsonDepth, checkJsonKeys, jsonProblem } from '../json-text.js';
import type { LeftOutKind } from '../model/profiles.js';

/**
 * A roster exported from NewRecruit, in any of its three formats, read into one tree: the shape of
 * NewRecruit's JSON export (`roster.forces[].selections[]`, characteristic values under `$text`), which
 * is the BattleScribe roster XML with each list's wrapper element dropped. Everything the user names is
 * checked here, once: a file that is not a roster ends in one line naming the file and what is wrong.
 */

/** Real rosters are tens of KB (a whole warband with every rule's text stays under 1 MB). */
export const MAX_ROSTER_BYTES = 8 * 1024 * 1024;
/** The same bound on the .ros inside a .rosz, checked on the size its zip entry declares before inflating. */
export const MAX_ROSTER_ENTRIES = 16;

export interface RosterCharacteristic {
  readonly name: string;
  readonly $text: string;
}
export interface RosterProfile {
  readonly name: string;
  readonly typeName: string;
  readonly hidden: boolean;
  /** Hidden, and shown by a modifier when a condition holds (a catalogue's "Alchemical Jezzail", shown when its ammunition is chosen). */
  readonly shownWhen?: true;
  readonly characteristics: readonly RosterCharacteristic[];
}
export interface RosterNamed {
  readonly name: string;
}
export interface RosterCost {
  readonly name: string;
  readonly value: number;
}
/** A selection (a model, a unit, a weapon, an upgrade) and everything selected under it. */
export interface RosterSelection {
  /** The name the roster gives it: a player's own name for it ("customName") where there is one. */
  readonly name: string;
  /**
   * The catalogue entry's name, where the roster renames it ("Al-Qahhar, the Crippled" of a Brazen
   * Bull): the entry's rules text names the entry, never the player's label, so it is read by both.
   */
  readonly entryName?: string;
  readonly type: string;
  readonly number: number;
  readonly selections: readonly RosterSelection[];
  readonly profiles: readonly RosterProfile[];
  readonly rules: readonly RosterNamed[];
  readonly categories: readonly RosterNamed[];
  readonly costs: readonly RosterCost[];
  /** From a catalogue: whose price its cost is (a faction's link to an item), said in its description. */
  readonly priceOf?: string;
  /** From a catalogue: the catalogue that holds the entry, which names it apart from another of the same name. */
  readonly catalogue?: string;
  /**
   * From a catalogue: the faction whose link offers it. A faction's link to a shared model may add its own
   * weapons (the real New Antioch's link to the Mercenaries' Scripture Guardian adds its "Melee Weapons"),
   * so one model may differ by faction, and is then named after it.
   */
  readonly offeredBy?: string;
  /** From a catalogue: the ids it was read from, the link's (if through one) then the entry's: what a model's loadout names it by. */
  readonly catalogueIds?: readonly string[];
  /** From a catalogue, on a model: the weapons it may carry (src/import/loadout.ts). */
  readonly loadout?: CatalogueLoadout;
}
/**
 * The weapons a catalogue lets a model carry, by the ids of the links (or entries) that offer them, with
 * what the reader could not evaluate on the way (a condition on the roster, a rule on a combination).
 */
export interface CatalogueLoadout {
  /** Undefined where the loadout could not be read whole (src/import/loadout.ts says why in `notes`). */
  readonly weapons?: readonly string[];
  readonly notes: readonly { readonly text: string; readonly why: string }[];
}
export interface RosterForce {
  readonly name: string;
  readonly selections: readonly RosterSelection[];
  readonly rules: readonly RosterNamed[];
  readonly forces: readonly RosterForce[];
  /** A catalogue's models and weapons hidden for every faction (no modifier shows them): listed, not read. */
  readonly hiddenEntries?: readonly string[];
  /** What a catalogue names that the files given cannot read (links to a catalogue not given): listed. */
  readonly notRead?: readonly { readonly text: string; readonly why: string; readonly kind: LeftOutKind }[];
}
export interface RosterTree {
  /** As the user named it, for messages. */
  readonly file: string;
  /** How messages name it: `roster file "a.ros"`. */
  readonly label: string;
  readonly name: string;
  /** The game the roster says it is for ("Trench Crusade"), if it says. */
  readonly gameSystemName?: string;
  /** The cost types in the roster's order ("Ducats", "Glory Points"). */
  readonly costTypes: readonly string[];
  readonly forces: readonly RosterForce[];
}

/**
 * The lists of a roster and of a catalogue: in XML each is a wrapper element holding its items
 * (`<costs><cost/></costs>`); in the JSON tree each is an array.
 */
const LISTS: Record<string, string> = {
  forces: 'force',
  selections: 'selection',
  profiles: 'profile',
  characteristics: 'characteristic',
  rules: 'rule',
  categories: 'category',
  costs: 'cost',
  // Catalogues (.gst, .cat): what can be selected, and the links to it.
  selectionEntries: 'selectionEntry',
  sharedSelectionEntries: 'selectionEntry',
  selectionEntryGroups: 'selectionEntryGroup',
  sharedSelectionEntryGroups: 'selectionEntryGroup',
  entryLinks: 'entryLink',
  infoLinks: 'infoLink',
  categoryLinks: 'categoryLink',
  categoryEntries: 'categoryEntry',
  sharedProfiles: 'profile',
  sharedRules: 'rule',
  costTypes: 'costType',
  // The catalogues a catalogue links (to name the ones not given).
  catalogueLinks: 'catalogueLink',
  // What changes an entry when conditions hold: whether it is hidden, its price.
  modifiers: 'modifier',
  modifierGroups: 'modifierGroup',
  conditions: 'condition',
  conditionGroups: 'conditionGroup',
  repeats: 'repeat',
  // How many of an entry a model must or may take: a min of 1 makes it compulsory.
  constraints: 'constraint',
};

export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The first line of what a library threw (fast-xml-parser, fflate), for a one-line refusal. */
function libraryMessage(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0]!.trim() || (e instanceof Error ? e.name : 'unknown error');
}

/**
 * The one file a zip holds whose name ends in `ext` (the .ros of a .rosz), refused before inflating when
 * its declared size is too large (a zip bomb). fflate inflates into a buffer of the declared size and does
 * not grow it, so a size that lies is no way around the bound.
 */
function unzipOne(bytes: Uint8Array, at: string, ext: string, zipName: string, noun: string): Uint8Array {
  const names: string[] = [];
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (entry) => {
        names.push(entry.name);
        if (names.length > MAX_ROSTER_ENTRIES) throw refusalAt(at, `a zip of more than ${MAX_ROSTER_ENTRIES} files`, `a ${zipName} holds one ${ext}`);
        if (!entry.name.toLowerCase().endsWith(ext)) return false;
        if (entry.originalSize > MAX_ROSTER_BYTES) {
          throw refusalAt(at, `its ${showValue(entry.name)} would inflate to ${mb(entry.originalSize)}`, `${noun} is at most ${MAX_ROSTER_BYTES / 1024 / 1024} MiB`);
        }
        return true;
      },
    });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw refusalAt(at, `not a readable zip (${libraryMessage(e)})`);
  }
  const ros = Object.keys(entries);
  if (ros.length !== 1) {
    const held = names.length ? names.map((n) => showValue(n)).join(', ') : 'no files';
    throw refusalAt(at, `a ${zipName} holds exactly one ${ext} file; this zip holds ${ros.length === 0 ? 'none' : ros.length} (${held})`);
  }
  return entries[ros[0]!]!;
}

/** BattleScribe XML (a roster, a catalogue) as the JSON export's tree. */
function parseBattleScribeXml(text: string, at: string): unknown {
  // A roster never declares a DOCTYPE: refusing one refuses every entity-expansion trick with it.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw refusalAt(at, 'XML with a DOCTYPE or ENTITY declaration', 'a roster has none');
  const depth = xmlDepth(text);
  if (depth > MAX_XML_DEPTH) throw refusalAt(at, `XML nested ${depth} deep`, `a roster is at most ${MAX_XML_DEPTH} levels`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    textNodeName: '$text',
    // Characteristics such as "-1" and names such as "1st Rifle" stay text; costs are read as numbers below.
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (tag) => Object.values(LISTS).includes(tag),
    // The library's own bound (100 by default) is ours, so that deep input is refused by our check above, with its message.
    maxNestedTags: MAX_XML_DEPTH,
  });
  // Whatever the library refuses (a name such as "__proto__" or "constructor", which it will not make a
  // key of, or nesting our count missed) is a file the user gave: one line naming it, never a stack trace.
  let parsed: unknown;
  try {
    const valid = XMLValidator.validate(text);
    if (valid !== true) throw refusalAt(at, `not valid XML (line ${valid.err.line}: ${valid.err.msg})`);
    parsed = parser.parse(text);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw refusalAt(at, `not readable XML (${libraryMessage(e)})`);
  }
  return unwrapLists(parsed);
}

/** A roster is about a dozen levels deep (selections in selections add two each), a catalogue a few dozen. */
const MAX_XML_DEPTH = 256;

/** The index just past the first `end` at or after `from`, or -1 when there is none (the validator refuses that). */
function pastEnd(text: string, end: string, from: number): number {
  const at = text.indexOf(end, from);
  return at === -1 ? -1 : at + end.length;
}

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const GREATER_THAN = 0x3e;

/**
 * The deepest nesting of elements, counted from the tags before the parser runs, so that deep input is
 * refused in one line rather than by the library. Comments, CDATA, processing instructions and quoted
 * attribute values are skipped as the parser skips them: a `/>` or `<a>` inside them hides no nesting.
 */
function xmlDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = text.indexOf('<'); i !== -1; ) {
    let next: number;
    if (text.startsWith('<!--', i)) next = pastEnd(text, '-->', i + 4);
    else if (text.startsWith('<![CDATA[', i)) next = pastEnd(text, ']]>', i + 9);
    else if (text.startsWith('<?', i)) next = pastEnd(text, '?>', i + 2);
    else if (text.startsWith('<!', i)) next = pastEnd(text, '>', i + 2);
    else {
      // A start or end tag ends at its first `>` outside quotes.
      let close = i + 1;
      for (let quote = 0; close < text.length; close++) {
        const c = text.charCodeAt(close);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === QUOTE || c === APOSTROPHE) quote = c;
        else if (c === GREATER_THAN) break;
      }
      if (close >= text.length) break;
      // An end tag too many cannot bank depth for the tags after it.
      if (text[i + 1] === '/') depth = Math.max(0, depth - 1);
      else if (text[close - 1] !== '/') max = Math.max(max, ++depth);
      next = close + 1;
    }
    if (next === -1) break;
    i = text.indexOf('<', next);
  }
  return max;
}

/** `{ costs: { cost: [...] } }` -> `{ costs: [...] }`, all the way down (an explicit stack: never recurses). */
function unwrapLists(root: unknown): unknown {
  const stack: unknown[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      // Own keys only: a key such as "toString" is no list.
      const item = Object.hasOwn(LISTS, key) ? LISTS[key] : undefined;
      if (item !== undefined) {
        // An empty list element (<rules/>) parses as "".
        const inner = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[item] : undefined;
        record[key] = Array.isArray(inner) ? inner : [];
      }
      stack.push(record[key]);
    }
  }
  return root;
}

export const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
export const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)) : []);
export const named = (v: unknown): RosterNamed[] => list(v).map((x) => ({ name: text(x.name) })).filter((x) => x.name !== '');

/**
 * A cost's value as a number: a JSON number, or text that is a decimal number ("15", "15.0"). Anything else
 * (blank, "abc", null, "0x10") is undefined, never 0: `Number("")` and `Number(null)` would read as free.
 */
function costValue(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) && Number.isFinite(Number(t)) ? Number(t) : undefined;
}

export function readCosts(v: unknown): RosterCost[] {
  return list(v)
    .map((c) => ({ name: text(c.name), value: costValue(c.value) }))
    .filter((c): c is RosterCost => c.name !== '' && c.value !== undefined);
}

/**
 * The most one selection may cost. Real prices are hundreds (a Trench Crusade warband is about 700 Ducats);
 * a billion is beyond any game's, and bounds every total: an 8 MiB roster holds fewer than half a million
 * costs, so their sum stays under 2^53 (whole prices add up exactly) and is never Infinity (JSON's null).
 */
export const MAX_COST = 1e9;

/** A roster whose selection holds a cost or a count that is not a number: its message, without the file. */
class RosterShapeError extends Error {}

/**
 * A selection's costs, each a number from -MAX_COST to MAX_COST: a cost the value charts would divide by
 * is never guessed (an unreadable or blank one is not taken as 0). A negative cost is an offset of the
 * roster's total (NewRecruit's storage selections carry one), never a profile's price: roster.ts keeps
 * it out of every profile's cost.
 */
function selectionCosts(raw: Record<string, unknown>, name: string): RosterCost[] {
  for (const c of list(raw.costs)) {
    if (text(c.name) === '') continue;
    const value = costValue(c.value);
    const its = `selection ${showValue(name)}: its ${text(c.name)} cost ${showValue(c.value)}`;
    if (value === undefined) throw new RosterShapeError(`${its} is not allowed; allowed: a number (negative only as an offset of the roster's total)`);
    if (Math.abs(value) > MAX_COST) throw new RosterShapeError(`${its} is more than any price; allowed: a number from -${MAX_COST} to ${MAX_COST}`);
  }
  return readCosts(raw.costs);
}

function readSelection(raw: Record<string, unknown>): RosterSelection {
  const number = Number(raw.number ?? 1);
  const name = text(raw.customName) || text(raw.name);
  if (!(Number.isInteger(number) && number >= 1)) {
    throw new RosterShapeError(`selection ${showValue(name)}: number ${showValue(raw.number)} is not allowed; allowed: a whole number from 1 (how many models or items it is)`);
  }
  const entryName = text(raw.name);
  return {
    name,
    ...(entryName !== '' && entryName !== name ? { entryName } : {}),
    type: text(raw.type),
    number,
    selections: list(raw.selections).map(readSelection),
    profiles: list(raw.profiles).map((p) => ({
      name: text(p.name),
      typeName: text(p.typeName),
      hidden: p.hidden === true || p.hidden === 'true',
      characteristics: list(p.characteristics).map((c) => ({ name: text(c.name), $text: text(c.$text) })),
    })),
    rules: named(raw.rules),
    categories: named(raw.categories),
    costs: selectionCosts(raw, name),
  };
}

function readForce(raw: Record<string, unknown>): RosterForce {
  return {
    name: text(raw.catalogueName) || text(raw.name),
    selections: list(raw.selections).map(readSelection),
    rules: named(raw.rules),
    forces: list(raw.forces).map(readForce),
  };
}

/** The roster tree of a parsed document (XML unwrapped, or JSON), or one line saying it is not a roster. */
export function rosterTree(doc: unknown, file: string, at: string): RosterTree {
  const roster = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).roster : undefined;
  if (typeof roster !== 'object' || roster === null || Array.isArray(roster) || !Array.isArray((roster as Record<string, unknown>).forces)) {
    throw refusalAt(at, 'not a roster: no "roster" with "forces" (a NewRecruit or BattleScribe roster export is)');
  }
  const r = roster as Record<string, unknown>;
  const gameSystemName = text(r.gameSystemName);
  return {
    file,
    label: `roster file ${showValue(file)}`,
    name: text(r.name),
    ...(gameSystemName ? { gameSystemName } : {}),
    costTypes: readCosts(r.costs).map((c) => c.name),
    forces: readForces(r, at),
  };
}

function readForces(r: Record<string, unknown>, at: string): RosterForce[] {
  try {
    return list(r.forces).map(readForce);
  } catch (e) {
    if (e instanceof RosterShapeError) throw refusalAt(at, e.message);
    throw e;
  }
}

/** A BattleScribe file read but not yet parsed: its text, and the bytes that text is (a zip's entry inflated). */
export interface BattleScribeDocument {
  readonly text: string;
  readonly bytes: number;
  /** How messages name it: the file, or the file's zipped entry. */
  readonly at: string;
  /** A zip's entry is parsed as XML whatever its first bytes. */
  readonly zipped: boolean;
}

/**
 * The document of a BattleScribe file's bytes (read by src/import/read-battlescribe.ts, or opened in a
 * page): a zip holding one file ending in `ext` (`zipName` says what the zip is called) is inflated;
 * anything else is read as UTF-8 text.
 */
export function battleScribeDocument(bytes: Uint8Array, at: string, ext: string, zipName: string): BattleScribeDocument {
  const noun = ext === '.ros' ? 'a roster' : 'a catalogue file';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const entry = unzipOne(bytes, at, ext, zipName, noun);
    return { text: new TextDecoder('utf-8').decode(entry), bytes: entry.length, at: `${at}its ${ext}: `, zipped: true };
  }
  return { text: new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''), bytes: bytes.length, at, zipped: false };
}

/** A BattleScribe document's XML or JSON, told apart by their first bytes, not their names; `what` it is not, when neither. */
export function parseBattleScribeDocument(doc: BattleScribeDocument, what: string): unknown {
  const { text: content, at } = doc;
  if (doc.zipped) return parseBattleScribeXml(content, at);
  const first = content.trimStart()[0];
  if (first === '<') return parseBattleScribeXml(content, at);
  if (first === '{') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch (e) {
      throw refusalAt(at, `not valid JSON (${jsonProblem(content, e instanceof Error ? e.message : String(e))})`);
    }
    checkJsonDepth(parsed, at.replace(/: $/, ''));
    checkJsonKeys(parsed, at.replace(/: $/, ''));
    return parsed;
  }
  throw refusalAt(at, `not ${what}`);
}

/** How messages name a roster file: `roster file "a.ros": `. */
export const rosterAt = (path: string): string => `roster file ${showValue(path)}: `;

/**
 * A roster file's document as a roster tree: a .rosz (a zip holding one .ros), a .ros (BattleScribe
 * roster XML) or NewRecruit's JSON export, told apart by their first bytes, not their names.
 */
export function rosterFromDocument(doc: BattleScribeDocument, path: string): RosterTree {
  const parsed = parseBattleScribeDocument(doc, "a roster; allowed: a .rosz (zip), a .ros (BattleScribe XML) or NewRecruit's JSON export");
  return rosterTree(parsed, path, rosterAt(path));
}
