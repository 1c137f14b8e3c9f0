import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { toolVersion } from '../../version.js';
import { chartNotes, chartSpec, sameDefaultTitle } from '../chart/charts.js';
import type { ChartDef } from '../chart/definition.js';
import { heatmapTop, sharedScaleKey } from '../chart/heatmap.js';
import type { ChartOptions } from '../chart/shared/titles.js';
import type { AnalysisDef, PriceAnalysisDef, ReportDef } from './definition.js';
import { renderChart } from './render.js';
import type { AnalysisRun, ChartRun, PriceRun, ReportManifest, ReportRun } from './result.js';
import { priceOfSettings } from '../../pricing/price-run.js';
import { priceChartSpec } from '../chart/price.js';
import { battlePriceChartSpec } from '../chart/battle-price.js';
import { battlePriceOfSettings } from '../../pricing/battle-price-run.js';
import { defaultWorkers } from '../../pool/threads.js';
import type { VlSpec } from '../chart/definition.js';
import { runSweep } from '../../analysis/sweep.js';
import type { ChunkPlayer } from '../../pool/simulate.js';
import { exactThreads, type ExactSolver } from '../../pool/exact.js';

export type { AnalysisRun, ChartRun, PriceRun, ReportManifest, ReportRun } from './result.js';

export interface RunOptions {
  readonly workers?: number;
  /** Where simulated cells are played: the local pool unless given (a Redis queue's workers, `--queue`). */
  readonly player?: ChunkPlayer;
  /** Where exact cells are solved: this process's exact threads unless given (a Redis queue's workers). */
  readonly solver?: ExactSolver;
  readonly signal?: AbortSignal;
  /** Called when an analysis is finished: a progress line. */
  readonly onAnalysis?: (done: AnalysisRun, index: number, total: number) => void;
  /** Called when a price analysis is finished: a progress line. */
  readonly onPriced?: (done: PriceRun, index: number, total: number) => void;
  /** Called after each exact duel (or match-up of battles) of a price analysis. */
  readonly onDuel?: (analysis: PriceAnalysisDef, done: number, total: number) => void;
  /** Called after each cell of an analysis: progress within an analysis of thousands of cells. */
  readonly onCell?: (analysis: AnalysisDef, done: number, total: number) => void;
  /**
   * Draw each chart's PNG too (the default). The tests of the charts' specs and SVG leave it out: resvg
   * drawing every shipped chart is a third of their time, and a few charts show the PNG is right.
   */
  readonly png?: boolean;
}

