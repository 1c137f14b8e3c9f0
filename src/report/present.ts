import type { CrossCheckReport } from '../stats/index.js';
import { renderTable } from '../cli/format.js';
import { orWorseLabel, outcomeLabel, pct } from './labels.js';
import { neighbourDifferences, type Cell, type SweepResult } from './sweep.js';

/** The cross-check in JSON-ready form (the report's fractions are BigInt, which JSON cannot hold). */
export function checkJson(c: CrossCheckReport) {
  return {
    passed: c.passed,
    trials: c.trials,
    familyAlpha: c.familyAlpha,
    testAlpha: c.testAlpha,
    chiSquare: { statistic: c.outcomeFit.statistic, df: c.outcomeFit.df, pValue: c.outcomeFit.pValue },
    outcomes: c.outcomes.map((o) => ({ outcome: o.outcome, exact: o.exactProbability, estimate: o.estimate, z: Number.isFinite(o.z) ? o.z : String(o.z) })),
    means: c.means.map((m) => ({ id: m.id, exact: m.exactValue, estimate: m.estimate, z: m.z, pValue: m.pValue })),
    failures: c.failures,
  };
}

/** Largest |z| over the outcomes of a cross-check, for one-glance tables. */
export function worstZ(c: CrossCheckReport): number {
  let m = 0;
  for (const o of c.outcomes) m = Math.max(m, Math.abs(o.z));
  return m;
}

export function cellJson(cell: Cell) {
  return {
    index: cell.index,
    values: cell.assignment,
    labels: cell.labels,
    scenario: cell.scenario,
    outcomes: cell.outcomes,
    means: cell.means,
    ...(cell.sim
      ? {
          simulation: {
            trials: cell.sim.trials,
            seed: cell.sim.seed,
            batches: cell.sim.batches,
            batchTrials: cell.sim.batchTrials,
            workers: cell.sim.workers,
            seconds: cell.sim.seconds,
            generator: cell.sim.generator,
            chunkSize: cell.sim.chunkSize,
            ...(cell.sim.reachedPrecision !== undefined ? { reachedPrecision: cell.sim.reachedPrecision } : {}),
          },
        }
      : {}),
    ...(cell.check ? { check: checkJson(cell.check) } : {}),
  };
}

export function dimensionsJson(sweep: SweepResult) {
  return sweep.dimensions.map((d) => ({ id: d.id, fields: d.fields, title: d.title, values: d.values.map((v) => ({ label: v.label, values: v.values })) }));
}

/** The document `sweep --format json` prints and reports store per analysis. */
export function sweepJson(sweep: SweepResult) {
  return {
    base: sweep.base,
    dimensions: dimensionsJson(sweep),
    outcomes: sweep.outcomes,
    cells: sweep.cells.map(cellJson),
    neighbours: neighbourDifferences(sweep),
    seconds: sweep.seconds,
    manifest: sweep.manifest,
  };
}

/** "16.9%" for an exact value, "16.9% ±0.2" for an estimate. */
export function valueText(o: { probability?: number; estimate?: number; ciLow?: number; ciHigh?: number }, digits = 1): string {
  if (o.probability !== undefined) return pct(o.probability, digits);
  if (o.estimate !== undefined) return `${pct(o.estimate, digits)} ±${((Math.max(o.estimate - o.ciLow!, o.ciHigh! - o.estimate) * 100).toFixed(digits))}`;
  return '';
}

export function cumulativeView(o: Cell['outcomes'][number]) {
  return {
    ...(o.orWorse !== undefined ? { probability: o.orWorse } : {}),
    ...(o.orWorseEstimate !== undefined ? { estimate: o.orWorseEstimate, ciLow: o.orWorseCiLow!, ciHigh: o.orWorseCiHigh! } : {}),
  };
}

/**
 * The plain-text table of a sweep: one row per cell, one column per outcome (or per "this or worse"),
 * the means, and when simulated a check column (exact and simulation agree, with the worst z-score).
 */
export function sweepTable(sweep: SweepResult, cumulative = false): string {
  const outcomes = cumulative ? sweep.outcomes.slice(1) : sweep.outcomes;
  const means = sweep.cells[0]!.means.map((m) => m.label);
  const checked = sweep.cells.some((c) => c.check);
  const headers = [
    ...sweep.dimensions.map((d) => d.id),
    ...outcomes.map((o) => (cumulative ? orWorseLabel(o) : outcomeLabel(o))),
    ...means,
    ...(checked ? ['simulation check'] : []),
  ];
  const rows = sweep.cells.map((cell) => {
    const byId = new Map(cell.outcomes.map((o) => [o.outcome, o]));
    return [
      ...cell.labels,
      ...outcomes.map((id) => {
        const o = byId.get(id);
        if (!o) return '-';
        return valueText(cumulative ? cumulativeView(o) : o);
      }),
      ...cell.means.map((m) => (m.value !== undefined ? m.value.toFixed(3) : m.estimate !== undefined ? m.estimate.toFixed(3) : '')),
      ...(checked ? [cell.check ? `${cell.check.passed ? 'agrees' : 'DISAGREES'} (max |z| ${worstZ(cell.check).toFixed(1)})` : ''] : []),
    ];
  });
  const right = headers.map((_, i) => i >= sweep.dimensions.length);
  const m = sweep.manifest;
  const lines = [
    `${m.system} ${m.kind}, edition ${m.editions.join(', ')}: ${sweep.cells.length} cells (${sweep.dimensions.map((d) => `${d.id} x${d.values.length}`).join(', ')})`,
    m.simulation
      ? `exact${m.exact ? '' : ' (off)'} and simulated: ${m.simulation.trialsPerCell.join('/')} trials per cell, seed ${m.simulation.seed}, ${m.simulation.batches} batch(es)${m.simulation.commonRandomNumbers ? ', common random numbers' : ', independent seeds'}`
      : 'exact',
    '',
    renderTable(headers, rows, right),
  ];
  return lines.join('\n') + '\n';
}
