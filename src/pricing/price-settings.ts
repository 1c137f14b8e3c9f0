import { describeAllowed, fieldJsonSchema, inAllowedCase } from '../model/field-schema.js';
import { choiceField, numberField } from '../model/fields.js';
import type { FieldSpec } from '../model/types.js';
import { notAllowed, notOneOf, refusal } from '../messages.js';
import { DUEL_POLICIES, duelFields } from '../rules/trench-crusade/duel/fields.js';
import { duelSideFields } from '../rules/trench-crusade/duel/sides.js';
import { parseWhere } from './where.js';
import { ANY_ATTACK_TYPE } from './field.js';
import { LIST_QUOTING, parseQuotedList } from '../quoted-list.js';

/** What --help shows of a condition: a few of the keys it takes. */
const WHERE_EXAMPLES = '"price<=60", "keyword=FEAR", "armour=reinforced", "tough=true", "attackDice>=1"';
import { ATTACK_TYPES } from '../rules/trench-crusade/tables.js';
import { DEFAULT_PRICE_LINE, PRICE_LINES, type PriceLine } from './fair-price.js';
import { DEFAULT_FIELD_POLICY } from './duel-matrix.js';
import { integerField } from '../model/fields.js';
import { battleFields, battleSideFields, MAX_DUCATS, type BattleGameSettings } from '../rules/trench-crusade/battle/fields.js';
import type { BattleBloodPolicy, BattleTactic } from '../rules/trench-crusade/battle/kind.js';
import { DEFAULT_SEED, MAX_SEED } from '../sim/run-limits.js';

/**
 * What a price is asked with, declared once: `injury-lab price`'s flags and --help, a report's `price`
 * analysis (its JSON Schema) and the messages that refuse a bad value all come from here. The duel's own
 * settings (rounds, objective) are the duel kind's field declarations themselves, so a price can never
 * allow a number of rounds a duel refuses, or describe them otherwise.
 */

/**
 * How the field is priced: from exact duels, or from battles at equal ducats (src/pricing/battle-prices.ts).
 * Each setting's `kinds` are the ways of pricing that read it; a setting the chosen way does not read is
 * refused rather than ignored.
 */
export const PRICE_METHODS = ['duels', 'battles'] as const;
export type PriceMethod = (typeof PRICE_METHODS)[number];
const BOTH: PriceMethod[] = ['duels', 'battles'];
const DUELS: PriceMethod[] = ['duels'];
const BATTLES: PriceMethod[] = ['battles'];
/** The starting warband of the core rules' campaign (its Threshold Value): the ducats a battle's warbands are bought with by default. */
export const DEFAULT_PRICE_DUCATS = 700;
/** Battles per entry and count tried by default: its share against the field within 0.35 points (one standard error), whatever the field's size. */
export const DEFAULT_PRICE_GAMES = 20_000;
const duelField = (name: string) => {
  const f = duelFields.find((d) => d.name === name);
  if (f === undefined) throw new Error(`the duel kind declares no field ${name}`);
  return f;
};

