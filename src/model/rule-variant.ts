import { isCheckedTable, markChecked } from './edition-table.js';
import type { ValidateFunction } from 'ajv';
import { suggestFlags } from '../suggest.js';
import { listAllowed, showValue } from '../errors.js';
import { refusal } from '../messages.js';
import { schemaValidator } from './ajv.js';
import { describeAllowed, fieldJsonSchema } from './field-schema.js';
import { OPEN_GROUP, describeRuleSchema, sameRuleValue, isRuleLeaf, ruleLeaves, valueAt, type RuleLeaf, type RuleSchema, type RuleSpec } from './rule-table.js';
import type { RuleTable, SystemSpec } from './types.js';
import { parseTargetInjuryDice, parseKeyword } from './keywords.js';

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

/**
 * How a schema writes a keyword's effects: in full under each keyword, with its description (the
 * published schema), or as a reference to one shared copy (`sharedEffects`, the validator's).
 */
type EffectsAt = ((description: string) => Record<string, unknown>) | undefined;

function leafJsonSchema(leaf: RuleLeaf, effects: EffectFields, effectsAt: EffectsAt): Record<string, unknown> {
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
      return effectsAt ? effectsAt(leaf.description) : effectsJsonSchema(effects, leaf.description);
  }
}

/** A keyword's effects: an object of profile fields, each its own value or "N" (the keyword's number). */
function effectsJsonSchema(fields: Readonly<Record<string, Record<string, unknown>>>, description: string): Record<string, unknown> {
  const properties = Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, { anyOf: [schema, { const: 'N' }] }]));
  return { description, type: 'object', properties, additionalProperties: false };
}

/** JSON Schema (draft-07) of a partial rule table of a system: every rule optional, nothing else allowed. */
export function ruleChangesJsonSchema(system: SystemSpec): Record<string, unknown> {
  return groupJsonSchema(system.rules.spec, effectFieldsOf(system), undefined);
}

/**
 * The same schema for the validator, with a keyword's effects written once under `definitions` and
 * referred to by every keyword: it checks exactly what the published one does, and ajv compiles the
 * effects once instead of once for each of the edition's 41 keywords (3.4 s to about 0.1 s for every
 * process that reads a variant, measured on `diff core VARIANT`).
 */
function validatedRuleChangesSchema(system: SystemSpec): Record<string, unknown> {
  const effects = effectFieldsOf(system);
  const shared = (description: string) => ({ description, $ref: '#/definitions/effects' });
  return { ...groupJsonSchema(system.rules.spec, effects, shared), definitions: { effects: effectsJsonSchema(effects, "A keyword's effects") } };
}

/**
 * How many keywords a variant may give (change or add). The editions have 35; `diff` prices every one
 * a variant gives over its own grid, so a variant of thousands would run for hours.
 */
export const MAX_VARIANT_KEYWORDS = 256;

function groupJsonSchema(spec: RuleSpec, effects: EffectFields, effectsAt: EffectsAt): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(spec)) properties[key] = isRuleLeaf(node) ? leafJsonSchema(node, effects, effectsAt) : groupJsonSchema(node, effects, effectsAt);
  // An open group (the keywords) takes new entries of its own kind.
  const open = spec[OPEN_GROUP];
  if (open?.type === 'effects') {
    const own = "A keyword of this variant's own";
    return { type: 'object', properties, additionalProperties: effectsAt ? effectsAt(own) : effectsJsonSchema(effects, own), maxProperties: MAX_VARIANT_KEYWORDS };
  }
  return { type: 'object', properties, additionalProperties: false };
}

/** A group of keywords over the cap: checked before the schema, whose own message would not say so. */
function tooManyKeywords(system: SystemSpec, changes: unknown, at: string): string | undefined {
  for (const [group, node] of Object.entries(system.rules.spec)) {
    if (isRuleLeaf(node) || node[OPEN_GROUP]?.type !== 'effects') continue;
    const given = (changes as Record<string, unknown> | undefined)?.[group];
    if (typeof given !== 'object' || given === null) continue;
    const count = Object.keys(given).length;
    if (count > MAX_VARIANT_KEYWORDS) return `${at}.${group}: ${count} keywords; allowed: at most ${MAX_VARIANT_KEYWORDS} in one variant`;
  }
  return undefined;
}

const validators = new Map<string, ValidateFunction>();

