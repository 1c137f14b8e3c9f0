import { exactJson } from './exact-json.js';
import type { ExactResult } from '../../exact-result.js';
import { formatFraction, toNumber } from '../../exact/fraction.js';
import { cellMeans, cellOutcomes } from '../../analysis/cells.js';
import { runningTotals } from '../../running-sums.js';
import { scenarioCsv } from './csv.js';
import type { Presenter } from './presenter.js';
import { type ShownExact, digitsFor, honestPercent, jsonText, renderTable, scenarioHeading, tableFraction, terminalSafe, terminalSafeLines } from '../../text.js';
import { givenLines } from '../../analysis/asked.js';

/** An exact answer as a command prints it: `digits` fixes the decimals of its percentages (--digits). */
export type ExactView = ExactResult & {
  readonly digits?: number;
  /** The outcomes --outcome keeps (a one-line answer): only their rows, no means or histograms. */
  readonly picked?: readonly string[];
};

/**
 * Rows of a table of bins (a histogram, or its running sums), with runs of two or more bins that are
 * exactly 0 folded into one ("19-24"): a long sequence's impossible rows say nothing one row cannot.
 */
function foldZeroRuns(rows: readonly { bin: string; shown: ShownExact }[]): { bin: string; shown: ShownExact }[] {
  const out: { bin: string; shown: ShownExact }[] = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j < rows.length && rows[j]!.shown.exact === '0') j++;
    if (j - i >= 2) {
      out.push({ bin: `${rows[i]!.bin}-${rows[j - 1]!.bin}`, shown: rows[i]!.shown });
      i = j;
    } else {
      out.push(rows[i]!);
      i++;
    }
  }
  return out;
}

function binTable(header: readonly string[], rows: readonly { bin: string; shown: ShownExact }[], fixed: number | undefined, numericBins: boolean): string {
  const folded = foldZeroRuns(rows);
  const digits = digitsFor(folded.map((r) => r.shown), fixed);
  return renderTable(header, folded.map((r) => [r.bin, honestPercent(r.shown, digits), tableFraction(r.shown.exact)]), [numericBins, true, true]);
}

function exactTable(r: ExactView): string {
  const lines: string[] = [scenarioHeading(r.scenario), ...givenLines(r.scenario).map(terminalSafe)];
  for (const n of r.notes) lines.push(`  ${terminalSafe(n)}`);
  lines.push('');
  // Outcomes ranked mildest to most severe also read as "this or worse"; a duel's winners do not.
  const ranked = !r.layout.unranked;
  const orWorse = (o: ExactResult['outcomes'][number]): ShownExact => ({ probability: o.orWorse!, exact: o.orWorseExact! });
  const digits = digitsFor([...r.outcomes, ...(ranked ? r.outcomes.map(orWorse) : [])], r.digits);
  lines.push(
    renderTable(
      ['outcome', 'probability', 'exact', ...(ranked ? ['this or worse'] : [])],
      r.outcomes.filter((o) => !r.picked || r.picked.includes(o.outcome)).map((o) => [o.outcome, honestPercent(o, digits), tableFraction(o.exact), ...(ranked ? [honestPercent(orWorse(o), digits)] : [])]),
      [false, true, true, ...(ranked ? [true] : [])],
    ),
  );
  if (r.picked) return lines.join('\n') + '\n';
  lines.push('');
  // Each mean with what it counts: expectedAttacksMade and expectedAttacks answer different questions.
  r.layout.means.forEach((m) => {
    const v = r.means[m.jsonKey]!;
    lines.push(`${m.jsonKey}: ${v.value.toFixed(4)} = ${tableFraction(v.exact)}  (${m.label})`);
  });
  for (const [id, bins] of Object.entries(r.histograms)) {
    lines.push('', binTable([id, 'probability', 'exact'], bins.map((b) => ({ bin: b.bin, shown: b })), r.digits, false));
  }
  // "Within n" views of when-did-it-happen histograms; the last bin, "never", has none.
  r.layout.histograms.forEach((h, i) => {
    if (!h.cumulative) return;
    const rows = runningTotals(r.answer.histograms[i]!)
      .slice(0, -1)
      .map((within, j) => ({ bin: String(j + 1), shown: { probability: toNumber(within), exact: formatFraction(within) } }));
    lines.push('', binTable([`${h.cumulative.jsonKey} (${h.cumulative.indexKey})`, 'probability', 'exact'], rows, r.digits, true));
  });
  return lines.join('\n') + '\n';
}

export const exactPresenter: Presenter<ExactView> = {
  table: (r) => terminalSafeLines(exactTable(r)),
  json: (r) => jsonText(exactJson(r)),
  csv: (r) => scenarioCsv({ scenario: r.scenario, outcomes: cellOutcomes(r.layout, r, undefined), means: cellMeans(r.layout, r, undefined) }),
};
