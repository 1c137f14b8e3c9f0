import { listAllowed } from '../errors.js';
import type { UsageError } from '../errors.js';
import { didYouMean, notAllowed } from '../messages.js';
import type { FieldSchema, FieldSpec } from './types.js';

/** JSON-Schema (draft-07) fragment for one field. */
export function fieldJsonSchema(f: FieldSpec): Record<string, unknown> {
  const s = f.schema;
  const base = { description: f.description };
  switch (s.type) {
    case 'integer':
    case 'number':
      return { ...base, type: s.type, minimum: s.minimum, maximum: s.maximum };
    case 'boolean':
      return { ...base, type: 'boolean' };
    case 'string':
      return { ...base, type: 'string', enum: [...s.enum] };
    case 'integer-or':
      return {
        ...base,
        anyOf: [{ type: 'integer', minimum: s.minimum, maximum: s.maximum }, { enum: [...s.words] }],
      };
    case 'text':
      return { ...base, type: 'string', minLength: 1, maxLength: s.maxLength };
  }
}

/** Human description of what a field allows, for error messages and `systems`. */
export function describeAllowed(schema: FieldSchema): string {
  switch (schema.type) {
    case 'integer':
      return `a whole number from ${schema.minimum} to ${schema.maximum}`;
    case 'number':
      return `a number from ${schema.minimum} to ${schema.maximum}`;
    case 'boolean':
      return 'true or false';
    case 'string':
      return listAllowed(schema.enum);
    case 'integer-or':
      return `a whole number from ${schema.minimum} to ${schema.maximum}, or ${schema.words.map((w) => `"${w}"`).join(', ')}`;
    case 'text':
      return `text of 1 to ${schema.maxLength} characters, such as ${JSON.stringify(schema.example)}`;
  }
}


/**
 * A choice written with other capitals ("Machine", "NONE") is the value it plainly means when exactly
 * one allowed value matches it so; anything else is left as given, for the checks to refuse with the
 * list. Files, flags and the page all go through it (validateScenario), so a designer's "Machine"
 * means machine everywhere.
 */
export function inAllowedCase(f: FieldSpec, value: unknown): unknown {
  const allowed = f.schema.type === 'string' ? f.schema.enum : f.schema.type === 'integer-or' ? f.schema.words : undefined;
  if (allowed === undefined || typeof value !== 'string' || allowed.includes(value)) return value;
  const same = allowed.filter((v) => v.toLowerCase() === value.toLowerCase());
  return same.length === 1 ? same[0] : value;
}

/** A field's value refused: `WHERE: VALUE is not allowed; allowed: ...`, with a "did you mean" for a misspelt word ("standrd"). */
export function notAllowedValue(where: string, value: unknown, schema: FieldSchema): UsageError {
  const words = schema.type === 'string' ? schema.enum : schema.type === 'integer-or' ? schema.words : [];
  return notAllowed(where, value, describeAllowed(schema), didYouMean(value, words));
}
