/**
 * A battle as a user asks for it (`injury-lab battle`), read without a file of its own (the page could
 * bundle it; ./battle.ts reads the files): two warbands named by entries of a profiles
 * file, a roster or catalogues ("Trench Pilgrim with Rifle x6, Castigator with Great Hammer/Maul"), the
 * game's settings and each side's, checked and read into the plain data a simulation worker is sent
 * (src/rules/trench-crusade/battle/resolved.ts). Every attack of the battle is read as a duel reads its
 * sides (one entry's weapon against one enemy entry's body) and checked as the sequence it is.
 */
import { showValue } from '../errors.js';
import { notAllowed, notOneOf, refusal } from '../messages.js';
import { describeAllowed, fieldJsonSchema, inAllowedCase } from '../model/field-schema.js';
import { findSideProfiles, type Profiles } from '../model/profiles.js';
import type { FieldSpec, Scenario } from '../model/types.js';
import { parseQuotedList, LIST_QUOTING } from '../quoted-list.js';
import { findSystem } from '../rules/registry.js';
import { DUEL_KIND } from '../rules/duel-report.js';
import { type DuelScenario, duelPlanOf } from '../rules/trench-crusade/duel/sides.js';
import { battleFields, battleSideFields, type BattleGameSettings } from '../rules/trench-crusade/battle/fields.js';
import { BATTLE_SIDES, DEFAULT_MOVEMENT_INCHES, type BattleBloodPolicy, type BattleSideKey, type BattleTactic } from '../rules/trench-crusade/battle/kind.js';
import type { BattleEntry, BattleWeapon } from '../rules/trench-crusade/battle/plan.js';
import type { BattleScenario, ResolvedBattle, ResolvedBattleSide } from '../rules/trench-crusade/battle/resolved.js';
import type { SequenceScenario } from '../rules/trench-crusade/sequence/model.js';
import type { ProfileSource } from './profile-source.js';

/** Models of one entry, and of one side, at most: a skirmish warband is some 10 to 20 models. */
export const MAX_ENTRY_COUNT = 50;
export const MAX_SIDE_MODELS = 60;
/** An entry's weapons: "MODEL with W1 + W2". */
const WEAPON_JOIN = ' + ';
/** A side that is a roster as fielded (`--a-roster`), as its warband is said. */
const rosterSide = (file: string) => `the roster ${showValue(file)} as fielded`;
/** The name of the melee weapon of an entry that carries none (ruling B44). */
export const UNARMED = 'unarmed';
/** How a battle names a ranged weapon used in melee (ruling B47): "Pistol (in melee)". */
export const IN_MELEE = '(in melee)';
/** An entry as written without its count ("Trench Pilgrim with Rifle x6" is "Trench Pilgrim with Rifle"). */
const withoutCount = (text: string) => text.replace(/\s+[x×]\s*\d+$/i, '');
/** An entry written with its count, as a warband writes it: none for one model. */
const withCount = (bare: string, count: number) => `${bare}${count > 1 ? ` x${count}` : ''}`;
/** What a side's warband allows, for the messages that refuse one. */
const warbandAllowed = (side: string) => `side ${side}'s warband: entries separated by commas, each "MODEL with WEAPON + WEAPON xCOUNT" (${LIST_QUOTING})`;

export interface BattleSettings extends ProfileSource, BattleGameSettings {
  readonly edition?: string;
  /** Each side's warband as written, or `ROSTER` where the side is the roster's models as fielded (`--a-roster`). */
  readonly a: string;
  readonly b: string;
  /** The sides that are the roster (--roster) as fielded, every model with its kit. */
  readonly aRoster?: true;
  readonly bRoster?: true;
  readonly aTactic: BattleTactic;
  readonly bTactic: BattleTactic;
  readonly aBlood: BattleBloodPolicy;
  readonly bBlood: BattleBloodPolicy;
  /** "NEW for OLD": side a's entries with NEW in place of OLD (./battle-core.ts SwapVariant says which battle is read). */
  readonly swap?: string;
}

/** Which battle of a swap is read: side a as asked, with NEW in place of OLD, or with OLD taken out. */
export const SWAP_VARIANTS = ['asked', 'swapped', 'without'] as const;
export type SwapVariant = (typeof SWAP_VARIANTS)[number];
/** The word that joins a swap's two entries. */
const SWAP_JOIN = ' for ';

