import { basename, extname } from 'node:path';
import { UsageError, showValue } from '../errors.js';
import { div, formatFraction, toNumber } from '../exact/fraction.js';
import { parseScenario } from '../model/scenario.js';
import type { FieldValue, Scenario } from '../model/types.js';
import { toolVersion } from '../project.js';
import { resolveKind } from '../rules/registry.js';
import { manifestFor } from '../evaluate.js';
import { orWorseLabel, outcomeLabel, outcomePhrase, pct, points } from './labels.js';
import { ratioEstimate, type Estimate } from './paired.js';
import { batchProportions, cellDifference, computeCell, exactProbability, unionOutcomes, type Cell, type OutcomeDifference, type SimPlan } from './sweep.js';

/**
 * Side-by-side comparison of scenarios, each against the first: per outcome the probabilities, their
 * differences (percentage points) and ratios, with 95% intervals where simulated, and a one-line verdict
 * such as "b is out of action 16.7 points less often than a". Every scenario is simulated with the same
 * seeds, so the intervals of differences are those of paired batches (common random numbers).
 *
 * Scenarios must be of one system. They may differ in kind when one kind's outcomes are the other's with
 * some added in order (an attack adds "miss" to an injury roll): an outcome one of them cannot have counts
 * as probability 0 for it. Any other mix is refused, since its "or worse" rows would mean nothing.
 */

export interface CompareInput {
  readonly name: string;
  readonly file: string;
  readonly raw: Record<string, unknown>;
}

export interface Ratio {
  readonly exact?: string;
  readonly value?: number;
  readonly estimate?: Estimate | null;
}

export interface Versus {
  /** Name of the scenario compared with the first. */
  readonly name: string;
  readonly difference: OutcomeDifference;
  readonly ratio: Ratio;
  readonly verdict: string;
}

export interface CompareRow {
  readonly outcome: string;
  /** "this or worse" rows have cumulative values. */
  readonly cumulative: boolean;
  readonly values: readonly { probability?: number; exact?: string; estimate?: number; ciLow?: number; ciHigh?: number }[];
  readonly versus: readonly Versus[];
}

export interface CompareResult {
  readonly scenarios: readonly { name: string; file: string; cell: Cell }[];
  readonly outcomes: readonly string[];
  readonly rows: readonly CompareRow[];
  readonly cumulativeRows: readonly CompareRow[];
  readonly manifest: Record<string, unknown>;
}

/** Names for the scenarios: their `name` field, else the file name; "a", "b" stay short in verdicts. */
export function scenarioName(raw: Record<string, unknown>, file: string): string {
  return typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name : basename(file, extname(file));
}

function valueOf(cell: Cell, outcome: string, cumulative: boolean) {
  const o = cell.outcomes.find((x) => x.outcome === outcome);
  if (!o) return { probability: 0, exact: '0', ...(cell.sim ? { estimate: 0, ciLow: 0, ciHigh: 0 } : {}) };
  if (!cumulative) {
    return {
      ...(o.probability !== undefined ? { probability: o.probability, exact: o.exact! } : {}),
      ...(o.estimate !== undefined ? { estimate: o.estimate, ciLow: o.ciLow!, ciHigh: o.ciHigh! } : {}),
    };
  }
  return {
    ...(o.orWorse !== undefined ? { probability: o.orWorse, exact: o.orWorseExact! } : {}),
    ...(o.orWorseEstimate !== undefined ? { estimate: o.orWorseEstimate, ciLow: o.orWorseCiLow!, ciHigh: o.orWorseCiHigh! } : {}),
  };
}

/** "16.7", or "0.012" for differences too small for one decimal. */
function pointsText(d: number): string {
  const abs = Math.abs(d * 100);
  if (abs === 0) return '0';
  return abs >= 0.05 ? abs.toFixed(1) : abs.toPrecision(2);
}

function timesText(r: number | undefined): string {
  if (r === undefined || !Number.isFinite(r)) return '';
  if (r === 0) return 'never';
  return r >= 0.995 && r <= 1.005 ? 'about as often' : `${r.toFixed(r < 0.1 ? 3 : 2)} times as often`;
}

