import { scenarioRecord } from '../../input/scenario-core.js';
import { manifestFor, type ExactResult, type Manifest } from '../../exact-result.js';
import { cellMeans, cellOutcomes } from '../../analysis/cells.js';
import { runningTotals } from '../../running-sums.js';
import type { PrecisionRun, SimRun } from '../../pool/simulate.js';
import { tallyOffsets } from '../../model/tally.js';
import { Z95, summarize, wilson, type CrossCheckReport } from '../../stats/index.js';
import { scenarioCsv, type TidyCell } from './csv.js';
import type { Presenter } from './presenter.js';
import { compact, jsonText, percent, percentDigits, percentInterval, renderTable, scenarioHeading, terminalSafe, terminalSafeLines } from '../../text.js';
import { givenLines } from '../../analysis/asked.js';

/** What `simulate` prints: a run, and the precision it was asked for when it ran until one. */
export interface SimulationView {
  readonly run: SimRun | PrecisionRun;
  readonly precision?: number;
  /** The outcomes --outcome keeps (a one-line answer): only their rows, no means or histograms. */
  readonly picked?: readonly string[];
}

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
export function runFacts(run: SimRun) {
  return {
    system: run.scenario.system,
    edition: run.scenario.edition,
    kind: run.scenario.kind,
    scenario: scenarioRecord(run.scenario),
    trials: run.trials,
    seed: run.seed,
    workers: run.workers,
    seconds: run.seconds,
    trialsPerSecond: run.trialsPerSecond,
  };
}

/** The last line of `simulate` and `check` tables. */
export function runLine(run: SimRun): string {
  return (
    `${run.trials.toLocaleString('en-US')} trials, seed ${run.seed}, ${run.workers} worker${run.workers === 1 ? '' : 's'}, ` +
    `${run.seconds.toFixed(2)} s (${compact(run.trialsPerSecond)} trials/s); ${run.generator}, chunks of ${run.chunkSize}`
  );
}

/**
 * A simulated scenario as the tidy CSV reads it (one run is one batch); `check` adds the exact answer
 * and the z-scores of the estimates against it, as a sweep cell that is exact and simulated has them.
 */
export function simulatedCell(run: SimRun, exact?: ExactResult, check?: CrossCheckReport): TidyCell {
  const summary = summarize(run);
  return {
    scenario: run.scenario,
    outcomes: cellOutcomes(run.layout, exact, { summary }),
    means: cellMeans(run.layout, exact, { summary }),
    sim: { trials: run.trials, seed: run.seed, batches: 1, summary },
    ...(check ? { check } : {}),
  };
}

/**
 * Running sums of "when did it happen" histograms (bins 1..N then "never"), with Wilson intervals: the
 * simulated counterpart of the exact `outOfActionWithin` / `incapacitatedBy`.
 */
export function cumulativeViews(run: SimRun): { jsonKey: string; indexKey: string; label: string; rows: Record<string, number>[] }[] {
  const views = [];
  const offsets = tallyOffsets(run.layout).histograms;
  for (const [k, h] of run.layout.histograms.entries()) {
    if (!h.cumulative) continue;
    const at = offsets[k]!;
    const within = runningTotals(run.tally.subarray(at, at + h.bins.length - 1));
    const rows = within.map((count, i) => {
      const ci = wilson(count, run.trials, Z95);
      return { [h.cumulative!.indexKey]: i + 1, count, probability: count / run.trials, ciLow: ci.low, ciHigh: ci.high };
    });
    views.push({ ...h.cumulative, label: h.label, rows });
  }
  return views;
}

/** The document `simulate --format json` prints; laid out like `exact`'s, means at the top level. */
export function simulationJson({ run, precision }: SimulationView): Record<string, unknown> {
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

function simulationTable({ run, precision, picked }: SimulationView): string {
  const s = summarize(run);
  const digits = percentDigits(run.trials);
  const lines = [`${scenarioHeading(run.scenario)}: simulated`, ...givenLines(run.scenario).map(terminalSafe), ''];
  lines.push(
    renderTable(
      ['outcome', 'probability', '95% interval', 'count'],
      s.outcomes.filter((o) => !picked || picked.includes(o.outcome)).map((o) => [o.outcome, percent(o.probability, digits), percentInterval(o.ciLow, o.ciHigh, digits), o.count.toLocaleString('en-US')]),
      [false, true, true, true],
    ),
  );
  lines.push('');
  if (picked) return [...lines, runLine(run)].join('\n') + '\n';
  for (const m of s.means) lines.push(`${m.jsonKey}: ${m.value.toFixed(4)} (95% interval ${m.ciLow.toFixed(4)} to ${m.ciHigh.toFixed(4)})`);
  for (const h of s.histograms) {
    lines.push(
      '',
      renderTable(
        [h.id, 'probability', '95% interval'],
        h.bins.map((b) => [b.bin, percent(b.probability, digits), percentInterval(b.ciLow, b.ciHigh, digits)]),
        [false, true, true],
      ),
    );
  }
  for (const c of cumulativeViews(run)) {
    lines.push(
      '',
      renderTable(
        [`${c.jsonKey} (${c.indexKey})`, 'probability', '95% interval'],
        c.rows.map((r) => [String(r[c.indexKey]), percent(r.probability!, digits), percentInterval(r.ciLow!, r.ciHigh!, digits)]),
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

export const simulationPresenter: Presenter<SimulationView> = {
  table: (view) => terminalSafeLines(simulationTable(view)),
  json: (view) => jsonText(simulationJson(view)),
  csv: ({ run }) => scenarioCsv(simulatedCell(run)),
};
