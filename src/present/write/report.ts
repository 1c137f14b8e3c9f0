import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chartTitle } from '../chart/charts.js';
import { PIPED_DEFINITION, matrixFile, reportHtml } from '../report/page.js';
import { wideCsv } from '../tables/wide-csv.js';
import { claimReportFolder, type FolderClaim } from './output-folder.js';
import type { ReportRun } from '../report/result.js';
import { neighbourDifferences } from '../../analysis/sweep.js';
import { csvText, tidyCsv } from '../tables/csv.js';
import { dimensionsJson, gridCellJson } from '../tables/sweep.js';
import { inGridOrder } from '../../analysis/not-allowed.js';
import { jsonText } from '../../text.js';
import { STANDARD_INPUT } from '../../json-text.js';
import { findingOf } from '../tables/findings.js';
import type { PriceRun } from '../report/result.js';
import { BATTLE_PRICE_CSV_HEADER, battlePriceCsvRows, battlePriceJson } from '../tables/battle-price.js';
import { PRICE_CSV_HEADER, priceCsvRows, priceJson } from '../tables/price.js';

/** results.json: everything the page shows, as data. */
export function reportJson(run: ReportRun) {
  return {
    report: { id: run.def.id, title: run.def.title, description: run.def.description, file: run.def.file },
    manifest: run.manifest,
    analyses: run.analyses.map((a) => ({
      id: a.def.id,
      title: a.def.title,
      description: a.def.description,
      // The page's one-sentence finding, absent when no cell has a value to read.
      ...optionalFinding(findingOf(a.sweep)),
      scenario: a.def.base,
      dimensions: dimensionsJson(a.sweep),
      outcomes: a.sweep.outcomes,
      ...(a.def.sim ? { simulate: a.def.sim } : {}),
      // What a chart could not show (items it skipped, and why), as the page says it under the chart.
      charts: a.charts.map((c) => ({ type: c.def.type, file: c.def.file, title: chartTitle(c.spec), ...(c.notes.length ? { notes: c.notes } : {}) })),
      // Every cell of the grid: those the rules forbid are marked "allowed": false, with their reason.
      cells: inGridOrder(a.sweep.cells, a.sweep.notAllowed).map(gridCellJson),
      neighbours: neighbourDifferences(a.sweep),
    })),
    // The price analyses, as `price --format json` gives them, each with its place in the definition's list.
    ...(run.prices.length > 0
      ? { prices: run.prices.map((p) => ({ id: p.def.id, title: p.def.title, description: p.def.description, at: p.def.at, settings: p.def.settings, chart: { file: p.chart.file, title: chartTitle(p.chart.spec), ...(p.chart.notes.length ? { notes: p.chart.notes } : {}) }, ...pricedJson(p) })) }
      : {}),
  };
}

/** A price as `price --format json` gives it (`price --by battles` for prices from battles): its context and its result. */
function pricedJson(p: PriceRun) {
  if (p.by === 'battles') {
    const { result, ...context } = p.priced;
    return battlePriceJson(result, context);
  }
  const { result, ...context } = p.priced;
  return priceJson(result, context);
}

/** prices.csv: every price analysis from duels, its entries most mispriced first, each row with its report and analysis id. */
export function pricesCsv(run: ReportRun): string {
  const rows: unknown[][] = [['report', 'analysis', ...PRICE_CSV_HEADER]];
  for (const p of run.prices) if (p.by === 'duels') for (const row of priceCsvRows(p.priced.result)) rows.push([run.def.id, p.def.id, ...row]);
  return csvText(rows);
}

/** battle-prices.csv: every price analysis from battles, as prices.csv is for duels. */
export function battlePricesCsv(run: ReportRun): string {
  const rows: unknown[][] = [['report', 'analysis', ...BATTLE_PRICE_CSV_HEADER]];
  for (const p of run.prices) if (p.by === 'battles') for (const row of battlePriceCsvRows(p.priced.result)) rows.push([run.def.id, p.def.id, ...row]);
  return csvText(rows);
}

const optionalFinding = (finding: string | undefined) => (finding !== undefined ? { finding } : {});

/** results.csv: the tidy CSV of every analysis, each row with its report and analysis id. */
export function reportCsv(run: ReportRun): string {
  return tidyCsv(run.analyses.map((a) => ({ report: run.def.id, analysis: a.def.id, sweep: a.sweep })));
}

/**
 * Writes the report folder: index.html, results.csv, results.json, matrices/ANALYSIS.csv and charts/NAME.vl.json|svg|png, and
 * the ownership file that lets a later run replace them. All of it is written into a hidden folder
 * inside the target first and swapped in at the end (see output-folder.ts for when a folder may be
 * replaced). Given a path, the folder is checked and locked here; the CLI claims it before the run.
 */
export async function writeReport(run: ReportRun, target: string | FolderClaim): Promise<void> {
  const claim = typeof target === 'string' ? claimReportFolder(target) : target;
  try {
    await claim.replace((dir) => {
      mkdirSync(join(dir, 'charts'));
      for (const a of run.analyses) {
        for (const c of a.charts) {
          const base = join(dir, 'charts', c.def.file);
          writeFileSync(`${base}.vl.json`, JSON.stringify(c.spec, null, 2) + '\n');
          writeFileSync(`${base}.svg`, c.rendered.svg);
          writeFileSync(`${base}.png`, c.rendered.png);
        }
      }
      for (const { chart } of run.prices) {
        const base = join(dir, 'charts', chart.file);
        writeFileSync(`${base}.vl.json`, JSON.stringify(chart.spec, null, 2) + '\n');
        writeFileSync(`${base}.svg`, chart.rendered.svg);
        writeFileSync(`${base}.png`, chart.rendered.png);
      }
      writeFileSync(join(dir, 'results.csv'), reportCsv(run));
      // Each analysis's grid also as the matrix a spreadsheet user pastes (its default outcome, as sweep --wide).
      if (run.analyses.length > 0) mkdirSync(join(dir, 'matrices'));
      for (const a of run.analyses) writeFileSync(join(dir, matrixFile(a.def.id)), wideCsv(a.sweep, {}).text);
      writeFileSync(join(dir, 'results.json'), jsonText(reportJson(run)));
      if (run.prices.some((p) => p.by === 'duels')) writeFileSync(join(dir, 'prices.csv'), pricesCsv(run));
      if (run.prices.some((p) => p.by === 'battles')) writeFileSync(join(dir, 'battle-prices.csv'), battlePricesCsv(run));
      writeFileSync(join(dir, 'index.html'), reportHtml(run));
      // A definition piped in exists nowhere else: the report keeps it, so it can be made again.
      if (run.def.file === STANDARD_INPUT) writeFileSync(join(dir, PIPED_DEFINITION), run.def.source);
    });
  } finally {
    if (typeof target === 'string') claim.release();
  }
}