/** A side's own setting as a flag and a settings key names it: `aTactic`, `bBlood`. */
export const sideSettingName = (side: BattleSideKey, field: string) => `${side}${field[0]!.toUpperCase()}${field.slice(1)}`;

/**
 * The settings that are no field's value, each with what it is: a battle file's keys and the command's
 * flags of the same names. `files`: paths, read relative to a battle file.
 */
export const BATTLE_TEXT_SETTINGS: readonly { readonly name: string; readonly description: string; readonly type: 'string' | 'files' | 'boolean'; readonly file?: true }[] = [
  { name: 'a', type: 'string', description: `Side a's warband: entries separated by commas, each "MODEL with WEAPON + WEAPON xCOUNT" of the profiles (${LIST_QUOTING})` },
  { name: 'b', type: 'string', description: "Side b's warband, as a" },
  { name: 'aRoster', type: 'string', file: true, description: "Or side a is this roster (NewRecruit .rosz, .ros or JSON) as fielded: every model with the kit it holds; the other side's entries are read from it too (or from catalogue files with it)" },
  { name: 'bRoster', type: 'string', file: true, description: 'Or side b is this roster as fielded, as aRoster' },
  { name: 'profiles', type: 'string', file: true, description: 'The profiles file the warbands are read from (injury-lab profiles exports one from a roster or catalogue)' },
  { name: 'roster', type: 'string', file: true, description: 'Or a roster exported from NewRecruit (.rosz, .ros or its JSON)' },
  { name: 'catalogue', type: 'files', file: true, description: 'Or BattleScribe catalogue files (.gst, .cat): every model they offer with the weapons of its loadout' },
  { name: 'allowUnmodelled', type: 'boolean', description: "Use entries that hold what nothing models (a weapon's unknown keyword): left out, with a warning" },
  { name: 'edition', type: 'string', description: "The edition (default: the system's newest)" },
  {
    name: 'swap',
    type: 'string',
    description: 'What an entry is worth in side a\'s warband: "NEW for OLD" (counts as "NEW x2 for OLD"): the battle is played as asked, with NEW in place of OLD, and without OLD, and NEW\'s worth in ducats here is read from the three',
  },
];

/** A battle file's JSON Schema (`battle --schema`): every setting, from the declarations above and the fields'. */
export function battleJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = { $schema: { type: 'string' } };
  for (const t of BATTLE_TEXT_SETTINGS) {
    properties[t.name] =
      t.type === 'boolean'
        ? { type: 'boolean', description: t.description }
        : t.type === 'files'
          ? { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: t.description }
          : { type: 'string', minLength: 1, description: t.description };
  }
  for (const [name, f] of BATTLE_SETTING_FIELDS) properties[name] = { ...fieldJsonSchema(f), default: f.default };
  return { $schema: 'http://json-schema.org/draft-07/schema#', title: 'injury-lab battle file', type: 'object', properties, additionalProperties: false };
}

/** Every setting that is a field's value, by its settings name: the game's, then each side's. */
export const BATTLE_SETTING_FIELDS: readonly (readonly [string, FieldSpec])[] = [
  ...battleFields.map((f) => [f.name, f] as const),
  ...BATTLE_SIDES.flatMap((side) => battleSideFields.map((f) => [sideSettingName(side, f.name), f] as const)),
];

function checkedValue(field: FieldSpec, given: unknown, name: string): unknown {
  const value = inAllowedCase(field, given ?? field.default);
  const s = field.schema;
  if (s.type === 'string') {
    if (!(s.enum as readonly unknown[]).includes(value)) throw notOneOf(name, value, `a known ${field.name}`, s.enum);
  } else if (s.type === 'integer' || s.type === 'number') {
    const ok = typeof value === 'number' && Number.isFinite(value) && (s.type === 'number' || Number.isInteger(value)) && value >= s.minimum && value <= s.maximum;
    if (!ok) throw notAllowed(name, value, describeAllowed(s));
  } else if (s.type === 'boolean' && typeof value !== 'boolean') {
    throw notAllowed(name, value, 'true or false');
  }
  return value;
}

