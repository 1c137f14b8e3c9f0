import { describeAllowed, fieldJsonSchema, inAllowedCase } from '../model/field-schema.js';
import { choiceField, numberField } from '../model/fields.js';
import type { FieldSpec } from '../model/types.js';
import { notAllowed, notOneOf, refusal } from '../messages.js';
import { DUEL_POLICIES, duelFields } from '../rules/trench-crusade/duel/fields.js';
import { duelSideFields } from '../rules/trench-crusade/duel/sides.js';
import { parseWhere } from './where.js';
import { LIST_QUOTING, parseQuotedList } from '../quoted-list.js';

/** What --help shows of a condition: a few of the keys it takes. */
const WHERE_EXAMPLES = '"price<=60", "keyword=FEAR", "armour=reinforced", "tough=true", "attackDice>=1"';
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

/**
 * The settings that are not a field's value: where the field is read from, names that narrow it, an
 * edition. `list`: names (a flag takes them separated by commas, a report an array); `files`: file paths
 * (a flag takes them as separate words, as every command's --catalogue does; a report an array);
 * `switch`: true or false (a flag given alone).
 */
export interface PriceTextSetting {
  readonly name: 'profiles' | 'roster' | 'catalogue' | 'allowUnmodelled' | 'models' | 'weapons' | 'where' | 'edition' | 'anchor';
  readonly description: string;
  readonly list?: true;
  readonly files?: true;
  readonly switch?: true;
}

/** Where a field may be read from: a profiles file alone, or a roster and catalogue files, one or both. */
export const PRICE_SOURCES = ['profiles', 'roster', 'catalogue'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

export const PRICE_TEXT_SETTINGS: readonly PriceTextSetting[] = [
  { name: 'profiles', description: 'The profiles file whose models and weapons make the field (injury-lab profiles exports one from a roster or catalogue)' },
  { name: 'roster', description: 'Or a roster exported from NewRecruit (.rosz, .ros or its JSON): the models and weapons it holds make the field (with --catalogue: both fields together)' },
  {
    name: 'catalogue',
    files: true,
    description: "Or BattleScribe catalogue files (.gst, .cat): every model they offer with each weapon of its loadout, at its faction's price (with --roster: the roster's models as they stand, and the catalogue's; a name both hold is the catalogue's NAME (catalogue))",
  },
  {
    name: 'allowUnmodelled',
    switch: true,
    description: "Price a roster's or catalogue's entries even where they hold what nothing models (a weapon's unknown keyword): left out of every duel, and listed with the verdicts",
  },
  { name: 'models', list: true, description: 'Only these models, by name (default: every model of the file)' },
  { name: 'weapons', list: true, description: 'Only these weapons, by name (default: every weapon of the attack type)' },
  {
    name: 'where',
    list: true,
    description: `Only the entries that meet every condition KEY OP VALUE (OP: < <= = != >= >), read as their duels read them: price, keyword (a model's or weapon's), or a side's field (${WHERE_EXAMPLES}); given again or separated by commas`,
  },
  { name: 'edition', description: "The edition (default: the system's newest)" },
  { name: 'anchor', description: 'An entry whose price is fair by definition: the price line goes through it' },
];

export interface PriceSettings {
  /** A profiles file alone, or a roster and catalogue files, one or both. */
  readonly profiles?: string;
  readonly roster?: string;
  readonly catalogue?: readonly string[];
  readonly allowUnmodelled?: boolean;
  readonly models?: readonly string[];
  readonly weapons?: readonly string[];
  /** Conditions as written, each checked (src/pricing/where.ts). */
  readonly where?: readonly string[];
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

/** The files a price reads its field from, as given: the files an output must never replace. */
export function priceSourceFiles(settings: PriceSettings): string[] {
  return [settings.profiles, settings.roster, ...(settings.catalogue ?? [])].filter((f): f is string => f !== undefined);
}

/** Where the field was read from, for a title or a page: "examples/profiles.json", "the catalogue files a.gst, b.cat". */
export function priceSourceText(settings: Pick<PriceSettings, PriceSource>): string {
  if (settings.roster !== undefined && settings.catalogue !== undefined) return `the roster ${settings.roster} with the catalogue files ${settings.catalogue.join(', ')}`;
  if (settings.roster !== undefined) return `the roster ${settings.roster}`;
  if (settings.catalogue !== undefined) return `the catalogue files ${settings.catalogue.join(', ')}`;
  return String(settings.profiles);
}

/** A report's `price` object: every setting, `profiles` alone or `roster` and `catalogue` (one or both) required, nothing else. */
export function priceSettingsJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const t of PRICE_TEXT_SETTINGS) {
    properties[t.name] = t.switch
      ? { type: 'boolean', description: t.description }
      : t.list || t.files
        ? { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: t.description }
        : { type: 'string', minLength: 1, description: t.description };
  }
  for (const f of PRICE_FIELDS) properties[f.name] = { ...fieldJsonSchema(f), default: f.default };
  const imported = [{ required: ['roster'] }, { required: ['catalogue'] }];
  return {
    type: 'object',
    oneOf: [
      { required: ['profiles'], not: { anyOf: imported } },
      { anyOf: imported, not: { required: ['profiles'] } },
    ],
    properties,
    additionalProperties: false,
  };
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
    if (t.switch) {
      if (typeof value !== 'boolean') throw notAllowed(nameOf(t.name), value, 'true or false');
      out[t.name] = value;
    } else if (t.list || t.files) {
      // A flag's names come as one text, separated by commas; files as separate words (one file: a text).
      const names = typeof value === 'string' ? (t.files ? [value] : parseQuotedList(value, nameOf(t.name)).filter((n) => n !== '')) : value;
      if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string' && n !== '')) throw notAllowed(nameOf(t.name), value, t.files ? 'file paths' : `names separated by commas; ${LIST_QUOTING}`);
      out[t.name] = names;
    } else {
      if (typeof value !== 'string' || value === '') throw notAllowed(nameOf(t.name), value, t.name === 'profiles' || t.name === 'roster' ? 'a file path' : 'a name');
      out[t.name] = value;
    }
  }
  for (const condition of (out.where as string[] | undefined) ?? []) parseWhere(condition, duelSideFields, nameOf('where'));
  const sources = PRICE_SOURCES.filter((source) => out[source] !== undefined);
  // A roster with catalogues is one field, my warband against theirs; a profiles file goes alone.
  const warband = sources.length === 2 && out.roster !== undefined && out.catalogue !== undefined;
  if (sources.length !== 1 && !warband) {
    const choices = `${nameOf('profiles')} FILE, ${nameOf('roster')} FILE or ${nameOf('catalogue')} FILE... (${nameOf('roster')} and ${nameOf('catalogue')} may go together)`;
    throw refusal(sources.length === 0 ? 'price' : sources.map(nameOf).join(', '), sources.length === 0 ? 'no field named' : 'more than one field named', `give one of ${choices}`);
  }
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
