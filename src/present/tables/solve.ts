import { type Fraction, formatFraction, toNumber } from '../../exact/fraction.js';
import type { CheckedCondition, SolveResult, SolvedValue } from '../../analysis/solve.js';
import { orWorseLabel, outcomeLabel } from '../../labels.js';
import { csvText } from './csv.js';
import { dimensionsJson } from './sweep.js';
import type { Presenter } from './presenter.js';
import { jsonText, percent, renderTable, tableFraction, terminalSafe, terminalSafeLines } from '../../text.js';

/** What the condition reads, as a column header and in sentences: "incapacitated", "down or worse", "expectedAttacks". */
function quantityLabel(c: CheckedCondition): string {
  if (c.target.kind === 'mean') return c.target.jsonKey;
  return c.target.orWorse ? orWorseLabel(c.target.outcome) : outcomeLabel(c.target.outcome);
}

const isProbability = (c: CheckedCondition) => c.target.kind === 'outcome';

/** A number with at most `digits` decimals and no trailing zeros: 0.2 -> "0.2", 20 -> "20". */
const trimmed = (x: number, digits: number) => String(Number(x.toFixed(digits)));

/** The threshold as the text shows it: "20%" for a probability, "8" for a mean. */
function thresholdText(c: CheckedCondition): string {
  const t = toNumber(c.threshold);
  return isProbability(c) ? `${trimmed(t * 100, 6)}%` : trimmed(t, 6);
}

/** "incapacitated <= 20%", "down or worse >= 50%", "expectedAttacks >= 8". */
export function conditionText(c: CheckedCondition): string {
  return `${quantityLabel(c)} ${c.op} ${thresholdText(c)}`;
}

/**
 * Decimals enough for every shown value to read differently from the threshold unless it equals it (a
 * probability of 20.04% shown as "20.0%" beside "<= 20%" would seem to meet it), from `least` up to 8.
 */
function digitsApart(values: readonly Fraction[], threshold: Fraction, show: (x: number, digits: number) => string, least: number): number {
  const t = toNumber(threshold);
  for (let digits = least; digits < 8; digits++) {
    if (values.every((v) => toNumber(v) === t || show(toNumber(v), digits) !== show(t, digits))) return digits;
  }
  return 8;
}

/** How each value of a result is shown: percentages for an outcome, decimals for a mean, with digits enough to tell each from the threshold. */
function valueFormatter(r: SolveResult): (v: SolvedValue) => string {
  const probability = isProbability(r.condition);
  const show = probability ? percent : (x: number, digits: number) => x.toFixed(digits);
  const digits = digitsApart(r.values.map((v) => v.exact), r.condition.threshold, show, probability ? 1 : 3);
  return (v) => show(toNumber(v.exact), digits);
}

/** "defence 7" */
const named = (r: SolveResult, v: SolvedValue) => `${r.dimension.id} ${v.label}`;

/** "defence 1 to 6", or "defence 4" for a run of one. */
const span = (r: SolveResult, from: SolvedValue, to: SolvedValue) => (from === to ? named(r, from) : `${r.dimension.id} ${from.label} to ${to.label}`);

/** "3.1% to 5.4%", or one value. */
function valueSpan(values: readonly SolvedValue[], text: (v: SolvedValue) => string): string {
  const shown = values.map(text);
  const sorted = [...values].sort((a, b) => toNumber(a.exact) - toNumber(b.exact));
  const [low, high] = [text(sorted[0]!), text(sorted[sorted.length - 1]!)];
  return shown.length === 1 || low === high ? low : `${low} to ${high}`;
}

/**
 * The answer in sentences. Ordered: each run of values that meets it with the neighbours that do not
 * ("defence 1 to 6 meet it (3.1% to 5.4%); defence 7 does not: 6.2%"), or that every or no value does
 * (then the one nearest the threshold). A list: the values that meet it and those that do not.
 */
export function solveSummary(r: SolveResult): string[] {
  const text = valueFormatter(r);
  const { values } = r;
  const meeting = values.filter((v) => v.meets);
  const failing = values.filter((v) => !v.meets);
  if (r.nearest) return [`No value meets it; nearest: ${named(r, r.nearest)} (${text(r.nearest)}).`];
  if (failing.length === 0) return [`Every value meets it: ${r.ordered ? span(r, values[0]!, values[values.length - 1]!) : values.map((v) => named(r, v)).join(', ')} (${valueSpan(values, text)}).`];
  if (!r.ordered) {
    const list = (vs: readonly SolvedValue[]) => vs.map((v) => `${v.label} (${text(v)})`).join(', ');
    return [`Meet it: ${r.dimension.id} ${list(meeting)}.`, `Do not: ${r.dimension.id} ${list(failing)}.`];
  }
  return r.runs.map((run) => {
    const inRun = values.slice(values.indexOf(run.from), values.indexOf(run.to) + 1);
    const verb = inRun.length === 1 ? 'meets' : 'meet';
    const flanks = r.boundaries.filter((b) => b.meets === run.from || b.meets === run.to).map((b) => `${named(r, b.doesNotMeet)} does not: ${text(b.doesNotMeet)}`);
    return `${span(r, run.from, run.to)} ${verb} it (${valueSpan(inRun, text)}); ${flanks.join('; ')}.`;
  });
}