/**
 * The settings given (by settings name), checked, the defaults filled in; `nameOf` says a setting as the
 * user wrote it ("--a-tactic"). One source of entries (a profiles file, or a roster and catalogues) and
 * both warbands are required.
 */
export function checkBattleSettings(given: Readonly<Record<string, unknown>>, nameOf: (name: string) => string): BattleSettings {
  const out: Record<string, unknown> = {};
  // A side may be a roster's models as fielded: that roster is then where every name is read.
  const rostered = { ...given };
  for (const side of BATTLE_SIDES) {
    const key = `${side}Roster`;
    const file = given[key];
    if (file === undefined) continue;
    if (typeof file !== 'string' || file === '') throw notAllowed(nameOf(key), file, 'a roster file');
    if (given[side] !== undefined) throw refusal(`${nameOf(side)}, ${nameOf(key)}`, `side ${side} is named twice`, `give one: entries (${nameOf(side)}) or a roster as fielded (${nameOf(key)})`);
    if (rostered.roster !== undefined && rostered.roster !== file) {
      throw refusal(nameOf(key), `${showValue(file)} is a second roster (the battle reads ${showValue(rostered.roster)})`, `allowed: one roster a battle; the other side from its entries, or from ${nameOf('catalogue')} files read with it`);
    }
    rostered.roster = file;
    rostered[side] = rosterSide(file);
    out[key] = true;
  }
  given = rostered;
  const sources = (['profiles', 'roster', 'catalogue'] as const).filter((s) => given[s] !== undefined);
  const warband = sources.length === 2 && given.roster !== undefined && given.catalogue !== undefined;
  if (sources.length !== 1 && !warband) {
    const choices = `${nameOf('profiles')} FILE, ${nameOf('roster')} FILE or ${nameOf('catalogue')} FILE... (${nameOf('roster')} and ${nameOf('catalogue')} may go together)`;
    throw refusal(sources.length === 0 ? 'battle' : sources.map(nameOf).join(', '), sources.length === 0 ? 'no profiles named for the warbands' : 'more than one source of profiles named', `give one of ${choices}`);
  }
  for (const s of sources) {
    const value = given[s];
    const files = s === 'catalogue' ? (Array.isArray(value) ? value : [value]) : [value];
    if (!files.every((f) => typeof f === 'string' && f !== '')) throw notAllowed(nameOf(s), value, 'a file path');
    out[s] = s === 'catalogue' ? files : value;
  }
  if (given.allowUnmodelled !== undefined) out.allowUnmodelled = given.allowUnmodelled === true;
  if (given.swap !== undefined) {
    if (typeof given.swap !== 'string' || given.swap.split(SWAP_JOIN).length !== 2) throw notAllowed(nameOf('swap'), given.swap, '"NEW for OLD": an entry of the profiles and one of side a\'s, joined by " for " once');
    out.swap = given.swap;
  }
  if (given.edition !== undefined) {
    if (typeof given.edition !== 'string' || given.edition === '') throw notAllowed(nameOf('edition'), given.edition, 'an edition');
    out.edition = given.edition;
  }
  for (const side of BATTLE_SIDES) {
    const text = given[side];
    if (typeof text !== 'string' || text.trim() === '') throw notAllowed(nameOf(side), text, warbandAllowed(side));
    out[side] = text;
  }
  for (const [name, field] of BATTLE_SETTING_FIELDS) out[name] = checkedValue(field, given[name], nameOf(name));
  return out as unknown as BattleSettings;
}

/** One entry as written: its model, its weapons (their profile names), how many. */
interface EntryText {
  readonly text: string;
  readonly model: string;
  readonly weapons: readonly string[];
  readonly count: number;
}

