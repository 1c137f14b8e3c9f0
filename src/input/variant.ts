import { listAllowed, showValue } from '../errors.js';
import { notAllowed, notOneOf, refusal, refusalAt } from '../messages.js';
import { DEFAULT_SYSTEM, findSystem, systems } from '../rules/registry.js';
import { perSystem } from './system-schema.js';
import { applyRuleChanges, ruleChangesJsonSchema } from '../model/rule-variant.js';
import { editionTable } from '../model/edition-table.js';
import type { RuleTable, SystemSpec } from '../model/types.js';

/**
 * A variant: a named set of rule changes over one edition of one system, written as a JSON file
 *   { "name": "late-down", "system": "trench-crusade", "edition": "core", "rules": { "injuryTable": { "down": 8 } } }
 * Every command takes one with --rules FILE; a scenario file or a report analysis may name one
 * ("rules": "FILE", relative to the file that names it) or give the changes inline.
 */
export interface Variant {
  readonly name: string;
  readonly system: SystemSpec;
  readonly edition: string;
  /** The changes as written (a partial rule table). */
  readonly changes: Readonly<Record<string, unknown>>;
  /** The edition's table with the changes laid over it, checked. */
  readonly table: RuleTable;
}

const VARIANT_KEYS = ['$schema', 'name', 'description', 'system', 'edition', 'rules'];

/** The published JSON Schema (draft-07) for variant files: one branch per system. */
export function variantJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://injury-lab.invalid/variant.schema.json',
    title: 'injury-lab rule variant',
    description: "Rule changes over one edition's rule table (`injury-lab rules` lists every rule, its value and its source)",
    type: 'object',
    required: ['rules'],
    properties: {
      $schema: { type: 'string' },
      name: { type: 'string', description: 'What outputs call this variant (default: the file name without .json)' },
      description: { type: 'string' },
      system: { enum: systems.map((s) => s.id), default: DEFAULT_SYSTEM },
      edition: { type: 'string', description: "The edition the changes are laid over (default: the system's default edition)" },
      rules: { type: 'object' },
    },
    additionalProperties: false,
    allOf: perSystem((system) => ({ properties: { edition: { enum: system.editions.map((e) => e.id), default: system.defaultEdition }, rules: ruleChangesJsonSchema(system) } })),
  };
}

/** Checks a parsed variant file; `label` names it in messages ("variant file \"v.json\""), `fallbackName` is its default name. */
export function parseVariant(raw: unknown, label: string, fallbackName: string): Variant {
  const at = `${label}: `;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw refusalAt(at, `must hold one JSON object { "name", "system", "edition", "rules" }, got ${Array.isArray(raw) ? 'an array' : showValue(raw)}`);
  }
  const input = raw as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!VARIANT_KEYS.includes(key)) throw refusal(`${at}${key}`, 'not a key of a variant file', `allowed: ${listAllowed(VARIANT_KEYS.slice(1))}`);
  }
  for (const key of ['name', 'description'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'string') throw notAllowed(`${at}${key}`, input[key], 'a string');
  }
  const systemId = input.system ?? DEFAULT_SYSTEM;
  const system = typeof systemId === 'string' ? findSystem(systemId) : undefined;
  if (!system) throw notOneOf(`${at}system`, systemId, 'a known system', systems.map((s) => s.id));
  const edition = input.edition ?? system.defaultEdition;
  if (typeof edition !== 'string' || !system.editions.some((e) => e.id === edition)) {
    throw notOneOf(`${at}edition`, edition, `an edition of ${system.id}`, system.editions.map((e) => e.id));
  }
  if (input.rules === undefined) throw refusal(`${at}rules`, 'missing', 'a variant gives the rules it changes, e.g. "rules": { "injuryTable": { "down": 8 } }');
  const table = applyRuleChanges(system, systems, editionTable(system, edition), input.rules, `${label}: rules`);
  const name = typeof input.name === 'string' && input.name.trim() !== '' ? input.name : fallbackName;
  return { name, system, edition, changes: input.rules as Record<string, unknown>, table };
}
