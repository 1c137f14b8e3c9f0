import type { ValidateFunction } from 'ajv';
import { allowedNames, suggestFlags } from '../suggest.js';
import { UsageError, listAllowed, showValue } from '../errors.js';
import { readJsonInput } from '../json-input.js';
import { DEFAULT_SYSTEM, findSystem, systems } from '../rules/registry.js';
import { perSystem } from './system-schema.js';
import { schemaValidator } from './ajv.js';
import { describeAllowed, fieldJsonSchema } from './field-schema.js';
import type { FieldSpec, FieldValue, ProfileRole, SystemSpec } from './types.js';

/**
 * Named weapons and models, with costs: a profiles file
 *   { "system": "trench-crusade",
 *     "models":  { "Trooper": { "armour": "standard", "cost": 40 } },
 *     "weapons": { "Rifle":   { "attackType": "ranged", "injuryDice": 1, "cost": 10 } } }
 * A weapon gives the fields declared with profile "weapon" (the attacker's side), a model those with
 * profile "model" (the target's side); explicit fields of a scenario override both.
 */
export interface Profile {
  readonly name: string;
  readonly role: ProfileRole;
  readonly fields: Readonly<Record<string, FieldValue>>;
  /** Keywords as written ("ARMOUR PIERCING 1"), looked up in the scenario's rule table when it is used. */
  readonly keywords: readonly string[];
  /** Ducats (or whatever the designer prices in); absent if the file gives none. */
  readonly cost?: number;
  /** Its price in other currencies than `cost`'s (a catalogue's Glory Points): shown, never divided by. */
  readonly otherCosts?: Readonly<Record<string, number>>;
  readonly description?: string;
  /** From an imported roster: what it says that the rule table does not model (kept, never dropped). */
  readonly unmodelled?: readonly Unmodelled[];
  /**
   * "MODEL with WEAPON" from a roster: the model's own Melee and Ranged dice, by attack type; the ones
   * of the attack type the scenario ends with are added to the weapon's attack dice.
   */
  readonly attackerDice?: Readonly<Record<string, number>>;
}

/** Something a roster says that maps to no effect: a keyword, a category, an ability, rules text. */
export interface Unmodelled {
  /** As the roster writes it. */
  readonly text: string;
  /** Where it was: "keywords", "category", "rule", "ability", "armour", ... */
  readonly from: string;
  readonly why: string;
  /**
   * A token of a weapon's keywords string (or a value that cannot be read): a command using the profile
   * stops unless --allow-unmodelled is given. Categories, rules and abilities never stop one.
   */
  readonly stops: boolean;
}

export interface Profiles {
  readonly system: SystemSpec;
  /** As the user named it, for messages. */
  readonly file: string;
  readonly weapons: ReadonlyMap<string, Profile>;
  readonly models: ReadonlyMap<string, Profile>;
  /** Read from a roster or catalogue files (messages say which), not written as a profiles file. */
  readonly source?: 'roster' | 'catalogue';
  /** From an imported roster: what belongs to no profile (the warband's own rules). */
  readonly unmodelled?: readonly Unmodelled[];
  /** From an imported roster: the keywords of the table it was read by that give no field (HEAVY, BLAST), for `profiles` to say so. */
  readonly noEffect?: ReadonlySet<string>;
}

const SECTION: Record<ProfileRole, 'weapons' | 'models'> = { weapon: 'weapons', model: 'models' };
const PROFILE_KEYS = ['keywords', 'cost', 'otherCosts', 'description'];

/** The fields a weapon or a model profile of a system may give. */
export function profileFields(system: SystemSpec, role: ProfileRole): FieldSpec[] {
  return system.fields.filter((f) => f.profile === role);
}

function profileSchema(system: SystemSpec, role: ProfileRole): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    cost: { type: 'number', minimum: 0, maximum: 1e9, description: 'What it costs (ducats, points): the value view divides by it' },
    otherCosts: {
      type: 'object',
      additionalProperties: { type: 'number', minimum: 0, maximum: 1e9 },
      description: 'Its price in other currencies than cost\'s, by name ({ "Glory Points": 4 }): shown, never divided by',
    },
    description: { type: 'string' },
    keywords: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Keywords of the rule table ("IGNORE ARMOUR", "ARMOUR PIERCING 1"); `injury-lab rules` lists them' },
  };
  for (const f of profileFields(system, role)) properties[f.name] = fieldJsonSchema(f);
  return { type: 'object', properties, additionalProperties: false };
}

