import type { ValidateFunction } from 'ajv';
import { listAllowed, showValue } from '../errors.js';
import { notAllowed, refusal, refusalAt } from '../messages.js';
import { schemaValidator } from '../model/ajv.js';
import { forbiddenKeyProblem, isForbiddenKey } from '../json-text.js';
import { describeAllowed, fieldJsonSchema, notAllowedValue } from '../model/field-schema.js';
import { bonusesVsKeywords, fearlessAttacker, injuryDiceUnlessTotal, keywordFields, parseBonusVsKeywords } from '../model/keywords.js';
import { findProfile, findSideProfiles, type Profile, type Profiles } from '../model/profiles.js';
import type { FieldSpec, FieldValue, GivenFields, KindSides, KindSpec, ProfileRole, RuleTable, SystemSpec } from '../model/types.js';

/**
 * A scenario's sides, as a list: each side is filled from the profiles the scenario names for it and the
 * keywords it gives it, under the scenario's own fields. Today's kinds have two sides, the attacker's
 * weapon and the target model, both written at the scenario's top level; a duel's two sides (each a
 * model with its weapon, each in its own object) are two entries of the same list, merged the same way.
 */

/** One profile a side takes: the scenario key that names it, its role, and the key of keywords given with it. */
export interface ProfileSlot {
  readonly key: string;
  readonly role: ProfileRole;
  /** Keywords given on top of the profile's ("IGNORE ARMOUR, FIRE"), or without one. */
  readonly keywordsKey: string;
  /** What the key means, for --help and the JSON Schema. */
  readonly help: string;
  readonly keywordsHelp: string;
}

export interface ScenarioSide {
  /** The profiles that fill the side, in order (a later one's fields over an earlier one's). */
  readonly slots: readonly ProfileSlot[];
  /** The key of the object the side is written in (a duel's `a`); absent: the scenario's top level. */
  readonly path?: string;
  /**
   * The side this side's conditions read, by index: a model's read its weapon ("-1 INJURY DICE UNLESS
   * FIRE"), a weapon's its model ("+1 INJURY DICE VS BLACK GRAIL").
   */
  readonly against?: number;
}

/** One attacker's weapon against one target model: every kind so far. */
export const ONE_SIDED: readonly ScenarioSide[] = [
  {
    slots: [
      {
        key: 'weapon',
        role: 'weapon',
        keywordsKey: 'weaponKeywords',
        help: "A weapon of the profiles file (or roster, or catalogues): its fields, under the scenario's own",
        keywordsHelp: 'Keywords of the weapon, on top of its profile\'s: "IGNORE ARMOUR, FIRE" (`injury-lab rules` lists them)',
      },
    ],
    against: 1,
  },
  {
    slots: [
      {
        key: 'target',
        role: 'model',
        keywordsKey: 'targetKeywords',
        help: "A model of the profiles file (or roster, or catalogues) as the target: its fields, under the scenario's own",
        keywordsHelp: 'Keywords and abilities of the target, on top of its profile\'s: "TOUGH, -1 INJURY DICE UNLESS FIRE"',
      },
    ],
    against: 0,
  },
];

/** Every profile a one-sided scenario names, weapon first: --help's flags and the JSON Schema's keys come from here. */
export const ONE_SIDED_SLOTS: readonly ProfileSlot[] = ONE_SIDED.flatMap((s) => s.slots);
const slots = ONE_SIDED_SLOTS;

/** The keys naming a one-sided scenario's profiles: "weapon", "target". */
export const PROFILE_KEYS: readonly string[] = slots.map((s) => s.key);

/**
 * Keywords a scenario gives its weapon and its target directly, on top of any profile's ("IGNORE
 * ARMOUR, FIRE"): a keyword can be tried without a profiles file, and `diff` prices a changed one.
 */
export const SCENARIO_KEYWORDS: readonly string[] = slots.map((s) => s.keywordsKey);

