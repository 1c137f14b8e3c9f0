import { listAllowed, showValue } from '../errors.js';
import { notAllowed, refusal } from '../messages.js';
import { NO_VARIANT, coerceFlagValue, scenarioSystemAndKind, type ScenarioFiles } from '../input/scenario-core.js';
import type { FieldSpec, FieldValue, KindSides, SystemSpec } from '../model/types.js';
import { fieldTitle } from '../labels.js';
import { suggestFlags } from '../suggest.js';
import { LIST_QUOTING, parseQuotedList } from '../quoted-list.js';
import { SCENARIO_KEYWORDS, SIDE_KEYWORDS, SIDE_NAME_KEYS, SIDE_PROFILE_KEY } from '../input/sides.js';

/**
 * A dimension of a sweep: one field (armour), or several fields varied together (armour and shield as
 * the seven combinations the rules allow), with the values it takes in order and a label for each.
 */
export interface Dimension {
  /** The field name, or the fields joined with "+" ("armour+shield"), or the name a report gave it. */
  readonly id: string;
  readonly fields: readonly string[];
  /** Axis title, with its unit where it has one: "Fall height (inches)". */
  readonly title: string;
  readonly values: readonly DimensionValue[];
  /** A single numeric field: lines put it on a quantitative axis. */
  readonly numeric: boolean;
  /** A numeric field whose answer holds from one whole threshold to the next (FieldSpec.steps): drawn as steps. */
  readonly steps?: true;
  /**
   * The key of the side this dimension varies whole (a duel's `a`), for a kind with sides: each value
   * is a named side (`side` below), its name the value's one entry in `values`.
   */
  readonly side?: string;
}

export interface DimensionValue {
  /** One value per field, in the order of the dimension's fields. */
  readonly values: readonly FieldValue[];
  readonly label: string;
  /** A weapon's or target model's cost, from the profiles file (value charts divide by it). */
  readonly cost?: number;
  /** What `cost` is the price of; value charts rank like with like (CostOf). */
  readonly costOf?: CostOf;
  /**
   * A variant file whose `name` another value of the dimension shares: the name its cells carry
   * instead, with the file ("Late Down (a.json)"), so rows and CSV lines can be told apart.
   */
  readonly variant?: string;
  /**
   * A whole side (dimension `side`): its fields as the definition gives them, laid over the base
   * scenario's side field by field in every cell (layeredSide).
   */
  readonly side?: Readonly<Record<string, unknown>>;
}

/**
 * What a value's cost prices: a weapon alone, a model alone, or a whole model with its weapon (a
 * roster's or catalogue's "MODEL with WEAPON", its kit included). A bare weapon's 8 ducats and a whole
 * model's 39 are not the same kind of price: a value chart ranks each kind among its own.
 */
export type CostOf = 'weapon' | 'model' | 'loadout';

/** What a `--vary` flag or a report's `vary` item says, before it is checked against the rules. */
export type VarySpec =
  | string
  | {
      readonly field?: string;
      readonly fields?: readonly string[];
      readonly values?: readonly unknown[];
      readonly from?: number;
      readonly to?: number;
      readonly step?: number;
      readonly labels?: readonly string[];
      readonly title?: string;
      readonly name?: string;
      /** A side varied whole: every model of these with every weapon of `weapons`, each "MODEL with WEAPON". */
      readonly models?: readonly unknown[];
      readonly weapons?: readonly unknown[];
    };

/** Fields a sweep may vary besides the system's own: the edition (kind and system stay fixed). */
const EDITION = 'edition';
/** The rules a cell is evaluated under: a variant file, or "none" for the edition's own (see parseScenario). */
export const RULES = 'rules';
/** Profiles of the scenario's profiles file, by name: the weapon, and the model attacked. */
export const PROFILE_DIMENSIONS = ['weapon', 'target'] as const;
/**
 * Keywords given on top of the profiles ("IGNORE ARMOUR, FIRE"), varied as whole lists: one value per
 * list, the values separated by ";" (a list holds commas), "none" for no keywords.
 */
const KEYWORD_DIMENSIONS: readonly string[] = SCENARIO_KEYWORDS;
const KEYWORD_SEPARATOR = ';';
/**
 * Both sides of a kind with sides at once: "sides.armour" gives a duel's a and b one armour in each
 * cell, where "a.armour" gives side a's alone.
 */