/** "MODEL with W1 + W2 x3" read against the profiles: its model and weapons, each found, and its count. */
function readEntry(text: string, profiles: Profiles, flag: string): EntryText {
  const counted = /^(.*\S)\s+[x×]\s*(\S+)$/i.exec(text);
  const name = counted ? counted[1]! : text;
  const countText = counted ? counted[2]! : '1';
  const count = /^\d+$/.test(countText) ? Number(countText) : NaN;
  if (!(Number.isInteger(count) && count >= 1 && count <= MAX_ENTRY_COUNT)) {
    throw notAllowed(`${flag}: ${showValue(text)}: count`, countText, `a whole number of models from 1 to ${MAX_ENTRY_COUNT}, written "ENTRY x3"`);
  }
  const [first, ...more] = name.split(WEAPON_JOIN).map((part) => part.trim());
  const side = findSideProfiles(profiles, first, `${flag}: ${showValue(text)}`);
  const model = side.model!;
  const weapons = side.weapon === undefined ? [] : [side.weapon];
  for (const w of more) {
    const found = findSideProfiles(profiles, `${model} with ${w}`, `${flag}: ${showValue(text)}`);
    if (found.model !== model || found.weapon === undefined) throw refusal(`${flag}: ${showValue(text)}`, `${showValue(w)} is no weapon of ${showValue(model)}`, 'allowed: weapons of its loadout, joined with " + "');
    weapons.push(found.weapon);
  }
  // A weapon read apart from its model must be one the model may carry (a catalogue's loadout).
  const loadout = profiles.models.get(model)?.loadout;
  for (const w of weapons) {
    if (loadout === undefined || w.startsWith(`${model} with `) || loadout.includes(w)) continue;
    throw refusal(`${flag}: ${showValue(text)}`, `${showValue(w)} is not a weapon ${showValue(model)} may carry`, `allowed: ${loadout.length ? loadout.map((l) => showValue(l)).join(', ') : 'none (its loadout is empty)'}`);
  }
  return { text, model, weapons, count };
}

/** A roster's models as fielded, each with the weapons it holds (its "MODEL with WEAPON" readings), as entries. */
function fieldedEntries(profiles: Profiles, flag: string): EntryText[] {
  const fielded = profiles.fielded ?? [];
  if (fielded.length === 0) throw refusal(flag, `the roster ${showValue(profiles.file)} fields no model`, 'allowed: a roster with models');
  return fielded.map(({ model, count }) => {
    const held = profiles.models.get(model)?.loadout ?? [];
    const weapons = held.map((w) => (profiles.weapons.has(`${model} with ${w}`) ? `${model} with ${w}` : w));
    const text = withCount(`${model}${held.length ? ` with ${held.join(WEAPON_JOIN)}` : ''}`, count);
    if (count > MAX_ENTRY_COUNT) throw notAllowed(`${flag}: ${showValue(text)}: count`, count, `a whole number of models from 1 to ${MAX_ENTRY_COUNT}`);
    return { text, model, weapons, count };
  });
}

/** A swap read: what comes in, what goes out (of side a's entries), and the ducats of each. */
export interface SwapRead {
  readonly incoming: { readonly text: string; readonly count: number; readonly cost: number | undefined };
  readonly outgoing: { readonly text: string; readonly count: number; readonly cost: number | undefined };
}

/** The entry of side a that a swap's OLD names: its text without a count, or its model where one entry has it. */
function swappedOut(entries: readonly EntryText[], old: string, flag: string): number {
  const bare = (e: EntryText) => withoutCount(e.text);
  let found = entries.findIndex((e) => bare(e) === old);
  if (found < 0) {
    const byModel = entries.flatMap((e, i) => (e.model === old ? [i] : []));
    if (byModel.length === 1) found = byModel[0]!;
  }
  if (found < 0) throw notOneOf(`${flag}: OLD`, old, "an entry of side a's warband", entries.map(bare));
  return found;
}

/**
 * Side a's entries for one battle of a swap ("NEW xN for OLD xM"): as asked, with M of OLD out and N
 * of NEW in, or with M of OLD out alone. OLD must hold M models; NEW is read as any entry is.
 */
