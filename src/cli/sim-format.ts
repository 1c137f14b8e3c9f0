import { formatFraction } from '../exact/fraction.js';
import { manifestFor, type Manifest } from '../evaluate.js';
import type { PrecisionRun, SimRun } from '../sim/run.js';
import type { CrossCheckReport } from '../stats/cross-check.js';
import { summarize } from '../stats/summary.js';
import { wilson } from '../stats/interval.js';
import { Z95 } from '../stats/normal.js';
import { csv, percent, renderTable, scenarioHeading } from './format.js';
import { compact } from './sim-controls.js';

/** What reproduces a simulation exactly: the exact-result manifest plus the seed, trials and generator. */
export interface SimManifest extends Manifest {
  seed: number;
  trials: number;
  generator: string;
  chunkSize: number;
}

export function simManifest(run: SimRun): SimManifest {
  return { ...manifestFor(run.scenario), seed: run.seed, trials: run.trials, generator: run.generator, chunkSize: run.chunkSize };
}

/** The run's facts shared by `simulate` and `check` JSON. */
function runFacts(run: SimRun) {
  return {
    system: run.scenario.system,
    edition: run.scenario.edition,
    kind: run.scenario.kind,
    scenario: run.scenario,
    trials: run.trials,
    seed: run.seed,
    workers: run.workers,
    seconds: run.seconds,
    trialsPerSecond: run.trialsPerSecond,
  };
}

/** The document `simulate --format json` prints; laid out like `exact`'s, means at the top level. */
export function simulationJson(run: SimRun | PrecisionRun, precision?: number): Record<string, unknown> {
  const s = summarize(run);
  const means: Record<string, unknown> = {};
  for (const m of s.means) means[m.jsonKey] = { value: m.value, ciLow: m.ciLow, ciHigh: m.ciHigh };
  const histograms: Record<string, unknown> = {};
  for (const h of s.histograms) histograms[h.id] = h.bins;
  const cumulative: Record<string, unknown> = {};
  for (const c of cumulativeViews(run)) cumulative[c.jsonKey] = c.rows;
  return {
    ...runFacts(run),
    ...(precision !== undefined ? { precision, reachedPrecision: (run as PrecisionRun).reachedPrecision } : {}),
    outcomes: s.outcomes,
    ...means,
    ...cumulative,
    ...(s.histograms.length ? { histograms } : {}),
    manifest: simManifest(run),
  };
}

/**
 * Running sums of "when did it happen" histograms (bins 1..N then "never"), with Wilson intervals: the
 * simulated counterpart of the exact `outOfActionWithin` / `incapacitatedBy`.
 */
export function cumulativeViews(run: SimRun): { jsonKey: string; indexKey: string; label: string; rows: Record<string, number>[] }[] {
  const views = [];
  let offset = run.layout.outcomes.length + 2 * run.layout.means.length;
  for (const h of run.layout.histograms) {
    if (h.cumulative) {
      const rows: Record<string, number>[] = [];
      let count = 0;
      for (let i = 0; i < h.bins.length - 1; i++) {
        count += run.tally[offset + i]!;
        const ci = wilson(count, run.trials, Z95);
        rows.push({ [h.cumulative.indexKey]: i + 1, count, probability: count / run.trials, ciLow: ci.low, ciHigh: ci.high });
      }
      views.push({ ...h.cumulative, label: h.label, rows });
    }
    offset += h.bins.length;
  }
  return views;
}

/** Digits after the percent point that resolve a 95% interval of this many trials, and no more. */
function percentDigits(trials: number): number {
  return Math.min(6, Math.max(2, Math.ceil(Math.log10(Math.sqrt(trials))) - 1));
}

function interval(low: number, high: number, digits: number): string {
  return `${percent(low, digits)} to ${percent(high, digits)}`;
}

