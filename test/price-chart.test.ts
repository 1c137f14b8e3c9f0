import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONE, formatFraction, sub, toNumber } from '../src/exact/fraction.js';
import type { DuelEntry } from '../src/pricing/duel-matrix.js';
import { priceField } from '../src/pricing/price.js';
import { FALL_COLOUR, RISE_COLOUR } from '../src/present/charts.js';
import { LABELLED, type PricePoint, type ShareCell, cellNumber, priceChartSpec } from '../src/present/price-chart.js';
import { cli } from './helpers/cli.js';

/**
 * `price --chart FILE` (issue 40): fair against current price with the diagonal, and the pairwise matrix as
 * a heat map. The spec is checked against the PriceResult it is drawn from, and against what is known by
 * construction of the field: two identical bodies share their duels exactly half and half, and the dearer
 * copy is the over-priced one; strictly more injury dice on the same body is the stronger entry.
 */

const field: DuelEntry[] = [
  { name: 'plain', side: {}, price: 20 },
  { name: '+3 injury dice', side: { injuryDice: 3 }, price: 40 },
  { name: 'machine + Tough', side: { armour: 'machine', tough: true }, price: 70 },
  // plain's body at twice its price: the same rating as plain, so the same fair price, and over-priced.
  { name: 'dear plain', side: {}, price: 40 },
  // Rated with the field, but with no current price it has no place on the price panel.
  { name: 'unpriced standard', side: { armour: 'standard' } },
];
const context = { field: 'five sides written by hand', system: 'trench-crusade', edition: 'core', leftOut: [] };
// Rounds 2: every duel can end undecided, so no entry wins every pair and the fit is finite; a second or so.
const result = await priceField(field, { rounds: 2 });
const { spec, notes } = priceChartSpec(result, context);

type Layer = { data?: { values: unknown[] }; mark: { type: string }; encoding: Record<string, { scale?: { domain?: unknown[]; range?: unknown[] } }> };
const [pricePanel, sharePanel] = spec.vconcat as [{ layer: Layer[] }, { data: { values: ShareCell[] }; layer: Layer[] }];
const layerOf = (type: string) => pricePanel.layer.find((l) => l.mark.type === type)!;
const points = layerOf('point').data!.values as PricePoint[];
const cells = sharePanel.data.values;
const names = result.matrix.names;

describe('price --chart: the price panel', () => {
  it('one point per priced entry, at (current, fair) as the result gives them; the unpriced one left out and said', () => {
    const priced = result.entries.filter((e) => e.price !== undefined);
    expect(priced).toHaveLength(4);
    expect(points.map((p) => p.name).sort()).toEqual(priced.map((e) => e.name).sort());
    for (const e of priced) {
      const p = points.find((q) => q.name === e.name)!;
      expect(p.price).toBe(e.price);
      expect(p.fair).toBe(e.fairPrice);
      expect(p.verdict).toBe(e.verdict);
    }
    expect(notes).toEqual(['1 unpriced entry only in the heat map']);
    expect((spec.title as { subtitle: string[] }).subtitle.join(' ')).toMatch(/Not on the price panel \(no current price\): unpriced standard\./);
  });

  it('the dearer copy of plain is fair at plain\'s fair price, so over-priced, blue, and said so on hover', () => {
    const plain = points.find((p) => p.name === 'plain')!;
    const dear = points.find((p) => p.name === 'dear plain')!;
    expect(dear.fair).toBeCloseTo(plain.fair, 6);
    expect(dear.verdict).toBe('over-priced');
    const e = result.entries.find((x) => x.name === 'dear plain')!;
    expect(dear.tip).toBe(`dear plain: current 40.0 ducats, fair ${e.fairPrice.toFixed(1)} (${e.difference!.toFixed(1)} ducats, ${e.percent!.toFixed(1)}%): over-priced; rating ${e.elo.toFixed(0)}`);
    const colour = layerOf('point').encoding.color!.scale!;
    expect(colour.range![colour.domain!.indexOf('over-priced')]).toBe(FALL_COLOUR);
    expect(colour.range![colour.domain!.indexOf('under-priced')]).toBe(RISE_COLOUR);
  });

  it('the diagonal fair = current spans the shared axis, which holds every point', () => {
    const diagonal = layerOf('line').data!.values as { price: number; fair: number }[];
    expect(diagonal).toHaveLength(2);
    for (const end of diagonal) expect(end.fair).toBe(end.price);
    const domain = layerOf('point').encoding.x!.scale!.domain as [number, number];
    expect(layerOf('point').encoding.y!.scale!.domain).toEqual(domain);
    expect(diagonal.map((d) => d.price)).toEqual(domain);
    for (const p of points) for (const v of [p.price, p.fair]) expect(v > domain[0] && v < domain[1]).toBe(true);
  });

  it('names the most mispriced (at most LABELLED), whole', () => {
    const mispriced = result.entries.filter((e) => e.verdict === 'under-priced' || e.verdict === 'over-priced').map((e) => e.name);
    expect(mispriced).toContain('dear plain');
    const labelled = (layerOf('text').data!.values as PricePoint[]).map((p) => p.label);
    expect(labelled.sort()).toEqual(mispriced.slice(0, LABELLED).sort());
    // The fair ones are not named.
    for (const p of points) if (p.verdict === 'fair') expect(p.label).toBe('');
  });

  it('the subtitle gives the price line and its r², as the table does', () => {
    const subtitle = (spec.title as { subtitle: string[] }).subtitle.join(' ');
    expect(subtitle).toContain(`(r² ${result.pricing.rSquared!.toFixed(2)})`);
    expect(subtitle).toContain(`rating = ${result.pricing.curve.a.toFixed(3)} + ${result.pricing.curve.b.toFixed(3)} ln(price)`);
    expect((spec.title as { text: string[] }).text.join(' ')).toBe('Fair prices from exact duels: 5 entries, trench-crusade (core edition)');
  });
});