export const BOTH_SIDES = 'sides';

/** A side's field as a vary item names it ("a.policy", "sides.armour"): the sides it sets and the field. */
export interface SidePath {
  /** The side keys it sets: one ("a"), or every side of the kind for "sides". */
  readonly sides: readonly string[];
  readonly field: string;
}

/** The side and field a dotted name gives ("a.policy"), or undefined for a name with no dot; not checked. */
export function sidePath(name: string, sideKeys: readonly string[]): SidePath | undefined {
  const dot = name.indexOf('.');
  if (dot < 0) return undefined;
  const head = name.slice(0, dot);
  return { sides: head === BOTH_SIDES ? sideKeys : [head], field: name.slice(dot + 1) };
}

/** The name a field is known by, without its side: "policy" of "a.policy". */
const bareName = (name: string) => name.slice(name.lastIndexOf('.') + 1);

/** A list of keywords, top-level ("weaponKeywords") or a side's ("a.modelKeywords"): its values hold commas. */
const isKeywordsField = (name: string) => KEYWORD_DIMENSIONS.includes(name) || (name.includes('.') && SIDE_KEYWORDS.includes(bareName(name)));

/**
 * Sets one field of a cell's raw scenario: a top-level field, or a side's ("a.policy"), or every side's
 * ("sides.armour"), over what the side already gives. A side's object is copied, never changed: the
 * base scenario's sides are shared by every cell.
 */
export function assignField(input: Record<string, unknown>, name: string, value: unknown, sideKeys: readonly string[]): void {
  const path = sidePath(name, sideKeys);
  if (!path) {
    input[name] = value;
    return;
  }
  for (const side of path.sides) input[side] = { ...(isPlainObject(input[side]) ? input[side] : {}), [path.field]: value };
}
const NO_KEYWORDS = 'none';
/** Dimensions that are not fields of the system: the edition, the rules, the named profiles and the keywords given. */
type Special = typeof EDITION | typeof RULES | (typeof PROFILE_DIMENSIONS)[number] | (typeof SCENARIO_KEYWORDS)[number] | SideName;
/** A side's profile names and keywords ("a.model", "b.weaponKeywords"): a dotted name, checked by sideFieldSpec. */
type SideName = `${string}.${string}`;
/**
 * The most cells one sweep or one analysis of a report may have. A whole catalogue's weapons against
 * its models fits (127 x 53 is 6,731 cells: about 20 s from a profiles file on two cores, exact,
 * charts and all); a typo does not (0..100000 for 0..100). The count is checked from the vary items
 * alone, before any file is read or cell planned (checkGridSize).
 */
export const MAX_CELLS = 10_000;

/** The system and kind a base scenario names, with the defaults parseScenario would fill. */
export function baseSystemAndKind(base: Record<string, unknown>): { system: SystemSpec; kind: string } {
  return scenarioSystemAndKind(base);
}

/** The sides of a kind that has them (a duel's `a` and `b`), else undefined. */
export function kindSides(system: SystemSpec, kind: string): KindSides | undefined {
  return system.kinds.find((k) => k.id === kind)?.sides;
}

/**
 * The fields a sweep of this kind may vary, for messages. A kind with sides names its profiles and
 * keywords per side ("a.model"), so the one-sided weapon and target are not among them.
 */
function variableFields(system: SystemSpec, kind: string): string[] {
  const sides = kindSides(system, kind);
  const own = system.fields.filter((f) => f.kinds.includes(kind)).map((f) => f.name);
  if (!sides) return [EDITION, RULES, ...PROFILE_DIMENSIONS, ...KEYWORD_DIMENSIONS, ...own];
  return [EDITION, RULES, ...sides.keys, ...own, ...sides.keys.map((k) => `${k}.FIELD`), `${BOTH_SIDES}.FIELD (a side's field, on one side or on both)`];
}