export function reportDate(): string {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const d = epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Computes every analysis and draws every chart, in memory: nothing is written here. */
export async function runReport(def: ReportDef, opts: RunOptions = {}): Promise<ReportRun> {
  const started = performance.now();
  const analyses: AnalysisRun[] = [];
  const charted: { sweep: AnalysisRun['sweep']; def: ChartDef; opts: ChartOptions; into: ChartRun[]; at: number }[] = [];
  const draw = async (sweep: AnalysisRun['sweep'], c: ChartDef, chartOpts: ChartOptions): Promise<ChartRun> => {
    const spec = chartSpec(sweep, c, chartOpts);
    return { def: c, spec, rendered: await renderChart(spec, { png: opts.png ?? true }), notes: chartNotes(sweep, c) };
  };
  for (const [i, a] of def.analyses.entries()) {
    const t0 = performance.now();
    const sweep = await runSweep({
      base: a.base,
      vary: a.vary,
      exact: a.exact,
      ...(a.sim ? { sim: { ...a.sim, ...(opts.workers ? { workers: opts.workers } : {}) } } : {}),
      // The cells as the definition checked them: thousands of a catalogue's cells are not planned twice.
      planned: { dimensions: a.dimensions, cells: a.planned, notAllowed: a.notAllowed },
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.player ? { player: opts.player } : {}),
      ...(opts.solver ? { solver: opts.solver } : {}),
      ...(opts.onCell ? { onCell: (done: number, total: number) => opts.onCell!(a, done, total) } : {}),
    });
    const charts: ChartRun[] = [];
    for (const c of a.charts) {
      opts.signal?.throwIfAborted();
      // A chart whose twin in another analysis would carry the same title is told apart by its analysis.
      const twinned = def.analyses.some((other) => other !== a && other.charts.some((o) => sameDefaultTitle(o, c)));
      const chartOpts = twinned ? { qualifier: a.title } : {};
      charted.push({ sweep, def: c, opts: chartOpts, into: charts, at: charts.length });
      charts.push(await draw(sweep, c, chartOpts));
    }
    const run = { def: a, sweep, charts, seconds: (performance.now() - t0) / 1000 };
    analyses.push(run);
    opts.onAnalysis?.(run, i, def.analyses.length + def.prices.length);
  }
  const prices: PriceRun[] = [];
  for (const p of def.prices) {
    opts.signal?.throwIfAborted();
    const t0 = performance.now();
    // Its duels go where the grids' exact cells go: the exact threads, or a queue's hosts (--queue);
    // each duel in their hands listens to the one signal.
    if (opts.signal) setMaxListeners(0, opts.signal);
    const onProgress = opts.onDuel ? { onProgress: (done: number, total: number) => opts.onDuel!(p, done, total) } : {};
    const signal = opts.signal ? { signal: opts.signal } : {};
    // One chart per price: fair against current price, and every pair's share (chart/price.ts, chart/battle-price.ts).
    const draw = async (spec: VlSpec, notes: string[]) => ({ file: p.chartFile, spec, rendered: await renderChart(spec, { png: opts.png ?? true }), notes });
    let run: PriceRun;
    if (p.settings.by === 'battles') {
      // Its battles go where the grids' simulations go: the local threads, or a queue's hosts.
      const priced = await battlePriceOfSettings(p.settings, { ...(opts.player ? { player: opts.player } : { workers: opts.workers ?? defaultWorkers() }), ...signal, ...onProgress });
      const { result, ...context } = priced;
      const { spec, notes } = battlePriceChartSpec(result, context);
      run = { by: 'battles', def: p, priced, chart: await draw(spec, notes), seconds: (performance.now() - t0) / 1000 };
    } else {
      const priced = await priceOfSettings(p.settings, { solver: opts.solver ?? exactThreads, ...signal, ...onProgress });
      const { result, ...context } = priced;
      const { spec, notes } = priceChartSpec(result, context);
      run = { by: 'duels', def: p, priced, chart: await draw(spec, notes), seconds: (performance.now() - t0) / 1000 };
    }
    prices.push(run);
    opts.onPriced?.(run, def.analyses.length + prices.length - 1, def.analyses.length + def.prices.length);
  }
  // Heat maps of one outcome share the scale of the highest of them, known only now: those below it are drawn again.
  const tops = charted.map((c) => (sharedScaleKey(c.def) !== undefined && c.def.type === 'heatmap' ? heatmapTop(c.sweep, c.def) : 0));
  for (const [k, c] of charted.entries()) {
    const key = sharedScaleKey(c.def);
    if (key === undefined) continue;
    const shared = Math.max(...charted.map((o, j) => (sharedScaleKey(o.def) === key ? tops[j]! : 0)));
    if (shared <= tops[k]!) continue;
    opts.signal?.throwIfAborted();
    c.into[c.at] = await draw(c.sweep, c.def, { ...c.opts, scaleTop: shared });
  }
  const manifest: ReportManifest = {
    tool: 'injury-lab',
    version: toolVersion,
    date: reportDate(),
    node: process.version,
    definition: { file: def.file, sha256: createHash('sha256').update(def.source).digest('hex') },
    systems: [...new Set([...analyses.map((a) => a.sweep.manifest.system), ...prices.map((p) => p.priced.system)])],
    editions: [...new Set([...analyses.flatMap((a) => a.sweep.manifest.editions), ...prices.map((p) => p.priced.edition)])],
    ruleSources: [...new Set(analyses.flatMap((a) => a.sweep.manifest.ruleSources))],
    analyses: analyses.map((a) => {
      const m = a.sweep.manifest;
      return {
        id: a.def.id,
        kind: m.kind,
        editions: m.editions,
        cells: a.sweep.cells.length + a.sweep.notAllowed.length,
        ...(a.sweep.notAllowed.length ? { notAllowed: a.sweep.notAllowed.length } : {}),
        exact: m.exact,
        ...(m.simulation
          ? {
              simulation: {
                seed: m.simulation.seed,
                batches: m.simulation.batches,
                trialsPerCell: m.simulation.trialsPerCell,
                generator: m.simulation.generator,
                chunkSize: m.simulation.chunkSize,
                commonRandomNumbers: m.simulation.commonRandomNumbers,
              },
            }
          : {}),
      };
    }),
    prices: prices.map((p) =>
      p.by === 'duels'
        ? {
            id: p.def.id,
            kind: 'price' as const,
            by: 'duels' as const,
            edition: p.priced.edition,
            entries: p.priced.result.matrix.names.length,
            duels: 2 * p.priced.result.matrix.pairs.length,
            rounds: Number(p.priced.result.matrix.scenario.rounds),
            policy: p.priced.result.matrix.defaultPolicy,
          }
        : {
            id: p.def.id,
            kind: 'price' as const,
            by: 'battles' as const,
            edition: p.priced.edition,
            entries: p.priced.result.entries.length,
            battles: p.priced.result.battles,
            games: p.priced.result.games,
            ducats: p.priced.result.ducats,
            seed: p.priced.result.seed,
          },
    ),
  };
  return { def, analyses, prices, manifest, seconds: (performance.now() - started) / 1000 };
}
