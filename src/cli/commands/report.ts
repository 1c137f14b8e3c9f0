import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { checkBooleanFlag, dashPositional } from '../args.js';
import { UsageError, showValue } from '../../errors.js';
import { refusal } from '../../messages.js';
import { fileKind, readJsonStdin } from '../../json-input.js';
import { loadReportDef, parseReportText, reportIdFor, reportIdOf, reportJsonSchema, type ReportDef } from '../../present/report/definition.js';
import { claimBatchFolder, claimReportFolder, type FolderClaim } from '../../present/write/output-folder.js';
import { indexHtml } from '../../present/report/page.js';
import type { AnalysisRun, PriceRun } from '../../present/report/run.js';
import { compact, timeLeft } from '../../text.js';
import { withRunControls } from '../sim-controls.js';
import { parseSimFlags } from '../sim-options.js';
import { queueOf, queueOptionDeclaration, withRemote } from '../queue-option.js';
import { terminalSafe } from '../../terminal-safe.js';
import { skippedLines } from '../../present/tables/sweep.js';

/**
 * The report definitions in a folder: every *.json except schemas, in name order. Each name becomes an
 * output folder OUT/ID/, so unsafe names, broken links and *.json entries that are not regular files
 * (folders, FIFOs, ...) are refused, not skipped: a report must not vanish from the index unnoticed.
 */
function definitionsIn(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    throw refusal('--all', `${showValue(dir)} ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read'}`, 'allowed: a folder of report definitions');
  }
  const chosen = entries.filter((d) => d.name.endsWith('.json') && !d.name.endsWith('.schema.json')).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byId = new Map<string, string>();
  const files = chosen.map((d) => {
    const f = join(dir, d.name);
    let id: string;
    try {
      id = reportIdOf(f);
    } catch (e) {
      if (e instanceof UsageError) throw refusal('--all', e.message);
      throw e;
    }
    // Case-insensitive file systems (macOS, Windows) would write both into one folder.
    const twin = byId.get(id.toLowerCase());
    if (twin !== undefined) throw refusal('--all', `${showValue(twin)} and ${showValue(f)} differ only in case`, 'each report needs its own output folder name');
    byId.set(id.toLowerCase(), f);
    let st: Stats;
    try {
      st = statSync(f);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && d.isSymbolicLink()) throw refusal('--all', `${showValue(f)} is a broken link`);
      throw refusal('--all', `${showValue(f)} cannot be read (${code ?? 'error'})`);
    }
    if (!st.isFile()) throw refusal('--all', `${showValue(f)} is not a regular file (it is ${fileKind(st)})`, 'allowed: report definitions (*.json)');
    return f;
  });
  if (files.length === 0) throw refusal('--all', `${showValue(dir)} holds no report definitions (*.json)`);
  return files;
}

/** Below this an analysis is quick enough that a count of its cells would only flicker. */
const SHOW_CELLS_AFTER_MS = 1000;
const REDRAW_CELLS_EVERY_MS = 100;

export interface CellProgress {
  /** `what` names the analysis ("trench-armour [1/2] injury"); each new one waits its own second. */
  update(what: string, done: number, total: number): void;
  clear(): void;
}

/**
 * Cells done within one analysis (or sweep), redrawn in place with \r: an analysis of thousands of
 * cells, a catalogue's weapons against its models, runs for minutes between two progress lines. Cells,
 * not trials, so not sim-controls' progressBar. Undefined when the stream is not a terminal: a log or a
 * pipe gets the progress lines only.
 */
