import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { loadReportDef, type ReportDef } from '../src/present/report/definition.js';
import { writeReport } from '../src/present/write/report.js';
import { runReport, type ReportRun } from '../src/present/report/run.js';
import { closePool } from '../src/pool/simulate.js';
import type { Cell } from '../src/analysis/sweep.js';
import { type Fraction, ONE, add, fraction, formatFraction, mul, sub } from '../src/exact/fraction.js';

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

/**
 * The report written out once, for the tests that read its files: writing it takes seconds (its CSV and
 * JSON of some 300 duels run to megabytes), and what each test reads is the same. Written by whichever
 * of them asks first.
 */
let written: Promise<string> | undefined;
const writtenReport = (): Promise<string> =>
  (written ??= (async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'injury-lab-duels-')), 'trench-duels');
    await writeReport(run, out);
    return out;
  })());

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
    const out = await writtenReport();
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('Who wins a 10-round duel when a goes first');
    expect(html).not.toContain('At least this bad');
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { analyses: { cells: { values: Record<string, string> }[] }[] };
    expect(results.analyses[0]!.cells[7]!.values).toEqual({ a: 'unarmoured', b: 'machine + Tough, +1 dice' });
    expect(existsSync(join(out, 'charts', 'a-first-a-wins.svg'))).toBe(true);
  });

  it('prices the profiles field (its price analysis): each pair\'s share is the one the grid\'s duels give, both orders averaged', () => {
    // The price analysis (src/pricing/) and the "profiles" grid (src/analysis/) reach the same duels by
    // two roads. The grid has x as side a going first against y; the price's duel with y first is the
    // grid's cell of y against x with the sides swapped. So, with s(x, y) = P(a wins) + P(undecided) / 2
    // of the grid's cell x against y, x's share is (s(x, y) + 1 - s(y, x)) / 2, exactly.
    expect(def.prices.map((p) => [p.id, p.at, p.chartFile, p.settings.profiles, p.settings.by === 'duels' && [p.settings.rounds, p.settings.policy, p.settings.line]])).toEqual([
      ['fair-prices', 4, 'fair-prices-prices', 'examples/profiles.json', [10, 'none', 'theil-sen']],
    ]);
    const [priced] = run.prices;
    if (priced?.by !== 'duels') throw new Error('the shipped price analysis is priced from duels');
    const matrix = priced.priced.result.matrix;
    expect(matrix.names).toHaveLength(12);
    const half = fraction(1, 2);
    const s = (x: string, y: string): Fraction => {
      const side = (c: Cell, k: 'a' | 'b') => (c.scenario[k] as { profile: string }).profile;
      const cell = analysis('profiles').sweep.cells.find((c) => side(c, 'a') === x && side(c, 'b') === y)!;
      const at = (id: string) => {
        const [num, den = '1'] = cell.outcomes.find((o) => o.outcome === id)!.exact!.split('/');
        return fraction(BigInt(num!), BigInt(den));
      };
      return add(at('a-wins'), mul(at('undecided'), half));
    };
    for (const pair of matrix.pairs) {
      const [x, y] = [matrix.names[pair.i]!, matrix.names[pair.j]!];
      const expected = mul(add(s(x, y), sub(ONE, s(y, x))), half);
      expect(formatFraction(pair.share), `${x} against ${y}`).toBe(formatFraction(expected));
    }
    expect(matrix.pairs).toHaveLength(66);
  });

  it('shows the prices on the page after the grids, and writes prices.csv, their chart and their JSON', async () => {
    const out = await writtenReport();
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const section = html.slice(html.indexOf('<section class="analysis" id="fair-prices">'));
    expect(html.indexOf('id="profiles"')).toBeLessThan(html.indexOf('id="fair-prices"'));
    const entries = run.prices[0]!.priced.result.entries;
    // Most mispriced first, a row each, in the table of prices.
    const table = section.slice(section.indexOf('data-table="prices"'), section.indexOf('</table>'));
    const names = [...table.matchAll(/<tr><td class="dim">([^<]*)<\/td>/g)].map((m) => m[1]!.replace(/&#39;/g, "'"));
    expect(names).toEqual(entries.map((e) => e.name));
    expect(section).toContain('Most mispriced: ');
    const csv = readFileSync(join(out, 'prices.csv'), 'utf8').trimEnd().split('\n');
    expect(csv[0]).toBe('report,analysis,rank,entry,price,fair_price,difference,percent,verdict,rating,elo,mean_share');
    expect(csv).toHaveLength(1 + entries.length);
    expect(csv[1]!.startsWith('trench-duels,fair-prices,1,')).toBe(true);
    for (const ending of ['svg', 'png', 'vl.json']) expect(existsSync(join(out, 'charts', `fair-prices-prices.${ending}`))).toBe(true);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { prices: { id: string; at: number; entries: { name: string }[]; duels: { pairs: unknown[] } }[]; manifest: { prices: { id: string; duels: number }[] } };
    expect(results.prices.map((p) => [p.id, p.at, p.entries.length, p.duels.pairs.length])).toEqual([['fair-prices', 4, 12, 66]]);
    expect(results.manifest.prices).toMatchObject([{ id: 'fair-prices', kind: 'price', entries: 12, duels: 132, rounds: 10, policy: 'none' }]);
  });
});
