/**
 * Goal-seek over one varied field (`injury-lab solve`): which values of the field meet a condition on
 * an outcome, an outcome "or worse", or a mean, and where the condition flips. Decided on exact
 * fractions only: a probability of 2/10 meets "<= 0.2", however a float would round it.
 */
import { listAllowed, showValue } from '../errors.js';
import { type Fraction, compare, fraction, sub, toNumber } from '../exact/fraction.js';
import { notOneOf, refusal } from '../messages.js';
import type { ReportLayout } from '../model/types.js';
import { suggestFlags } from '../suggest.js';
import type { Dimension } from './dimensions.js';
import { exactProbability, type Cell, type SweepResult } from './sweep.js';

/** The comparisons a condition may make, as they are written. */
export const OPERATORS = ['<=', '<', '>=', '>'] as const;
export type Operator = (typeof OPERATORS)[number];

/** How a condition is written, for help texts and messages. */
export const CONDITION_FORM = "ID OP NUMBER: an outcome (incapacitated), an outcome and worse (down+) or a mean's JSON key (expectedAttacks); OP <=, <, >=, >; a probability 0..1 or a percentage (20%) for an outcome, any number for a mean";

/** A condition as written, before it is checked against the kind's outcomes and means. */
export interface Condition {
  readonly text: string;
  readonly id: string;
  /** Written with "+": this outcome or a more severe one. */
  readonly orWorse: boolean;
  readonly op: Operator;
  readonly threshold: Fraction;
  /** The threshold was written as a percentage (20%). */
  readonly percent: boolean;
}

/** What a condition is about, once checked against the layouts: an outcome's probability or a mean. */
export type ConditionTarget =
  | { readonly kind: 'outcome'; readonly outcome: string; readonly orWorse: boolean }
  | { readonly kind: 'mean'; readonly jsonKey: string; readonly label: string };

export interface CheckedCondition extends Condition {
  readonly target: ConditionTarget;
}

/** The largest power of ten a threshold may carry (1e300): more is a typo, and would build huge whole numbers. */
const MOST_EXPONENT = 300;

/**
 * A decimal number as an exact fraction: "0.2" is 1/5, not the double nearest 0.2, so a probability of
 * exactly 1/5 meets "<= 0.2". Undefined for anything that is not a plain decimal (with an exponent and
 * a trailing % allowed).
 */
export function parseExactDecimal(text: string): { value: Fraction; percent: boolean } | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?(%?)$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const exponent = Number(m[4] ?? 0) - (m[3] ?? '').length - (m[5] ? 2 : 0);
  if (Math.abs(exponent) > MOST_EXPONENT) return undefined;
  const digits = BigInt(`${m[1]}${m[2]}${m[3] ?? ''}` || '0');
  const scale = 10n ** BigInt(Math.abs(exponent));
  return { value: exponent >= 0 ? fraction(digits * scale) : fraction(digits, scale), percent: m[5] === '%' };
}

/** `--where` as written: `ID OP NUMBER`, spaces allowed around OP. */
export function parseCondition(text: string): Condition {
  const where = '--where';
  const example = "e.g. 'incapacitated<=0.2', 'down+>=50%' or 'expectedAttacks>=8'";
  // "out-of-action" alone is what a shell passes of an unquoted out-of-action>=0.9: it read ">" as a
  // redirect, and left an empty file named "=0.9". Said so, with the quoting.
  const bare = /^\s*([A-Za-z][A-Za-z0-9_-]*\+?)\s*$/.exec(text);
  if (bare) {
    throw refusal(
      where,
      `${showValue(text)} has no comparison: unquoted, a shell reads > and < as redirects (and may have left a file named like "=0.9")`,
      `quote the condition, e.g. --where '${bare[1]}>=0.9'`,
    );
  }
  const m = /^\s*([A-Za-z][A-Za-z0-9_-]*)(\+?)\s*([<>=!]+)\s*(\S.*?)?\s*$/.exec(text);
  if (!m) throw refusal(where, `${showValue(text)} is not a condition`, `allowed: ${CONDITION_FORM}; ${example}`);
  const [, id, plus, op, number] = m as unknown as [string, string, string, string, string | undefined];
  if (!(OPERATORS as readonly string[]).includes(op)) throw notOneOf(`${where} ${showValue(text)}`, op, 'a comparison', OPERATORS);
  const parsed = number === undefined ? undefined : parseExactDecimal(number);
  if (!parsed) throw refusal(`${where} ${showValue(text)}`, `${showValue(number ?? '')} is not a number`, `allowed: a probability 0..1 or a percentage (20%) for an outcome, any number for a mean; ${example}`);
  return { text, id, orWorse: plus === '+', op: op as Operator, threshold: parsed.value, percent: parsed.percent };
}

/**
 * Checks a condition against the outcomes and means every cell of the grid reports (a varied edition
 * or attacks count may change them): the id must be one of them, "+" only on a ranked outcome, and an
 * outcome's threshold a probability. `what` names the system and kind ('d20-warband kind "attack"').
 */
