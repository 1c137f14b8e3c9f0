import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellProgress } from '../src/cli/commands/report.js';
import { reportJson } from '../src/present/write/report.js';
import { runReport } from '../src/present/report/run.js';
import { chartNotes, chartSpec, chartTitle } from '../src/present/chart/charts.js';
import type { ChartDef, VlSpec } from '../src/present/chart/definition.js';
import { MAX_HEATMAP_ROWS } from '../src/present/chart/map-base.js';
import { MAX_BARS } from '../src/present/chart/stacked-bars.js';
import { valueRows, valueSkipped } from '../src/present/chart/value.js';
import { parseReportDef } from '../src/present/report/definition.js';
import { MAX_CELLS, checkGridSize, type Dimension } from '../src/analysis/dimensions.js';
import { MAX_GRID_TRIALS, checkSimBudget, type SweepResult } from '../src/analysis/sweep.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 22, item 9: a whole catalogue's matrix. The cap is counted from the vary items before anything
 * is read or planned, a heat map is sized from its rows and columns, and a value chart leaves out what
 * costs nothing with one note. Nothing here computes a big grid or draws one: the caps are checked by
 * their arithmetic and by refusals that would fail if any work came first, the charts by their specs.
 */

const temp = (tag: string) => mkdtempSync(join(tmpdir(), `injury-lab-${tag}-`));

/** A report definition written to a fresh folder, its one analysis varying `vary` over `scenario`. */
function definitionFile(vary: unknown[], scenario: Record<string, unknown> = { kind: 'injury' }, extra: Record<string, unknown> = {}): string {
  const file = join(temp('large'), 'large.json');
  writeFileSync(file, JSON.stringify({ title: 'Large', analyses: [{ id: 'grid', title: 'Grid', scenario, vary, ...extra }] }));
  return file;
}

describe('the cell cap', () => {
  it('is 10,000 cells, counted from the vary items: lists, ranges (with steps) and the CLI text forms', () => {
    expect(MAX_CELLS).toBe(10_000);
    expect(checkGridSize(['armour=none,standard', 'injuryDice=-1..3'])).toBe(10);
    expect(checkGridSize([{ field: 'heightInches', from: 0, to: 1, step: 0.1 }, 'heightInches=0..18:3'])).toBe(11 * 7);
    expect(checkGridSize([{ fields: ['armour', 'shield'], values: [['none', false], ['standard', true]] }])).toBe(2);
    // Exactly at the cap is allowed; one row more is not.
    expect(checkGridSize(['injuryDice=1..100', { field: 'heightInches', from: 1, to: 100 }])).toBe(10_000);
    expect(refusal(() => checkGridSize(['injuryDice=0..100', { field: 'heightInches', from: 1, to: 100 }]))).toBe(
      'vary: the grid has 10,100 cells (101 x 100); allowed: at most 10,000 cells; vary fewer values, or split the grid into several analyses or sweeps (one per faction, say)',
    );
  });

  it('leaves a malformed item to the dimension parser, which refuses it in its own words', () => {
    expect(checkGridSize([{ field: 'heightInches', from: 5, to: 1 }])).toBeUndefined();
    expect(checkGridSize([{ field: 'armour' }])).toBeUndefined();
  });

  it('refuses a grid over it before any file is read: a missing profiles file is never reached', () => {
    const vary = [{ field: 'weapon', values: Array.from({ length: 127 }, (_, i) => `W${i}`) }, { field: 'target', values: Array.from({ length: 80 }, (_, i) => `M${i}`) }];
    const message = refusal(() => parseReportDef({ title: 'T', analyses: [{ id: 'all', title: 'All', scenario: { kind: 'attack', catalogue: ['missing.gst', 'missing.cat'] }, vary }] }, 'reports/all.json'));
    expect(message).toBe(
      'reports/all.json: analysis "all" (analyses[0]): vary: the grid has 10,160 cells (127 x 80); allowed: at most 10,000 cells; vary fewer values, or split the grid into several analyses or sweeps (one per faction, say)',
    );
  });

  it('is checked for every analysis before any is planned: the last one over it is refused, not the first one\'s bad cell', () => {
    const doc = {
      title: 'T',
      analyses: [
        // Planning this one would refuse its machine armour with a shield.
        { id: 'bad-cell', title: 'Bad', scenario: { kind: 'injury', shield: true }, vary: ['armour=none,machine'] },
        { id: 'big', title: 'Big', scenario: { kind: 'fall' }, vary: ['heightInches=0..200', 'armour=none,standard', 'injuryDice=-10..10', 'shield=false,true'] },
      ],
    };
    expect(refusal(() => parseReportDef(doc, 'reports/t.json'))).toMatch(/^reports\/t\.json: analysis "big" \(analyses\[1\]\): vary: the grid has 16,884 cells \(201 x 2 x 21 x 2\); allowed: at most 10,000 cells;/);
  });

  it('report --check-only refuses in one line, exit 2; a run refuses the same and makes no output folder', async () => {
    const file = definitionFile(['heightInches=0..200', 'injuryDice=-10..10', 'armour=none,standard,reinforced'], { kind: 'fall' });
    const check = await cliInProcess('report', file, '--check-only');
    expect([check.code, check.stdout]).toEqual([2, '']);
    expect(check.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^injury-lab: .*large\.json: analysis "grid" \(analyses\[0\]\): vary: the grid has 12,663 cells \(201 x 21 x 3\); allowed: at most 10,000 cells; vary fewer values/)]);
    const out = join(temp('large-out'), 'report');
    const run = await cliInProcess('report', file, '--out', out);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', check.stderr]);
    expect(existsSync(out)).toBe(false);
  });

  it('sweep refuses the same before --out is touched', async () => {
    const out = join(temp('large-sweep'), 'grid.csv');
    const r = await cliInProcess('sweep', '--kind', 'fall', '--vary', 'heightInches=0..5000', '--vary', 'armour=none,standard', '--out', out);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr.trimEnd().split('\n')).toEqual(['injury-lab: vary: the grid has 10,002 cells (5001 x 2); allowed: at most 10,000 cells; vary fewer values, or split the grid into several analyses or sweeps (one per faction, say)']);
    expect(existsSync(out)).toBe(false);
  });

  it('lets a definition under it through, with every cell planned once for the run to use', () => {
    const def = parseReportDef({ title: 'T', analyses: [{ id: 'a', title: 'A', scenario: { kind: 'fall' }, vary: ['heightInches=0..100', 'armour=none,standard,reinforced,machine'] }] }, 'reports/t.json');
    const a = def.analyses[0]!;
    expect(a.cells).toBe(404);
    expect(a.planned).toHaveLength(404);
    expect(a.planned[403]!.scenario).toMatchObject({ heightInches: 100, armour: 'machine' });
  });
});

