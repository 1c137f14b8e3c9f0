import { describeAllowed, fieldJsonSchema, inAllowedCase } from '../model/field-schema.js';
import { choiceField, numberField } from '../model/fields.js';
import type { FieldSpec } from '../model/types.js';
import { notAllowed, notOneOf } from '../messages.js';
import { DUEL_POLICIES, duelFields } from '../rules/trench-crusade/duel/fields.js';
import { ATTACK_TYPES } from '../rules/trench-crusade/tables.js';
import { DEFAULT_PRICE_LINE, PRICE_LINES, type PriceLine } from './fair-price.js';
import { DEFAULT_FIELD_POLICY } from './duel-matrix.js';

/**
 * What a price is asked with, declared once: `injury-lab price`'s flags and --help, a report's `price`
 * analysis (its JSON Schema) and the messages that refuse a bad value all come from here. The duel's own
 * settings (rounds, objective) are the duel kind's field declarations themselves, so a price can never
 * allow a number of rounds a duel refuses, or describe them otherwise.
 */

const KIND = 'price';
const duelField = (name: string) => {
  const f = duelFields.find((d) => d.name === name);
  if (f === undefined) throw new Error(`the duel kind declares no field ${name}`);
  return f;
};

/** The settings with a value of a field's kind: each a flag of `price` and a key of a report's `price`. */
export const PRICE_FIELDS: readonly FieldSpec[] = [
  choiceField('attackType', {
    description: 'The weapons taken: every weapon of this attack type (a weapon that says none is melee)',
    values: ATTACK_TYPES,
    default: 'melee',
    kinds: [KIND],
  }),
  duelField('rounds'),
  choiceField('policy', {
    description: 'What both sides of every duel do with blood markers (a side\'s own policy wins): none (placed, not spent: each is rated for its body and weapon alone), injury, hinder or optimal, as a duel side\'s policy',
    values: DUEL_POLICIES,
    default: DEFAULT_FIELD_POLICY,
    kinds: [KIND],
  }),
  duelField('objective'),
  choiceField('line', {
    description: 'How the line of rating against ln(price) is fitted: theil-sen (medians: the mispriced entries being judged do not tilt it) or least-squares (every entry pulls on it)',
    values: PRICE_LINES,
    default: DEFAULT_PRICE_LINE,
    kinds: [KIND],
  }),
  numberField('tolerance', {
    description: 'Percent of its price an entry may be from fair and still be called fair',
    minimum: 0,
    maximum: 1000,
    default: 5,
    kinds: [KIND],
  }),
  numberField('prior', {
    description: 'Virtual tied games per pair in the fit: lets a field with an unbeatable entry be rated (0: the duels alone)',
    minimum: 0,
    maximum: 1e6,
    default: 0,
    kinds: [KIND],
  }),
];

/** The settings that are text: a file, names of the field, an edition. */
export interface PriceTextSetting {
  readonly name: 'profiles' | 'models' | 'weapons' | 'edition' | 'anchor';
  readonly description: string;
  /** A list of names (a flag takes them separated by commas, a report an array). */
  readonly list?: true;
}

export const PRICE_TEXT_SETTINGS: readonly PriceTextSetting[] = [
  { name: 'profiles', description: 'The profiles file whose models and weapons make the field (injury-lab profiles exports one from a roster or catalogue)' },
  { name: 'models', list: true, description: 'Only these models, by name (default: every model of the file)' },
  { name: 'weapons', list: true, description: 'Only these weapons, by name (default: every weapon of the attack type)' },
  { name: 'edition', description: "The edition (default: the system's newest)" },
  { name: 'anchor', description: 'An entry whose price is fair by definition: the price line goes through it' },
];

export interface PriceSettings {
  readonly profiles: string;
  readonly models?: readonly string[];
  readonly weapons?: readonly string[];
  readonly edition?: string;
  readonly anchor?: string;
  readonly attackType: string;
  readonly rounds: number;
  readonly policy: string;
  readonly objective: string;
  readonly line: PriceLine;
  readonly tolerance: number;
  readonly prior: number;
}

/** A report's `price` object: every setting, `profiles` required, nothing else. */
export function priceSettingsJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const t of PRICE_TEXT_SETTINGS) {
    properties[t.name] = t.list
      ? { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: t.description }
      : { type: 'string', minLength: 1, description: t.description };
  }
  for (const f of PRICE_FIELDS) properties[f.name] = { ...fieldJsonSchema(f), default: f.default };
  return { type: 'object', required: ['profiles'], properties, additionalProperties: false };
}

/**
 * The settings given (a flag's or a report's values, by setting name), checked, with the defaults filled
 * in. `nameOf` says a setting as the user wrote it ("--attack-type", "price.attackType"): each refusal is
 * one line naming it, the value and what is allowed. Keys not declared here are the caller's to refuse.
 */
export function checkPriceSettings(given: Readonly<Record<string, unknown>>, nameOf: (name: string) => string): PriceSettings {
  const out: Record<string, unknown> = {};
  for (const t of PRICE_TEXT_SETTINGS) {
    const value = given[t.name];
    if (value === undefined) continue;
    if (t.list) {
      const names = typeof value === 'string' ? value.split(',').map((n) => n.trim()).filter((n) => n !== '') : value;
      if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string' && n !== '')) throw notAllowed(nameOf(t.name), value, 'names separated by commas');
      out[t.name] = names;
    } else {
      if (typeof value !== 'string' || value === '') throw notAllowed(nameOf(t.name), value, 'a name');
      out[t.name] = value;
    }
  }
  if (out.profiles === undefined) throw notAllowed(nameOf('profiles'), undefined, 'a profiles file');
  for (const f of PRICE_FIELDS) {
    const value = inAllowedCase(f, given[f.name] ?? f.default);
    const s = f.schema;
    if (s.type === 'string') {
      if (!(s.enum as readonly unknown[]).includes(value)) throw notOneOf(nameOf(f.name), value, `a known ${f.name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`, s.enum);
    } else if (s.type === 'integer' || s.type === 'number') {
      const ok = typeof value === 'number' && Number.isFinite(value) && (s.type === 'number' || Number.isInteger(value)) && value >= s.minimum && value <= s.maximum;
      if (!ok) throw notAllowed(nameOf(f.name), value, describeAllowed(s));
    }
    out[f.name] = value;
  }
  return out as unknown as PriceSettings;
}
