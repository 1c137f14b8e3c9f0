import { builtinModules } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';
import { evaluateExact } from '../src/evaluate.js';
import { exactJson as cliExactJson } from '../src/present/tables/exact-json.js';
import { parseVariant } from '../src/input/variant.js';
import { UsageError } from '../src/errors.js';
import { runSweep } from '../src/analysis/sweep.js';
import { compareScenarios } from '../src/analysis/compare.js';
import { closeExactPool } from '../src/pool/exact.js';
import { comparePresenter as cliComparePresenter } from '../src/present/tables/compare.js';
import { sweepPresenter as cliSweepPresenter } from '../src/present/tables/sweep.js';
import {
  askedLine,
  chartSpec,
  compareChartSpec,
  compareInThread,
  comparePresenter,
  defaultCharts,
  evaluateParsed,
  exactChartSpec,
  exactJson,
  sweepInThread,
  findingOf,
  gridLayout,
  pageScenario,
  parseJsonText,
  scenarioCell,
  scenarioDimension,
  scenariosSweep,
  sweepChartSpec,
  sweepPresenter,
  type ChartDef,
  type ScenarioFiles,
  unopenedFiles,
} from '../src/web/engine.js';

/**
 * The web page bundles the engine (src/web/engine.ts) for the browser: the same modules the CLI runs,
 * none of them reaching Node (node:fs, node:path, ...). Bundled here as the page's build does; and in
 * Node, the engine's parser (another files reader) gives what the CLI's gives.
 */

const ENTRY = 'src/web/engine.ts';
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
/** The engine is about 1 MB unminified today (ajv, fast-xml-parser, the rules); 3 MB says something heavy came in. */
const MAX_BYTES = 3 * 1024 * 1024;

/**
 * The engine bundled once for the tests below (a build and its evaluation cost a second or two each): as
 * a script that leaves it in a global, as a worker's would be, and evaluated in a fresh context, which has
 * JavaScript's own globals only and the few given here that a browser and a worker have too.
 */
let bundled: Promise<{ result: Awaited<ReturnType<typeof bundle>>; engine: typeof import('../src/web/engine.js') }> | undefined;
const bundle = () => build({ entryPoints: [ENTRY], bundle: true, platform: 'browser', format: 'iife', globalName: 'engine', write: false, metafile: true, logLevel: 'silent' });
function bundledEngine() {
  bundled ??= bundle().then((result) => {
    const context: Record<string, unknown> = { console, performance, TextEncoder, TextDecoder, URL, queueMicrotask, setTimeout, clearTimeout };
    runInNewContext(`${result.outputFiles[0]!.text};globalThis.engine = engine;`, context);
    return { result, engine: context.engine as typeof import('../src/web/engine.js') };
  });
  return bundled;
}

