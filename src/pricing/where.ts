import type { ValidateFunction } from 'ajv';
import { listAllowed, showValue } from '../errors.js';
import { notOneOf, refusal } from '../messages.js';
import { schemaValidator } from '../model/ajv.js';
import { describeAllowed, fieldJsonSchema, inAllowedCase } from '../model/field-schema.js';
import { parseKeyword } from '../model/keywords.js';
import type { FieldSpec } from '../model/types.js';
import { coerceFlagValue } from '../input/scenario-core.js';

/**
 * `--where`: conditions that narrow a price's field by what its entries are, "KEY OP VALUE", every one of
 * which an entry must meet (issue 40). An entry is read as its duels read it, so a condition means what
 * the duel sees:
 * - `price` (its ducats: <, <=, =, !=, >=, >; an unpriced entry meets only !=);
 * - `keyword` (= or !=): a keyword of its model or its weapon, by name ("keyword=FEAR", "keyword!=HEAVY");
 * - every field of a duel side, as the side resolves from its profiles, keywords and the model's own dice
 *   ("armour=reinforced", "tough=true", "attackDice>=2", "injuryDice>0"): the kind's own declaration
 *   gives the keys, what each allows, and the operators (order only for numbers).
 * One faction is its catalogue files (`--catalogue system.gst faction.cat ...`), not a condition.
 */

const OPERATORS = ['<=', '>=', '!=', '=', '<', '>'] as const;
type Operator = (typeof OPERATORS)[number];
const EQUALITY: readonly Operator[] = ['=', '!='];

/** What a condition reads of an entry. */
export interface WhereEntry {
  readonly price?: number;
  /** Its model's and weapon's keywords, as written. */
  readonly keywords: readonly string[];
  /** Its duel side's fields, resolved. */
  readonly side: Readonly<Record<string, unknown>>;
}

export interface WhereCondition {
  /** As the user wrote it, for the field's description and messages. */
  readonly text: string;
  meets(entry: WhereEntry): boolean;
}

const validators = new WeakMap<FieldSpec, ValidateFunction>();
const allowedBy = (f: FieldSpec, value: unknown): boolean => {
  let validate = validators.get(f);
  if (!validate) validators.set(f, (validate = schemaValidator().compile(fieldJsonSchema(f))));
  return validate(value);
};

const compare = (a: number, op: Operator, b: number): boolean =>
  op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : op === '>=' ? a >= b : op === '=' ? a === b : a !== b;

/** The keys a condition may name: price, keyword, and the side's fields. */
export function whereKeys(sideFields: readonly FieldSpec[]): string[] {
  return ['price', 'keyword', ...sideFields.map((f) => f.name)];
}

/**
 * One condition, checked: the key, the operator and the value each against what is allowed, so a typo is
 * refused in one line before any duel (`at` names the setting: "--where", "price.where").
 */
export function parseWhere(text: string, sideFields: readonly FieldSpec[], at: string): WhereCondition {
  const m = /^\s*([A-Za-z][A-Za-z0-9]*)\s*(<=|>=|!=|=|<|>)\s*(.*?)\s*$/.exec(text);
  if (!m || m[3] === '') throw refusal(at, `${showValue(text)} is not a condition`, `allowed: KEY OP VALUE, OP one of ${OPERATORS.join(' ')} (e.g. "price<=60", "armour=reinforced", "keyword!=HEAVY")`);
  const [, key, opText, valueText] = m as unknown as [string, string, Operator, string];
  const op = opText;
  const only = (ops: readonly Operator[], what: string) => {
    if (!ops.includes(op)) throw refusal(at, `${showValue(text)}: ${key} is ${what}, compared with ${listAllowed([...ops])} only`);
  };
  if (key === 'price') {
    const price = Number(valueText);
    if (!Number.isFinite(price)) throw refusal(at, `${showValue(text)}: ${showValue(valueText)} is not a price`, 'allowed: a number of ducats');
    return { text, meets: (e) => (e.price === undefined ? op === '!=' : compare(e.price, op, price)) };
  }
  if (key === 'keyword') {
    only(EQUALITY, 'a name');
    const wanted = parseKeyword(valueText).name;
    return { text, meets: (e) => e.keywords.some((k) => parseKeyword(k).name === wanted) === (op === '=') };
  }
  const field = sideFields.find((f) => f.name === key);
  if (!field) throw notOneOf(at, key, 'a key of a condition', whereKeys(sideFields));
  const value = inAllowedCase(field, coerceFlagValue(field, valueText));
  if (!allowedBy(field, value)) throw refusal(at, `${showValue(text)}: ${showValue(valueText)} is not allowed for ${key}`, `allowed: ${describeAllowed(field.schema)}`);
  if (typeof value !== 'number') {
    only(EQUALITY, typeof value === 'boolean' ? 'true or false' : 'a choice');
    return { text, meets: (e) => (e.side[key] === value) === (op === '=') };
  }
  return { text, meets: (e) => typeof e.side[key] === 'number' && compare(e.side[key], op, value) };
}
