import { formatFraction, toNumber } from '../exact/fraction.js';
import { diffSummary, rankedMoves, type DiffResult, type RuleSide } from '../analysis/diff.js';
import { points } from '../labels.js';
import { csvText } from './csv.js';
import type { Presenter } from './presenter.js';
import type { FieldValue } from '../model/types.js';
import { jsonText, percent, renderTable, terminalSafe, terminalSafeLines } from '../text.js';

/** How many of the largest moves the table lists (JSON and CSV hold them all). */
export const DEFAULT_TOP = 20;

function sideText(side: RuleSide): string {
  return side.variant ? `"${side.label}" (variant of ${side.edition}, ${side.given})` : `${side.edition} edition`;
}

function sideJson(side: RuleSide) {
  return { given: side.given, label: side.label, edition: side.edition, ...(side.variant ? { variant: side.variant.name, rules: side.variant.changes } : {}) };
}

/** A cell as a short phrase: "armour reinforced, shield, injuryDice +3" (false flags and zeros left out). */
function situation(values: Readonly<Record<string, FieldValue>>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    if (v === false) continue;
    if (v === true) parts.push(k);
    else if (typeof v === 'number') parts.push(`${k} ${v > 0 ? `+${v}` : v}`);
    else parts.push(`${k} ${v}`);
  }
  return parts.join(', ') || 'plain';
}

/** Exact fractions of long sequences run to dozens of digits: the table says where they are instead. */
function shortFraction(exact: string): string {
  return exact.length <= 24 ? exact : '(in JSON, CSV)';
}

function diffTable(r: DiffResult, top: number): string {
  const lines = [terminalSafe(`${r.system}: ${sideText(r.base)} -> ${sideText(r.other)}, over the ${r.grid} grid`), ''];
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
  const moves = rankedMoves(r);
  lines.push('');
  if (moves.length === 0) {
    lines.push('Nothing moved: every outcome of every cell has the same exact probability on both sides.');
    return lines.join('\n') + '\n';
  }
  lines.push(`The ${Math.min(top, moves.length)} largest moves of ${moves.length} (exact on both sides; --top N for more):`, '');
  lines.push(
    renderTable(
      ['kind', 'situation', 'outcome', r.base.label, r.other.label, 'change (points)', `${r.base.label} exact`, `${r.other.label} exact`],
      moves.slice(0, top).map(({ cell, outcome: o }) => [
        cell.kind,
        situation(cell.values),
        o.outcome,
        percent(toNumber(o.base), 2),
        percent(toNumber(o.other), 2),
        points(o.change, 2),
        shortFraction(formatFraction(o.base)),
        shortFraction(formatFraction(o.other)),
      ]),
      [false, false, false, true, true, true, true, true],
    ),
  );
  return lines.join('\n') + '\n';
}

function diffJson(r: DiffResult) {
  return {
    system: r.system,
    base: sideJson(r.base),
    other: sideJson(r.other),
    grid: r.grid,
    summary: diffSummary(r).map((s) => ({ ...s, largestPoints: s.largest * 100 })),
    moves: rankedMoves(r).map(({ cell, outcome: o }) => ({
      kind: cell.kind,
      values: cell.values,
      outcome: o.outcome,
      base: { probability: toNumber(o.base), exact: formatFraction(o.base) },
      other: { probability: toNumber(o.other), exact: formatFraction(o.other) },
      changePoints: o.change * 100,
    })),
    cells: r.cells.map((c) => ({
      kind: c.kind,
      values: c.values,
      outcomes: c.outcomes.map((o) => ({ outcome: o.outcome, base: formatFraction(o.base), other: formatFraction(o.other), changePoints: o.change * 100 })),
      means: c.means,
    })),
    skipped: r.skipped,
  };
}

/** Tidy: one row per cell and outcome, every grid field in its own column. */
function diffCsv(r: DiffResult): string {
  const fields = [...new Set(r.cells.flatMap((c) => Object.keys(c.values)))];
  const rows: unknown[][] = [['system', 'kind', ...fields, 'outcome', 'base', 'other', 'base_probability', 'base_exact', 'other_probability', 'other_exact', 'change_points']];
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
      ]);
    }
  }
  return csvText(rows);
}

/** `diff`: the table lists the largest moves; JSON and CSV hold every cell. */
export function diffPresenter(top = DEFAULT_TOP): Presenter<DiffResult> {
  return { table: (r) => terminalSafeLines(diffTable(r, top)), json: (r) => jsonText(diffJson(r)), csv: diffCsv };
}