describe('the engine bundles for a browser', () => {
  it('builds with no Node module among its inputs, and stays under 3 MB', async () => {
    const { result } = await bundledEngine();
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((i) => i.startsWith('node:') || builtins.has(i))).toEqual([]);
    const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(imports.filter((p) => p.startsWith('node:') || builtins.has(p))).toEqual([]);
    const bytes = result.outputFiles[0]!.contents.length;
    console.log(`src/web/engine.ts bundled: ${(bytes / 1e6).toFixed(2)} MB, ${inputs.length} inputs`);
    expect(bytes).toBeLessThan(MAX_BYTES);
  }, 60_000);

  it('loads and runs with none of Node\'s globals (no Buffer, no process): a sweep, its CSV and its chart', async () => {
    const { engine } = await bundledEngine();
    const sweep = await engine.sweepInThread({ kind: 'attack' }, ['armour=none,standard']);
    expect(sweep.cells).toHaveLength(2);
    expect(engine.sweepPresenter.csv({ sweep, cumulative: false })).toMatch(/^armour,/);
    expect(engine.sweepChartSpec(sweep)).toHaveProperty('$schema');
  }, 60_000);

  it('runs every path a page user can reach with none of Node\'s globals: rosters, catalogues, allow-unmodelled, variants, duels, sweeps, the matrix', async () => {
    const { engine } = await bundledEngine();
    // The files as a page holds them: bytes by name.
    const bytes = (path: string) => new Uint8Array(readFileSync(path));
    const shelf = new Map([
      ['ashen-pilgrims.ros', bytes('test/fixtures/rosters/ashen-pilgrims.ros')],
      ['pilgrim-system.gst', bytes('test/fixtures/rosters/pilgrim-system.gst')],
      ['ashen-pilgrims.cat', bytes('test/fixtures/rosters/ashen-pilgrims.cat')],
      ['ooa10.json', bytes('examples/variants/out-of-action-on-10.json')],
    ]);
    const told: string[] = [];
    const files = engine.openedFiles(shelf, { allowUnmodelled: 'tick "Allow unmodelled"', notice: (line) => told.push(line) });
    const exactOf = (raw: Record<string, unknown>) => engine.evaluateParsed(engine.pageScenario(raw, files)).outcomes.map((o) => o.exact);
    const cliOf = (raw: Record<string, unknown>) => evaluateExact(raw).outcomes.map((o) => o.exact);
    const roster = 'test/fixtures/rosters/ashen-pilgrims.ros';
    // A roster, with a weapon nothing fully models: refused in the page's words, then allowed, and the notice handed back as data.
    expect(() => engine.pageScenario({ kind: 'attack', roster: 'ashen-pilgrims.ros', weapon: 'Bell Hammer' }, files)).toThrow(/tick "Allow unmodelled" to leave it out/);
    expect(exactOf({ kind: 'attack', roster: 'ashen-pilgrims.ros', weapon: 'Bell Hammer', target: 'Bell Golem', allowUnmodelled: true })).toEqual(
      cliOf({ kind: 'attack', roster, weapon: 'Bell Hammer', target: 'Bell Golem', allowUnmodelled: true }),
    );
    expect(told).toEqual(['weapon "Bell Hammer": left out, not modelled: "Quake 2\\""']);
    // Catalogues read together, and a variant.
    expect(exactOf({ kind: 'attack', catalogue: ['pilgrim-system.gst', 'ashen-pilgrims.cat'], target: 'Lantern Warden', rules: 'ooa10.json' })).toEqual(
      cliOf({ kind: 'attack', catalogue: ['test/fixtures/rosters/pilgrim-system.gst', 'test/fixtures/rosters/ashen-pilgrims.cat'], target: 'Lantern Warden', rules: 'examples/variants/out-of-action-on-10.json' }),
    );
    // A duel between two of the roster's models, each with its weapon.
    const duel = { kind: 'duel', roster: 'ashen-pilgrims.ros', rounds: 2, a: { model: 'Bell Golem', weapon: 'Thornpike' }, b: { model: 'Lantern Warden' } };
    expect(exactOf(duel)).toEqual(cliOf({ ...duel, roster }));
    // A sweep, and the matrix of every weapon against every model with unmodelled tokens allowed.
    const sweep = await engine.sweepInThread({ kind: 'attack', roster: 'ashen-pilgrims.ros', allowUnmodelled: true }, ['armour=none,machine'], files);
    expect(sweep.cells).toHaveLength(2);
    const about = engine.describeOpened(shelf).find((f) => f.name === 'ashen-pilgrims.ros')!;
    const matrix = await engine.sweepInThread(
      { kind: 'attack', roster: 'ashen-pilgrims.ros', allowUnmodelled: true },
      [
        { field: 'weapon', values: [...about.weapons!] },
        { field: 'target', values: [...about.models!] },
      ],
      files,
    );
    expect(matrix.cells).toHaveLength(about.weapons!.length * about.models!.length);
  }, 60_000);
});

