/**
 * Rules as data. Every number a rule file prints that an engine uses is declared once, in its system's
 * rule spec: what it means, what a variant may set it to, and per edition its value and the sentence it
 * comes from. An edition's rule table (the plain values) is built from the spec; both engines read that
 * table, never a constant, so a variant (a partial table over an edition) changes exactly what it says.
 */

/** Where a rule value comes from: a sentence of a rule file, or one of our rulings where no file prints it. */
export type RuleCitation =
  | { readonly file: string; readonly quote: string }
  | { readonly ruling: string; readonly note: string };

/** What a keyword does: scenario field values, "N" standing for the keyword's number (ARMOUR PIERCING 2). */
export type Effects = { readonly [field: string]: number | boolean | string };

export type RuleValue = number | boolean | string | null | Effects;

/** What a variant may set a rule to. `nullable`: null means "none" (no cap, no limit). */
export type RuleSchema =
  | { readonly type: 'integer'; readonly minimum: number; readonly maximum: number; readonly nullable?: string }
  | { readonly type: 'boolean' }
  | { readonly type: 'string'; readonly enum: readonly string[] }
  /** A keyword's effects: values of the fields a weapon or model profile may give, or "N". */
  | { readonly type: 'effects' };

/**
 * A group a variant may add entries to (the keywords: "define a new one from the same effects"), each
 * new entry checked against this schema. Kept under a symbol so listing the group's entries skips it.
 */
export const OPEN_GROUP: unique symbol = Symbol('open rule group');

/** One rule value: its meaning, what it may be, and its value and source in each edition. */
export interface RuleLeaf<V extends RuleValue = RuleValue> {
  readonly kind: 'rule';
  readonly description: string;
  readonly schema: RuleSchema;
  readonly editions: Readonly<Record<string, { readonly value: V; readonly source: RuleCitation }>>;
}

/** A system's rule spec: rule values, grouped (injuryTable, armour, ...). */
export interface RuleSpec {
  readonly [key: string]: RuleLeaf | RuleSpec;
  readonly [OPEN_GROUP]?: RuleSchema;
}

/** The plain rule table a spec describes: `injuryTable.down` is a number, and so on. */
export type RuleValues<S> = {
  readonly [K in keyof S]: S[K] extends RuleLeaf<infer V> ? V : RuleValues<S[K]>;
};

/** Per edition: [value, where it comes from]. */
export type PerEdition<V extends RuleValue> = Readonly<Record<string, readonly [V, RuleCitation]>>;

function leaf<V extends RuleValue>(description: string, schema: RuleSchema, perEdition: PerEdition<V>): RuleLeaf<V> {
  const editions: Record<string, { value: V; source: RuleCitation }> = {};
  for (const [edition, [value, source]] of Object.entries(perEdition)) editions[edition] = { value, source };
  return { kind: 'rule', description, schema, editions };
}

export function integerRule(
  description: string,
  bounds: { minimum: number; maximum: number },
  perEdition: PerEdition<number>,
): RuleLeaf<number> {
  return leaf(description, { type: 'integer', ...bounds }, perEdition);
}

/** An integer or null, null meaning what `none` says (e.g. "no cap"). */
export function integerOrNoneRule(
  description: string,
  bounds: { minimum: number; maximum: number; none: string },
  perEdition: PerEdition<number | null>,
): RuleLeaf<number | null> {
  return leaf(description, { type: 'integer', minimum: bounds.minimum, maximum: bounds.maximum, nullable: bounds.none }, perEdition);
}

export function booleanRule(description: string, perEdition: PerEdition<boolean>): RuleLeaf<boolean> {
  return leaf(description, { type: 'boolean' }, perEdition);
}

/** A keyword: the field values it gives, the same in every edition listed (each with its citation). */
export function effectsRule(description: string, fields: RuleSchema & { type: 'effects' }, effects: Effects, sources: Readonly<Record<string, RuleCitation>>): RuleLeaf<Effects> {
  return leaf(description, fields, same(effects, sources));
}

/** A group of rules a variant may add entries to, each new one checked against `schema`. */
export function openGroup<const G extends Record<string, RuleLeaf>>(schema: RuleSchema, entries: G): G {
  return Object.assign(Object.create(null) as object, entries, { [OPEN_GROUP]: schema }) as G;
}

export function choiceRule<const T extends string>(description: string, values: readonly T[], perEdition: PerEdition<T>): RuleLeaf<T> {
  return leaf(description, { type: 'string', enum: values }, perEdition);
}

/** The same value in every edition listed, each with its own citation. */
export function same<V extends RuleValue>(value: V, sources: Readonly<Record<string, RuleCitation>>): PerEdition<V> {
  const per: Record<string, readonly [V, RuleCitation]> = {};
  for (const [edition, source] of Object.entries(sources)) per[edition] = [value, source];
  return per;
}

export function isRuleLeaf(node: RuleLeaf | RuleSpec): node is RuleLeaf {
  return (node as RuleLeaf).kind === 'rule' && typeof (node as RuleLeaf).description === 'string';
}

/** Every rule of a spec with its dotted path ("injuryTable.down"), in declaration order. */
export function ruleLeaves(spec: RuleSpec, prefix = ''): { path: string; leaf: RuleLeaf }[] {
  const out: { path: string; leaf: RuleLeaf }[] = [];
  for (const [key, node] of Object.entries(spec)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isRuleLeaf(node)) out.push({ path, leaf: node });
    else out.push(...ruleLeaves(node, path));
  }
  return out;
}

