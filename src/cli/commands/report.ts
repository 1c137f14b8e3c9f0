import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { UsageError, showValue } from '../../errors.js';
import { loadReportDef, reportJsonSchema, type ReportDef } from '../../report/definition.js';
import { writeFileAtomic } from '../../report/files.js';
import { indexHtml } from '../../report/html.js';
import type { AnalysisRun } from '../../report/run-report.js';
import { compact, withRunControls } from '../sim-controls.js';
import { parseSimFlags } from '../sim-options.js';

/** The report definitions in a folder: every *.json except schemas, in name order. */
function definitionsIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new UsageError(`--all: ${showValue(dir)} ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read'}; allowed: a folder of report definitions`);
  }
  const files = names
    .filter((n) => n.endsWith('.json') && !n.endsWith('.schema.json'))
    .sort()
    .map((n) => join(dir, n))
    .filter((f) => statSync(f).isFile());
  if (files.length === 0) throw new UsageError(`--all: ${showValue(dir)} holds no report definitions (*.json)`);
  return files;
}

function progressLine(report: ReportDef, a: AnalysisRun, i: number, total: number): string {
  const sims = a.sweep.cells.reduce((n, c) => n + (c.sim?.trials ?? 0), 0);
  const what = [a.sweep.exact ? 'exact' : '', sims > 0 ? `${compact(sims)} simulated trials` : ''].filter(Boolean).join(' + ');
  const checked = a.sweep.cells.filter((c) => c.check);
  const failed = checked.filter((c) => !c.check!.passed).length;
  const check = checked.length ? (failed ? `, SIMULATION DISAGREES in ${failed} cells` : ', simulation agrees') : '';
  return `${report.id} [${i + 1}/${total}] ${a.def.id}: ${a.sweep.cells.length} cells, ${what}, ${a.charts.length} charts${check} (${a.seconds.toFixed(1)} s)\n`;
}

export const reportCommand: CommandModule = {
  command: 'report [definition]',
  describe: 'Run a batch report (reports/NAME.json) into a folder: index.html, results.csv, results.json, charts',
  builder: (y) =>
    y
      .positional('definition', { type: 'string', describe: 'Report definition JSON file' })
      .option('all', { type: 'string', describe: 'Run every report definition in this folder, each into OUT/NAME/' })
      .option('out', { type: 'string', describe: 'Output folder (replaced whole when the report is complete)' })
      .option('workers', { type: 'string', describe: 'Worker threads for simulated analyses (default: the number of cores)' })
      .option('check-only', { type: 'boolean', describe: 'Only check the definitions; compute and write nothing', default: false })
      .option('schema', { type: 'boolean', describe: 'Print the JSON Schema of report definitions and exit', default: false })
      .example('$0 report reports/trench-armour.json --out out/trench-armour', 'one report')
      .example('$0 report --all reports --out out', 'every report (what npm start runs)'),
  handler: async (argv) => {
    if (argv.schema) {
      process.stdout.write(JSON.stringify(reportJsonSchema, null, 2) + '\n');
      return;
    }
    const all = typeof argv.all === 'string' ? argv.all : undefined;
    const single = typeof argv.definition === 'string' ? argv.definition : undefined;
    if (all !== undefined && single !== undefined) throw new UsageError('give a definition file or --all FOLDER, not both');
    if (all === undefined && single === undefined) throw new UsageError('name a report definition (reports/NAME.json) or --all FOLDER');
    const out = typeof argv.out === 'string' ? argv.out : undefined;
    if (!out && !argv['check-only']) throw new UsageError('--out: name the output folder, e.g. --out out/NAME');
    const workers = argv.workers === undefined ? undefined : parseSimFlags({ trials: '1', seed: '1', workers: argv.workers }).workers;

    // Every definition is checked before anything runs: a typo in the third report costs seconds, not minutes.
    const defs = (all !== undefined ? definitionsIn(all) : [single!]).map(loadReportDef);
    if (argv['check-only']) {
      for (const d of defs) process.stdout.write(`${d.file}: ok (${d.analyses.length} analyses, ${d.analyses.reduce((n, a) => n + a.cells, 0)} cells)\n`);
      return;
    }
    const started = performance.now();
    // vega and resvg load only for commands that draw charts.
    const { reportDate, runReport, writeReport } = await import('../../report/run-report.js');
    await withRunControls(async ({ signal }) => {
      for (const def of defs) {
        const target = all !== undefined ? join(out!, def.id) : out!;
        const run = await runReport(def, {
          signal,
          ...(workers ? { workers } : {}),
          onAnalysis: (a, i, n) => process.stderr.write(progressLine(def, a, i, n)),
        });
        signal.throwIfAborted();
        await writeReport(run, target);
        process.stdout.write(`${def.id}: ${join(target, 'index.html')}\n`);
      }
    });
    if (all !== undefined) {
      const date = reportDate();
      const index = join(out!, 'index.html');
      writeFileAtomic(index, indexHtml(defs.map((d) => ({ id: d.id, title: d.title, description: d.description })), date));
      process.stdout.write(`all reports: ${index}\n`);
    }
    process.stderr.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s; open ${join(out!, 'index.html')} in a browser\n`);
  },
};