function runLine(run: SimRun): string {
  return (
    `${run.trials.toLocaleString('en-US')} trials, seed ${run.seed}, ${run.workers} worker${run.workers === 1 ? '' : 's'}, ` +
    `${run.seconds.toFixed(2)} s (${compact(run.trialsPerSecond)} trials/s); ${run.generator}, chunks of ${run.chunkSize}`
  );
}

export function formatSimulation(run: SimRun | PrecisionRun, format: 'table' | 'json' | 'csv', precision?: number): string {
  if (format === 'json') return JSON.stringify(simulationJson(run, precision), null, 2) + '\n';
  const s = summarize(run);
  const { system, edition, kind } = run.scenario;
  if (format === 'csv') {
    const rows: unknown[][] = [['system', 'edition', 'kind', 'outcome', 'count', 'probability', 'ci_low', 'ci_high', 'trials', 'seed']];
    for (const o of s.outcomes) rows.push([system, edition, kind, o.outcome, o.count, o.probability, o.ciLow, o.ciHigh, run.trials, run.seed]);
    return csv(rows);
  }
  const digits = percentDigits(run.trials);
  const lines = [`${scenarioHeading(run.scenario)}: simulated`, ''];
  lines.push(
    renderTable(
      ['outcome', 'probability', '95% interval', 'count'],
      s.outcomes.map((o) => [o.outcome, percent(o.probability, digits), interval(o.ciLow, o.ciHigh, digits), o.count.toLocaleString('en-US')]),
      [false, true, true, true],
    ),
  );
  lines.push('');
  for (const m of s.means) lines.push(`${m.jsonKey}: ${m.value.toFixed(4)} (95% interval ${m.ciLow.toFixed(4)} to ${m.ciHigh.toFixed(4)})`);
  for (const h of s.histograms) {
    lines.push(
      '',
      renderTable(
        [h.id, 'probability', '95% interval'],
        h.bins.map((b) => [b.bin, percent(b.probability, digits), interval(b.ciLow, b.ciHigh, digits)]),
        [false, true, true],
      ),
    );
  }
  for (const c of cumulativeViews(run)) {
    lines.push(
      '',
      renderTable(
        [`${c.jsonKey} (${c.indexKey})`, 'probability', '95% interval'],
        c.rows.map((r) => [String(r[c.indexKey]), percent(r.probability!, digits), interval(r.ciLow!, r.ciHigh!, digits)]),
        [true, true, true],
      ),
    );
  }
  lines.push('', runLine(run));
  if (precision !== undefined) {
    lines.push(
      (run as PrecisionRun).reachedPrecision
        ? `precision +-${precision} reached after ${run.trials.toLocaleString('en-US')} trials`
        : `precision +-${precision} NOT reached: stopped at --max-trials ${run.trials.toLocaleString('en-US')}`,
    );
  }
  return lines.join('\n') + '\n';
}

/** The document `check --format json` prints. */
export function checkJson(run: SimRun, report: CrossCheckReport): Record<string, unknown> {
  const fit = (f: CrossCheckReport['outcomeFit']) => ({ statistic: f.statistic, df: f.df, pValue: f.pValue, cells: f.cells });
  return {
    ...runFacts(run),
    outcomes: report.outcomes.map((o) => ({
      outcome: o.outcome,
      exact: formatFraction(o.exact),
      exactProbability: o.exactProbability,
      count: o.count,
      probability: o.estimate,
      ciLow: o.ciLow,
      ciHigh: o.ciHigh,
      z: finiteOrString(o.z),
    })),
    chiSquare: fit(report.outcomeFit),
    means: report.means.map((m) => ({
      id: m.id,
      jsonKey: m.jsonKey,
      exact: formatFraction(m.exact),
      exactValue: m.exactValue,
      value: m.estimate,
      ciLow: m.ciLow,
      ciHigh: m.ciHigh,
      z: finiteOrString(m.z),
      pValue: m.pValue,
    })),
    ...(report.histograms.length
      ? {
          histograms: report.histograms.map((h) => ({
            id: h.id,
            chiSquare: fit(h.fit),
            bins: h.bins.map((b) => ({
              bin: b.bin,
              exact: formatFraction(b.exact),
              exactProbability: b.exactProbability,
              count: b.count,
              probability: b.estimate,
              ciLow: b.ciLow,
              ciHigh: b.ciHigh,
            })),
          })),
        }
      : {}),
    familyAlpha: report.familyAlpha,
    tests: report.tests,
    testAlpha: report.testAlpha,
    passed: report.passed,
    failures: report.failures,
    manifest: simManifest(run),
  };
}