function fieldSpec(system: SystemSpec, kind: string, name: string): FieldSpec | Special {
  const sides = kindSides(system, kind);
  if (name.includes('.')) return sideFieldSpec(system, kind, name);
  if (name === EDITION || name === RULES) return name;
  if (!sides && ((PROFILE_DIMENSIONS as readonly string[]).includes(name) || KEYWORD_DIMENSIONS.includes(name))) return name as Special;
  const f = system.fields.find((x) => x.name === name);
  if (!f || !f.kinds.includes(kind)) {
    const allowed = variableFields(system, kind);
    // A side's field named without its side ("policy" in a duel): the ways to name it.
    if (sides && (sides.fields.some((x) => x.name === name) || SIDE_NAME_KEYS.includes(name))) {
      throw refusal('vary', `${showValue(name)} is a field of each side of ${system.id} kind "${kind}"`, `allowed: ${[...sides.keys, BOTH_SIDES].map((k) => `${k}.${name}`).join(', ')} (${BOTH_SIDES}.${name}: both sides, one value)`);
    }
    // A misspelt field ("armor") gets its guess first, then the list.
    const guess = name === 'system' || name === 'kind' ? [] : suggestFlags(name, allowed);
    const why = name === 'system' || name === 'kind' ? 'cannot be varied (run one sweep per kind)' : `is not a field of ${system.id} kind "${kind}"${guess.length ? ` (did you mean ${guess.join(' or ')}?)` : ''}`;
    throw refusal('vary', `${showValue(name)} ${why}`, `allowed: ${listAllowed(allowed)}`);
  }
  return f;
}

/** A side's field ("a.policy", "sides.armour") or profile name or keywords ("b.model", "a.weaponKeywords"), checked against the kind's sides. */
function sideFieldSpec(system: SystemSpec, kind: string, name: string): FieldSpec | Special {
  const sides = kindSides(system, kind);
  const dot = name.indexOf('.');
  const [head, field] = [name.slice(0, dot), name.slice(dot + 1)];
  if (!sides) throw refusal('vary', `${showValue(name)}: ${system.id} kind "${kind}" has no sides`, `allowed: ${listAllowed(variableFields(system, kind))}`);
  if (head !== BOTH_SIDES && !sides.keys.includes(head)) {
    throw refusal('vary', `${showValue(name)}: ${showValue(head)} is not a side of ${system.id} kind "${kind}"`, `allowed: ${[...sides.keys, BOTH_SIDES].map((k) => `${k}.FIELD`).join(', ')} (${BOTH_SIDES}: both sides, one value)`);
  }
  const f = sides.fields.find((x) => x.name === field);
  if (f) return f;
  if (SIDE_NAME_KEYS.includes(field)) return name as SideName;
  const allowed = [...sides.fields.map((x) => x.name), ...SIDE_NAME_KEYS];
  const guess = suggestFlags(field, allowed);
  throw refusal('vary', `${showValue(name)}: ${showValue(field)} is not a field of a side${guess.length ? ` (did you mean ${head}.${guess.join(` or ${head}.`)}?)` : ''}`, `allowed after "${head}.": ${listAllowed(allowed)}`);
}

/** An axis title for a varied field: "Injury dice", or a side's "Side a: policy", "Both sides: armour". */
function variedTitle(name: string): string {
  const dot = name.indexOf('.');
  if (dot < 0) return fieldTitle(name);
  const head = name.slice(0, dot);
  return `${head === BOTH_SIDES ? 'Both sides' : `Side ${head}`}: ${fieldTitle(name.slice(dot + 1)).toLowerCase()}`;
}

/** "+1" for fields that can go negative (injury dice), "3" for those that cannot (inches). */
function numberLabel(spec: FieldSpec | Special, v: number): string {
  const signed = typeof spec !== 'string' && 'minimum' in spec.schema && spec.schema.minimum < 0;
  return signed && v > 0 ? `+${v}` : String(v);
}

/**
 * Label of one point of a dimension. Booleans read as the field's name when true ("standard + shield")
 * and drop out when false; a dimension that is a single boolean reads "shield" / "no shield".
 */