function validatorFor(system: SystemSpec): ValidateFunction {
  let v = validators.get(system.id);
  if (!v) {
    v = schemaValidator().compile(validatedRuleChangesSchema(system));
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

/**
 * `base` with `changes` laid over it, group by group. A rule's value is replaced whole, a keyword's
 * effects included: `"FIRE": {}` leaves FIRE with no effect, not with the edition's.
 */
function merge(base: RuleTable, changes: Readonly<Record<string, unknown>>, spec: RuleSpec | undefined): RuleTable {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    const under = base[key];
    const node = spec && Object.hasOwn(spec, key) ? (spec as Record<string, RuleSpec | RuleLeaf>)[key] : undefined;
    const isValue = node ? isRuleLeaf(node) : spec?.[OPEN_GROUP] !== undefined;
    out[key] = !isValue && typeof under === 'object' && under !== null ? merge(under, value as Record<string, unknown>, node as RuleSpec | undefined) : value;
  }
  return out as RuleTable;
}

/**
 * What the schema cannot say about a variant's keywords: a name must be written as profiles write it
 * (capitals, single spaces, no number, no comma, not an ability's "-N INJURY DICE UNLESS K"), its effects
 * all on one side (a weapon's or a model's fields), and "N" only where a whole number goes.
 */
function keywordProblem(system: SystemSpec, changes: unknown, at: string): string | undefined {
  const spec = system.rules.spec;
  for (const [group, node] of Object.entries(spec)) {
    if (isRuleLeaf(node) || node[OPEN_GROUP]?.type !== 'effects') continue;
    const given = (changes as Record<string, unknown> | undefined)?.[group];
    if (typeof given !== 'object' || given === null) continue;
    for (const [name, effects] of Object.entries(given as Record<string, Record<string, unknown>>)) {
      const where = `${at}.${group}.${showValue(name)}`;
      const parsed = parseKeyword(name);
      const canonical = name === parsed.name && parsed.n === undefined && name !== '' && !name.includes(',');
      if (parseTargetInjuryDice(name)) {
        return `${where}: is written as a model's ability ("-N INJURY DICE", "-N INJURY DICE UNLESS K"), which profiles read as such; allowed: a name of another form, e.g. "WARDED"`;
      }
      if (!canonical) {
        return `${where}: not a keyword name profiles can write; allowed: capitals and single spaces, no number (the keyword's number is written where it is used) and no comma, e.g. ${showValue(parsed.name.replace(/,/g, '') || 'BARBED')}`;
      }
      const roles = new Set(Object.keys(effects).map((f) => system.fields.find((x) => x.name === f)?.profile));
      if (roles.size > 1) return `${where}: gives both weapon and model fields (${listAllowed(Object.keys(effects))}); allowed: the fields of one side, a weapon's or a model's`;
      for (const [field, value] of Object.entries(effects)) {
        const spec = system.fields.find((x) => x.name === field);
        if (value === 'N' && spec?.schema.type !== 'integer') return `${where}.${field}: "N" is not allowed (the field is not a whole number); allowed: ${describeAllowed(spec!.schema)}`;
      }
    }
  }
  return undefined;
}

/**
 * Tables already made from a changes object over a base table. A grid evaluates the same variant in
 * every cell (diff: two scenarios a cell, and a cell per keyword the variant adds): checking its
 * changes each time made the run quadratic in the variant's size. Changes are JSON read once and never
 * mutated, so the same object over the same base gives the same table.
 */
const applied = new WeakMap<object, WeakMap<RuleTable, RuleTable>>();

/**
 * `base` with `changes` laid over it, checked: unknown rules (with the other system's rules named as
 * such), wrong types, values out of range, and bands that no longer rise are refused in one line.
 */
export function applyRuleChanges(system: SystemSpec, others: readonly SystemSpec[], base: RuleTable, changes: unknown, at = 'rules'): RuleTable {
  const known = typeof changes === 'object' && changes !== null ? applied.get(changes)?.get(base) : undefined;
  if (known && isCheckedTable(system, known)) return known;
  const table = checkAndMerge(system, others, base, changes, at);
  if (typeof changes === 'object' && changes !== null) {
    const byBase = applied.get(changes) ?? new WeakMap<RuleTable, RuleTable>();
    byBase.set(base, table);
    applied.set(changes, byBase);
  }
  return table;
}

function checkAndMerge(system: SystemSpec, others: readonly SystemSpec[], base: RuleTable, changes: unknown, at: string): RuleTable {
  const tooMany = typeof changes === 'object' && changes !== null ? tooManyKeywords(system, changes, at) : undefined;
  if (tooMany) throw refusal('', tooMany);
  if (!validatorFor(system)(changes)) throw refusal('', describeProblem(system, others, changes, at));
  const keywordError = keywordProblem(system, changes, at);
  if (keywordError) throw refusal('', keywordError);
  const table = merge(base, changes as Record<string, unknown>, system.rules.spec);
  for (const group of system.rules.increasing) {
    const values = group.map((path) => valueAt(table, path) as number);
    if (values.every((v, i) => i === 0 || v > values[i - 1]!)) continue;
    const shown = group.map((path, i) => `${path} ${values[i]}`).join(', ');
    throw refusal(at, `${shown} must rise strictly in that order (each band starts above the one before)`, `allowed: values with ${group.join(' < ')}`);
  }
  return markChecked(system, table);
}

/** The rules whose value in `table` differs from `base`, by dotted path. */
export function changedRules(spec: RuleSpec, base: RuleTable, table: RuleTable): string[] {
  return ruleLeaves(spec)
    .map((l) => l.path)
    .filter((path) => !sameRuleValue(valueAt(base, path), valueAt(table, path)));
}
