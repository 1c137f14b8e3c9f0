import { formatFraction, toNumber, type Fraction } from '../../exact/fraction.js';
import { diffReadings, diffSummary, keywordParts, rankedMoves, type DiffCell, type DiffResult, type RuleSide } from '../../analysis/diff.js';
import { gridPoints } from '../../analysis/dimensions.js';
import { sweepDimensions } from '../../analysis/sweep.js';
import { SCENARIO_KEYWORDS } from '../../input/sides.js';
import { ruleChangeText } from '../../analysis/rule-changes.js';
import { points } from '../../labels.js';
import { csvText } from './csv.js';
import type { Presenter } from './presenter.js';
import type { DiffGridPart, FieldValue, SystemSpec } from '../../model/types.js';
import { jsonText, percent, renderTable, terminalSafe, terminalSafeLines } from '../../text.js';

/** How many of the largest moves the table lists (JSON and CSV hold them all). */
export const DEFAULT_TOP = 20;

function sideText(side: RuleSide): string {
  return side.variant ? `"${side.label}" (variant of ${side.edition}, ${side.given})` : `${side.edition} edition`;
}

function sideJson(side: RuleSide) {
  return { given: side.given, label: side.label, edition: side.edition, ...(side.variant ? { variant: side.variant.name, rules: side.variant.changes } : {}) };
}

/** A cell as a short phrase: "armour reinforced, shield, injuryDice +3" (false flags and zeros left out). */
export function situation(values: Readonly<Record<string, FieldValue>>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    if (v === false) continue;
    if (v === true) parts.push(k);
    else if (typeof v === 'number') parts.push(`${k} ${v > 0 ? `+${v}` : v}`);
    else parts.push(`${k} ${v}`);
  }
  return parts.join(', ') || 'plain';
}

/**
 * The most digits a denominator may have for the table to print the fraction: one injury roll's or one
 * attack's fit (6^10 = 60466176 at most on the standard grid); a sequence's or a duel's run to dozens
 * of digits and would push every other column off the screen, so the table says where they are.
 */
const TABLE_DENOMINATOR_DIGITS = 8;
const EXACT_ELSEWHERE = 'exact in JSON';

/** "5/12 -> 1/3" when both fractions are small enough to read, else where to find them. */
function exactChange(base: Fraction, other: Fraction): string {
  const fits = (f: Fraction) => f.den.toString().length <= TABLE_DENOMINATOR_DIGITS;
  return fits(base) && fits(other) ? `${formatFraction(base)} -> ${formatFraction(other)}` : EXACT_ELSEWHERE;
}

/** "out-of-action -> down" for a cell whose change only moved one outcome's probability to another, else ''. */
function shiftText(cell: DiffCell): string {
  return cell.shift ? `${cell.shift.from} -> ${cell.shift.to}` : '';
}

/** The rules that differ, each as its table words it, with the rule's path and meaning for a lookup in `injury-lab rules`. */
function changedRulesLines(r: DiffResult): string[] {
  if (r.changedRules.length === 0) return ['No rule differs between the two tables.'];
  const rows = r.changedRules.map((c) => [c.rule, ruleChangeText(c), c.description]);
  return [`Changed rules (${r.base.label} -> ${r.other.label}):`, '', renderTable(['rule', 'change', 'meaning'], rows)];
}

function diffTable(r: DiffResult, top: number, outcomes?: readonly string[]): string {
  const lines = [terminalSafe(`${r.system}: ${sideText(r.base)} -> ${sideText(r.other)}, over the ${r.grid} grid`), ''];
  lines.push(...changedRulesLines(r), '');
  const summary = diffSummary(r);
  lines.push(
    renderTable(
      ['kind', 'cells', 'moved', 'largest move (points)'],
      summary.map((s) => [s.kind, String(s.cells), String(s.moved), s.largest === 0 ? '0' : points(s.largest, 2).replace(/^\+/, '')]),
      [false, true, true, true],
    ),
  );
  if (r.skipped.length > 0) {
    const cells = new Set(r.skipped.map((s) => `${s.kind} ${s.label}`)).size;
    const cellWord = cells === 1 ? 'cell' : 'cells';
    const sides = [...new Set(r.skipped.map((s) => s.side))].join(' and ');
    const first = r.skipped[0]!;
    // The reason's first clause is enough here; the JSON has it whole.
    const reason = first.reason.split(' (')[0];
    lines.push('', terminalSafe(`${cells} ${cellWord} skipped, refused by the rules of ${sides} (e.g. ${first.kind} ${situation(first.values)}: ${reason}); --format json lists them.`));
  }
  const readings = diffReadings(r, outcomes);
  lines.push('');
  if (readings.length === 0) {
    lines.push(outcomes ? `${outcomes.join(', ')}: the same exact probability in every cell on both sides.` : 'Nothing moved: every outcome of every cell has the same exact probability on both sides.');
    return lines.join('\n') + '\n';
  }
  const shown = readings.slice(0, top);
  const only = outcomes ? `${outcomes.join(', ')} only; ` : '';
  lines.push(`The ${shown.length} largest moves of ${readings.length} (${only}exact on both sides; --top N for more):`, '');
  lines.push(
    renderTable(
      ['kind', 'situation', 'outcome', r.base.label, r.other.label, 'change (points)', 'exact'],
      shown.map(({ cell, outcome: o, shift }) => [
        cell.kind,
        situation(cell.values),
        shift ? `${shift.from} -> ${shift.to}` : o.outcome,
        percent(toNumber(o.base), 2),
        percent(toNumber(o.other), 2),
        points(o.change, 2),
        exactChange(o.base, o.other),
      ]),
      [false, false, false, true, true, true, false],
    ),
  );
  if (shown.some((m) => m.shift)) {
    lines.push('', 'A -> B: only A and B moved in that cell, B gaining what A lost; the row gives A\'s probabilities (JSON and CSV give both).');
  }
  return lines.join('\n') + '\n';
}