/** The tried values as the heading names them: "defence 1..20" for a range, else the count. */
function triedText(r: SolveResult): string {
  const { values } = r;
  return r.ordered ? `${r.dimension.id} ${values[0]!.label}..${values[values.length - 1]!.label} (${values.length} values)` : `${r.dimension.id} (${values.length} values)`;
}

function solveTable(r: SolveResult): string {
  const text = valueFormatter(r);
  const onBoundary = new Set(r.boundaries.flatMap((b) => [b.meets, b.doesNotMeet]));
  const headers = [r.dimension.id, quantityLabel(r.condition), 'exact', 'meets'];
  const rows = r.values.map((v) => [v.label, text(v), tableFraction(formatFraction(v.exact)), `${v.meets ? 'yes' : 'no'}${onBoundary.has(v) ? ' <' : ''}`]);
  const m = r.sweep.manifest;
  return [
    terminalSafe(`${m.system} ${m.kind}, edition ${m.editions.join(', ')}: where ${conditionText(r.condition)}, over ${triedText(r)}, exact`),
    '',
    renderTable(headers, rows, [false, true, true, false]),
    '',
    ...solveSummary(r),
    ...(r.boundaries.length ? ['(< marks a value next to where the condition flips)'] : []),
  ].join('\n') + '\n';
}

function valueJson(r: SolveResult, v: SolvedValue) {
  return {
    label: v.label,
    values: v.cell.assignment,
    exact: formatFraction(v.exact),
    [isProbability(r.condition) ? 'probability' : 'value']: toNumber(v.exact),
    meets: v.meets,
  };
}

/** The document `solve --format json` prints. */
export function solveJson(r: SolveResult) {
  const c = r.condition;
  const value = (v: SolvedValue) => valueJson(r, v);
  return {
    where: {
      text: c.text,
      ...(c.target.kind === 'outcome' ? { outcome: c.target.outcome, orWorse: c.target.orWorse } : { mean: c.target.jsonKey }),
      op: c.op,
      threshold: formatFraction(c.threshold),
      thresholdValue: toNumber(c.threshold),
    },
    base: r.sweep.base,
    dimension: { ...dimensionsJson(r.sweep)[0]!, ordered: r.ordered },
    values: r.values.map(value),
    meeting: r.values.filter((v) => v.meets).map((v) => v.label),
    ...(r.ordered ? { runs: r.runs.map((run) => ({ from: run.from.label, to: run.to.label })), boundaries: r.boundaries.map((b) => ({ meets: value(b.meets), doesNotMeet: value(b.doesNotMeet) })) } : {}),
    ...(r.nearest ? { nearest: value(r.nearest) } : {}),
    summary: solveSummary(r),
    seconds: r.sweep.seconds,
    manifest: r.sweep.manifest,
  };
}

/** One row per value: the varied fields, the condition, the exact value, whether it meets it, and whether it is next to a flip. */
function solveCsv(r: SolveResult): string {
  const fields = r.dimension.fields;
  const onBoundary = new Set(r.boundaries.flatMap((b) => [b.meets, b.doesNotMeet]));
  const quantity = isProbability(r.condition) ? 'probability' : 'value';
  const header = [...fields, 'label', 'system', 'kind', 'edition', 'where', 'exact', 'exact_numerator', 'exact_denominator', quantity, 'meets', 'boundary'];
  const rows = r.values.map((v) => {
    const { scenario, assignment } = v.cell;
    return [
      ...fields.map((f) => assignment[f]!),
      v.label,
      scenario.system,
      scenario.kind,
      scenario.edition,
      r.condition.text,
      formatFraction(v.exact),
      // Text: numerators of long sequences run past a double's digits.
      v.exact.num.toString(),
      v.exact.den.toString(),
      toNumber(v.exact),
      v.meets,
      onBoundary.has(v),
    ];
  });
  return csvText([header, ...rows]);
}

export const solvePresenter: Presenter<SolveResult> = {
  table: (r) => terminalSafeLines(solveTable(r)),
  json: (r) => jsonText(solveJson(r)),
  csv: solveCsv,
};