/** A scenario's keywords as written: "IGNORE ARMOUR, FIRE" (commas), or a list; none if absent. */
export function keywordList(given: unknown, at: string): string[] {
  if (given === undefined) return [];
  const list = typeof given === 'string' ? given.split(',') : Array.isArray(given) && given.every((k) => typeof k === 'string') ? (given as string[]) : undefined;
  if (!list) throw notAllowed(at, given, 'keywords separated by commas ("IGNORE ARMOUR, FIRE"), or a list of them');
  return list.map((k) => k.trim()).filter((k) => k !== '');
}

export interface MergeContext {
  readonly profiles: Profiles | undefined;
  readonly system: SystemSpec;
  readonly rules: RuleTable;
  /** "file: " before a key in messages. */
  readonly at: string;
  /** Does the side read this field (a profile's other fields are left out: a rifle's attack dice mean nothing to one injury roll)? */
  reads(side: ScenarioSide, name: string): boolean;
  /** Vets a profile about to be used (an imported one may hold what nothing models); `key` names it in messages. */
  use(profile: Profile, key: string): void;
  /** The default of a field under the rule table, given the fields so far. */
  fieldDefault(field: FieldSpec, rules: RuleTable, given: GivenFields): FieldValue;
  /** Filled with where each field a side does not give itself came from, for messages ("a.armour" in a nested side). */
  readonly sources: Map<string, string>;
  /** Told, as a line, a case the answer takes where the scenario does not say (a target with no keywords a weapon's VS reads). */
  assumed?(line: string): void;
}

/**
 * The sides' profile and keyword fields laid under the scenario's own: for each side, its profiles'
 * keywords (by the rule table), then the fields the profiles write out, then the side's own fields win.
 */