describe('the simulation budget', () => {
  it('is 1e12 trials over the whole grid: trials per cell, or maxTrials for a precision run', () => {
    expect(MAX_GRID_TRIALS).toBe(1e12);
    expect(() => checkSimBudget(10_000, { trials: 1e8 })).not.toThrow();
    expect(() => checkSimBudget(10_000, undefined)).not.toThrow();
    expect(refusal(() => checkSimBudget(6731, { trials: 1e9 }))).toBe(
      'simulation: 6,731 cells x 1e9 trials is 6.731e12 trials in all; allowed: at most 1e12 in all; give fewer trials per cell, or vary fewer values',
    );
    expect(refusal(() => checkSimBudget(2000, { precision: 0.001, maxTrials: 1e9 }))).toBe(
      'simulation: 2,000 cells x up to 1e9 trials (maxTrials) is 2e12 trials in all; allowed: at most 1e12 in all; give fewer trials (a lower maxTrials) per cell, or vary fewer values',
    );
  });

  it('is checked in a definition before planning, with the report\'s own maxTrials default (1e8)', () => {
    const make = (simulate: Record<string, unknown>) =>
      refusal(() => parseReportDef({ title: 'T', analyses: [{ id: 'a', title: 'A', scenario: { kind: 'fall', catalogue: 'missing.cat' }, vary: ['heightInches=0..99', 'injuryDice=-10..10'], simulate }] }, 'reports/t.json'));
    expect(make({ trials: 1e9 })).toBe('reports/t.json: analysis "a" (analyses[0]): simulation: 2,100 cells x 1e9 trials is 2.1e12 trials in all; allowed: at most 1e12 in all; give fewer trials per cell, or vary fewer values');
    // 2,100 cells x 1e8 is within it: the next thing checked is the missing catalogue.
    expect(make({ precision: 0.01 })).toMatch(/missing\.cat/);
  });
});

