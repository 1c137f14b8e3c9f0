import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { loadReportDef, type ReportDef } from '../src/present/definition.js';
import { writeReport } from '../src/present/report.js';
import { runReport, type ReportRun } from '../src/present/run-report.js';
import { closePool } from '../src/pool/simulate.js';
import type { Cell } from '../src/analysis/sweep.js';

/**
 * Issue 24, "Everywhere": reports/trench-duels.json, the matchup matrix of duels, run by `npm start`.
 * Its cells are the duel of the two named sides, so each is checked against the same duel written out
 * as a scenario and answered on its own.
 */

const REPORT = 'reports/trench-duels.json';
let def: ReportDef;
let run: ReportRun;

beforeAll(async () => {
  def = loadReportDef(REPORT);
  // Specs and SVG only: the PNG of the charts is what report-charts.test.ts samples.
  run = await runReport(def, { png: false });
}, 120_000);
afterAll(() => closePool());

const analysis = (id: string) => run.analyses.find((a) => a.def.id === id)!;
const cellOf = (id: string, a: string, b: string): Cell => {
  const cell = analysis(id).sweep.cells.find((c) => c.labels[0] === a && c.labels[1] === b);
  if (!cell) throw new Error(`${id}: no cell ${a} against ${b}`);
  return cell;
};
const exactOf = (cell: Cell) => Object.fromEntries(cell.outcomes.map((o) => [o.outcome, o.exact]));

describe('reports/trench-duels.json', () => {
  it('is a matrix of eight named sides against eight, once per side going first, exact, with a simulated check', () => {
    expect(def.analyses.map((a) => [a.id, a.cells, a.exact, a.sim !== undefined])).toEqual([
      ['a-first', 64, true, false],
      ['b-first', 64, true, false],
      ['check', 8, true, true],
      ['profiles', 144, true, false],
    ]);
    for (const a of def.analyses.slice(0, 2)) {
      expect(a.dimensions.map((d) => d.side)).toEqual(['a', 'b']);
      expect(a.dimensions[0]!.values.map((v) => v.label)).toEqual([
        'unarmoured',
        'unarmoured, +1 dice',
        'standard + shield',
        'standard + shield, +1 dice',
        'reinforced',
        'reinforced, +1 dice',
        'machine + Tough',
        'machine + Tough, +1 dice',
      ]);
      expect(a.charts).toEqual([expect.objectContaining({ type: 'heatmap', x: 'b', y: 'a', outcome: 'a-wins', fullScale: true })]);
    }
  });

  it("gives each cell the duel of its two sides, as the same duel written out and answered alone gives it", () => {
    const direct = (first: 'a' | 'b', a: Record<string, unknown>, b: Record<string, unknown>) =>
      Object.fromEntries(evaluateExact({ system: 'trench-crusade', edition: 'core', kind: 'duel', rounds: 10, first, a, b }).outcomes.map((o) => [o.outcome, o.exact]));
    const cases: [string, string, string, 'a' | 'b', Record<string, unknown>, Record<string, unknown>][] = [
      ['a-first', 'machine + Tough, +1 dice', 'standard + shield', 'a', { armour: 'machine', tough: true, injuryDice: 1 }, { armour: 'standard', shield: true }],
      ['b-first', 'unarmoured', 'reinforced, +1 dice', 'b', {}, { armour: 'reinforced', injuryDice: 1 }],
      ['check', 'unarmoured, +1 dice', 'reinforced, +1 dice', 'b', { injuryDice: 1 }, { armour: 'reinforced', injuryDice: 1 }],
    ];
    for (const [id, a, b, first, sideA, sideB] of cases) {
      const cell = id === 'check' ? analysis(id).sweep.cells.find((c) => c.labels[0] === a && c.labels[1] === b && c.assignment.first === first)! : cellOf(id, a, b);
      expect({ id, a, b, answer: exactOf(cell) }).toEqual({ id, a, b, answer: direct(first, sideA, sideB) });
    }
  });

  it('is the same duel seen from the other side when the sides swap places and the other goes first', () => {
    // The rules treat a and b alike: a's chance against b going first is b's against a going second.
    const first = analysis('a-first').sweep.cells;
    for (const cell of first) {
      const mirror = cellOf('b-first', cell.labels[1]!, cell.labels[0]!);
      const [aWins, bWins, undecided] = ['a-wins', 'b-wins', 'undecided'].map((o) => exactOf(cell)[o]);
      expect(exactOf(mirror), cell.labels.join(' against ')).toEqual({ 'a-wins': bWins, 'b-wins': aWins, undecided });
    }
  });

  it('runs: its simulation agrees, its matrices are coloured 0-100% with every cell labelled, and its page has no "or worse"', async () => {
    const check = analysis('check').sweep.cells;
    expect(check.every((c) => c.check?.passed)).toBe(true);
    for (const id of ['a-first', 'b-first']) {
      const [chart] = analysis(id).charts;
      expect(chart!.rendered.warnings).toEqual([]);
      const spec = JSON.stringify(chart!.spec);
      expect(spec).toContain('"domain":[0,1]');
      expect([(chart!.spec.title as { text: string | string[] }).text].flat().join(' ')).toContain(`${id[0]} goes first`);
      // Every cell's number is drawn (a text layer of 64 labels).
      expect((chart!.spec.data as { values: { label: string }[] }).values.filter((v) => /^\d+(\.\d)?%$/.test(v.label))).toHaveLength(64);
      expect(spec).toContain('"type":"text"');
    }
    const out = join(mkdtempSync(join(tmpdir(), 'injury-lab-duels-')), 'trench-duels');
    await writeReport(run, out);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('Who wins a 10-round duel when a goes first');
    expect(html).not.toContain('At least this bad');
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { analyses: { cells: { values: Record<string, string> }[] }[] };
    expect(results.analyses[0]!.cells[7]!.values).toEqual({ a: 'unarmoured', b: 'machine + Tough, +1 dice' });
    expect(existsSync(join(out, 'charts', 'a-first-a-wins.svg'))).toBe(true);
  });
});