function applySwap(entries: readonly EntryText[], swap: string, variant: SwapVariant, profiles: Profiles, flag: string): { entries: EntryText[]; read: SwapRead } {
  const [newText, oldText] = swap.split(SWAP_JOIN).map((t) => t.trim()) as [string, string];
  const incoming = readEntry(newText, profiles, `${flag}: NEW`);
  const counted = /^(.*\S)\s+[x×]\s*(\d+)$/i.exec(oldText);
  const oldName = counted ? counted[1]! : oldText;
  const oldCount = counted ? Number(counted[2]) : 1;
  const at = swappedOut(entries, oldName, flag);
  const out = entries[at]!;
  if (!(oldCount >= 1 && oldCount <= out.count)) throw notAllowed(`${flag}: OLD: count`, oldCount, `1 to the ${out.count} of ${showValue(oldName)} side a holds`);
  const read: SwapRead = {
    incoming: { text: newText, count: incoming.count, cost: costOf(incoming, profiles) },
    outgoing: { text: oldName, count: oldCount, cost: costOf(out, profiles) },
  };
  if (variant === 'asked') return { entries: [...entries], read };
  const left = out.count - oldCount;
  const kept = entries.flatMap((e, i) => (i !== at ? [e] : left > 0 ? [{ ...e, count: left, text: withCount(oldName, left) }] : []));
  if (variant === 'without') {
    if (kept.length === 0) throw refusal(flag, `side a without ${showValue(oldText)} has no model left`, 'allowed: a swap that leaves side a a model');
    return { entries: kept, read };
  }
  return { entries: [...kept, incoming], read };
}

/**
 * An entry as a warband names it ("MODEL with W1 + W2", no count), read against the profiles: its model,
 * its weapons and what one model of it costs (undefined where its model has no cost). One line naming
 * `flag` and the entry where it is no entry of the profiles, or holds a count.
 */
export function readWarbandEntry(text: string, profiles: Profiles, flag: string): { readonly model: string; readonly weapons: readonly string[]; readonly cost: number | undefined } {
  const entry = readEntry(text, profiles, flag);
  if (entry.count !== 1 || /\s[x×]\s*\d+$/i.test(text)) throw refusal(`${flag}: ${showValue(text)}`, 'holds a count', 'allowed: "MODEL with WEAPON + WEAPON", its count bought by the ducats');
  return { model: entry.model, weapons: entry.weapons, cost: costOf(entry, profiles) };
}

/** What one model of an entry costs in ducats: its model's and weapons' (a roster's model with its kit), or undefined where its model has no cost. */
function costOf(entry: Pick<EntryText, 'model' | 'weapons'>, profiles: Profiles): number | undefined {
  const model = profiles.models.get(entry.model);
  if (model?.cost === undefined) return undefined;
  let cost = model.cost;
  // A roster's "MODEL with WEAPON" is in its model's price; a weapon read apart adds its own.
  for (const w of entry.weapons) if (!w.startsWith(`${entry.model} with `)) cost += profiles.weapons.get(w)?.cost ?? 0;
  return cost;
}

/** Victory points for one model of an entry taken Out of Action (ruling B35): its cost in ducats / 10, rounded up. */
function victoryPointsOf(entry: EntryText, profiles: Profiles): number | undefined {
  const cost = costOf(entry, profiles);
  return cost === undefined ? undefined : Math.max(1, Math.ceil(cost / 10));
}

/**
 * A side fielded at equal ducats: its one entry, written without a count, as many times as the ducats buy
 * at its cost per model; refused in one line where it has no cost, costs more than the ducats, or the
 * side names more than one entry (which of them the ducats would buy is no question the rules answer).
 */
function atDucats(read: readonly EntryText[], ducats: number, profiles: Profiles, flag: string, notes: string[], side: string, ducatsName: string): EntryText[] {
  const entry = read[0]!;
  if (read.length !== 1 || entry.count !== 1 || /\s[x×]\s*\d+$/i.test(entry.text)) {
    throw refusal(flag, `a side fielded at --ducats ${ducats} is one entry without a count (the ducats buy its count), got ${showValue(read.map((e) => e.text).join(', '))}`, 'allowed: one "MODEL with WEAPON" a side, or no --ducats');
  }
  const cost = costOf(entry, profiles);
  if (cost === undefined || cost <= 0) throw refusal(`${flag}: ${showValue(entry.text)}`, 'has no cost in ducats', 'allowed: an entry with a cost, or no --ducats');
  const count = Math.floor(ducats / cost);
  if (count < 1 || count > MAX_ENTRY_COUNT) {
    throw notAllowed(ducatsName, ducats, `ducats that buy 1 to ${MAX_ENTRY_COUNT} of ${showValue(entry.text)} at ${cost} ducats each (${cost} to ${cost * MAX_ENTRY_COUNT + cost - 1})`);
  }
  notes.push(`${side}: ${ducats} ducats buy ${count} x ${entry.text} at ${cost} ducats each (${ducats - count * cost} left over)`);
  return [{ ...entry, text: `${entry.text} x${count}`, count }];
}