export function mergeSides(input: Readonly<Record<string, unknown>>, sides: readonly ScenarioSide[], ctx: MergeContext): Record<string, unknown> {
  const { at } = ctx;
  const name = (side: ScenarioSide, key: string) => (side.path === undefined ? key : `${side.path}.${key}`);
  const objects = new Map<ScenarioSide, Readonly<Record<string, unknown>>>();
  const objectOf = (side: ScenarioSide): Readonly<Record<string, unknown>> => {
    if (side.path === undefined) return input;
    let own = objects.get(side);
    if (own) return own;
    const given = input[side.path] ?? {};
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw notAllowed(`${at}${side.path}`, given, "an object of the side's fields");
    }
    own = given as Record<string, unknown>;
    // A side's `profile` names its model and weapon at once; a `model` or `weapon` it also gives wins.
    const pair = own[SIDE_PROFILE_KEY];
    if (pair !== undefined && ctx.profiles) own = { ...findSideProfiles(ctx.profiles, pair, `${at}${name(side, SIDE_PROFILE_KEY)}`), ...own };
    objects.set(side, own);
    return own;
  };
  // Without profiles a weapon or target name is a label only: a scenario read back from an output
  // (its fields already resolved) carries it so, as it did before keywords could come with it.
  const profileOf = (side: ScenarioSide, slot: ProfileSlot): Profile | undefined => {
    const named = objectOf(side)[slot.key];
    return named === undefined || !ctx.profiles ? undefined : findProfile(ctx.profiles, slot.role, named, `${at}${name(side, slot.key)}`);
  };
  /**
   * The model of a side with its own object (a duel's) that carries `weapon`, unless the weapon is a
   * "MODEL with WEAPON" reading already (its model's dice and FEAR folded in: a roster's, whose
   * attackerDice say so, or an exported one, known by its name).
   */
  const carrierOf = (side: ScenarioSide, weapon: Profile): Profile | undefined => {
    if (side.path === undefined || weapon.attackerDice !== undefined) return undefined;
    const modelSlot = side.slots.find((s) => s.role === 'model');
    const model = modelSlot && profileOf(side, modelSlot);
    if (!model || [...ctx.profiles!.models.keys()].some((m) => weapon.name.startsWith(`${m} with `))) return undefined;
    return model;
  };
  const keywordsOf = (side: ScenarioSide, slot: ProfileSlot) => keywordList(objectOf(side)[slot.keywordsKey], `${at}${name(side, slot.keywordsKey)}`);
  // A target's "-N INJURY DICE UNLESS K" reads the weapon's keywords, a weapon's "+1 INJURY DICE VS
  // BLACK GRAIL" the target model's: its profile's and the scenario's.
  const keywordsIn = (side: ScenarioSide | undefined, role: 'weapon' | 'model'): string[] =>
    (side?.slots ?? []).filter((s) => s.role === role).flatMap((s) => [...(profileOf(side!, s)?.keywords ?? []), ...keywordsOf(side!, s)]);
  const weaponKeywords = (side: ScenarioSide | undefined): string[] => keywordsIn(side, 'weapon');

  const merged: Record<string, Record<string, unknown>> = {};
  const top: Record<string, unknown> = {};
  for (const side of sides) {
    const own = objectOf(side);
    const into = side.path === undefined ? top : (merged[side.path] ??= {});
    const other = side.against === undefined ? undefined : sides[side.against];
    const against = weaponKeywords(other);
    for (const slot of side.slots) {
      const profile = profileOf(side, slot);
      const given = keywordsOf(side, slot);
      if (!profile && given.length === 0) continue;
      if (profile) ctx.use(profile, name(side, slot.key));
      // Keywords (the profile's, then the scenario's) give fields by the rule table; the fields the
      // profile writes out win over them, and the side's own fields over everything.
      const keywords = [...(profile?.keywords ?? []), ...given];
      const where = profile ? `${at}${name(side, slot.key)} ${showValue(profile.name)}: keywords` : `${at}${name(side, slot.keywordsKey)}`;
      const targetKeywords = slot.role === 'weapon' ? keywordsIn(other, 'model') : [];
      const effects = keywordFields(ctx.rules, ctx.system, slot.role, keywords, where, slot.role === 'weapon' ? targetKeywords : against);
      // A bonus against a target's keywords, with no target model or keywords named: the plain target, said.
      const vs = slot.role === 'weapon' && targetKeywords.length === 0 && !(other?.slots ?? []).some((s) => s.role === 'model' && objectOf(other!)[s.key] !== undefined) ? keywords.filter((k) => parseBonusVsKeywords(k)) : [];
      if (vs.length) ctx.assumed?.(`${name(side, slot.key)}${profile ? ` ${showValue(profile.name)}` : ''}: ${vs.map((k) => showValue(k)).join(', ')} taken not to hold: the target has none of these keywords (give --target-keywords, or a target model, to say it has one)`);
      const fields: Record<string, unknown> = { ...effects, ...(profile?.fields ?? {}) };
      // A weapon's "+1 INJURY DICE VS BLACK GRAIL" adds on top of whatever else gives the field.
      for (const [field, value] of Object.entries(slot.role === 'weapon' ? bonusesVsKeywords(ctx.rules, ctx.system, keywords, targetKeywords, where) : {})) {
        fields[field] = ((fields[field] as number | undefined) ?? 0) + value;
      }
      if (profile?.injuryDiceUnless) {
        // A condition read as data ("-1 INJURY DICE unless the attack has FIRE") adds to the model's dice, whatever else gives them.
        const dice = injuryDiceUnlessTotal(ctx.rules, profile.injuryDiceUnless, against, `${at}${name(side, slot.key)} ${showValue(profile.name)}: injuryDiceUnless`);
        if (dice !== 0) fields.targetInjuryDice = ((fields.targetInjuryDice as number | undefined) ?? 0) + dice;
      }
      // The attack type this side ends with (--attack-type wins): the one whose model dice its attacks take.
      const attackType = () => {
        const typeField = ctx.system.fields.find((f) => f.name === 'attackType');
        return String(own.attackType ?? fields.attackType ?? (typeField ? ctx.fieldDefault(typeField, ctx.rules, {}) : ''));
      };
      if (profile?.attackerDice) {
        // "MODEL with WEAPON": the model's dice for that attack type.
        fields.attackDice = ((fields.attackDice as number | undefined) ?? 0) + (profile.attackerDice[attackType()] ?? 0);
      }
      const carrier = slot.role === 'weapon' && profile ? carrierOf(side, profile) : undefined;
      /** The fields the carrying model gave (or added to), for where they came from. */
      const fromCarrier = new Set<string>();
      if (carrier) {
        // A duel's side is one combatant, its model carrying its weapon: a weapon read apart from the
        // model takes what a roster's "MODEL with WEAPON" folds in: the model's dice for the attack type,
        // FEAR (or immunity to it) as the attacker's, and the model's unread text about its own attacks,
        // which stops the side as it stops that reading.
        const type = attackType();
        const dice = carrier.characteristicDice?.[type] ?? 0;
        if (dice !== 0) {
          fields.attackDice = ((fields.attackDice as number | undefined) ?? 0) + dice;
          fromCarrier.add('attackDice');
        }
        const where = `${at}${name(side, 'model')} ${showValue(carrier.name)}: keywords`;
        if (fields.attackerFear === undefined && fearlessAttacker(ctx.rules, ctx.system, carrier.keywords, where)) {
          fields.attackerFear = true;
          fromCarrier.add('attackerFear');
        }
        const ofItsAttacks = (carrier.ownAttackText ?? []).filter((u) => u.attackType === undefined || u.attackType === type);
        // Its items as this weapon's own: what stops stops the side, an option of its attacks is said.
        if (ofItsAttacks.length) ctx.use({ ...carrier, unmodelled: ofItsAttacks, ownAttackText: [] }, name(side, 'model'));
      }
      const read = Object.entries(fields).filter(([field]) => ctx.reads(side, field));
      const origin = profile ? `${name(side, slot.key)} ${showValue(profile.name)}` : name(side, slot.keywordsKey);
      for (const [field] of read) {
        if (own[field] !== undefined) continue;
        const from = !profile || Object.hasOwn(profile.fields, field) ? origin : `${origin} (its keywords)`;
        ctx.sources.set(name(side, field), fromCarrier.has(field) ? `${from} in the hands of ${name(side, 'model')} ${showValue(carrier!.name)}` : from);
      }
      Object.assign(into, Object.fromEntries(read));
    }
  }
  const out: Record<string, unknown> = { ...top, ...input };
  for (const [path, fields] of Object.entries(merged)) out[path] = { ...fields, ...objectOf(sides.find((s) => s.path === path)!) };
  return out;
}