/** The settings with a value of a field's kind: each a flag of `price` and a key of a report's `price`. */
export const PRICE_FIELDS: readonly FieldSpec[] = [
  choiceField('by', {
    description: "How the field is priced: duels (every pair in an exact one-on-one melee duel, rated and priced by the line of rating against price) or battles (each entry's warband at equal ducats against every other's, simulated; its fair price the price at which it wins half against the field)",
    values: PRICE_METHODS,
    default: 'duels',
    kinds: BOTH,
  }),
  choiceField('attackType', {
    description: 'The weapons taken: every weapon of this attack type (a weapon that says none is melee), or any (every weapon; the default with --by battles, melee with duels)',
    values: [...ATTACK_TYPES, ANY_ATTACK_TYPE],
    default: (_rules: never, given: Readonly<Record<string, unknown>>) => (given.by === 'battles' ? ANY_ATTACK_TYPE : 'melee'),
    kinds: BOTH,
  }),
  { ...duelField('rounds'), description: `With --by duels: ${duelField('rounds').description}`, kinds: DUELS },
  choiceField('policy', {
    description: 'With --by duels: what both sides of every duel do with blood markers (a side\'s own policy wins): none (placed, not spent: each is rated for its body and weapon alone), injury, hinder or optimal, as a duel side\'s policy',
    values: DUEL_POLICIES,
    default: DEFAULT_FIELD_POLICY,
    kinds: DUELS,
  }),
  { ...duelField('objective'), description: `With --by duels: ${duelField('objective').description}`, kinds: DUELS },
  choiceField('line', {
    description: 'With --by duels: how the line of rating against ln(price) is fitted: theil-sen (medians: the mispriced entries being judged do not tilt it) or least-squares (every entry pulls on it)',
    values: PRICE_LINES,
    default: DEFAULT_PRICE_LINE,
    kinds: DUELS,
  }),
  numberField('tolerance', {
    description: 'Percent of its price an entry may be from fair and still be called fair',
    minimum: 0,
    maximum: 1000,
    default: 5,
    kinds: BOTH,
  }),
  numberField('prior', {
    description: 'Virtual tied games per pair in the fit: lets a field with an unbeatable entry be rated (0: the duels alone)',
    minimum: 0,
    maximum: 1e6,
    default: 0,
    kinds: BOTH,
  }),
  numberField('ducats', {
    description: 'With --by battles: the ducats each warband is bought with, as many copies of its entry as they buy at its price (700: the core rules\' starting warband)',
    minimum: 1,
    maximum: MAX_DUCATS,
    default: DEFAULT_PRICE_DUCATS,
    kinds: BATTLES,
  }),
  integerField('games', {
    description: 'With --by battles: battles each entry plays against the field at each count tried, shared evenly among its opponents (its share against the field pools them all: a standard error of at most 0.5 / sqrt(games))',
    minimum: 1,
    maximum: 10_000_000,
    default: DEFAULT_PRICE_GAMES,
    kinds: BATTLES,
  }),
  integerField('seed', {
    description: 'With --by battles: the seed; the same seed and games give the same prices on any machine and any number of threads',
    minimum: 0,
    maximum: MAX_SEED,
    default: DEFAULT_SEED,
    kinds: BATTLES,
  }),
  // The game every battle is, as `injury-lab battle` declares it (its ducats are the price's own, above).
  // Each entry is fielded at equal ducats: a Field Strength would cut a cheap entry's warband and leave its fair price unidentified (battle --swap prices within one).
  ...battleFields.filter((f) => f.name !== 'ducats' && f.name !== 'fieldStrength').map((f) => ({ ...f, description: `With --by battles: ${f.description}`, kinds: BATTLES })),
  // Both warbands play alike: one plan and one use of blood markers for every side.
  ...battleSideFields.map((f) => ({ ...f, description: `With --by battles, every warband: ${f.description}`, kinds: BATTLES })),
];

/**
 * The settings that are not a field's value: where the field is read from, names that narrow it, an
 * edition. `list`: names (a flag takes them separated by commas, a report an array); `files`: file paths
 * (a flag takes them as separate words, as every command's --catalogue does; a report an array);
 * `switch`: true or false (a flag given alone).
 */
export interface PriceTextSetting {
  readonly name: 'profiles' | 'roster' | 'catalogue' | 'allowUnmodelled' | 'models' | 'weapons' | 'where' | 'edition' | 'anchor' | 'entries';
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
  { name: 'anchor', description: 'With --by duels: an entry whose price is fair by definition: the price line goes through it' },
  {
    name: 'entries',
    list: true,
    description: 'With --by battles: the field as entries of a warband, "MODEL with WEAPON + WEAPON" each (a model with a ranged and a melee weapon, a whole kit), instead of every model with each weapon',
  },
];

/** What every price is asked with, whichever way it is priced. */
interface PriceCommonSettings {
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
  /** The field as warband entries, with --by battles. */
  readonly entries?: readonly string[];
  readonly attackType: string;
  readonly tolerance: number;
  readonly prior: number;
}

/** A price from exact duels: the settings the duels read. */
export interface DuelPriceSettings extends PriceCommonSettings {
  readonly by: 'duels';
  readonly line: PriceLine;
  readonly rounds: number;
  readonly policy: string;
  readonly objective: string;
}

/** A price from battles at equal ducats: the game every battle is, and how many are played. */
export interface BattlePriceSettings extends PriceCommonSettings, Omit<BattleGameSettings, 'ducats' | 'fieldStrength'> {
  readonly by: 'battles';
  readonly ducats: number;
  readonly games: number;
  readonly seed: number;
  readonly tactic: BattleTactic;
  readonly blood: BattleBloodPolicy;
}