function valueLabel(specs: readonly (FieldSpec | Special)[], names: readonly string[], values: readonly FieldValue[]): string {
  // A side's field reads as the field: the dimension's title names the side.
  const words = (n: string) => fieldTitle(bareName(n)).toLowerCase();
  if (values.length === 1 && typeof values[0] === 'boolean') return values[0] ? words(names[0]!) : `no ${words(names[0]!)}`;
  // Keywords read as written: "IGNORE ARMOUR", "ARMOUR PIERCING 1, FIRE".
  if (values.length === 1 && isKeywordsField(names[0]!)) return values[0] === '' ? 'no keywords' : String(values[0]);
  const parts: string[] = [];
  values.forEach((v, i) => {
    if (typeof v === 'boolean') {
      if (v) parts.push(words(names[i]!));
    } else if (typeof v === 'number') parts.push(numberLabel(specs[i]!, v));
    else parts.push(v);
  });
  return parts.join(' + ') || 'none';
}

/** A value as the field wants it: flags arrive as text, report files as JSON values. */
function coerce(spec: FieldSpec | Special, value: unknown): FieldValue {
  // "none" is a keywords value with no keyword in it.
  if (typeof spec === 'string' && isKeywordsField(spec) && typeof value === 'string' && value.trim().toLowerCase() === NO_KEYWORDS) return '';
  const v = typeof spec === 'string' ? value : coerceFlagValue(spec, value);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  throw refusal('vary', `${showValue(value)} is not a value a scenario field can hold`, 'allowed: text, numbers, true or false');
}

/**
 * A range "from..to" with a step, for numeric fields. Values are computed as from + i * step and
 * rounded to 9 decimals, so 0..1:0.1 gives 0.3 and not 0.30000000000000004.
 */
function rangeValues(name: string, spec: FieldSpec | Special, from: number, to: number, step: number): number[] {
  if (typeof spec === 'string' || !(spec.schema.type === 'integer' || spec.schema.type === 'number' || spec.schema.type === 'integer-or')) {
    throw refusal(`vary: ${name}`, 'a range needs a numeric field', 'give the values as a list instead');
  }
  if (![from, to, step].every(Number.isFinite) || step <= 0) {
    throw refusal(`vary: ${name}`, `range ${from}..${to} step ${step} is not allowed`, 'allowed: from <= to and a step above 0');
  }
  if (from > to) throw refusal(`vary: ${name}`, `range ${from}..${to} runs backwards`, `allowed: from <= to (e.g. ${to}..${from})`);
  const count = rangeCount(from, to, step);
  if (count > MAX_CELLS) throw refusal(`vary: ${name}`, `range ${from}..${to} step ${step} has ${count} values`, `allowed: at most ${MAX_CELLS}`);
  return Array.from({ length: count }, (_, i) => Math.round((from + i * step) * 1e9) / 1e9);
}

/** Values of the range from..to by step: from + i * step up to to, with room for rounding (0..1:0.1 has 11). */
function rangeCount(from: number, to: number, step: number): number {
  return Math.floor((to - from) / step + 1e-9) + 1;
}

/**
 * How many values a vary item gives, read from the item alone: nothing is opened (variant files,
 * profiles) and nothing checked against the rules. Undefined where the item is malformed in a way
 * parseDimension refuses in its own words.
 */
function valueCount(spec: VarySpec): number | undefined {
  if (typeof spec === 'string') {
    const parsed = parseVaryText(spec);
    return parsed.range ? rangeCount(...parsed.range) : parsed.values!.length;
  }
  if (spec.from !== undefined || spec.to !== undefined) {
    const [from, to, step] = [spec.from, spec.to, spec.step ?? 1];
    if (typeof from !== 'number' || typeof to !== 'number' || ![from, to, step].every(Number.isFinite) || step <= 0 || from > to) return undefined;
    return rangeCount(from, to, step);
  }
  if (spec.models !== undefined || spec.weapons !== undefined) return Array.isArray(spec.models) && Array.isArray(spec.weapons) && spec.values === undefined ? spec.models.length * spec.weapons.length : undefined;
  return Array.isArray(spec.values) ? spec.values.length : undefined;
}

const thousands = (n: number) => n.toLocaleString('en-GB');

/**
 * The number of cells the vary items make (undefined if an item is malformed), refused in one line
 * above MAX_CELLS. It is read from the items alone, so a grid too big is refused before any profiles
 * file, roster or catalogue is read and before any cell is planned: a catalogue's grid over the cap
 * used to be refused only after minutes of that.
 */