describe("the engine's parser gives the CLI's answers", () => {
  const scenarios: Record<string, unknown>[] = [
    {},
    { kind: 'attack', injuryDice: 1 },
    { kind: 'fall', heightInches: 6 },
    { system: 'd20-warband', kind: 'attack' },
    { system: 'd20-warband', kind: 'injury-roll' },
    { system: 'd20-warband', kind: 'fall' },
  ];
  for (const raw of scenarios) {
    it(`${JSON.stringify(raw)}: the same exact fractions and JSON`, () => {
      const cli = evaluateExact(raw);
      const page = evaluateParsed(pageScenario(raw));
      expect(page.outcomes.map((o) => o.exact)).toEqual(cli.outcomes.map((o) => o.exact));
      expect(exactJson(page)).toEqual(cliExactJson(cli));
    });
  }

  it('a variant file the page opened is read through its reader, as the CLI reads it from disk', () => {
    const path = 'examples/variants/out-of-action-on-10.json';
    const opened: ScenarioFiles = {
      ...unopenedFiles,
      variant: (p) => parseVariant(parseJsonText(readFileSync(p, 'utf8'), `variant file "${p}"`).value, `variant file "${p}"`, 'out-of-action-on-10'),
    };
    const raw = { rules: path };
    expect(exactJson(evaluateParsed(pageScenario(raw, opened)))).toEqual(cliExactJson(evaluateExact(raw)));
  });

  it('a file not opened in the page is refused in one line naming the field', () => {
    expect(() => pageScenario({ rules: 'x.json' })).toThrow(UsageError);
    expect(() => pageScenario({ rules: 'x.json' })).toThrow(/^rules: "x\.json" has not been opened in this page/);
    expect(() => pageScenario({ catalogue: ['a.cat', 'b.gst'] })).toThrow(/^catalogue: .*has not been opened in this page/);
  });
});