/** The profiles a side of a kind with sides takes (a duel's `a` and `b`): its model, then its weapon. */
export const SIDE_SLOTS: readonly ProfileSlot[] = [
  {
    key: 'model',
    role: 'model',
    keywordsKey: 'modelKeywords',
    help: "A model of the profiles file (or roster, or catalogues): this side's body, its fields under the side's own",
    keywordsHelp: 'Keywords and abilities of this side\'s model, on top of its profile\'s: "TOUGH, -1 INJURY DICE UNLESS FIRE"',
  },
  {
    key: 'weapon',
    role: 'weapon',
    keywordsKey: 'weaponKeywords',
    help: "A weapon of the profiles file (or roster, or catalogues): this side's weapon, its fields under the side's own",
    keywordsHelp: 'Keywords of this side\'s weapon, on top of its profile\'s: "IGNORE ARMOUR, FIRE"',
  },
];
/** A side's model and weapon in one name: "MODEL with WEAPON" (a roster's), or a model alone. */
export const SIDE_PROFILE_KEY = 'profile';
/** A side's keys that name profiles and give keywords, besides its fields: what a side names rather than sets. */
export const SIDE_NAME_KEYS: readonly string[] = [SIDE_PROFILE_KEY, ...SIDE_SLOTS.flatMap((s) => [s.key, s.keywordsKey])];
const SIDE_SLOT_KEYS: ReadonlySet<string> = new Set(SIDE_NAME_KEYS);
/** The keys of keywords a side gives its model and its weapon ("modelKeywords", "weaponKeywords"). */
export const SIDE_KEYWORDS: readonly string[] = SIDE_SLOTS.map((s) => s.keywordsKey);

