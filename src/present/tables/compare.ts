import { scenarioRecord } from '../../input/scenario-core.js';
import { toolVersion } from '../../version.js';
import type { CompareResult, CompareRow, Ratio } from '../../analysis/compare-core.js';
import { orWorseLabel, outcomeLabel, points } from '../../labels.js';
import type { OutcomeDifference } from '../../analysis/cells.js';
import { csvText } from './csv.js';
import type { Presenter } from './presenter.js';
import { jsonText, percent, percentPlusMinus, renderTable, TABLE_COLUMNS, tableWidth, terminalSafe, terminalSafeLines } from '../../text.js';

function labelFor(outcome: string, cumulative: boolean): string {
  return cumulative ? orWorseLabel(outcome) : outcomeLabel(outcome);
}

function cellText(v: CompareRow['values'][number]): string {
  if (v.probability !== undefined) return percent(v.probability, 2);
  if (v.estimate !== undefined) return percentPlusMinus(v.estimate, v.ciLow!, v.ciHigh!, 2);
  return '-';
}

function diffText(d: OutcomeDifference): string {
  return d.value !== undefined ? points(d.value, 2) : d.estimate ? points(d.estimate.value, 2) : '-';
}

function ratioText(r: Ratio): string {
  const v = r.value ?? r.estimate?.value;
  return v === undefined ? '-' : v.toFixed(3);
}

function simDiffText(d: OutcomeDifference): string {
  const e = d.estimate;
  return e ? `${points(e.value, 2)} [${points(e.ciLow, 2)}, ${points(e.ciHigh, 2)}]` : '-';
}

/**
 * Every field in which the compared scenarios differ, each scenario's value named by `names` (its name,
 * or #1, #2 where the table numbers them): "differ in: injuryDice (#1: 1, #2: 0); rules (...)". The
 * table's line before its rows, and the page's first words of a comparison.
 */
export function differencesLine(r: CompareResult, names: readonly string[] = r.scenarios.map((s) => s.name)): string {
  if (r.differences.length === 0) return 'differ in: nothing (the same fields and rules)';
  return `differ in: ${r.differences.map((d) => `${d.field} (${d.values.map((v, i) => `${names[i]!}: ${v}`).join(', ')})`).join('; ')}`;
}

/** The plain-text comparison: a table per view (each outcome, this or worse), then the verdicts. */
function compareTable(r: CompareResult): string {
  const simulated = r.scenarios.every((s) => s.cell.sim);
  const exact = r.scenarios.every((s) => s.cell.exact);
  // Scenarios are named in the headers as given; where that makes the table wider than a terminal, by
  // number (#1, #2), each number said in the lines above it.
  const given = r.scenarios.map((s) => s.name);
  const numbered = r.scenarios.map((_, i) => `#${i + 1}`);
  const byNumber = tableWidth(tableOf(given)(r.rows)) > TABLE_COLUMNS;
  const table = tableOf(byNumber ? numbered : given);
  function tableOf(names: readonly string[]) {
    const others = names.slice(1);
    return (rows: readonly CompareRow[]) => {
      const headers = [
        'outcome',
        ...names,
        ...others.map((n) => `${n} - ${names[0]} (points)`),
        ...others.map((n) => `${n} / ${names[0]}`),
        ...(simulated && exact ? others.map((n) => `simulated ${n} - ${names[0]} [95%]`) : []),
      ];
      const body = rows.map((row) => [
        labelFor(row.outcome, row.cumulative),
        ...row.values.map(cellText),
        ...row.versus.map((v) => diffText(v.difference)),
        ...row.versus.map((v) => ratioText(v.ratio)),
        ...(simulated && exact ? row.versus.map((v) => simDiffText(v.difference)) : []),
      ]);
      return renderTable(headers, body, headers.map((_, i) => i > 0));
    };
  }
  const lines: string[] = [];
  r.scenarios.forEach((s, i) => {
    const sc = s.cell.scenario;
    // An inline scenario is named by what it gives: said once, not "name: name".
    lines.push(terminalSafe(`${byNumber ? `${numbered[i]} ` : ''}${s.name === s.file ? s.name : `${s.name}: ${s.file}`} (${sc.system} ${sc.kind}, ${sc.edition} edition)`));
  });
  // Every field that differs, before the table: a difference nobody asked about is said, not hidden.
  lines.push(terminalSafe(differencesLine(r, byNumber ? numbered : given)));
  if (simulated) {
    const sim = r.scenarios[0]!.cell.sim!;
    lines.push(`${exact ? 'exact and simulated' : 'simulated'}: ${r.scenarios.map((s) => s.cell.sim!.trials).join('/')} trials each, seed ${sim.seed}, ${sim.batches} batch(es), the same seeds for every scenario`);
  } else lines.push('exact');
  lines.push('', table(r.rows));
  if (r.cumulativeRows.length) lines.push('', 'This outcome or worse:', table(r.cumulativeRows));
  lines.push('', 'Verdicts:');
  for (const row of r.rows) for (const v of row.versus) lines.push(`  ${terminalSafe(v.verdict)}`);
  return lines.join('\n') + '\n';
}

