import { chartTitle } from '../report/charts.js';
import type { ReportRun } from '../report/report-run.js';
import { neighbourDifferences } from '../report/sweep.js';
import { tidyCsv } from './csv.js';
import { cellJson, dimensionsJson } from './sweep.js';

/** results.json: everything the page shows, as data. */
export function reportJson(run: ReportRun) {
  return {
    report: { id: run.def.id, title: run.def.title, description: run.def.description, file: run.def.file },
    manifest: run.manifest,
    analyses: run.analyses.map((a) => ({
      id: a.def.id,
      title: a.def.title,
      description: a.def.description,
      scenario: a.def.base,
      dimensions: dimensionsJson(a.sweep),
      outcomes: a.sweep.outcomes,
      ...(a.def.sim ? { simulate: a.def.sim } : {}),
      charts: a.charts.map((c) => ({ type: c.def.type, file: c.def.file, title: chartTitle(c.spec) })),
      cells: a.sweep.cells.map(cellJson),
      neighbours: neighbourDifferences(a.sweep),
    })),
  };
}

/** results.csv: the tidy CSV of every analysis, each row with its report and analysis id. */
export function reportCsv(run: ReportRun): string {
  return tidyCsv(run.analyses.map((a) => ({ report: run.def.id, analysis: a.def.id, sweep: a.sweep })));
}