/**
 * A side within the campaign's Field Strength (ruling B49): at most `cap` models, the first in warband
 * order (each entry's models together), said in a note naming what was left out; 0: no cap.
 */
function withinFieldStrength(entries: readonly EntryText[], cap: number, side: string, notes: string[]): EntryText[] {
  const total = entries.reduce((n, e) => n + e.count, 0);
  if (cap === 0 || total <= cap) return [...entries];
  const kept: EntryText[] = [];
  const left: string[] = [];
  let room = cap;
  for (const e of entries) {
    const bare = withoutCount(e.text);
    const take = Math.min(room, e.count);
    room -= take;
    if (take > 0) kept.push(take === e.count ? e : { ...e, count: take, text: withCount(bare, take) });
    if (take < e.count) left.push(withCount(bare, e.count - take));
  }
  notes.push(`${side}: field strength ${cap}: the first ${cap} of its ${total} models in warband order take the field; left out: ${left.join(', ')} (ruling B49)`);
  return kept;
}

/** One model's weapon against one body, as a battle reads it: the attack, and how many an action makes. */
interface AttackRead {
  readonly seq: SequenceScenario;
  readonly attacks: number;
}

/**
 * Attacks already read, by attacking model, weapon and target model: many battles of the same profiles,
 * edition and settings (a price's thousands of match-ups) read each attack once. Refusals are not kept:
 * a battle that holds a refused attack is refused again, whatever else it holds.
 */
export type AttacksRead = Map<string, AttackRead>;

export interface BattleAsked {
  readonly battle: ResolvedBattle;
  /** The swap read, when the battle has one. */
  readonly swap?: SwapRead;
  /** What the answer assumed where the profiles said nothing: an entry without a cost, one without a melee weapon. */
  readonly notes: readonly string[];
}

/**
 * Both warbands read and every attack between them resolved and checked: one line naming the flag and
 * the entry for an unknown name, a count out of range, a weapon the model may not carry, a ranged weapon
 * without its range, or an attack the rules do not allow.
 */