export function verdict(a: string, b: string, outcome: string, cumulative: boolean, pa: number, pb: number, diff: OutcomeDifference, ratio: Ratio): string {
  const phrase = outcomePhrase(outcome, cumulative);
  if (diff.value !== undefined) {
    const d = diff.value;
    if (d === 0) return `${b} ${phrase} exactly as often as ${a} (${pct(pb)}).`;
    const times = ratio.value !== undefined ? timesText(ratio.value) : '';
    return `${b} ${phrase} ${pointsText(d)} points ${d < 0 ? 'less' : 'more'} often than ${a} (${pct(pb)} against ${pct(pa)}${times ? `; ${times}` : ''}).`;
  }
  const e = diff.estimate!;
  const interval = `95% interval ${points(e.ciLow)} to ${points(e.ciHigh)} points`;
  if (e.ciLow <= 0 && e.ciHigh >= 0) {
    return `${b} and ${a}: no clear difference in how often the target ${phrase.replace(/^is /, 'is ')} (difference ${points(e.value)} points, ${interval}).`;
  }
  return `${b} ${phrase} ${pointsText(e.value)} points ${e.value < 0 ? 'less' : 'more'} often than ${a} (${pct(pb)} against ${pct(pa)}, simulated; ${interval}).`;
}

function rowsFor(entries: CompareResult['scenarios'], outcomes: readonly string[], cumulative: boolean): CompareRow[] {
  const first = entries[0]!;
  const ids = cumulative ? outcomes.slice(1) : outcomes;
  return ids.map((outcome) => {
    const values = entries.map((e) => valueOf(e.cell, outcome, cumulative));
    const versus = entries.slice(1).map((e, k): Versus => {
      const fa = exactProbability(first.cell, outcome, cumulative, outcomes);
      const fb = exactProbability(e.cell, outcome, cumulative, outcomes);
      const diffs = cellDifference(first.cell, e.cell, cumulative, outcomes);
      const difference = diffs.find((d) => d.outcome === outcome)!;
      const ratio: Ratio = {
        ...(fa && fb && fa.num !== 0n ? { exact: formatFraction(div(fb, fa)), value: toNumber(div(fb, fa)) } : {}),
        ...(first.cell.sim && e.cell.sim
          ? {
              estimate: ratioEstimate(batchProportions(first.cell, outcome, cumulative, outcomes), batchProportions(e.cell, outcome, cumulative, outcomes)),
            }
          : {}),
      };
      const va = values[0]!;
      const vb = values[k + 1]!;
      const pa = va.probability ?? va.estimate ?? 0;
      const pb = vb.probability ?? vb.estimate ?? 0;
      return { name: e.name, difference, ratio, verdict: verdict(first.name, e.name, outcome, cumulative, pa, pb, difference, ratio) };
    });
    return { outcome, cumulative, values, versus };
  });
}

/** True when `small` is `big` with some outcomes left out, the rest in the same order. */
function isSubsequence(small: readonly string[], big: readonly string[]): boolean {
  let j = 0;
  for (const id of big) if (j < small.length && small[j] === id) j++;
  return j === small.length;
}

/**
 * Refuses scenarios whose outcomes cannot share one severity order: other systems, or kinds whose
 * outcome lists are not all the longest one with outcomes left out. Without this, "or worse" rows of
 * a union of unrelated outcome lists contradict the rows above them.
 */
export function checkComparable(items: readonly { file: string; scenario: Scenario }[]): void {
  const first = items[0];
  if (!first) return;
  for (const it of items.slice(1)) {
    if (it.scenario.system !== first.scenario.system) {
      throw new UsageError(
        `compare: ${showValue(it.file)} is a ${it.scenario.system} scenario and ${showValue(first.file)} a ${first.scenario.system} one; compare scenarios of one system`,
      );
    }
  }
  const lists = items.map((it) => ({ ...it, outcomes: resolveKind(it.scenario).kind.layout(it.scenario).outcomes }));
  const longest = lists.reduce((a, b) => (b.outcomes.length > a.outcomes.length ? b : a));
  for (const it of lists) {
    if (isSubsequence(it.outcomes, longest.outcomes)) continue;
    throw new UsageError(
      `compare: ${showValue(it.file)} is kind ${showValue(it.scenario.kind)} with outcomes (${it.outcomes.join(', ')}) and ${showValue(longest.file)} kind ${showValue(longest.scenario.kind)} (${longest.outcomes.join(', ')}); compare kinds with the same outcomes (or one that only adds outcomes, as trench-crusade attack adds miss to injury)`,
    );
  }
}