/** A kind's sides as the merge reads them: its own objects (two sides read each other's weapon), or the one-sided pair. */
export function sidesOf(kind: KindSpec): readonly ScenarioSide[] {
  const keys = kind.sides?.keys;
  if (!keys) return ONE_SIDED;
  // A side that names no model or weapon (a battle's warband) takes nothing from profiles here.
  const slots = kind.sides?.unprofiled ? [] : SIDE_SLOTS;
  return keys.map((path, i) => ({ path, slots, ...(keys.length === 2 ? { against: 1 - i } : {}) }));
}

/** Does the scenario give keywords to any side (so the merge has work even without profiles)? */
export function givesKeywords(input: Readonly<Record<string, unknown>>, sides: readonly ScenarioSide[]): boolean {
  return sides.some((side) => {
    const own = side.path === undefined ? input : input[side.path];
    return typeof own === 'object' && own !== null && side.slots.some((slot) => (own as Record<string, unknown>)[slot.keywordsKey] !== undefined);
  });
}

/** The JSON Schema of one side's object: its fields, its profiles and their keywords. */
export function sideJsonSchema(sides: KindSides): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  if (sides.unprofiled) {
    for (const f of sides.fields) properties[f.name] = fieldJsonSchema(f);
    return { type: 'object', description: sides.what ?? 'One side', properties, additionalProperties: false };
  }
  properties[SIDE_PROFILE_KEY] = { type: 'string', description: 'A "MODEL with WEAPON": a roster\'s (its model and its weapon), or a model and a weapon the profiles file or catalogues list apart; or a model alone; model and weapon given too win' };
  for (const slot of SIDE_SLOTS) {
    properties[slot.key] = { type: 'string', description: slot.help };
    properties[slot.keywordsKey] = { description: `${slot.keywordsHelp}, or a list`, anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string', minLength: 1 } }] };
  }
  for (const f of sides.fields) properties[f.name] = fieldJsonSchema(f);
  return { type: 'object', description: 'One side: a model with its weapon, its state at the start and what it does with the markers on its opponent', properties, additionalProperties: false };
}

const sideValidators = new WeakMap<KindSides, ValidateFunction>();

/**
 * Each side's object checked and filled: every field of a side, given or by default (read under the
 * rule table, from the side's other fields), and its profile names and keywords kept as labels. One
 * line names the side's field on a mistake ("b.armour: ...", "b: is missing").
 */