export function resolveBattleWith(
  settings: BattleSettings,
  source: { readonly profiles: Profiles; readonly base: Readonly<Record<string, unknown>> },
  validate: (raw: Record<string, unknown>, origin: string) => Scenario,
  nameOf: (name: string) => string = (n) => `--${n}`,
  attacksRead: AttacksRead = new Map(),
  variant: SwapVariant = 'asked',
): BattleAsked {
  const { profiles, base } = source;
  const system = findSystem(profiles.system.id)!;
  const notes: string[] = [];
  let swapRead: SwapRead | undefined;
  const entries = BATTLE_SIDES.map((side) => {
    const read = readSide(side);
    if (side !== 'a' || settings.swap === undefined) return withinFieldStrength(read, settings.fieldStrength, side, notes);
    const swapped = applySwap(read, settings.swap, variant, profiles, nameOf('swap'));
    swapRead = swapped.read;
    const models = swapped.entries.reduce((n, e) => n + e.count, 0);
    if (models > MAX_SIDE_MODELS) throw notAllowed(nameOf('swap'), `${models} models on side a`, `at most ${MAX_SIDE_MODELS} models a side`);
    return withinFieldStrength(swapped.entries, settings.fieldStrength, side, notes);
  });
  function readSide(side: BattleSideKey): EntryText[] {
    if (settings[`${side}Roster`] === true) {
      if (settings.ducats > 0) throw refusal(`${nameOf(`${side}Roster`)}, ${nameOf('ducats')}`, 'a roster is fielded as it stands, at its own ducats', `give one: a roster (${nameOf(`${side}Roster`)}) or an entry at equal ducats (${nameOf(side)} with ${nameOf('ducats')})`);
      const fielded = fieldedEntries(profiles, nameOf(`${side}Roster`));
      const models = fielded.reduce((n, e) => n + e.count, 0);
      if (models > MAX_SIDE_MODELS) throw notAllowed(nameOf(`${side}Roster`), `${models} models`, `at most ${MAX_SIDE_MODELS} models a side`);
      return fielded;
    }
    const list = parseQuotedList(settings[side], nameOf(side)).map((t) => t.trim()).filter((t) => t !== '');
    if (list.length === 0) throw notAllowed(nameOf(side), settings[side], 'entries separated by commas');
    const written = list.map((text) => readEntry(text, profiles, nameOf(side)));
    const read = settings.ducats > 0 ? atDucats(written, settings.ducats, profiles, nameOf(side), notes, side, nameOf('ducats')) : written;
    const models = read.reduce((n, e) => n + e.count, 0);
    if (models > MAX_SIDE_MODELS) throw notAllowed(nameOf(side), `${models} models`, `at most ${MAX_SIDE_MODELS} models a side`);
    return read;
  }
  const duelBase = { system: profiles.system.id, ...base, ...(settings.edition !== undefined ? { edition: settings.edition } : {}) };
  let edition = '';
  // attackOf(attacker side, its entry, a weapon or none, the target entry): the duel's reading of it.
  // inMelee: a ranged weapon whose Range also says Melee, used in a Fight (ruling B47).
  const attackOf = (flag: string, attacker: EntryText, weapon: string | undefined, target: EntryText, inMelee: boolean): AttackRead => {
    const key = `${attacker.model}\u0000${weapon ?? ''}\u0000${target.model}${inMelee ? '\u0000melee' : ''}`;
    const read = attacksRead.get(key) ?? readAttack(flag, attacker, weapon, target, inMelee);
    attacksRead.set(key, read);
    edition = read.seq.edition;
    return read;
  };
  const readAttack = (flag: string, attacker: EntryText, weapon: string | undefined, target: EntryText, inMelee: boolean): AttackRead => {
    // In melee it is a melee attack (the model's Melee dice, the melee modifiers), one a Fight: AUTOMATIC's
    // attacks are a Shoot's (ruling B47).
    const a = weapon === undefined ? { model: attacker.model } : { model: attacker.model, weapon, ...(inMelee ? { attackType: 'melee', attacksPerAction: 1 } : {}) };
    const raw = { ...duelBase, kind: DUEL_KIND, a, b: { model: target.model } };
    const origin = `${flag}: ${showValue(attacker.text)}`;
    const duel = validate(raw, origin) as unknown as DuelScenario;
    edition = duel.edition;
    const read = duelPlanOf(duel).a.attacking;
    // An action makes every attack of an AUTOMATIC or CLEAVE N weapon (ruling B22): the duel's cap on a
    // side's attacks (MAX_DUEL_ATTACKS) bounds the exact duel's states, not the game.
    const attacks = Math.max(duel.a.attacksPerActivation, read.attacksPerAction);
    const seq = attacks === read.attacksPerActivation ? read : { ...read, attacksPerActivation: attacks };
    const problem = system.checkCombination(seq);
    if (problem) throw refusal(origin, `${weapon === undefined ? 'unarmed' : showValue(weapon)} against ${showValue(target.text)}: ${problem}`);
    return { seq, attacks };
  };
  const sides = BATTLE_SIDES.map((side, s): ResolvedBattleSide => {
    const flag = settings[`${side}Roster`] === true ? nameOf(`${side}Roster`) : nameOf(side);
    const enemies = entries[1 - s]!;
    const battleEntries: BattleEntry[] = [];
    const attacks: SequenceScenario[][][] = [];
    for (const entry of entries[s]!) {
      const weapons: BattleWeapon[] = [];
      const byWeapon: SequenceScenario[][] = [];
      const take = (weapon: string | undefined, inMelee = false) => {
        const against = enemies.map((target) => attackOf(flag, entry, weapon, target, inMelee));
        const first = against[0]!;
        const ranged = first.seq.attackType === 'ranged';
        const profile = weapon === undefined ? undefined : profiles.weapons.get(weapon);
        const rangeInches = typeof profile?.fields.rangeInches === 'number' ? profile.fields.rangeInches : 0;
        if (ranged && rangeInches <= 0) {
          throw refusal(`${flag}: ${showValue(entry.text)}`, `its ranged weapon ${showValue(weapon)} gives no range`, "allowed: a weapon with its range (a profiles file's rangeInches, a roster's or catalogue's Range)");
        }
        const name = weapon === undefined ? UNARMED : inMelee ? `${weapon} ${IN_MELEE}` : weapon;
        weapons.push({ name, ranged, rangeInches: ranged ? rangeInches : 0, assault: !inMelee && profile?.keywords.includes('ASSAULT') === true, attacks: first.attacks });
        byWeapon.push(against.map((x) => x.seq));
      };
      for (const weapon of entry.weapons) take(weapon);
      // A ranged weapon whose Range also says Melee fights too, after the melee weapons: the off-hand of a model that carries one (ruling B47).
      for (const weapon of entry.weapons) if (profiles.weapons.get(weapon)?.fields.usableInMelee === true) take(weapon, true);
      // No melee weapon among them: it fights unarmed (ruling B44).
      if (!weapons.some((w) => !w.ranged)) {
        notes.push(`${side}: ${entry.text}: no melee weapon named: it fights unarmed, with no weapon's modifiers (ruling B28)`);
        take(undefined);
      }
      const model = profiles.models.get(entry.model)!;
      const movement = typeof model.fields.movement === 'number' ? model.fields.movement : DEFAULT_MOVEMENT_INCHES;
      const points = victoryPointsOf(entry, profiles);
      if (points === undefined) notes.push(`${side}: ${entry.text}: no cost: each of its models is worth 1 victory point (ruling B35)`);
      battleEntries.push({ name: entry.text, count: entry.count, victoryPoints: points ?? 1, movement, weapons });
      attacks.push(byWeapon);
    }
    const asked = settings[side];
    return {
      // A swap's battles say which they are: side a as asked, with the swap, or without what it takes out.
      label: s === 0 && swapRead && variant !== 'asked' ? `${asked}, ${variant === 'swapped' ? `${settings.swap}` : `without ${withCount(swapRead.outgoing.text, swapRead.outgoing.count)}`}` : asked,
      tactic: s === 0 ? settings.aTactic : settings.bTactic,
      blood: s === 0 ? settings.aBlood : settings.bBlood,
      entries: battleEntries,
      attacks,
    };
  });
  return {
    battle: {
      system: profiles.system.id,
      edition,
      // Every game setting as checked (./fields.ts declares them).
      ...(Object.fromEntries(battleFields.map((f) => [f.name, settings[f.name]])) as unknown as BattleGameSettings),
      a: sides[0]!,
      b: sides[1]!,
    },
    ...(swapRead ? { swap: swapRead } : {}),
    notes,
  };
}