export function cellProgress(stream: NodeJS.WriteStream, showAfterMs = SHOW_CELLS_AFTER_MS): CellProgress | undefined {
  if (!stream.isTTY) return undefined;
  let current = '';
  let started = 0;
  let lastDraw = 0;
  let drawn = false;
  return {
    update(what, done, total) {
      const now = performance.now();
      if (what !== current) {
        current = what;
        started = now;
      }
      if (now - started < showAfterMs || now - lastDraw < REDRAW_CELLS_EVERY_MS) return;
      lastDraw = now;
      drawn = true;
      const count = (n: number) => n.toLocaleString('en-GB');
      const left = timeLeft(now - started, done, total);
      stream.write(`\r${terminalSafe(what)}: ${count(done)} / ${count(total)} cells (${Math.floor((100 * done) / total)}%${left ? `, ${left}` : ''})\x1b[K`);
    },
    clear() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

function progressLine(report: ReportDef, a: AnalysisRun, i: number, total: number): string {
  const sims = a.sweep.cells.reduce((n, c) => n + (c.sim?.trials ?? 0), 0);
  const what = [a.sweep.exact ? 'exact' : '', sims > 0 ? `${compact(sims)} simulated trials` : ''].filter(Boolean).join(' + ');
  const checked = a.sweep.cells.filter((c) => c.check);
  const failed = checked.filter((c) => !c.check!.passed).length;
  const check = checked.length ? (failed ? `, SIMULATION DISAGREES in ${failed} cells` : ', simulation agrees') : '';
  return `${report.id} [${i + 1}/${total}] ${a.def.id}: ${a.sweep.cells.length} cells, ${what}, ${a.charts.length} charts${check} (${a.seconds.toFixed(1)} s)\n`;
}

function pricedLine(report: ReportDef, p: PriceRun, i: number, total: number): string {
  const how = p.by === 'duels' ? `${2 * p.priced.result.matrix.pairs.length} exact duels` : `${compact(p.priced.result.battles)} battles at ${p.priced.result.ducats} ducats`;
  return `${report.id} [${i + 1}/${total}] ${p.def.id}: fair prices of ${p.priced.result.entries.length} entries, ${how} (${p.seconds.toFixed(1)} s)\n`;
}

export const reportCommand: CommandModule = {
  command: 'report [definition]',
  describe: 'Run a batch report (reports/NAME.json) into a folder: index.html, results.csv, results.json, charts',
  builder: (y) =>
    y
      .positional('definition', { type: 'string', describe: 'Report definition JSON file, or - to read it from standard input (its files relative to the working folder)' })
      .option('all', { type: 'string', describe: 'Run every report definition in this folder, each into OUT/NAME/' })
      .option('out', {
        type: 'string',
        describe: 'Output folder. Created if missing; replaced when the report is complete, only if it is empty or holds nothing but an earlier report',
      })
      .option('force', { type: 'boolean', describe: 'Replace an earlier report even if its files were changed since it was written (never a folder holding files injury-lab did not write)', default: false })
      .option('workers', { type: 'string', describe: 'Worker threads for simulated analyses (default: the number of cores)' })
      .option('queue', queueOptionDeclaration)
      .option('check-only', { type: 'boolean', describe: 'Only check the definitions; compute and write nothing', default: false })
      .option('strict', { type: 'boolean', describe: 'Refuse a definition with a cell the rules forbid (machine armour with a shield, a fall in the playtest) instead of showing it as "not allowed"', default: false })
      .option('schema', { type: 'boolean', describe: 'Print the JSON Schema of report definitions and exit', default: false })
      .example('$0 report reports/trench-armour.json --out out/trench-armour', 'one report')
      .example('$0 report --all reports --out out', 'every report (what npm start runs)')
      .example('$0 report - --out out/falls < reports/trench-falls.json', 'a definition on standard input (a pipe): named after its folder, which keeps a copy of it'),
  handler: async (argv) => {
    if (argv.schema) {
      process.stdout.write(JSON.stringify(reportJsonSchema, null, 2) + '\n');
      return;
    }
    const all = typeof argv.all === 'string' ? argv.all : undefined;
    checkBooleanFlag('strict');
    const single = dashPositional() ? '-' : typeof argv.definition === 'string' ? argv.definition : undefined;
    if (all !== undefined && single !== undefined) throw refusal('', 'give a definition file or --all FOLDER, not both');
    if (all === undefined && single === undefined) throw refusal('', 'name a report definition (reports/NAME.json) or --all FOLDER');
    const out = typeof argv.out === 'string' ? argv.out : undefined;
    if (!out && !argv['check-only']) throw refusal('--out', 'name the output folder, e.g. --out out/NAME');
    const workers = argv.workers === undefined ? undefined : parseSimFlags({ trials: '1', seed: '1', workers: argv.workers }).workers;
    const queue = queueOf(argv);

    // Every definition is checked before anything runs: a typo in the third report costs seconds, not minutes.
    // Checking plans every cell, and a catalogue's thousands take a while: a count on a terminal.
    const progress = cellProgress(process.stderr);
    const files = all !== undefined ? definitionsIn(all) : [single!];
    const piped = single === '-' ? await readJsonStdin(process.stdin, 'a report definition') : undefined;
    let defs: ReportDef[];
    try {
      defs = files.map((f) => {
        const id = piped ? reportIdFor(out) : reportIdOf(f);
        const opts = { ...(progress ? { onPlan: (a: string, done: number, n: number) => progress.update(`${id} ${a}: checking`, done, n) } : {}), strict: argv.strict === true };
        return piped ? parseReportText(piped, id, opts) : loadReportDef(f, opts);
      });
    } finally {
      progress?.clear();
    }
    for (const d of defs) {
      for (const a of d.analyses) for (const line of skippedLines(a.dimensions, { cells: a.planned, notAllowed: a.notAllowed })) process.stderr.write(`${terminalSafe(`${d.id} ${a.id}: ${line}`)}\n`);
    }
    if (argv['check-only']) {
      for (const d of defs) process.stdout.write(`${terminalSafe(d.file)}: ok (${d.analyses.length} analyses, ${d.analyses.reduce((n, a) => n + a.cells, 0)} cells${d.prices.length ? `; ${d.prices.length} of fair prices` : ''})\n`);
      return;
    }
    // --out is checked and locked before any work starts: a mistake there costs nothing, and no
    // file of the user's is ever replaced (see src/present/write/output-folder.ts for the rules).
    const force = argv.force === true;
    // The definitions, the variant and profiles files they read, and the --all folder: no --out may replace them.
    const inputs = [...defs.flatMap((d) => [...(piped ? [] : [d.file]), ...d.inputs]), ...(all !== undefined ? [all] : [])];
    const batch = all !== undefined ? claimBatchFolder(out!, { force, inputs }) : undefined;
    const claims: FolderClaim[] = [];
    try {
      for (const def of defs) claims.push(batch ? batch.claimReport(def.id, inputs) : claimReportFolder(out!, { force, inputs }));
      const started = performance.now();
      // vega and resvg load only for commands that draw charts.
      const { reportDate, runReport } = await import('../../present/report/run.js');
      const { writeReport } = await import('../../present/write/report.js');
      await withRunControls(async ({ signal }) => {
        try {
          await withRemote(queue, async (remote) => {
            for (const [i, def] of defs.entries()) {
              const claim = claims[i]!;
              const run = await runReport(def, {
                signal,
                ...(workers ? { workers } : {}),
                ...(remote ? { player: remote, solver: remote } : {}),
                onAnalysis: (a, j, n) => {
                  progress?.clear();
                  process.stderr.write(progressLine(def, a, j, n));
                },
                onPriced: (p, j, n) => {
                  progress?.clear();
                  process.stderr.write(pricedLine(def, p, j, n));
                },
                ...(progress ? { onDuel: (p, done, n) => progress.update(`${def.id} ${p.id}: ${p.settings.by === 'battles' ? 'match-ups of battles' : 'exact duels'}`, done, n) } : {}),
                ...(progress
                  ? { onCell: (a, done, n) => progress.update(`${def.id} [${def.analyses.indexOf(a) + 1}/${def.analyses.length}] ${a.id}`, done, n) }
                  : {}),
              });
              signal.throwIfAborted();
              await writeReport(run, claim);
              process.stdout.write(`${def.id}: ${terminalSafe(join(claim.given, 'index.html'))}\n`);
            }
          });
        } finally {
          // Before Ctrl-C's exit too: the shell's prompt must not land on a half-drawn count.
          progress?.clear();
        }
      });
      if (batch) {
        batch.writeIndex(indexHtml(defs.map((d) => ({ id: d.id, title: d.title, description: d.description })), reportDate()));
        process.stdout.write(`all reports: ${terminalSafe(join(out!, 'index.html'))}\n`);
      }
      process.stderr.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s; open ${terminalSafe(join(out!, 'index.html'))} in a browser\n`);
    } finally {
      for (const c of claims) c.release();
      batch?.release();
    }
  },
};