/** JSON has no Infinity; an infinite z (an impossible outcome seen) is written as the string "Infinity". */
function finiteOrString(x: number): number | string {
  return Number.isFinite(x) ? x : String(x);
}

function pText(p: number): string {
  return p >= 0.001 ? p.toFixed(3) : p.toExponential(1);
}

function zText(z: number): string {
  return Number.isFinite(z) ? z.toFixed(2) : z > 0 ? 'inf' : '-inf';
}

export function formatCheck(run: SimRun, report: CrossCheckReport, format: 'table' | 'json' | 'csv'): string {
  if (format === 'json') return JSON.stringify(checkJson(run, report), null, 2) + '\n';
  const { system, edition, kind } = run.scenario;
  if (format === 'csv') {
    const rows: unknown[][] = [['system', 'edition', 'kind', 'outcome', 'exact', 'exact_probability', 'count', 'probability', 'ci_low', 'ci_high', 'z']];
    for (const o of report.outcomes) {
      rows.push([system, edition, kind, o.outcome, formatFraction(o.exact), o.exactProbability, o.count, o.estimate, o.ciLow, o.ciHigh, o.z]);
    }
    return csv(rows);
  }
  const digits = percentDigits(run.trials);
  const lines = [`${scenarioHeading(run.scenario)}: exact against simulated`, ''];
  lines.push(
    renderTable(
      ['outcome', 'exact', 'exact %', 'simulated', '95% interval', 'z'],
      report.outcomes.map((o) => [
        o.outcome,
        formatFraction(o.exact),
        percent(o.exactProbability, digits),
        percent(o.estimate, digits),
        interval(o.ciLow, o.ciHigh, digits),
        zText(o.z),
      ]),
      [false, true, true, true, true, true],
    ),
  );
  const f = report.outcomeFit;
  lines.push('', `chi-square over outcomes: ${f.statistic.toFixed(2)} on ${f.df} degrees of freedom, p = ${pText(f.pValue)}`);
  for (const m of report.means) {
    lines.push(
      `${m.jsonKey}: exact ${m.exactValue.toFixed(4)} (${formatFraction(m.exact)}), simulated ${m.estimate.toFixed(4)} ` +
        `(95% interval ${m.ciLow.toFixed(4)} to ${m.ciHigh.toFixed(4)}), z = ${zText(m.z)}, p = ${pText(m.pValue)}`,
    );
  }
  for (const h of report.histograms) {
    lines.push(`chi-square over ${h.id}: ${h.fit.statistic.toFixed(2)} on ${h.fit.df} degrees of freedom, p = ${pText(h.fit.pValue)}`);
  }
  lines.push('', runLine(run), '');
  if (report.passed) {
    lines.push(
      `AGREES: every test has p >= ${report.testAlpha.toExponential(1)} (family-wise ${report.familyAlpha.toExponential(0)}, Bonferroni over ${report.tests} test${report.tests === 1 ? '' : 's'})`,
    );
  } else {
    lines.push(`DISAGREES at family-wise significance ${report.familyAlpha.toExponential(0)} (Bonferroni over ${report.tests} tests):`);
    for (const failure of report.failures) lines.push(`  ${failure}`);
  }
  return lines.join('\n') + '\n';
}