/**
 * A scenario of kind "battle" (sweep, compare, a report: `"a": {"warband": "...", "tactic": "charge"}`)
 * read as `injury-lab battle` reads its settings: its warbands against the profiles its scenario names
 * (`profiles` read, `base` the scenario's keys that name them and its rules, so each attack's duel is read
 * under the same rules), every attack resolved and checked. Messages name the scenario's keys
 * (`a.warband`, `ducats`) after `at`.
 */
export function readBattleScenario(
  scenario: BattleScenario,
  source: { readonly profiles: Profiles; readonly base: Readonly<Record<string, unknown>> },
  validate: (raw: Record<string, unknown>, origin: string) => Scenario,
  at: string,
): BattleAsked {
  const settings: Record<string, unknown> = { edition: scenario.edition };
  for (const f of battleFields) settings[f.name] = scenario[f.name];
  const names: Record<string, string> = {};
  for (const side of BATTLE_SIDES) {
    settings[side] = scenario[side].warband;
    names[side] = `${side}.warband`;
    for (const f of battleSideFields) {
      settings[sideSettingName(side, f.name)] = scenario[side][f.name];
      names[sideSettingName(side, f.name)] = `${side}.${f.name}`;
    }
    if (scenario[side].warband.trim() === '') throw notAllowed(`${at}${side}.warband`, scenario[side].warband, warbandAllowed(side));
  }
  return resolveBattleWith(settings as unknown as BattleSettings, source, validate, (name) => `${at}${names[name] ?? name}`);
}