export function validateSides(
  input: Readonly<Record<string, unknown>>,
  sides: KindSides,
  rules: RuleTable,
  at: string,
  sources: ReadonlyMap<string, string>,
  fieldDefault: MergeContext['fieldDefault'],
): Record<string, Record<string, unknown>> {
  let validate = sideValidators.get(sides);
  if (!validate) {
    const properties: Record<string, unknown> = {};
    for (const f of sides.fields) properties[f.name] = fieldJsonSchema(f);
    validate = schemaValidator().compile({ type: 'object', properties });
    sideValidators.set(sides, validate);
  }
  const names = sides.fields.map((f) => f.name);
  // A side that names no model or weapon (a battle's) takes its fields alone.
  const slotKeys: ReadonlySet<string> = sides.unprofiled ? new Set() : SIDE_SLOT_KEYS;
  const out: Record<string, Record<string, unknown>> = {};
  for (const key of sides.keys) {
    // A side not given is the side by default (issue 51): every field its default, as `{}` says.
    const given = input[key] ?? {};
    if (typeof given !== 'object' || given === null || Array.isArray(given)) throw notAllowed(`${at}${key}`, given, "an object of the side's fields");
    const own = given as Record<string, unknown>;
    for (const name of Object.keys(own)) {
      if (slotKeys.has(name) || names.includes(name)) continue;
      // The key is the user's and may be "": as a prefix it keeps its ": " even then.
      throw refusalAt(`${at}${key}.${name}: `, 'not a field of a side', `allowed: ${listAllowed([...names, ...slotKeys])}`);
    }
    const fields = Object.fromEntries(Object.entries(own).filter(([name]) => !slotKeys.has(name)));
    if (!validate(fields)) {
      const name = validate.errors?.[0]?.instancePath.split('/')[1] ?? '';
      const field = sides.fields.find((f) => f.name === name);
      if (field) {
        const from = sources.get(`${key}.${name}`);
        throw notAllowedValue(`${at}${from ? `${from}: ` : ''}${key}.${name}`, fields[name], field.schema);
      }
      throw refusal(`${at}${key}`, `${showValue(given)} ${validate.errors?.[0]?.message ?? 'is not valid'}`);
    }
    const filled: Record<string, unknown> = {};
    // The profile names and keywords stay as labels: outputs say which model and weapon each side was.
    if (typeof own[SIDE_PROFILE_KEY] === 'string') filled[SIDE_PROFILE_KEY] = own[SIDE_PROFILE_KEY];
    for (const slot of SIDE_SLOTS) {
      if (typeof own[slot.key] === 'string') filled[slot.key] = own[slot.key];
      if (own[slot.keywordsKey] !== undefined) filled[slot.keywordsKey] = keywordList(own[slot.keywordsKey], `${at}${key}.${slot.keywordsKey}`).join(', ');
    }
    for (const f of sides.fields) filled[f.name] = own[f.name] !== undefined ? own[f.name] : fieldDefault(f, rules, own);
    out[key] = filled;
  }
  return out;
}

/** Every side key of any kind of the systems given (a duel's `a`, `b`): the CLI's side flags. */
export function sideKeysOf(systems: readonly SystemSpec[]): string[] {
  return [...new Set(systems.flatMap((s) => s.kinds.flatMap((k) => k.sides?.keys ?? [])))];
}

/**
 * A side written on one line, as a flag gives it: "armour=machine,tough=true,weaponKeywords=IGNORE
 * ARMOUR, FIRE". Keys in camelCase or kebab-case; a part without "=" continues the value before it (a
 * keywords list); each value is converted as its field's flag would be, and what no field takes is left
 * for validateSides to refuse by name. `flag` names the flag in messages.
 */
export function sideFromText(text: string, fields: readonly FieldSpec[], flag: string, convert: (field: FieldSpec, text: string) => unknown): Record<string, unknown> {
  const parts: [string, string][] = [];
  for (const piece of text.split(',')) {
    const eq = piece.indexOf('=');
    if (eq < 0) {
      if (piece.trim() === '') continue;
      const last = parts[parts.length - 1];
      if (!last) throw refusal(flag, `${showValue(text)} is not a side`, 'allowed: FIELD=VALUE pairs separated by commas, such as "armour=machine,tough=true"');
      last[1] += `,${piece}`;
      continue;
    }
    parts.push([piece.slice(0, eq).trim().replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()), piece.slice(eq + 1)]);
  }
  // No prototype to reach, and no key that would reach one (src/json-text.ts FORBIDDEN_KEYS).
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of parts) {
    if (isForbiddenKey(key)) {
      const { problem, remedy } = forbiddenKeyProblem(key);
      throw refusal(flag, problem, remedy);
    }
    // Given twice, one value would be dropped without a word: refused, as a whole side given twice is.
    if (Object.hasOwn(out, key)) throw refusal(`${flag} ${key}`, `given twice in ${showValue(text)}`, 'give each field of a side once');
    const field = fields.find((f) => f.name === key);
    out[key] = field ? convert(field, value) : value.trim();
  }
  return { ...out };
}