export function checkCondition(condition: Condition, layouts: readonly ReportLayout[], what: string): CheckedCondition {
  const where = `--where ${showValue(condition.text)}`;
  const inAll = <T>(pick: (l: ReportLayout) => readonly T[], key: (t: T) => string) =>
    pick(layouts[0]!).filter((t) => layouts.every((l) => pick(l).some((u) => key(u) === key(t))));
  const outcomes = inAll((l) => l.outcomes, (o) => o);
  const means = inAll((l) => l.means, (m) => m.jsonKey);
  const unranked = layouts.some((l) => l.unranked);
  const orWorseHint = unranked ? '' : ` (each with + for "this or worse", e.g. ${outcomes.at(-1)}+)`;
  const meanList = means.length ? `; means ${listAllowed(means.map((m) => m.jsonKey))}` : '';
  const allowed = `outcomes ${listAllowed(outcomes)}${orWorseHint}${meanList}`;
  const mean = means.find((m) => m.jsonKey === condition.id);
  if (mean) {
    if (condition.orWorse) throw refusal(where, `${showValue(condition.id)} is a mean: it has no "or worse"`, `write it without +, e.g. '${condition.id}${condition.op}${toNumber(condition.threshold)}'`);
    if (condition.percent) throw refusal(where, `${showValue(condition.id)} is a mean, not a probability`, 'allowed: a number without %');
    return { ...condition, target: { kind: 'mean', jsonKey: mean.jsonKey, label: mean.label } };
  }
  if (!outcomes.includes(condition.id)) {
    const guesses = suggestFlags(condition.id, [...outcomes, ...means.map((m) => m.jsonKey)]);
    const hint = guesses.length ? `; did you mean ${guesses.map((g) => showValue(g)).join(' or ')}?` : '';
    throw refusal(where, `${showValue(condition.id)} is not an outcome or mean of ${what}${hint}`, `allowed: ${allowed}`);
  }
  if (condition.orWorse && unranked) {
    throw refusal(where, `the outcomes of ${what} are not ranked from mildest to most severe, so ${showValue(`${condition.id}+`)} ("or worse") means nothing`, `allowed: one outcome without +, one of ${listAllowed(outcomes)}`);
  }
  if (compare(condition.threshold, fraction(0)) < 0 || compare(condition.threshold, fraction(1)) > 0) {
    throw refusal(where, `${toNumber(condition.threshold)}${condition.percent ? ' (as a percentage)' : ''} is not a probability`, 'allowed: a number from 0 to 1, or a percentage from 0% to 100% (20%)');
  }
  return { ...condition, target: { kind: 'outcome', outcome: condition.id, orWorse: condition.orWorse } };
}

/** The exact quantity a condition reads in one computed cell. */
export function conditionValue(cell: Cell, target: ConditionTarget): Fraction {
  if (target.kind === 'outcome') return exactProbability(cell, target.outcome, target.orWorse)!;
  const j = cell.layout.means.findIndex((m) => m.jsonKey === target.jsonKey);
  return cell.exact!.answer.means[j]!;
}

/** Whether an exact value meets a condition: fractions compared, never doubles. */
export function meets(value: Fraction, op: Operator, threshold: Fraction): boolean {
  const c = compare(value, threshold);
  return op === '<=' ? c <= 0 : op === '<' ? c < 0 : op === '>=' ? c >= 0 : c > 0;
}

export interface SolvedValue {
  /** The value's label in the dimension ("7", "reinforced + shield"). */
  readonly label: string;
  /** The computed cell: its varied fields (assignment) and scenario. */
  readonly cell: Cell;
  readonly exact: Fraction;
  readonly meets: boolean;
}

/** Where the condition flips between two neighbouring values of an ordered dimension. */
export interface Boundary {
  readonly meets: SolvedValue;
  readonly doesNotMeet: SolvedValue;
}

export interface SolveResult {
  readonly sweep: SweepResult;
  readonly dimension: Dimension;
  readonly condition: CheckedCondition;
  /** A numeric field: its values in increasing order, so ranges and boundaries mean something. */
  readonly ordered: boolean;
  /** Every value, in increasing order when ordered, else in the order given. */
  readonly values: readonly SolvedValue[];
  /** Runs of neighbouring values that meet it, each from its first to its last value (ordered only). */
  readonly runs: readonly { readonly from: SolvedValue; readonly to: SolvedValue }[];
  /** Each flip between neighbours (ordered only). */
  readonly boundaries: readonly Boundary[];
  /** When no value meets it: the one closest to the threshold (the first of equals). */
  readonly nearest?: SolvedValue;
}

/** The answer to a condition over a computed one-dimensional sweep. */
export function solveSweep(sweep: SweepResult, condition: CheckedCondition): SolveResult {
  const dimension = sweep.dimensions[0]!;
  // Numbers alone are in order; a d20 stat's range is (its field also takes "-", so the dimension is not `numeric`).
  const ordered = dimension.fields.length === 1 && dimension.values.every((v) => typeof v.values[0] === 'number');
  const solved = sweep.cells.map((cell) => {
    const exact = conditionValue(cell, condition.target);
    return { number: Number(dimension.values[cell.point[0]!]!.values[0]), value: { label: cell.labels[0]!, cell, exact, meets: meets(exact, condition.op, condition.threshold) } };
  });
  // A numeric list may be given in any order; its ranges are read in increasing order.
  const values = (ordered ? [...solved].sort((a, b) => a.number - b.number) : solved).map((s) => s.value);
  const runs: { from: SolvedValue; to: SolvedValue }[] = [];
  const boundaries: Boundary[] = [];
  if (ordered) {
    values.forEach((v, i) => {
      const before = values[i - 1];
      if (v.meets && !before?.meets) runs.push({ from: v, to: v });
      else if (v.meets) runs[runs.length - 1]!.to = v;
      if (before && before.meets !== v.meets) boundaries.push(v.meets ? { meets: v, doesNotMeet: before } : { meets: before, doesNotMeet: v });
    });
  }
  const distance = (v: SolvedValue) => {
    const d = sub(v.exact, condition.threshold);
    return d.num < 0n ? { num: -d.num, den: d.den } : d;
  };
  const nearest = values.some((v) => v.meets) ? undefined : values.reduce((best, v) => (compare(distance(v), distance(best)) < 0 ? v : best));
  return { sweep, dimension, condition, ordered, values, runs, boundaries, ...(nearest ? { nearest } : {}) };
}