export function checkGridSize(vary: readonly VarySpec[]): number | undefined {
  const counts = vary.map(valueCount);
  // A malformed item is refused by parseDimension, in its own words.
  if (counts.some((n) => n === undefined)) return undefined;
  const cells = counts.reduce((n: number, c) => n * c!, 1);
  if (cells > MAX_CELLS) {
    throw refusal(
      'vary',
      `the grid has ${thousands(cells)} cells (${counts.join(' x ')})`,
      `allowed: at most ${thousands(MAX_CELLS)} cells; vary fewer values, or split the grid into several analyses or sweeps (one per faction, say)`,
    );
  }
  return cells;
}

/** Parses the text after "=" of a --vary flag: "a,b,c", "lo..hi" or "lo..hi:step"; "a/b" per value for several fields. */
function parseVaryText(text: string): { fields: string[]; values?: string[][]; range?: [number, number, number] } {
  const eq = text.indexOf('=');
  if (eq <= 0) {
    throw notAllowed('--vary', text, 'field=v1,v2,... or field=lo..hi[:step], e.g. armour=none,standard or injuryDice=-1..3');
  }
  const fields = text.slice(0, eq).split(',').map((s) => s.trim());
  const rest = text.slice(eq + 1).trim();
  const range = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?$/.exec(rest);
  if (range && fields.length === 1) return { fields, range: [Number(range[1]), Number(range[2]), range[3] ? Number(range[3]) : 1] };
  if (rest === '') return { fields, values: [] };
  // A keywords value is itself a list with commas: its values are separated by ";".
  const keywords = fields.length === 1 && isKeywordsField(fields[0]!);
  // A value may be quoted as a spreadsheet cell is: names hold commas ("Al-Qahhar, the Crippled").
  const flag = `--vary ${fields.join(',')}`;
  const items = parseQuotedList(rest, flag, keywords ? KEYWORD_SEPARATOR : ',');
  // An empty item is a typo ("none,,standard"), never a value: dropping it would hide it.
  // One field's values are whole ("rules=variants/late.json" is a path); several fields' are split by "/",
  // each part quoted within its value where it holds a "/" or a comma.
  const parts = (item: string) => (fields.length > 1 ? parseQuotedList(item, flag, '/') : [item]);
  const empty = items.findIndex((s) => s === '' || parts(s).some((x) => x === ''));
  if (empty >= 0) {
    throw refusal(
      `--vary: ${showValue(text)}`,
      `value ${empty + 1} is empty`,
      keywords
        ? `allowed: keyword lists separated by single "${KEYWORD_SEPARATOR}" ("${NO_KEYWORDS}" for none), e.g. ${fields[0]}=IGNORE ARMOUR${KEYWORD_SEPARATOR}ARMOUR PIERCING 1, FIRE`
        : `allowed: values separated by single commas${fields.length > 1 ? ', each with one part per field separated by /' : ''}, e.g. ${fields.join(',')}=${fields.length > 1 ? 'a/b,c/d' : 'a,b'}; ${LIST_QUOTING}`,
    );
  }
  return { fields, values: items.map(parts) };
}

/**
 * Checks one vary item against the rules of the base scenario's system and kind, and returns its
 * dimension. Values are converted to the type each field wants; whether a value is allowed is left to
 * parseScenario when the cells are built, so sweeps and single scenarios give the same messages. A
 * rules dimension's values are labelled with their variants' names, read by `files` (the CLI's: from
 * disk, parseDimension of src/analysis/dimensions.ts; a page's: the files the user opened).
 */