/** Evaluates and compares the scenarios; every one is validated before anything is computed. */
export async function compareScenarios(inputs: readonly CompareInput[], opts: { exact?: boolean; sim?: SimPlan; signal?: AbortSignal } = {}): Promise<CompareResult> {
  if (inputs.length < 2) throw new UsageError('compare: give at least two scenario files');
  const planned = inputs.map((input, index) => {
    const scenario = parseScenario(input.raw, input.file);
    return { index, point: [index], labels: [input.name], assignment: {} as Record<string, FieldValue>, scenario };
  });
  checkComparable(planned.map((p) => ({ file: inputs[p.index]!.file, scenario: p.scenario })));
  const scenarios: CompareResult['scenarios'][number][] = [];
  for (const p of planned) {
    // The same seeds for every scenario: common random numbers, as in a sweep.
    const cell = await computeCell(p, opts.exact ?? true, opts.sim, opts.sim?.seed ?? 0, opts.signal);
    scenarios.push({ name: inputs[p.index]!.name, file: inputs[p.index]!.file, cell });
  }
  const outcomes = unionOutcomes(scenarios.map((s) => s.cell.layout.outcomes));
  return {
    scenarios,
    outcomes,
    rows: rowsFor(scenarios, outcomes, false),
    cumulativeRows: rowsFor(scenarios, outcomes, true),
    manifest: {
      tool: 'injury-lab',
      version: toolVersion,
      scenarios: scenarios.map((s) => ({ name: s.name, file: s.file, ...manifestFor(s.cell.scenario) })),
      ...(opts.sim
        ? {
            simulation: {
              seed: opts.sim.seed,
              batches: opts.sim.precision !== undefined ? 1 : opts.sim.batches,
              trials: scenarios.map((s) => s.cell.sim?.trials),
              generator: scenarios[0]!.cell.sim?.generator,
              commonRandomNumbers: true,
            },
          }
        : {}),
    },
  };
}

export function labelFor(outcome: string, cumulative: boolean): string {
  return cumulative ? orWorseLabel(outcome) : outcomeLabel(outcome);
}

function cellText(v: CompareRow['values'][number]): string {
  if (v.probability !== undefined) return pct(v.probability, 2);
  if (v.estimate !== undefined) return `${pct(v.estimate, 2)} ±${((Math.max(v.estimate - v.ciLow!, v.ciHigh! - v.estimate)) * 100).toFixed(2)}`;
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

/** The plain-text comparison: a table per view (each outcome, this or worse), then the verdicts. */
export function compareTable(r: CompareResult, render: (h: string[], rows: string[][], right: boolean[]) => string): string {
  const names = r.scenarios.map((s) => s.name);
  const others = names.slice(1);
  const simulated = r.scenarios.every((s) => s.cell.sim);
  const exact = r.scenarios.every((s) => s.cell.exact);
  const table = (rows: readonly CompareRow[]) => {
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
    return render(headers, body, headers.map((_, i) => i > 0));
  };
  const lines: string[] = [];
  r.scenarios.forEach((s) => {
    const sc = s.cell.scenario;
    lines.push(`${s.name}: ${s.file} (${sc.system} ${sc.kind}, ${sc.edition} edition)`);
  });
  if (simulated) {
    const sim = r.scenarios[0]!.cell.sim!;
    lines.push(`${exact ? 'exact and simulated' : 'simulated'}: ${r.scenarios.map((s) => s.cell.sim!.trials).join('/')} trials each, seed ${sim.seed}, ${sim.batches} batch(es), the same seeds for every scenario`);
  } else lines.push('exact');
  lines.push('', table(r.rows), '', 'This outcome or worse:', table(r.cumulativeRows), '', 'Verdicts:');
  for (const row of r.rows) for (const v of row.versus) lines.push(`  ${v.verdict}`);
  return lines.join('\n') + '\n';
}

export function compareJson(r: CompareResult) {
  return {
    scenarios: r.scenarios.map((s) => ({ name: s.name, file: s.file, scenario: s.cell.scenario, outcomes: s.cell.outcomes, means: s.cell.means })),
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
