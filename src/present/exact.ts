import { scenarioRecord } from '../input/scenario.js';
import type { ExactResult } from '../evaluate.js';
import { formatFraction, toNumber } from '../exact/fraction.js';
import { cellMeans, cellOutcomes } from '../analysis/sweep.js';
import { runningTotals } from '../running-sums.js';
import { scenarioCsv } from './csv.js';
import type { Presenter } from './presenter.js';
import { jsonText, percent, renderTable, scenarioHeading, tableFraction, terminalSafe, terminalSafeLines } from '../text.js';
import { givenLines } from '../analysis/asked.js';

/** The JSON document `exact --format json` prints: flat, with means and extras at the top level. */
export function exactJson(r: ExactResult): Record<string, unknown> {
  return {
    system: r.system,
    edition: r.edition,
    kind: r.kind,
    scenario: scenarioRecord(r.scenario),
    outcomes: r.outcomes,
    ...r.means,
    ...(Object.keys(r.histograms).length ? { histograms: r.histograms } : {}),
    ...r.extra,
    notes: r.notes,
    manifest: r.manifest,
  };
}

function exactTable(r: ExactResult): string {
  const lines: string[] = [scenarioHeading(r.scenario), ...givenLines(r.scenario).map(terminalSafe)];
  for (const n of r.notes) lines.push(`  ${terminalSafe(n)}`);
  lines.push('');
  // Outcomes ranked mildest to most severe also read as "this or worse"; a duel's winners do not.
  const ranked = !r.layout.unranked;
  lines.push(
    renderTable(
      ['outcome', 'probability', 'exact', ...(ranked ? ['this or worse'] : [])],
      r.outcomes.map((o) => [o.outcome, percent(o.probability, 2), tableFraction(o.exact), ...(ranked ? [percent(o.orWorse!, 2)] : [])]),
      [false, true, true, ...(ranked ? [true] : [])],
    ),
  );
  lines.push('');
  for (const [key, v] of Object.entries(r.means)) lines.push(`${key}: ${v.value.toFixed(4)} = ${tableFraction(v.exact)}`);
  for (const [id, bins] of Object.entries(r.histograms)) {
    lines.push('', renderTable([id, 'probability', 'exact'], bins.map((b) => [b.bin, percent(b.probability, 2), tableFraction(b.exact)]), [false, true, true]));
  }
  // "Within n" views of when-did-it-happen histograms; the last bin, "never", has none.
  r.layout.histograms.forEach((h, i) => {
    if (!h.cumulative) return;
    const rows = runningTotals(r.answer.histograms[i]!)
      .slice(0, -1)
      .map((within, j) => [String(j + 1), percent(toNumber(within), 2), tableFraction(formatFraction(within))]);
    lines.push('', renderTable([`${h.cumulative.jsonKey} (${h.cumulative.indexKey})`, 'probability', 'exact'], rows, [true, true, true]));
  });
  return lines.join('\n') + '\n';
}

export const exactPresenter: Presenter<ExactResult> = {
  table: (r) => terminalSafeLines(exactTable(r)),
  json: (r) => jsonText(exactJson(r)),
  csv: (r) => scenarioCsv({ scenario: r.scenario, outcomes: cellOutcomes(r.layout, r, undefined), means: cellMeans(r.layout, r, undefined) }),
};