function systemBranch(system: SystemSpec): Record<string, unknown> {
  return {
    models: { type: 'object', additionalProperties: profileSchema(system, 'model'), description: 'Model profiles by name: the target\'s side' },
    weapons: { type: 'object', additionalProperties: profileSchema(system, 'weapon'), description: 'Weapon profiles by name: the attacker\'s side' },
  };
}

/** The published JSON Schema (draft-07) for profiles files: one branch per system. */
export function profilesJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://injury-lab.invalid/profiles.schema.json',
    title: 'injury-lab profiles',
    description: 'Named weapons and models with their costs; --weapon NAME and --target NAME take their fields',
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      description: { type: 'string' },
      system: { enum: systems.map((s) => s.id), default: DEFAULT_SYSTEM },
      models: { type: 'object' },
      weapons: { type: 'object' },
    },
    additionalProperties: false,
    allOf: perSystem((system) => ({ properties: systemBranch(system) })),
  };
}

const validators = new Map<string, ValidateFunction>();
function validatorFor(system: SystemSpec, role: ProfileRole): ValidateFunction {
  const key = `${system.id}/${role}`;
  let v = validators.get(key);
  if (!v) {
    v = schemaValidator().compile(profileSchema(system, role));
    validators.set(key, v);
  }
  return v;
}