describe('price --chart: the heat map', () => {
  it('n(n-1) cells, each the exact share of the row against the column, w_ji = 1 - w_ij', () => {
    expect(cells).toHaveLength(5 * 4);
    for (const p of result.matrix.pairs) {
      const [a, b] = [names[p.i]!, names[p.j]!];
      const ab = cells.find((c) => c.rowName === a && c.columnName === b)!;
      const ba = cells.find((c) => c.rowName === b && c.columnName === a)!;
      expect(ab.exact).toBe(formatFraction(p.share));
      expect(ab.share).toBe(toNumber(p.share));
      expect(ba.exact).toBe(formatFraction(sub(ONE, p.share)));
      expect(ab.share + ba.share).toBeCloseTo(1, 15);
      expect(ab.tip).toContain(`${a} against ${b}: ${a}'s share of their duels ${ab.exact} = `);
    }
    expect(cells.some((c) => c.rowName === c.columnName)).toBe(false);
    // Identical bodies: exactly half and half.
    expect(cells.find((c) => c.rowName === 'plain' && c.columnName === 'dear plain')!.exact).toBe('1/2');
  });

  it('rows and columns by rating, strongest first, the columns numbered as the rows', () => {
    const rows = sharePanel.layer[0]!.encoding.y!.scale!.domain as string[];
    const columns = sharePanel.layer[0]!.encoding.x!.scale!.domain as string[];
    expect(columns).toEqual(['1', '2', '3', '4', '5']);
    const rating = new Map(result.fit.entries.map((e) => [e.name, e.rating]));
    const rowNames = rows.map((r, k) => {
      expect(r.startsWith(`${k + 1}. `)).toBe(true);
      return r.slice(`${k + 1}. `.length);
    });
    expect(rowNames.sort()).toEqual([...names].sort());
    const ordered = rows.map((r) => rating.get(r.replace(/^\d+\. /, ''))!);
    for (let k = 1; k < ordered.length; k++) expect(ordered[k]).toBeLessThanOrEqual(ordered[k - 1]!);
    // More injury dice on the same body is the stronger entry (docs: a strictly better side).
    const at = (name: string) => rows.findIndex((r) => r.endsWith(`. ${name}`));
    expect(at('+3 injury dice')).toBeLessThan(at('plain'));
    // Each cell's column number is the row number of its column entry.
    for (const c of cells) expect(rows[Number(c.column) - 1]).toBe(`${c.column}. ${c.columnName}`);
  });

  it('a cell says 100 or 0 only for a certainty', () => {
    expect([1, 0.996, 0.5, 0.004, 0].map(cellNumber)).toEqual(['100', '99', '50', '1', '0']);
  });
});

describe('price --chart on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'price-chart-'));
  const PROFILES = 'examples/profiles.json';

  it('refuses a file that is no chart, in one line naming the flag, before reading the profiles; nothing written', () => {
    const file = join(dir, 'prices.txt');
    // The profiles file does not exist: the chart's refusal comes first, so it was checked before anything ran.
    const r = cli('price', '--profiles', join(dir, 'missing.json'), '--chart', file);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^injury-lab: --chart: ".*prices\.txt" is not a chart file; allowed: a file name ending \.png, \.svg, \.vl\.json, \.html$/m);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses an existing file without --force, keeping it, and replaces it with --force', () => {
    const kept = join(dir, 'kept.svg');
    writeFileSync(kept, 'mine');
    const r = cli('price', '--profiles', PROFILES, '--chart', kept);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--chart: ".*kept\.svg" already exists; .*--force/);
    expect(readFileSync(kept, 'utf8')).toBe('mine');
    const forced = cli('price', '--profiles', PROFILES, '--chart', kept, '--force', '--models', 'Unarmoured Trooper,Machine Brute');
    expect(forced.code).toBe(0);
    expect(readFileSync(kept, 'utf8')).toMatch(/^<svg/);
  });

  it('writes an SVG of the example profiles, says so on stderr, and prints the table as without it', () => {
    const file = join(dir, 'prices.svg');
    const r = cli('price', '--profiles', PROFILES, '--chart', file);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`injury-lab: wrote ${file}\n`);
    const svg = readFileSync(file, 'utf8');
    expect(svg).toMatch(/^<svg/);
    // The most mispriced entry of the table (its first row) is named beside its point.
    const first = /^Most mispriced first.*\n\n.*\n.*\n(.+?) {2,}/m.exec(r.stdout)![1]!;
    expect(first).toBe("Machine Brute with Executioner's Axe");
    expect(svg).toContain(`>${first}</text>`);
    expect(r.stdout).toBe(cli('price', '--profiles', PROFILES).stdout);
  });
});
