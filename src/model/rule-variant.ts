import { markChecked } from './edition-table.js';
import type { ValidateFunction } from 'ajv';
import { suggestFlags } from '../cli/did-you-mean.js';
import { UsageError, listAllowed, showValue } from '../errors.js';
import { schemaValidator } from './ajv.js';
import { describeAllowed, fieldJsonSchema } from './field-schema.js';
import { OPEN_GROUP, describeRuleSchema, sameRuleValue, isRuleLeaf, ruleLeaves, valueAt, type RuleLeaf, type RuleSchema, type RuleSpec } from './rule-table.js';
import type { RuleTable, SystemSpec } from './types.js';

/**
 * Rule changes: a partial rule table laid over an edition's (a variant's `rules`, or a scenario's
 * inline `rules`). The shape is checked with ajv against a schema built from the system's rule spec;
 * the first problem is reported in one line naming the rule, the value and what is allowed.
 */

/** The fields a keyword's effects may give: those weapon and model profiles may give, with their schemas. */
type EffectFields = Readonly<Record<string, Record<string, unknown>>>;

function effectFieldsOf(system: SystemSpec): EffectFields {
  return Object.fromEntries(system.fields.filter((f) => f.profile !== undefined).map((f) => [f.name, fieldJsonSchema(f)]));
}

function leafJsonSchema(leaf: RuleLeaf, effects: EffectFields): Record<string, unknown> {
  const s: RuleSchema = leaf.schema;
  const base = { description: leaf.description };
  switch (s.type) {
    case 'integer':
      return s.nullable
        ? { ...base, anyOf: [{ type: 'integer', minimum: s.minimum, maximum: s.maximum }, { type: 'null' }] }
        : { ...base, type: 'integer', minimum: s.minimum, maximum: s.maximum };
    case 'boolean':
      return { ...base, type: 'boolean' };
    case 'string':
      return { ...base, type: 'string', enum: [...s.enum] };
    case 'effects':
      return effectsJsonSchema(effects, leaf.description);
  }
}

/** A keyword's effects: an object of profile fields, each its own value or "N" (the keyword's number). */
function effectsJsonSchema(fields: Readonly<Record<string, Record<string, unknown>>>, description: string): Record<string, unknown> {
  const properties = Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, { anyOf: [schema, { const: 'N' }] }]));
  return { description, type: 'object', properties, additionalProperties: false };
}

/** JSON Schema (draft-07) of a partial rule table of a system: every rule optional, nothing else allowed. */
export function ruleChangesJsonSchema(system: SystemSpec): Record<string, unknown> {
  return groupJsonSchema(system.rules.spec, effectFieldsOf(system));
}

function groupJsonSchema(spec: RuleSpec, effects: EffectFields): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(spec)) properties[key] = isRuleLeaf(node) ? leafJsonSchema(node, effects) : groupJsonSchema(node, effects);
  // An open group (the keywords) takes new entries of its own kind.
  const open = spec[OPEN_GROUP];
  const extra = open?.type === 'effects' ? effectsJsonSchema(effects, "A keyword of this variant's own") : false;
  return { type: 'object', properties, additionalProperties: extra };
}

const validators = new Map<string, ValidateFunction>();

function validatorFor(system: SystemSpec): ValidateFunction {
  let v = validators.get(system.id);
  if (!v) {
    v = schemaValidator().compile(ruleChangesJsonSchema(system));
    validators.set(system.id, v);
  }
  return v;
}