/** One line for what is wrong with one profile. */
function profileProblem(system: SystemSpec, role: ProfileRole, name: string, raw: unknown, at: string): string {
  const where = `${at}${SECTION[role]}.${showValue(name)}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `${where}: ${showValue(raw)} is not allowed; allowed: an object of ${role} fields and "cost"`;
  const err = validatorFor(system, role).errors?.[0];
  const allowed = [...profileFields(system, role).map((f) => f.name), ...PROFILE_KEYS];
  if (err?.keyword === 'additionalProperties') {
    const key = String((err.params as { additionalProperty: string }).additionalProperty);
    const other: ProfileRole = role === 'weapon' ? 'model' : 'weapon';
    if (profileFields(system, other).some((f) => f.name === key)) {
      return `${where}.${key}: is a ${other} field, not a ${role} field; allowed in a ${role}: ${listAllowed(allowed)}`;
    }
    const scenarioField = system.fields.some((f) => f.name === key);
    const guess = suggestFlags(key, allowed);
    const why = scenarioField ? `a scenario field, not part of a ${role} profile` : `not a ${role} field of ${system.id}`;
    return `${where}.${key}: ${why}${guess.length ? ` (did you mean ${guess.join(' or ')}?)` : ''}; allowed: ${listAllowed(allowed)}`;
  }
  const key = (err?.instancePath ?? '').split('/')[1] ?? '';
  const value = (raw as Record<string, unknown>)[key];
  const field = system.fields.find((f) => f.name === key);
  if (field) return `${where}.${key}: ${showValue(value)} is not allowed; allowed: ${describeAllowed(field.schema)}`;
  if (key === 'cost') return `${where}.cost: ${showValue(value)} is not allowed; allowed: a number from 0`;
  if (key === 'otherCosts') return `${where}.otherCosts: ${showValue(value)} is not allowed; allowed: an object of numbers from 0 by currency, e.g. { "Glory Points": 4 }`;
  if (key === 'keywords') return `${where}.keywords: ${showValue(value)} is not allowed; allowed: a list of keyword names, e.g. ["IGNORE ARMOUR", "ARMOUR PIERCING 1"]`;
  return `${where}.${key}: ${showValue(value)} ${err?.message ?? 'is not valid'}`;
}

/**
 * The first field an imported profile gives with a value its field does not allow ("+12 DICE" is
 * attackDice 12), with what is allowed, or undefined. Only the role's own fields are checked: "MODEL
 * with WEAPON" also carries the attacker's.
 */
export function checkProfileFields(system: SystemSpec, role: ProfileRole, fields: Readonly<Record<string, FieldValue>>): { field: string; value: FieldValue; allowed: string } | undefined {
  for (const f of profileFields(system, role)) {
    const value = fields[f.name];
    if (value !== undefined && !validatorFor(system, role)({ [f.name]: value })) return { field: f.name, value, allowed: describeAllowed(f.schema) };
  }
  return undefined;
}

/** Checks a parsed profiles file; `label` names it in messages. */
export function parseProfiles(raw: unknown, label: string, file: string): Profiles {
  const at = `${label}: `;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new UsageError(`${at}must hold one JSON object { "system", "models", "weapons" }, got ${Array.isArray(raw) ? 'an array' : showValue(raw)}`);
  }
  const input = raw as Record<string, unknown>;
  const keys = ['$schema', 'description', 'system', 'models', 'weapons'];
  for (const key of Object.keys(input)) if (!keys.includes(key)) throw new UsageError(`${at}${key}: not a key of a profiles file; allowed: ${listAllowed(keys.slice(1))}`);
  const systemId = input.system ?? DEFAULT_SYSTEM;
  const system = typeof systemId === 'string' ? findSystem(systemId) : undefined;
  if (!system) throw new UsageError(`${at}system: ${showValue(systemId)} is not a known system; allowed: ${listAllowed(systems.map((s) => s.id))}`);
  const read = (role: ProfileRole): Map<string, Profile> => {
    const section = input[SECTION[role]] ?? {};
    if (typeof section !== 'object' || section === null || Array.isArray(section)) {
      throw new UsageError(`${at}${SECTION[role]}: ${showValue(section)} is not allowed; allowed: an object of ${role} profiles by name`);
    }
    const out = new Map<string, Profile>();
    for (const [name, body] of Object.entries(section as Record<string, unknown>)) {
      if (name.trim() === '') throw new UsageError(`${at}${SECTION[role]}: a profile with an empty name; allowed: a name of at least one letter`);
      if (!validatorFor(system, role)(body)) throw new UsageError(profileProblem(system, role, name, body, at));
      const { cost, otherCosts, description, keywords, ...fields } = body as Record<string, unknown>;
      out.set(name, {
        name,
        role,
        fields: fields as Record<string, FieldValue>,
        keywords: (keywords as string[] | undefined) ?? [],
        ...(typeof cost === 'number' ? { cost } : {}),
        ...(otherCosts !== undefined ? { otherCosts: otherCosts as Record<string, number> } : {}),
        ...(typeof description === 'string' ? { description } : {}),
      });
    }
    return out;
  };
  return { system, file, weapons: read('weapon'), models: read('model') };
}

/** Reads a profiles file (JSON, at most 1 MiB). */
export function readProfilesFile(path: string): Profiles {
  const label = `profiles file ${showValue(path)}`;
  return parseProfiles(readJsonInput(path, { label, what: 'a profiles file', missing: 'no such file' }).value, label, path);
}

/** The profile a name gives, or one line naming the flag, the name, a guess and what is allowed. */
export function findProfile(profiles: Profiles, role: ProfileRole, name: unknown, key: string): Profile {
  const table = role === 'weapon' ? profiles.weapons : profiles.models;
  const found = typeof name === 'string' ? table.get(name) : undefined;
  if (found) return found;
  const names = [...table.keys()];
  const guess = typeof name === 'string' ? suggestFlags(name, names) : [];
  const none = names.length === 0 ? ` (it has no ${SECTION[role]})` : '';
  throw new UsageError(
    `${key}: ${showValue(name)} is not a ${role} of ${profiles.source ?? 'profiles'} file ${showValue(profiles.file)}${none}${guess.length ? ` (did you mean ${guess.map((g) => showValue(g)).join(' or ')}?)` : ''}; allowed: ${names.length ? allowedNames(name, names, `injury-lab profiles ${profiles.source ? `--${profiles.source} ` : ''}${showValue(profiles.file)}`) : 'a name the file lists'}`,
  );
}