/** A sweep of `rows` weapons against `cols` models, exact, P(out of action) rising along both; nothing computed. */
function fakeSweep(rows: number, cols: number, opts: { rowLabel?: (i: number) => string; costs?: (i: number) => number | undefined } = {}): SweepResult {
  const dimension = (id: 'weapon' | 'target', n: number, label: (i: number) => string, cost: (i: number) => number | undefined): Dimension => ({
    id,
    fields: [id],
    title: id === 'weapon' ? 'Weapon (cost)' : 'Model (cost)',
    numeric: false,
    values: Array.from({ length: n }, (_, i) => ({ values: [`${id} ${i}`], label: label(i), ...(cost(i) !== undefined ? { cost: cost(i) } : {}) })),
  });
  const weapons = dimension('weapon', rows, opts.rowLabel ?? ((i) => `Weapon ${i} (${i + 1})`), opts.costs ?? ((i) => i + 1));
  const models = dimension('target', cols, (i) => `Model ${i} (${20 + i})`, (i) => 20 + i);
  const cells = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const p = ((r + 1) / rows) * ((c + 1) / cols) * 0.9;
      cells.push({
        index: cells.length,
        point: [r, c],
        labels: [weapons.values[r]!.label, models.values[c]!.label],
        exact: {},
        scenario: { kind: 'attack' },
        outcomes: [{ outcome: 'down', probability: 1 - p, orWorse: 1 }, { outcome: 'out-of-action', probability: p, orWorse: p }],
        means: [],
      });
    }
  }
  return { dimensions: [weapons, models], cells, notAllowed: [], outcomes: ['down', 'out-of-action'] } as unknown as SweepResult;
}

const heatmapDef: ChartDef = { type: 'heatmap', x: 'target', y: 'weapon', outcome: 'out-of-action', file: 'map' };

/** The numbers of a (not faceted) heat map spec that the sizing rules set. */
function sizes(spec: VlSpec) {
  const layers = spec.layer as { mark: { type: string; fontSize?: number }; encoding: { x: { axis: Record<string, unknown> }; y: { sort: string[]; axis: Record<string, unknown> } } }[];
  const text = layers.find((l) => l.mark.type === 'text');
  return {
    width: spec.width as number,
    rowStep: (spec.height as { step: number }).step,
    fontSize: text?.mark.fontSize,
    rows: layers[0]!.encoding.y.sort,
    xAxis: layers[0]!.encoding.x.axis,
    yAxis: layers[0]!.encoding.y.axis,
  };
}

describe('heat maps of big grids', () => {
  it('keep a small matrix as it was: 40 px rows, the 800 px plan, numbers in 13 px', () => {
    const s = sizes(chartSpec(fakeSweep(4, 4), heatmapDef));
    expect(s.rowStep).toBe(40);
    expect(s.width).toBeGreaterThan(200);
    expect(s.width).toBeLessThan(800);
    expect(s.fontSize).toBe(13);
  });

  it('are never narrower than 16 px a column, so 53 or 127 columns widen the chart instead of collapsing it', () => {
    let last = 0;
    for (const cols of [4, 20, 53, 127]) {
      const { width } = sizes(chartSpec(fakeSweep(8, cols), heatmapDef));
      expect(width, `${cols} columns`).toBeGreaterThanOrEqual(16 * cols);
      expect(width, `${cols} columns`).toBeGreaterThanOrEqual(last);
      last = width;
    }
  });

  it('never get a negative width, however long the row labels: those past 400 px are cut', () => {
    const long = (i: number) => `${'A very long weapon name indeed, '.repeat(3)}${i} (${i + 1})`;
    const s = sizes(chartSpec(fakeSweep(10, 4, { rowLabel: long }), heatmapDef));
    expect(s.width).toBeGreaterThanOrEqual(4 * 16);
    expect(s.yAxis.labelLimit).toBe(400);
  });

  it('shrink rows towards 16 px as they grow in number, never below', () => {
    const steps = [4, 16, 20, 40, 60].map((rows) => sizes(chartSpec(fakeSweep(rows, 4), heatmapDef)).rowStep);
    expect(steps).toEqual([40, 40, 32, 16, 16]);
  });

  it('write the numbers only where they fit: 13 px, else 10 px, else whole percents, else none', () => {
    expect(sizes(chartSpec(fakeSweep(4, 4), heatmapDef)).fontSize).toBe(13);
    // 20 rows of 32 px: tall enough for 13 px, but 18 columns of about 35 px are too narrow for "90.0%" even in
    // 10 px (35 px and a margin): whole percents.
    const eighteen = chartSpec(fakeSweep(20, 18), heatmapDef);
    expect(sizes(eighteen).fontSize).toBe(10);
    expect(JSON.stringify(eighteen.layer)).toContain('"field":"label0"');
    // 16 px rows, or 16 px columns: colours only, and the subtitle says why.
    for (const spec of [chartSpec(fakeSweep(60, 4), heatmapDef), chartSpec(fakeSweep(8, 53), heatmapDef)]) {
      expect(sizes(spec).fontSize).toBeUndefined();
      expect((spec.title as { subtitle: string[] }).subtitle.join(' ')).toContain('too small for their numbers');
    }
  });

  it('tilt column labels that do not fit, and cut them at 320 px', () => {
    expect(sizes(chartSpec(fakeSweep(4, 53), heatmapDef)).xAxis).toMatchObject({ labelAngle: -90, labelLimit: 320 });
    expect(sizes(chartSpec(fakeSweep(4, 2), heatmapDef)).xAxis).toMatchObject({ labelAngle: 0 });
  });

  it(`show the top ${MAX_HEATMAP_ROWS} rows past ${MAX_HEATMAP_ROWS}, highest average first, and say so in the title and a note`, () => {
    expect(MAX_HEATMAP_ROWS).toBe(60);
    const sweep = fakeSweep(127, 53);
    const spec = chartSpec(sweep, heatmapDef);
    const { rows } = sizes(spec);
    // P rises with the row index, so the top 60 are the last 60, the last first.
    expect(rows).toEqual(Array.from({ length: 60 }, (_, i) => `Weapon ${126 - i} (${127 - i})`));
    const data = (spec.data as { values: { y: string }[] }).values;
    expect(new Set(data.map((d) => d.y)).size).toBe(60);
    expect(data).toHaveLength(60 * 53);
    expect(chartTitle(spec)).toBe('Out of action per attack: weapon (cost) × model (cost) (top 60 of 127 weapons)');
    expect(chartNotes(sweep, heatmapDef)).toEqual([
      'Shows 60 of the 127 weapons: those with the highest average P(out of action), in that order; every row is in the tables and in results.csv.',
    ]);
    expect(sizes(spec).width).toBeGreaterThan(0);
    // At 60 rows, nothing is cut and nothing is noted.
    expect(sizes(chartSpec(fakeSweep(60, 4), heatmapDef)).rows).toHaveLength(60);
    expect(chartNotes(fakeSweep(60, 4), heatmapDef)).toEqual([]);
  });
});