export function parseDimensionWith(spec: VarySpec, system: SystemSpec, kind: string, files: Pick<ScenarioFiles, 'variant'>): Dimension {
  let fields: string[];
  let rawValues: unknown[][] = [];
  let labels: readonly string[] | undefined;
  let title: string | undefined;
  let name: string | undefined;
  let range: [number, number, number] | undefined;
  let pairings: Pairings | undefined;
  if (typeof spec === 'string') {
    const parsed = parseVaryText(spec);
    fields = parsed.fields;
    rawValues = parsed.values ?? [];
    range = parsed.range;
  } else {
    if (spec.field !== undefined && spec.fields !== undefined) throw refusal('vary', 'give "field" or "fields", not both');
    fields = spec.fields ? [...spec.fields] : spec.field !== undefined ? [spec.field] : [];
    if (fields.length === 0) throw refusal('vary', 'name the field to vary ("field": "armour") or the fields varied together ("fields": [...])');
    labels = spec.labels;
    title = spec.title;
    name = spec.name;
    if (spec.models !== undefined || spec.weapons !== undefined) pairings = { models: spec.models, weapons: spec.weapons, values: spec.values !== undefined };
    if (spec.from !== undefined || spec.to !== undefined) {
      if (spec.values !== undefined) throw refusal(`vary: ${fields.join('+')}`, 'give "values" or "from"/"to", not both');
      if (spec.from === undefined || spec.to === undefined) throw refusal(`vary: ${fields.join('+')}`, 'a range needs both "from" and "to"');
      if (fields.length !== 1) throw refusal(`vary: ${fields.join('+')}`, 'a range varies one field', 'list the combinations in "values" instead');
      range = [spec.from, spec.to, spec.step ?? 1];
    } else {
      const values = spec.values ?? [];
      rawValues = values.map((v) => (fields.length > 1 ? (Array.isArray(v) ? v : [v]) : [v]));
    }

  }
  const id = name ?? fields.join('+');
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f)) throw refusal(`vary: ${id}`, `field ${showValue(f)} is named twice`);
    seen.add(f);
  }
  const sides = kindSides(system, kind);
  const side = fields.find((f) => sides?.keys.includes(f));
  if (side !== undefined) return sideDimension(side, { id, fields, rawValues, range, pairings, labels, title, text: typeof spec === 'string' });
  if (pairings !== undefined) throw refusal(`vary: ${id}`, '"models" and "weapons" vary a whole side (a duel\'s a or b)', 'allowed: a list of values in "values"');
  const specs = fields.map((f) => fieldSpec(system, kind, f));

  let points: FieldValue[][];
  if (range) {
    points = rangeValues(id, specs[0]!, ...range).map((v) => [v]);
  } else {
    points = rawValues.map((vals) => {
      if (vals.length !== fields.length) {
        throw refusal(`vary: ${id}`, `${showValue(vals)} gives ${vals.length} value(s) for ${fields.length} fields`, `allowed: one value per field (${fields.join(', ')})`);
      }
      return vals.map((v, i) => coerce(specs[i]!, v));
    });
  }
  if (points.length === 0) {
    throw refusal(`vary: ${id}`, 'no values given', `allowed: a list of at least one value, or a range (e.g. ${fields[0]}=-1..3)`);
  }
  if (labels !== undefined && labels.length !== points.length) {
    throw refusal(`vary: ${id}`, `${labels.length} labels for ${points.length} values`, 'give one label per value');
  }
  const keys = new Set<string>();
  for (const p of points) {
    const key = JSON.stringify(p);
    if (keys.has(key)) throw refusal(`vary: ${id}`, `value ${showValue(p.length === 1 ? p[0] : p)} is listed twice`);
    keys.add(key);
  }
  const single = specs.length === 1 ? specs[0]! : undefined;
  const numeric = single !== undefined && typeof single !== 'string' && (single.schema.type === 'integer' || single.schema.type === 'number') && points.every((p) => typeof p[0] === 'number');
  const isRules = fields.length === 1 && fields[0] === RULES;
  if (labels !== undefined) checkDistinctLabels(id, labels);
  const shared = isRules ? sharedVariantNames(points, files) : [];
  const named = points.map((values, i) => labels?.[i] ?? shared[i] ?? (isRules ? rulesLabel(values[0]!, files) : valueLabel(specs, fields, values)));
  return {
    id,
    fields,
    title: title ?? (fields.length === 1 ? variedTitle(fields[0]!) : fields.map((f, i) => (i === 0 ? variedTitle(f) : variedTitle(f).toLowerCase())).join(' and ')),
    values: points.map((values, i) => ({ values, label: named[i]!, ...(shared[i] !== undefined ? { variant: shared[i] } : {}) })),
    numeric,
    ...(numeric && typeof single !== 'string' && single?.steps ? { steps: true as const } : {}),
  };
}

/** How a named side is written in a vary item, for messages. */
const NAMED_SIDE = '{"name": NAME, "value": {the side\'s fields}}';
/** How a side named from the profiles is written, for messages. */
const PROFILE_SIDE = 'a "MODEL with WEAPON" or a model of the scenario\'s profiles';