/** The group or rule at a dotted path of a spec, if there is one. */
function nodeAt(spec: RuleSpec, path: string): RuleSpec | RuleLeaf | undefined {
  let node: RuleSpec | RuleLeaf | undefined = spec;
  for (const key of path.split('.')) {
    if (node === undefined || isRuleLeaf(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** One line for the first thing wrong with `changes`, `at` naming where they were given ("rules" or "variant.json: rules"). */
function describeProblem(system: SystemSpec, others: readonly SystemSpec[], changes: unknown, at: string): string {
  const err = validatorFor(system).errors?.[0];
  // ajv escapes "/" and "~" in a path's keys ("~1", "~0"): a keyword name may hold either.
  const parts = (err?.instancePath ?? '').split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const group = parts[0] === undefined ? undefined : system.rules.spec[parts[0]];
  if (group !== undefined && !isRuleLeaf(group) && group[OPEN_GROUP]?.type === 'effects' && parts.length >= 2) return effectsProblem(system, err, parts, changes, at);
  if (err?.keyword === 'additionalProperties') {
    const unknown = String((err.params as { additionalProperty: string }).additionalProperty);
    const path = [...parts, unknown].join('.');
    const group = parts.length ? nodeAt(system.rules.spec, parts.join('.')) : system.rules.spec;
    const keys = group && !isRuleLeaf(group) ? Object.keys(group) : [];
    const elsewhere = others.find((o) => o.id !== system.id && nodeAt(o.rules.spec, path) !== undefined);
    if (elsewhere) return `${at}.${path}: is a rule of ${elsewhere.id}, not ${system.id}; allowed${parts.length ? ` in ${parts.join('.')}` : ''}: ${listAllowed(keys)}`;
    const guess = suggestFlags(unknown, keys);
    return `${at}.${path}: not a rule of ${system.id}${guess.length ? ` (did you mean ${guess.join(' or ')}?)` : ''}; allowed${parts.length ? ` in ${parts.join('.')}` : ''}: ${listAllowed(keys)}`;
  }
  const path = parts.join('.');
  const value = path ? valueAt(changes, path) : changes;
  const node = path ? nodeAt(system.rules.spec, path) : system.rules.spec;
  if (node && isRuleLeaf(node)) return `${at}.${path}: ${showValue(value)} is not allowed; allowed: ${describeRuleSchema(node.schema)}`;
  const keys = node ? Object.keys(node) : [];
  return `${at}${path ? `.${path}` : ''}: ${showValue(value)} is not allowed; allowed: an object of rules (${listAllowed(keys)})`;
}

/** One line for a keyword's effects: a field a keyword may not give, or a value out of its field's range. */
function effectsProblem(system: SystemSpec, err: { keyword: string; params: unknown } | undefined, parts: readonly string[], changes: unknown, at: string): string {
  const allowed = system.fields.filter((f) => f.profile !== undefined);
  if (err?.keyword === 'additionalProperties' && parts.length === 2) {
    const key = String((err.params as { additionalProperty: string }).additionalProperty);
    const guess = suggestFlags(key, allowed.map((f) => f.name));
    return `${at}.${parts.join('.')}.${key}: not a field a keyword may give${guess.length ? ` (did you mean ${guess.join(' or ')}?)` : ''}; allowed: ${listAllowed(allowed.map((f) => f.name))}`;
  }
  const field = allowed.find((f) => f.name === parts[2]);
  const value = valueAt(changes, parts.join('.'));
  if (field) return `${at}.${parts.join('.')}: ${showValue(value)} is not allowed; allowed: ${describeAllowed(field.schema)}, or "N" (the keyword's number)`;
  return `${at}.${parts.join('.')}: ${showValue(value)} is not allowed; allowed: an object of fields a keyword may give (${listAllowed(allowed.map((f) => f.name))})`;
}

function merge(base: RuleTable, changes: Readonly<Record<string, unknown>>): RuleTable {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    const under = base[key];
    out[key] = typeof under === 'object' && under !== null ? merge(under, value as Record<string, unknown>) : value;
  }
  return out as RuleTable;
}

/**
 * `base` with `changes` laid over it, checked: unknown rules (with the other system's rules named as
 * such), wrong types, values out of range, and bands that no longer rise are refused in one line.
 */
export function applyRuleChanges(system: SystemSpec, others: readonly SystemSpec[], base: RuleTable, changes: unknown, at = 'rules'): RuleTable {
  if (!validatorFor(system)(changes)) throw new UsageError(describeProblem(system, others, changes, at));
  const table = merge(base, changes as Record<string, unknown>);
  for (const group of system.rules.increasing) {
    const values = group.map((path) => valueAt(table, path) as number);
    if (values.every((v, i) => i === 0 || v > values[i - 1]!)) continue;
    const shown = group.map((path, i) => `${path} ${values[i]}`).join(', ');
    throw new UsageError(`${at}: ${shown} must rise strictly in that order (each band starts above the one before); allowed: values with ${group.join(' < ')}`);
  }
  return markChecked(system, table);
}

/** The rules whose value in `table` differs from `base`, by dotted path. */
export function changedRules(spec: RuleSpec, base: RuleTable, table: RuleTable): string[] {
  return ruleLeaves(spec)
    .map((l) => l.path)
    .filter((path) => !sameRuleValue(valueAt(base, path), valueAt(table, path)));
}