describe('value charts of a catalogue', () => {
  const valueDef: ChartDef = { type: 'value', by: 'weapon', outcome: 'out-of-action', file: 'value' };

  it('leave out what costs 0 or nothing, and say so once, naming how many and which', () => {
    // Weapon 0 costs 0 (it comes with its model), weapon 3 has no cost given.
    const sweep = fakeSweep(6, 3, { costs: (i) => (i === 0 ? 0 : i === 3 ? undefined : 5 * i) });
    expect(valueSkipped(sweep, valueDef).map((v) => v.values[0])).toEqual(['weapon 0', 'weapon 3']);
    expect(valueRows(sweep, valueDef).map((r) => r.name)).toEqual(['weapon 1', 'weapon 2', 'weapon 4', 'weapon 5']);
    const note = 'Left out: 2 weapons whose cost is 0 or not given (innate, or priced with their model): weapon 0, weapon 3.';
    expect(chartNotes(sweep, valueDef)).toEqual([note]);
    const spec = chartSpec(sweep, valueDef);
    expect((spec.title as { subtitle: string[] }).subtitle.join(' ')).toContain('Left out: 2 weapons');
    expect((spec.data as { values: unknown[] }).values).toHaveLength(4);
    // Every value shown has a cost, so no bar is "no cost" or "no value", and the legend lists neither.
    expect(JSON.stringify(spec)).not.toMatch(/no cost|no value/);
  });

  it('name the first five in the chart, all of them in the note', () => {
    // Four models, so that the priced weapons' chances are not all above one half (MAX_VALUE_CHANCE refuses that).
    const sweep = fakeSweep(12, 4, { costs: (i) => (i < 8 ? 0 : i) });
    const subtitle = (chartSpec(sweep, valueDef).title as { subtitle: string[] }).subtitle.join(' ');
    expect(subtitle).toContain('weapon 0, weapon 1, weapon 2, weapon 3, weapon 4 and 3 more.');
    expect(chartNotes(sweep, valueDef)[0]).toContain('weapon 5, weapon 6, weapon 7.');
  });

  it('are accepted with a weapon that costs nothing, refused only when none has a cost', () => {
    const profiles = join(temp('large-profiles'), 'profiles.json');
    writeFileSync(
      profiles,
      JSON.stringify({
        system: 'trench-crusade',
        models: { Trooper: { armour: 'none', cost: 30 } },
        weapons: { Maul: { attackType: 'melee', cost: 0 }, Fist: { attackType: 'melee' }, Club: { attackType: 'melee', cost: 2 } },
      }),
    );
    const def = (weapons: string[]) =>
      parseReportDef(
        { title: 'V', analyses: [{ id: 'a', title: 'A', scenario: { kind: 'attack', profiles }, vary: [{ field: 'weapon', values: weapons }, { field: 'target', values: ['Trooper'] }], charts: [{ type: 'value', by: 'weapon', outcome: 'out-of-action' }] }] },
        join(tmpdir(), 'v.json'),
      );
    expect(def(['Maul', 'Fist', 'Club']).analyses[0]!.charts).toHaveLength(1);
    expect(refusal(() => def(['Maul', 'Fist']))).toMatch(/charts\[0\] \(value\): no weapon of "weapon" has a cost above 0 in the profiles file; a value chart divides by each one's cost$/);
  });
});

describe('other charts of big grids', () => {
  it(`stacked bars of more than ${MAX_BARS} bars are refused before anything runs`, () => {
    const make = (heights: string) =>
      refusal(() => parseReportDef({ title: 'T', analyses: [{ id: 'a', title: 'A', scenario: { kind: 'fall' }, vary: [heights, 'armour=none,standard'], charts: [{ type: 'stacked-bars', y: 'heightInches', facet: 'armour' }] }] }, 'reports/t.json'));
    expect(make('heightInches=0..74.5:0.5')).toBe('accepted');
    expect(make('heightInches=0..75:0.5')).toBe(
      'reports/t.json: analysis "a" (analyses[0]): charts[0] (stacked-bars): 302 bars (151 x 2) are too many to read; allowed: at most 300; draw a heatmap of the grid instead, or vary fewer values',
    );
  });

  it('an analysis naming no charts gets its heat map alone past 300 cells', () => {
    const charts = (heights: string) =>
      parseReportDef({ title: 'T', analyses: [{ id: 'a', title: 'A', scenario: { kind: 'fall' }, vary: ['armour=none,standard', heights] }] }, 'reports/t.json').analyses[0]!.charts.map((c) => c.type);
    expect(charts('heightInches=0..20')).toEqual(['heatmap', 'lines', 'stacked-bars']);
    expect(charts('heightInches=0..100:0.5')).toEqual(['heatmap']);
  });
});

describe('progress within an analysis', () => {
  /** A stream that says it is (or is not) a terminal, and keeps what is written to it. */
  const stream = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, s: { isTTY, columns: 80, write: (t: string) => written.push(t) > 0 } as unknown as NodeJS.WriteStream };
  };

  it('counts cells in place on a terminal, and clears its line', () => {
    const { written, s } = stream(true);
    const p = cellProgress(s, 0)!;
    p.update('big [1/1] all', 3365, 6731);
    p.clear();
    expect(written).toEqual(['\rbig [1/1] all: 3,365 / 6,731 cells (49%)\x1b[K', '\r\x1b[K']);
  });

  it('says the time left from the rate so far, once a second has gone by (issue 51)', async () => {
    const { timeLeft } = await import('../src/text.js');
    expect([timeLeft(10_000, 10, 20), timeLeft(60_000, 1, 10), timeLeft(999, 1, 10), timeLeft(5_000, 0, 10), timeLeft(5_000, 10, 10)]).toEqual(['about 10 s left', 'about 9 min left', '', '', 'about 0 s left']);
  });

  it('prints nothing when stderr is not a terminal', () => {
    expect(cellProgress(stream(false).s, 0)).toBeUndefined();
  });
});