function diffJson(r: DiffResult) {
  return {
    system: r.system,
    base: sideJson(r.base),
    other: sideJson(r.other),
    grid: r.grid,
    changedRules: r.changedRules.map((c) => ({ ...c, text: ruleChangeText(c) })),
    summary: diffSummary(r).map((s) => ({ ...s, largestPoints: s.largest * 100 })),
    moves: rankedMoves(r).map(({ cell, outcome: o }) => ({
      kind: cell.kind,
      values: cell.values,
      outcome: o.outcome,
      base: { probability: toNumber(o.base), exact: formatFraction(o.base) },
      other: { probability: toNumber(o.other), exact: formatFraction(o.other) },
      changePoints: o.change * 100,
      ...(cell.shift ? { shift: shiftText(cell) } : {}),
    })),
    cells: r.cells.map((c) => ({
      kind: c.kind,
      values: c.values,
      outcomes: c.outcomes.map((o) => ({ outcome: o.outcome, base: formatFraction(o.base), other: formatFraction(o.other), changePoints: o.change * 100 })),
      ...(c.shift ? { shift: { from: c.shift.from, to: c.shift.to, points: c.shift.change * 100, exact: formatFraction(c.shift.amount) } } : {}),
      means: c.means,
    })),
    skipped: r.skipped,
  };
}

/** Tidy: one row per cell and outcome, every grid field in its own column. */
function diffCsv(r: DiffResult): string {
  const fields = [...new Set(r.cells.flatMap((c) => Object.keys(c.values)))];
  const rows: unknown[][] = [['system', 'kind', ...fields, 'outcome', 'base', 'other', 'base_probability', 'base_exact', 'other_probability', 'other_exact', 'change_points', 'shift']];
  for (const c of r.cells) {
    for (const o of c.outcomes) {
      rows.push([
        r.system,
        c.kind,
        ...fields.map((f) => c.values[f] ?? ''),
        o.outcome,
        r.base.label,
        r.other.label,
        toNumber(o.base),
        formatFraction(o.base),
        toNumber(o.other),
        formatFraction(o.other),
        o.change * 100,
        shiftText(c),
      ]);
    }
  }
  return csvText(rows);
}

/** `diff`: the table lists the largest moves; JSON and CSV hold every cell. */
export function diffPresenter(top = DEFAULT_TOP, outcomes?: readonly string[]): Presenter<DiffResult> {
  return { table: (r) => terminalSafeLines(diffTable(r, top, outcomes)), json: (r) => jsonText(diffJson(r)), csv: diffCsv };
}

/** A scenario value as the grid's table states it: a side's fields "policy none", a list "a, b". */
function gridValueText(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = Object.entries(value).map(([k, v]) => `${k} ${String(v)}`);
    return fields.length ? fields.join(', ') : 'plain';
  }
  return String(value);
}

/** One Markdown row per part: its kind, the fields it fixes, what it varies (with each value's label) and its cells. */
function gridRows(system: SystemSpec, parts: readonly DiffGridPart[]): string[] {
  return parts.map((part) => {
    const fixed = Object.entries(part.scenario).filter(([k]) => k !== 'kind');
    // Keyword fields name the cells' keyword but do not change the grid's shape: left out of its count.
    const shape = Object.fromEntries(Object.entries(part.scenario).filter(([k]) => !(SCENARIO_KEYWORDS as readonly string[]).includes(k)));
    const dims = sweepDimensions({ system: system.id, ...shape }, part.vary as never);
    const varied = dims.map((d) => {
      const values = d.values.map((v) => (d.side === undefined ? v.label : `${v.label} (${gridValueText(v.side)})`));
      return `${d.title}: ${values.join(', ')}`;
    });
    const cells = [
      String(part.scenario.kind),
      fixed.map(([k, v]) => `${k}: ${gridValueText(v)}`).join('; ') || 'defaults',
      varied.join('; '),
      String(gridPoints(dims).length),
    ];
    return `| ${cells.join(' | ')} |`;
  });
}

/**
 * The standard grid of a system as docs/variants.md prints it (a test keeps the two in step): a
 * Markdown table of its parts, and for a system with keywords, the parts added per changed keyword.
 */
export function diffGridMarkdown(system: SystemSpec): string {
  const header = ['| kind | fixed | varied | cells |', '| --- | --- | --- | --- |'];
  const lines = [...header, ...gridRows(system, system.diffGrid)];
  if (system.rules.spec.keywords !== undefined) {
    lines.push(
      '',
      'Added for each keyword K the two sides give different effects (on the target, `targetKeywords`, for a model\'s keyword; a keyword taking a number is tried with 1):',
      '',
      ...header,
      ...gridRows(system, keywordParts('weaponKeywords', 'K')),
    );
  }
  return lines.join('\n') + '\n';
}