/** An edition's rule table: the spec's values for that edition, as a plain nested object. */
export function editionRules<S extends RuleSpec>(spec: S, edition: string): RuleValues<S> {
  const build = (node: RuleSpec): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      if (isRuleLeaf(child)) {
        const entry = child.editions[edition];
        if (!entry) throw new Error(`rule ${key} has no value for edition ${edition}`);
        out[key] = entry.value;
      } else out[key] = build(child);
    }
    return out;
  };
  return build(spec) as RuleValues<S>;
}

/** Equal rule values (a keyword's effects compared by content). */
export function sameRuleValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));
}

/** The value at a dotted path of a plain table. */
export function valueAt(table: unknown, path: string): unknown {
  let node = table;
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  return node;
}

/** A rule value as a designer writes it ("none" for a null with a meaning). */
export function showRuleValue(value: unknown, schema: RuleSchema): string {
  if (value === null && schema.type === 'integer' && schema.nullable) return `null (${schema.nullable})`;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return typeof value === 'string' ? value : String(value);
}

/** What a rule may be set to, for messages and the `rules` listing. */
export function describeRuleSchema(schema: RuleSchema): string {
  switch (schema.type) {
    case 'integer':
      return `a whole number from ${schema.minimum} to ${schema.maximum}${schema.nullable ? `, or null (${schema.nullable})` : ''}`;
    case 'boolean':
      return 'true or false';
    case 'string':
      return schema.enum.map((v) => `"${v}"`).join(', ');
    case 'effects':
      return 'an object of weapon or model profile fields (a number may be "N", the keyword\'s number)';
  }
}

/** One rule as `injury-lab rules` lists it. */
export interface RuleEntry {
  readonly rule: string;
  readonly value: RuleValue;
  readonly description: string;
  readonly allowed: string;
  /** The edition's source for its own value. */
  readonly source: RuleCitation;
  /** Set when a variant changed this rule: the edition's value it replaced. */
  readonly editionValue?: RuleValue;
}

/** A rule table with, rule by rule, what it means and where its value comes from. */
export interface RuleListing {
  readonly system: string;
  readonly edition: { readonly id: string; readonly title: string; readonly source: string };
  /** The variant laid over the edition, if any. */
  readonly variant?: string;
  readonly table: unknown;
  readonly entries: readonly RuleEntry[];
}

/** The listing of an edition's table, or of a variant's (`variant`: its name and table over that edition). */
export function ruleListing(
  system: { readonly id: string; readonly rules: { readonly spec: RuleSpec } },
  edition: RuleListing['edition'],
  variant?: { readonly name: string; readonly table: unknown },
): RuleListing {
  const base = editionRules(system.rules.spec, edition.id);
  const table = variant?.table ?? base;
  const entries = ruleLeaves(system.rules.spec).map(({ path, leaf }): RuleEntry => {
    const value = valueAt(table, path) as RuleValue;
    const own = valueAt(base, path) as RuleValue;
    return {
      rule: path,
      value,
      description: leaf.description,
      allowed: describeRuleSchema(leaf.schema),
      source: leaf.editions[edition.id]!.source,
      ...(!sameRuleValue(value, own) ? { editionValue: own } : {}),
    };
  });
  // Entries a variant added to an open group (its own keywords): listed after the declared ones.
  const added: RuleEntry[] = [];
  for (const [group, node] of Object.entries(system.rules.spec)) {
    if (isRuleLeaf(node) || node[OPEN_GROUP] === undefined) continue;
    const values = (valueAt(table, group) ?? {}) as Record<string, RuleValue>;
    for (const [key, value] of Object.entries(values)) {
      if (Object.hasOwn(node, key)) continue;
      added.push({
        rule: `${group}.${key}`,
        value,
        description: `Added by variant "${variant?.name ?? ''}"`,
        allowed: describeRuleSchema(node[OPEN_GROUP]),
        source: { ruling: 'T20', note: 'a keyword of the variant, not of the edition' },
        editionValue: null,
      });
    }
  }
  return { system: system.id, edition, ...(variant ? { variant: variant.name } : {}), table, entries: [...entries, ...added] };
}

/**
 * A table of results read from the lowest total up (the injury table: "2-6 Minor Hit, 7-8 Down, 9+ Out
 * of Action"). Each result's rule is the lowest total that gives it, so the rules must rise strictly,
 * and a change to one is worded as the table prints it: "Out of Action: 9+ -> 10+".
 */
export interface ResultTable {
  /** From the lowest result up: the rule holding its lowest total, and the result's name. */
  readonly results: readonly { readonly rule: string; readonly result: string }[];
  /** What a total below the first result's gives ("no effect"). */
  readonly below: string;
}

/** A result table's rules, lowest first: a group that must rise strictly (SystemRules.increasing). */
export function resultTableRules(table: ResultTable): string[] {
  return table.results.map((r) => r.rule);
}

/** Each result of a table and the totals that give it under a rule table's values: "1 or less", "2-6", "7", "9+". */
export function resultRanges(table: ResultTable, rules: unknown): { result: string; range: string }[] {
  const lowest = table.results.map((r) => valueAt(rules, r.rule) as number);
  const span = (from: number, to: number) => (from === to ? String(from) : from < 0 || to < 0 ? `${from} to ${to}` : `${from}-${to}`);
  return [
    { result: table.below, range: `${lowest[0]! - 1} or less` },
    ...table.results.map((r, i) => ({ result: r.result, range: i + 1 < lowest.length ? span(lowest[i]!, lowest[i + 1]! - 1) : `${lowest[i]!}+` })),
  ];
}