export function compareJson(r: CompareResult) {
  return {
    scenarios: r.scenarios.map((s) => ({ name: s.name, file: s.file, scenario: scenarioRecord(s.cell.scenario), outcomes: s.cell.outcomes, means: s.cell.means })),
    differences: r.differences,
    outcomes: r.outcomes,
    comparisons: [...r.rows, ...r.cumulativeRows].map((row) => ({
      outcome: row.outcome,
      cumulative: row.cumulative,
      values: row.values.map((v, i) => ({ name: r.scenarios[i]!.name, ...v })),
      versus: row.versus.map((v) => ({ of: v.name, against: r.scenarios[0]!.name, difference: v.difference, ratio: v.ratio, verdict: v.verdict })),
    })),
    verdicts: r.rows.flatMap((row) => row.versus.map((v) => v.verdict)),
    manifest: r.manifest,
  };
}

/** Tidy rows: one per scenario, view and outcome, with the difference and ratio against the first. */
export function compareRows(r: CompareResult): (string | number)[][] {
  const header = ['name', 'file', 'system', 'kind', 'edition', 'view', 'outcome', 'exact', 'probability', 'estimate', 'ci_low', 'ci_high', 'difference', 'difference_exact', 'difference_ci_low', 'difference_ci_high', 'ratio', 'ratio_ci_low', 'ratio_ci_high', 'trials', 'seed', 'tool_version'];
  const out: (string | number)[][] = [header];
  for (const row of [...r.rows, ...r.cumulativeRows]) {
    r.scenarios.forEach((s, i) => {
      const v = row.values[i]!;
      const vs = i > 0 ? row.versus[i - 1] : undefined;
      const d = vs?.difference;
      const ratio = vs?.ratio;
      out.push([
        s.name,
        s.file,
        s.cell.scenario.system,
        s.cell.scenario.kind,
        s.cell.scenario.edition,
        row.cumulative ? 'or-worse' : 'outcome',
        row.outcome,
        v.exact ?? '',
        v.probability ?? '',
        v.estimate ?? '',
        v.ciLow ?? '',
        v.ciHigh ?? '',
        d ? (d.value ?? d.estimate?.value ?? '') : '',
        d?.exact ?? '',
        d?.estimate?.ciLow ?? '',
        d?.estimate?.ciHigh ?? '',
        ratio ? (ratio.value ?? ratio.estimate?.value ?? '') : '',
        ratio?.estimate?.ciLow ?? '',
        ratio?.estimate?.ciHigh ?? '',
        s.cell.sim?.trials ?? '',
        s.cell.sim?.seed ?? '',
        toolVersion,
      ]);
    });
  }
  return out;
}

export const comparePresenter: Presenter<CompareResult> = {
  table: (r) => terminalSafeLines(compareTable(r)),
  json: (r) => jsonText(compareJson(r)),
  csv: (r) => csvText(compareRows(r)),
};