/** A side dimension's `models` and `weapons`, as the item gives them (and whether it gives `values` too). */
interface Pairings {
  readonly models: unknown;
  readonly weapons: unknown;
  readonly values: boolean;
}

/** A JSON object (not an array, not null): what a side and its fields are written as. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "MODEL with WEAPON" for every model with every weapon, model by model: the names a side dimension's `models` and `weapons` give. */
function pairingNames(id: string, pairings: Pairings): string[] {
  const example = '"models": ["Shield Bearer", ...], "weapons": ["Great Hammer", ...]';
  if (pairings.values) throw refusal(`vary: ${id}`, 'give "values" or "models" with "weapons", not both');
  const names = (key: 'models' | 'weapons') => {
    const list = pairings[key];
    if (list === undefined) throw refusal(`vary: ${id}`, `"${key === 'models' ? 'weapons' : 'models'}" needs "${key}" too: every model is taken with every weapon`, `allowed: ${example}`);
    if (!Array.isArray(list) || list.length === 0 || !list.every((n) => typeof n === 'string' && n.trim() !== '')) throw notAllowed(`vary: ${id}: ${key}`, list, `a list of at least one name; with the other, ${example}`);
    return list as string[];
  };
  const [models, weapons] = [names('models'), names('weapons')];
  return models.flatMap((model) => weapons.map((weapon) => `${model} with ${weapon}`));
}

/**
 * A dimension that varies one side of a kind with sides whole (a duel's `a`). Each value is a named
 * side, `{"name": "machine + Tough", "value": {"armour": "machine", "tough": true}}`, labelled by its
 * name (or the item's `labels`); or a name of the scenario's profiles, `"Shield Bearer with Great
 * Hammer"` (the side `{"profile": NAME}`); or the item gives `models` and `weapons`, every model with
 * every weapon. The names are looked up, and each value priced, where the profiles are read
 * (withProfileLabels in ./sweep.ts); its fields are checked against the rules with the base scenario
 * (checkSideValues there), and laid over the base's side field by field in every cell.
 */
function sideDimension(
  side: string,
  item: {
    id: string;
    fields: readonly string[];
    rawValues: readonly unknown[][];
    range: unknown;
    pairings: Pairings | undefined;
    labels: readonly string[] | undefined;
    title: string | undefined;
    text: boolean;
  },
): Dimension {
  const { id } = item;
  const example = `{"field": "${side}", "values": [${NAMED_SIDE} or ${PROFILE_SIDE}, ...]}`;
  if (item.text) throw refusal(`vary: ${id}`, `a whole side is varied in a report definition's vary item, as named sides`, `allowed: ${example}`);
  if (item.fields.length !== 1) throw refusal(`vary: ${id}`, `side ${showValue(side)} is varied whole, on its own`, `allowed: ${example}; vary other fields in their own items`);
  if (item.range !== undefined) throw refusal(`vary: ${id}`, `a side is not a number: it takes no range`, `allowed: ${example}`);
  const given = item.pairings ? pairingNames(id, item.pairings) : item.rawValues.map(([v]) => v);
  if (given.length === 0) throw refusal(`vary: ${id}`, 'no values given', `allowed: a list of at least one named side, ${NAMED_SIDE}, or ${PROFILE_SIDE}`);
  const named = given.map((v, i) => {
    // A profile's name: the side it names, looked up when the profiles are read.
    if (typeof v === 'string' && v.trim() !== '') return { name: v, value: { [SIDE_PROFILE_KEY]: v } };
    const keys = isPlainObject(v) ? Object.keys(v) : [];
    const ok = isPlainObject(v) && typeof v.name === 'string' && v.name.trim() !== '' && isPlainObject(v.value) && keys.every((k) => k === 'name' || k === 'value');
    if (!ok) throw refusal(`vary: ${id}: value ${i + 1}`, `${showValue(v)} is not a named side`, `allowed: ${NAMED_SIDE}, or ${PROFILE_SIDE}`);
    return { name: v.name as string, value: v.value as Record<string, unknown> };
  });
  const seen = new Set<string>();
  for (const { name } of named) {
    if (seen.has(name)) throw refusal(`vary: ${id}`, `name ${showValue(name)} is given to two sides`, 'allowed: a different name for each side');
    seen.add(name);
  }
  if (item.labels !== undefined) {
    if (item.labels.length !== named.length) throw refusal(`vary: ${id}`, `${item.labels.length} labels for ${named.length} values`, 'give one label per value');
    checkDistinctLabels(id, item.labels);
  }
  return {
    id,
    fields: [side],
    title: item.title ?? `Side ${side}`,
    values: named.map((n, i) => ({ values: [n.name], label: item.labels?.[i] ?? n.name, side: n.value })),
    numeric: false,
    side,
  };
}