/** The settings as checked: those of the chosen way of pricing (its fields' `kinds`) and no other. */
export type PriceSettings = DuelPriceSettings | BattlePriceSettings;

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

/**
 * A report's `price` object: every setting of the ways of pricing `methods` names (a report draws prices
 * from duels), `profiles` alone or `roster` and `catalogue` (one or both) required, nothing else.
 */
export function priceSettingsJsonSchema(methods: readonly PriceMethod[] = PRICE_METHODS): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const t of PRICE_TEXT_SETTINGS) {
    properties[t.name] = t.switch
      ? { type: 'boolean', description: t.description }
      : t.list || t.files
        ? { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: t.description }
        : { type: 'string', minLength: 1, description: t.description };
  }
  for (const f of PRICE_FIELDS) {
    if (!methods.some((m) => (f.kinds as readonly string[]).includes(m))) continue;
    const schema = f.name === 'by' ? { type: 'string', enum: methods, description: f.description } : fieldJsonSchema(f);
    properties[f.name] = { ...schema, ...(typeof f.default === 'function' ? {} : { default: f.default }) };
  }
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
  if (out.entries !== undefined && given.by !== 'battles') throw refusal(nameOf('entries'), 'is read only when pricing by battles, not by duels', `allowed: ${nameOf('by')} battles, or no ${nameOf('entries')}`);
  if (out.entries !== undefined && (out.models !== undefined || out.weapons !== undefined)) throw refusal(`${nameOf('entries')}, ${nameOf(out.models !== undefined ? 'models' : 'weapons')}`, 'both name the field', `give one: the entries, or models and weapons`);
  // Prices from battles fit no line of rating against price, so there is no line to move through an anchor.
  if (out.anchor !== undefined && given.by === 'battles') throw refusal(nameOf('anchor'), 'is read only when pricing by duels, not by battles', `allowed: ${nameOf('by')} duels, or no ${nameOf('anchor')}`);
  const sources = PRICE_SOURCES.filter((source) => out[source] !== undefined);
  // A roster with catalogues is one field, my warband against theirs; a profiles file goes alone.
  const warband = sources.length === 2 && out.roster !== undefined && out.catalogue !== undefined;
  if (sources.length !== 1 && !warband) {
    const choices = `${nameOf('profiles')} FILE, ${nameOf('roster')} FILE or ${nameOf('catalogue')} FILE... (${nameOf('roster')} and ${nameOf('catalogue')} may go together)`;
    throw refusal(sources.length === 0 ? 'price' : sources.map(nameOf).join(', '), sources.length === 0 ? 'no field named' : 'more than one field named', `give one of ${choices}`);
  }
  const by = inAllowedCase(PRICE_FIELDS[0]!, given.by ?? 'duels');
  if (!(PRICE_METHODS as readonly unknown[]).includes(by)) throw notOneOf(nameOf('by'), by, 'a way of pricing', PRICE_METHODS);
  for (const f of PRICE_FIELDS) {
    // A setting the chosen way does not read would change nothing: said, not ignored.
    if (given[f.name] !== undefined && !(f.kinds as readonly unknown[]).includes(by)) {
      throw refusal(nameOf(f.name), `is read only when pricing by ${f.kinds.join(' or ')}, not by ${String(by)}`, `allowed: ${nameOf('by')} ${f.kinds.join(' or ')}, or no ${nameOf(f.name)}`);
    }
    // Only what the chosen way reads is filled in: a price from duels holds no battle's settings.
    if (!(f.kinds as readonly unknown[]).includes(by)) continue;
    const value = inAllowedCase(f, given[f.name] ?? (typeof f.default === 'function' ? f.default(undefined as never, { by }) : f.default));
    const s = f.schema;
    if (s.type === 'string') {
      if (!(s.enum as readonly unknown[]).includes(value)) throw notOneOf(nameOf(f.name), value, `a known ${f.name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`, s.enum);
    } else if (s.type === 'integer' || s.type === 'number') {
      const ok = typeof value === 'number' && Number.isFinite(value) && (s.type === 'number' || Number.isInteger(value)) && value >= s.minimum && value <= s.maximum;
      if (!ok) throw notAllowed(nameOf(f.name), value, describeAllowed(s));
    } else if (s.type === 'boolean' && typeof value !== 'boolean') {
      throw notAllowed(nameOf(f.name), value, 'true or false');
    }
    out[f.name] = value;
  }
  return out as unknown as PriceSettings;
}
