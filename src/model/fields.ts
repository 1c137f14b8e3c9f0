import type { FieldSpec, GivenFields, ProfileRole } from './types.js';

/**
 * Typed builders for field declarations. Each keeps the field's name, value type and kinds as literal
 * types, so a system's scenario type follows from its list of fields (ScenarioOf) and its engines read
 * `s.armour` as 'none' | 'standard' | ... without a cast.
 */

interface Common<K extends string> {
  readonly description: string;
  /** The kinds that read the field. */
  readonly kinds: readonly K[];
  /** A weapon or a model profile may give this field (profiles files, --weapon, --target). */
  readonly profile?: ProfileRole;
  /** Keywords giving it add up, as dice and modifiers from several sources do (numeric fields only). */
  readonly stacks?: boolean;
  /** A field a designer sets most: the page shows it before the folded rest (FieldSpec.common). */
  readonly common?: true;
  /** Kinds that take it without modelling it (FieldSpec.notModelledIn). */
  readonly notModelledIn?: { readonly kinds: readonly string[]; readonly why: string };
  /** The answer holds from one whole threshold to the next (FieldSpec.steps). */
  readonly steps?: true;
  /** A choice a side makes in play (FieldSpec.played). */
  readonly played?: true;
}

/** The optional parts every builder passes on. */
const extras = (o: { readonly profile?: ProfileRole; readonly stacks?: boolean; readonly common?: true; readonly notModelledIn?: { readonly kinds: readonly string[]; readonly why: string }; readonly steps?: true; readonly played?: true }) => ({
  ...(o.profile ? { profile: o.profile } : {}),
  ...(o.stacks ? { stacks: true } : {}),
  ...(o.common ? { common: true as const } : {}),
  ...(o.notModelledIn ? { notModelledIn: o.notModelledIn } : {}),
  ...(o.steps ? { steps: true as const } : {}),
  ...(o.played ? { played: true as const } : {}),
});

/**
 * A fixed default, or one read from the system's rule table (the function names its own table type)
 * and the fields the scenario gives.
 */
type Default<V> = V | ((rules: never, given: GivenFields) => V);

export function integerField<const N extends string, const K extends string>(
  name: N,
  o: Common<K> & { readonly minimum: number; readonly maximum: number; readonly default: Default<number> },
): FieldSpec<N, number, K> {
  return { name, description: o.description, schema: { type: 'integer', minimum: o.minimum, maximum: o.maximum }, default: o.default, kinds: o.kinds, ...extras(o) };
}

export function numberField<const N extends string, const K extends string>(
  name: N,
  o: Common<K> & { readonly minimum: number; readonly maximum: number; readonly default: Default<number> },
): FieldSpec<N, number, K> {
  return { name, description: o.description, schema: { type: 'number', minimum: o.minimum, maximum: o.maximum }, default: o.default, kinds: o.kinds, ...extras(o) };
}

export function booleanField<const N extends string, const K extends string>(name: N, o: Common<K> & { readonly default: Default<boolean> }): FieldSpec<N, boolean, K> {
  return { name, description: o.description, schema: { type: 'boolean' }, default: o.default, kinds: o.kinds, ...extras(o) };
}

/** One of a list of words (armour: none, standard, ...). */
export function choiceField<const N extends string, const V extends string, const K extends string>(
  name: N,
  o: Common<K> & { readonly values: readonly V[]; readonly default: Default<NoInfer<V>> },
): FieldSpec<N, V, K> {
  return { name, description: o.description, schema: { type: 'string', enum: o.values }, default: o.default, kinds: o.kinds, ...extras(o) };
}

/** Free text its kind reads (a battle side's warband), at most `maxLength` characters. */
export function textField<const N extends string, const K extends string>(name: N, o: Common<K> & { readonly maxLength: number; readonly example: string; readonly default: Default<string> }): FieldSpec<N, string, K> {
  return { name, description: o.description, schema: { type: 'text', maxLength: o.maxLength, example: o.example }, default: o.default, kinds: o.kinds, ...extras(o) };
}

/** A whole number in a range, or one of a few words (the d20 stat "-", "all" activations). */
export function integerOrField<const N extends string, const W extends string, const K extends string>(
  name: N,
  o: Common<K> & { readonly minimum: number; readonly maximum: number; readonly words: readonly W[]; readonly default: Default<number | NoInfer<W>> },
): FieldSpec<N, number | W, K> {
  return {
    name,
    description: o.description,
    schema: { type: 'integer-or', minimum: o.minimum, maximum: o.maximum, words: o.words },
    default: o.default,
    kinds: o.kinds,
    ...extras(o),
  };
}

/**
 * The fields of `values` that differ from their defaults, as a heading says them: "name value", "tough"
 * for a true flag (objects, such as a duel's sides, are said by their own fields). `rules` is the table a
 * default that depends on it reads.
 */
export function changedFields(fields: readonly FieldSpec[], values: Readonly<Record<string, unknown>>, rules: unknown): string[] {
  return fields
    .filter((f) => {
      const value = values[f.name];
      if (value === undefined || (typeof value === 'object' && value !== null)) return false;
      const byDefault = typeof f.default === 'function' ? f.default(rules as never, values) : f.default;
      return value !== byDefault;
    })
    .map((f) => (values[f.name] === true ? f.name : `${f.name} ${String(values[f.name])}`));
}