/**
 * A side given whole laid over the base scenario's side, field by field: what the value gives wins,
 * what it leaves out is the base's (and then the field's default).
 */
export function layeredSide(base: unknown, side: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...(isPlainObject(base) ? base : {}), ...side };
}

/** Labels a definition gives twice are refused: rows under them could not be told apart. */
function checkDistinctLabels(id: string, labels: readonly string[]): void {
  const seen = new Set<string>();
  for (const l of labels) {
    if (seen.has(l)) throw refusal(`vary: ${id}`, `label ${showValue(l)} is given to two values`, 'allowed: a different label for each value');
    seen.add(l);
  }
}

/** Variant files of one `name` in a rules dimension: each such value's name with its file, for its cells. */
function sharedVariantNames(points: readonly FieldValue[][], files: Pick<ScenarioFiles, 'variant'>): (string | undefined)[] {
  const names = points.map((p) => (p[0] === NO_VARIANT ? undefined : rulesLabel(p[0]!, files)));
  return names.map((n, i) => (n !== undefined && names.filter((m) => m === n).length > 1 ? `${n} (${String(points[i]![0])})` : undefined));
}

/** A value of the rules dimension, named as outputs name it: the variant's name, or "edition rules". */
function rulesLabel(value: FieldValue, files: Pick<ScenarioFiles, 'variant'>): string {
  if (value === NO_VARIANT) return 'edition rules';
  if (typeof value !== 'string') throw notAllowed('vary: rules', value, `variant file paths, or "${NO_VARIANT}" for the edition's own rules`);
  return files.variant(value).name;
}

/**
 * Dimensions must not share fields: the grid would assign one field twice per cell. A side's field
 * belongs to its side ("sides.armour" is a.armour and b.armour), and a side varied whole ("a") holds
 * every field of it: one value would silently cover the other.
 */
export function checkDisjoint(dims: readonly Dimension[], sideKeys: readonly string[] = []): void {
  const owner = new Map<string, string>();
  const claim = (key: string, f: string, id: string, hint: string) => {
    const other = owner.get(key);
    if (other !== undefined && other !== id) throw refusal('vary', `field ${showValue(f)} is in both ${showValue(other)} and ${showValue(id)}`, hint);
    owner.set(key, id);
  };
  const once = 'vary each field once';
  for (const d of dims) {
    if (dims.filter((x) => x.id === d.id).length > 1) throw refusal('vary', `${showValue(d.id)} is varied twice`, once);
    for (const f of d.fields) {
      const path = d.side === undefined ? sidePath(f, sideKeys) : undefined;
      if (!path) claim(f, f, d.id, once);
      else for (const side of path.sides) claim(`${side}.${path.field}`, f, d.id, once);
    }
  }
  // A side varied whole gives every field of its side: another dimension varying one of them would be covered by it, or cover it.
  for (const d of dims) {
    if (d.side === undefined) continue;
    const other = dims.find((x) => x.side === undefined && x.fields.some((f) => sidePath(f, sideKeys)?.sides.includes(d.side!)));
    if (other) throw refusal('vary', `${showValue(other.id)} varies a field of side ${showValue(d.side)}, which ${showValue(d.id)} varies whole`, `vary the field in ${showValue(d.id)}'s named sides instead`);
  }
}

/** Every cell of the grid, first dimension outermost: index vectors into each dimension's values. */
export function gridPoints(dims: readonly Dimension[]): number[][] {
  let out: number[][] = [[]];
  for (const d of dims) out = out.flatMap((prefix) => d.values.map((_, i) => [...prefix, i]));
  return out;
}