/** The CLI's command line (its main, in this process), writing a chart's Vega-Lite spec into a fresh folder. */
async function cliChart(args: string[]): Promise<{ spec: unknown; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'injury-lab-page-'));
  try {
    const file = join(dir, 'chart.vl.json');
    const r = await cliInProcess(...args, '--chart', file);
    expect(r.stderr).toMatch(/wrote /);
    expect(r.code).toBe(0);
    return { spec: JSON.parse(readFileSync(file, 'utf8')), stdout: r.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the engine's charts, comparisons and sweeps are the CLI's", () => {
  const oneScenario: [Record<string, unknown>, string[]][] = [
    [{ kind: 'attack', armour: 'reinforced', injuryDice: 1 }, ['--kind', 'attack', '--armour', 'reinforced', '--injury-dice', '1']],
    [{ kind: 'fall', heightInches: 6 }, ['--kind', 'fall', '--height-inches', '6']],
    [{ system: 'd20-warband', kind: 'attack' }, ['--system', 'd20-warband', '--kind', 'attack']],
  ];
  for (const [raw, flags] of oneScenario) {
    it(`${JSON.stringify(raw)}: the chart exact --chart draws`, async () => {
      const scenario = pageScenario(raw);
      const exact = evaluateParsed(scenario);
      const page = exactChartSpec(scenario, exact);
      expect(page).toEqual((await cliChart(['exact', ...flags])).spec);
      // Built by hand from the pieces: one scenario as a one-cell grid, the default chart of its dimension.
      const def = defaultCharts([scenarioDimension([scenario.kind], 'Scenario')], gridLayout([scenario]))[0]!;
      const bare = chartSpec(scenariosSweep([scenarioCell(scenario, scenario.kind, { exact })], 'Scenario'), { ...def, file: 'chart', context: askedLine(scenario), title: `Outcomes of one ${scenario.kind}` } as ChartDef);
      expect(bare).toEqual(page);
    }, 60_000);
  }

  it('a one-field sweep solved in the calling thread: the CLI sweep\'s cells, exact fractions, table, CSV, chart and finding', async () => {
    const base = { kind: 'attack' };
    const vary = ['armour=none,standard,reinforced,machine'];
    const page = await sweepInThread(base, vary);
    const cli = await runSweep({ base, vary });
    try {
      expect(page.cells.map((c) => c.labels)).toEqual(cli.cells.map((c) => c.labels));
      expect(page.cells.map((c) => c.outcomes)).toEqual(cli.cells.map((c) => c.outcomes));
      expect(page.cells.map((c) => c.exact!.outcomes.map((o) => o.exact))).toEqual(cli.cells.map((c) => c.exact!.outcomes.map((o) => o.exact)));
      expect(page.manifest).toEqual(cli.manifest);
      expect(sweepPresenter.table({ sweep: page, cumulative: false })).toEqual(cliSweepPresenter.table({ sweep: cli, cumulative: false }));
      expect(sweepPresenter.csv({ sweep: page, cumulative: false })).toEqual(cliSweepPresenter.csv({ sweep: cli, cumulative: false }));
      expect(findingOf(page)).toEqual(findingOf(cli));
      const shown = await cliChart(['sweep', '--kind', 'attack', '--vary', vary[0]!]);
      expect(sweepChartSpec(page)).toEqual(shown.spec);
      expect(sweepPresenter.table({ sweep: page, cumulative: false })).toEqual(shown.stdout);
    } finally {
      await closeExactPool();
    }
  }, 120_000);

  it("a simulated sweep and comparison in the calling thread: the CLI's counts, batch by batch, intervals and verdicts", async () => {
    // The page's grid worker plays the CLI's chunks in its own thread: the same seeds give the same counts.
    const base = { kind: 'attack', injuryDice: 1 };
    const vary = ['armour=none,reinforced'];
    const sim = { trials: 70_000, seed: 3, batches: 4 };
    const page = await sweepInThread(base, vary, undefined, { sim });
    const cli = await runSweep({ base, vary, sim });
    const inputs = [
      { name: 'standard', file: 'standard', raw: { kind: 'attack', armour: 'standard' } },
      { name: 'machine', file: 'machine', raw: { kind: 'attack', armour: 'machine' } },
    ];
    const pageCompare = await compareInThread(inputs, undefined, { sim });
    const cliCompare = await compareScenarios(inputs, { sim });
    try {
      expect(page.cells.map((c) => c.sim!.batchCounts.map((b) => [...b]))).toEqual(cli.cells.map((c) => c.sim!.batchCounts.map((b) => [...b])));
      expect(page.cells.map((c) => [...c.sim!.tally])).toEqual(cli.cells.map((c) => [...c.sim!.tally]));
      expect(sweepPresenter.csv({ sweep: page, cumulative: false })).toEqual(cliSweepPresenter.csv({ sweep: cli, cumulative: false }));
      expect(comparePresenter.table(pageCompare)).toEqual(cliComparePresenter.table(cliCompare));
      expect(pageCompare.scenarios.map((s) => [...s.cell.sim!.tally])).toEqual(cliCompare.scenarios.map((s) => [...s.cell.sim!.tally]));
    } finally {
      await closeExactPool();
    }
  }, 120_000);

  it('two scenarios compared in the calling thread: the CLI\'s rows, verdicts, table and chart', async () => {
    const inputs = [
      // Named as the CLI names scenarios given by their fields.
      { name: 'armour=reinforced', file: 'armour=reinforced', raw: { kind: 'attack', armour: 'reinforced', injuryDice: 1 } },
      { name: 'armour=machine', file: 'armour=machine', raw: { kind: 'attack', armour: 'machine', injuryDice: 1 } },
    ];
    const page = await compareInThread(inputs);
    const cli = await compareScenarios(inputs);
    try {
      expect(page.rows.flatMap((r) => r.versus.map((v) => v.verdict))).toEqual(cli.rows.flatMap((r) => r.versus.map((v) => v.verdict)));
      expect(page.cumulativeRows).toEqual(cli.cumulativeRows);
      expect(comparePresenter.table(page)).toEqual(cliComparePresenter.table(cli));
      expect(comparePresenter.json(page)).toEqual(cliComparePresenter.json(cli));
      const shown = await cliChart(['compare', 'armour=reinforced', 'armour=machine', '--kind', 'attack', '--injury-dice', '1']);
      expect(compareChartSpec(page)).toEqual(shown.spec);
      expect(comparePresenter.table(page)).toEqual(shown.stdout);
    } finally {
      await closeExactPool();
    }
  }, 120_000);
});
