import { listAllowed, showValue } from '../errors.js';
import { notAllowed, notOneOf, refusal, refusalAt } from '../messages.js';
import { describeAllowed } from '../model/field-schema.js';
import type { InjuryDiceUnless } from '../model/keywords.js';
import { LOADOUT_ALLOWED, SECTION, profileKeys, profileFields, profileSchema, profileValidator, type Profile, type Profiles } from '../model/profiles.js';
import type { FieldValue, ProfileRole, SystemSpec } from '../model/types.js';
import { DEFAULT_SYSTEM, findSystem, systems } from '../rules/registry.js';
import { suggestFlags } from '../suggest.js';
import { perSystem } from './system-schema.js';

/**
 * Profiles files read and checked (src/model/profiles.ts holds what a profile is, and the check of
 * one profile's fields that an imported roster uses too): the file's JSON Schema, one branch per system,
 * and its refusals, one line each.
 */

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

/** One line for what is wrong with one profile. */
function profileProblem(system: SystemSpec, role: ProfileRole, name: string, raw: unknown, at: string): string {
  const where = `${at}${SECTION[role]}.${showValue(name)}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `${where}: ${showValue(raw)} is not allowed; allowed: an object of ${role} fields and "cost"`;
  const err = profileValidator(system, role).errors?.[0];
  const allowed = [...profileFields(system, role).map((f) => f.name), ...profileKeys(system, role)];
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
  if (key === 'injuryDiceUnless') return `${where}.injuryDiceUnless: ${showValue(value)} is not allowed; allowed: a list of { "dice": -3..3, "unless": keyword names in capitals, and "onlyIf" keyword names where the dice hold only against them }, e.g. [{ "dice": -1, "unless": ["FIRE", "GAS"] }] or [{ "dice": -1, "unless": [], "onlyIf": ["GAS"] }]`;
  if (key === 'loadout') return `${where}.loadout: ${showValue(value)} is not allowed; allowed: ${LOADOUT_ALLOWED}`;
  if (key === 'characteristicDice') {
    const of = (name: string) => system.fields.find((f) => f.name === name)!.schema;
    return `${where}.characteristicDice: ${showValue(value)} is not allowed; allowed: dice (${describeAllowed(of('attackDice'))}) by attack type (${describeAllowed(of('attackType'))}), e.g. { "melee": 2 }`;
  }
  if (key === 'keywords') return `${where}.keywords: ${showValue(value)} is not allowed; allowed: a list of keyword names, e.g. ["IGNORE ARMOUR", "ARMOUR PIERCING 1"]`;
  return `${where}.${key}: ${showValue(value)} ${err?.message ?? 'is not valid'}`;
}

/** Checks a parsed profiles file; `label` names it in messages. */
export function parseProfiles(raw: unknown, label: string, file: string): Profiles {
  const at = `${label}: `;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw refusalAt(at, `must hold one JSON object { "system", "models", "weapons" }, got ${Array.isArray(raw) ? 'an array' : showValue(raw)}`);
  }
  const input = raw as Record<string, unknown>;
  const keys = ['$schema', 'description', 'system', 'models', 'weapons'];
  for (const key of Object.keys(input)) if (!keys.includes(key)) throw refusal(`${at}${key}`, 'not a key of a profiles file', `allowed: ${listAllowed(keys.slice(1))}`);
  const systemId = input.system ?? DEFAULT_SYSTEM;
  const system = typeof systemId === 'string' ? findSystem(systemId) : undefined;
  if (!system) throw notOneOf(`${at}system`, systemId, 'a known system', systems.map((s) => s.id));
  const read = (role: ProfileRole): Map<string, Profile> => {
    const section = input[SECTION[role]] ?? {};
    if (typeof section !== 'object' || section === null || Array.isArray(section)) {
      throw notAllowed(`${at}${SECTION[role]}`, section, `an object of ${role} profiles by name`);
    }
    const out = new Map<string, Profile>();
    for (const [name, body] of Object.entries(section as Record<string, unknown>)) {
      if (name.trim() === '') throw refusal(`${at}${SECTION[role]}`, 'a profile with an empty name', 'allowed: a name of at least one letter');
      if (!profileValidator(system, role)(body)) throw refusal('', profileProblem(system, role, name, body, at));
      const { cost, otherCosts, description, keywords, injuryDiceUnless, loadout, characteristicDice, ...fields } = body as Record<string, unknown>;
      out.set(name, {
        name,
        role,
        fields: fields as Record<string, FieldValue>,
        keywords: (keywords as string[] | undefined) ?? [],
        ...(injuryDiceUnless !== undefined ? { injuryDiceUnless: injuryDiceUnless as InjuryDiceUnless[] } : {}),
        ...(loadout !== undefined ? { loadout: loadout as string[] } : {}),
        ...(characteristicDice !== undefined ? { characteristicDice: characteristicDice as Record<string, number> } : {}),
        ...(typeof cost === 'number' ? { cost } : {}),
        ...(otherCosts !== undefined ? { otherCosts: otherCosts as Record<string, number> } : {}),
        ...(typeof description === 'string' ? { description } : {}),
      });
    }
    return out;
  };
  const weapons = read('weapon');
  const models = read('model');
  // A loadout names weapons of this file: one it lacks is a typo, refused rather than paired with nothing.
  for (const m of models.values()) {
    for (const w of m.loadout ?? []) if (!weapons.has(w)) throw notOneOf(`${at}models.${showValue(m.name)}.loadout`, w, 'a weapon of this file', [...weapons.keys()]);
  }
  return { system, file, weapons, models };
}