describe('results.json', () => {
  it('carries what each chart could not show, as the page says it under the chart', async () => {
    const profiles = join(temp('notes-profiles'), 'profiles.json');
    writeFileSync(
      profiles,
      JSON.stringify({ system: 'trench-crusade', models: { Trooper: { armour: 'none', cost: 30 } }, weapons: { Maul: { attackType: 'melee', cost: 0 }, Club: { attackType: 'melee', cost: 2 } } }),
    );
    const def = parseReportDef(
      { title: 'V', analyses: [{ id: 'a', title: 'A', scenario: { kind: 'attack', profiles }, vary: [{ field: 'weapon', values: ['Maul', 'Club'] }, { field: 'target', values: ['Trooper'] }], charts: [{ type: 'value', by: 'weapon', outcome: 'out-of-action' }, { type: 'stacked-bars', y: 'weapon', facet: 'target' }] }] },
      join(tmpdir(), 'v.json'),
    );
    const run = await runReport(def, { png: false });
    const [value, bars] = reportJson(run).analyses[0]!.charts;
    expect(value!.notes).toEqual(['Left out: 1 weapon whose cost is 0 or not given (innate, or priced with its model): Maul.']);
    expect(value!.notes).toEqual(run.analyses[0]!.charts[0]!.notes);
    // A chart that shows everything has no notes key.
    expect(bars).not.toHaveProperty('notes');
  });
});
