import type { ExactResult } from '../../evaluate.js';
import { formatFraction } from '../../exact/fraction.js';
import type { SimRun } from '../../pool/simulate.js';
import type { CrossCheckReport } from '../../stats/index.js';
import { scenarioCsv } from './csv.js';
import type { Presenter } from './presenter.js';
import { runFacts, runLine, simManifest, simulatedCell } from './simulation.js';
import { jsonText, pText, percent, percentDigits, percentInterval, renderTable, scenarioHeading, tableFraction, terminalSafe, terminalSafeLines, zText } from '../../text.js';
import { givenLines } from '../../analysis/asked.js';

/** What `check` prints: the exact answer, the simulation and the test of one against the other. */
export interface CheckView {
  readonly exact: ExactResult;
  readonly run: SimRun;
  readonly report: CrossCheckReport;
}

/** JSON has no Infinity; an infinite z (an impossible outcome seen) is written as the string "Infinity". */
function finiteOrString(x: number): number | string {
  return Number.isFinite(x) ? x : String(x);
}

/**
 * A cross-check as JSON (its fractions are BigInt, which JSON cannot hold): the body of `check
 * --format json`, and the `check` of every simulated cell of a sweep or report.
 */
export function crossCheckJson(report: CrossCheckReport) {
  const fit = (f: CrossCheckReport['outcomeFit']) => ({ statistic: f.statistic, df: f.df, pValue: f.pValue, cells: f.cells });
  return {
    trials: report.trials,
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
  };
}

/** The document `check --format json` prints: the run's facts, the cross-check and the manifest. */
export function checkJson({ run, report }: CheckView): Record<string, unknown> {
  return { ...runFacts(run), ...crossCheckJson(report), manifest: simManifest(run) };
}

function checkTable({ run, report }: CheckView): string {
  const digits = percentDigits(run.trials);
  const lines = [`${scenarioHeading(run.scenario)}: exact against simulated`, ...givenLines(run.scenario).map(terminalSafe), ''];
  lines.push(
    renderTable(
      ['outcome', 'exact', 'exact %', 'simulated', '95% interval', 'z'],
      report.outcomes.map((o) => [
        o.outcome,
        // A duel's or a long sequence's fractions run to a hundred digits: the JSON has them whole.
        tableFraction(formatFraction(o.exact)),
        percent(o.exactProbability, digits),
        percent(o.estimate, digits),
        percentInterval(o.ciLow, o.ciHigh, digits),
        zText(o.z),
      ]),
      [false, true, true, true, true, true],
    ),
  );
  const f = report.outcomeFit;
  lines.push('', `chi-square over outcomes: ${f.statistic.toFixed(2)} on ${f.df} degrees of freedom, p = ${pText(f.pValue)}`);
  for (const m of report.means) {
    lines.push(
      `${m.jsonKey}: exact ${m.exactValue.toFixed(4)} (${tableFraction(formatFraction(m.exact))}), simulated ${m.estimate.toFixed(4)} ` +
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
    for (const failure of report.failures) lines.push(`  ${terminalSafe(failure)}`);
  }
  return lines.join('\n') + '\n';
}

export const checkPresenter: Presenter<CheckView> = {
  table: (view) => terminalSafeLines(checkTable(view)),
  json: (view) => jsonText(checkJson(view)),
  csv: ({ exact, run, report }) => scenarioCsv(simulatedCell(run, exact, report)),
};
