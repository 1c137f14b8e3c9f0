import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONE, formatFraction, sub, toNumber } from '../src/exact/fraction.js';
import type { DuelEntry } from '../src/pricing/duel-matrix.js';
import { priceField } from '../src/pricing/price.js';
import { FALL_COLOUR, RISE_COLOUR } from '../src/present/chart/shared/theme.js';
import { type Box, MARK_RADIUS, placeLabels } from '../src/present/chart/shared/label-placement.js';
import {
  LABELLED,
  LABEL_EM,
  LABEL_LINE,
  type PriceLabel,
  type PricePoint,
  SCATTER_SIDE,
  type ShareCell,
  cellNumber,
  priceChartSpec,
  priceDomain,
  priceLabels,
} from '../src/present/chart/price.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

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
    const labelled = (layerOf('text').data!.values as PriceLabel[]).map((p) => p.label);
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


/**
 * The names' places (priceLabels): checked in the panel's pixels against each other, the panel's edges and
 * the points, from the positions the spec carries. A point's pixel position is worked out here again from
 * the axis (log scale over priceDomain onto [0, SCATTER_SIDE], y upwards), not taken from the placement.
 */
const named = (name: string, price: number, fair: number): PricePoint => ({ name, price, fair, verdict: fair > price ? 'under-priced' : 'over-priced', label: name, tip: name });
const unnamed = (name: string, price: number, fair: number): PricePoint => ({ ...named(name, price, fair), label: '' });
const pixelsOf = (points: readonly PricePoint[]) => {
  const [lo, hi] = priceDomain(points);
  const along = (v: number) => ((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * SCATTER_SIDE;
  return (p: PricePoint) => ({ x: along(p.price), y: SCATTER_SIDE - along(p.fair) });
};
const intersect = (a: Box, b: Box) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
const insidePanel = (b: Box) => b.left >= 0 && b.top >= 0 && b.left + b.width <= SCATTER_SIDE && b.top + b.height <= SCATTER_SIDE;
/** Distance from a point to the nearest point of a box. */
const distance = (b: Box, x: number, y: number) => Math.hypot(Math.max(b.left - x, 0, x - b.left - b.width), Math.max(b.top - y, 0, y - b.top - b.height));

/** Every name whole, no two boxes meeting, each inside the panel, each box as wide as its longest line at LABEL_EM a character and as high as its lines. */
function expectSeparate(points: readonly PricePoint[], labels: readonly PriceLabel[]) {
  const at = pixelsOf(points);
  for (const l of labels) {
    expect(l.lines.join(' ')).toBe(l.label);
    expect(l.box.width).toBeGreaterThanOrEqual(Math.max(...l.lines.map((s) => s.length)) * LABEL_EM * 12);
    expect(l.box.height).toBeGreaterThanOrEqual(l.lines.length * LABEL_LINE);
    expect(insidePanel(l.box)).toBe(true);
    // The text starts (or, set right, ends) on the box's edge, so it lies within the box.
    expect(l.textX).toBe(l.align === 'left' ? l.box.left : l.box.left + l.box.width);
    // Its own point is where the axis puts it, and its box clears that point's mark.
    const p = points.find((q) => q.label === l.label)!;
    expect(l.x).toBeCloseTo(at(p).x, 9);
    expect(l.y).toBeCloseTo(at(p).y, 9);
    expect(distance(l.box, l.x, l.y)).toBeGreaterThanOrEqual(MARK_RADIUS);
    // A name away from its point has a line to it, ending on the box.
    if (l.leader) {
      expect([l.leader.x, l.leader.y]).toEqual([l.x, l.y]);
      expect(distance(l.box, l.leader.x2, l.leader.y2)).toBeCloseTo(0, 9);
    } else expect(distance(l.box, l.x, l.y)).toBeLessThan(15);
  }
  for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) expect(intersect(labels[i]!.box, labels[j]!.box), `${labels[i]!.label} / ${labels[j]!.label}`).toBe(false);
}

describe('price --chart: names that never overprint', () => {
  it('five names on one spot (five models of one body at one price and fair price) are all drawn, apart, inside the panel', () => {
    const points = [...['Homunculus with Anti-Tank Hammer', 'Homunculus with Flail/Scourge', 'Homunculus with Great Sword/Axe', 'Homunculus with Great Hammer/Maul', 'Homunculus with Bayonet'].map((n) => named(n, 50, 280)), unnamed('cheap', 10, 9), unnamed('dear', 300, 310)];
    const { labels, unplaced } = priceLabels(points);
    expect(unplaced).toEqual([]);
    expect(labels.map((l) => l.label)).toEqual(points.slice(0, 5).map((p) => p.name));
    expectSeparate(points, labels);
    // One spot, five names: at most four beside it (its four corners), the rest along leader lines.
    expect(labels.filter((l) => l.leader === undefined).length).toBeLessThanOrEqual(4);
    expect(labels.filter((l) => l.leader !== undefined).length).toBeGreaterThanOrEqual(1);
  });

  it('names of near-equal points (Homunculus entries at 45-75 ducats, fair 260-470; one body at 31-155) do not meet', () => {
    const points = [
      named('Homunculus with Anti-Tank Hammer', 75, 471),
      named('Homunculus with Flail/Scourge', 45, 264),
      named('Captive Giant with Improvised Melee Weapon', 140, 810),
      named('Homunculus with Great Sword/Axe', 52, 293),
      named('Anchorite Shrine (Catherine Wheel) with Catherine Wheel', 140, 777),
      ...[31, 45, 60, 90, 155].map((price, k) => unnamed(`body ${k}`, price, 60)),
    ];
    const { labels, unplaced } = priceLabels(points);
    expect(unplaced).toEqual([]);
    expect(labels).toHaveLength(5);
    expectSeparate(points, labels);
  });

  it('far-apart points keep their names beside them, no leader lines: away from the diagonal, towards the middle', () => {
    // The axis runs from 3 to 3000, so no name is pushed off its side by the panel's edge.
    const points = [named('under, cheap', 10, 40), named('over, dear', 400, 100), named('under, dear', 300, 900), named('over, cheap', 30, 8), unnamed('low', 3, 3), unnamed('high', 3000, 3000)];
    const { labels } = priceLabels(points);
    expectSeparate(points, labels);
    const at = pixelsOf(points);
    for (const l of labels) {
      const p = points.find((q) => q.label === l.label)!;
      expect(l.leader).toBeUndefined();
      expect(distance(l.box, l.x, l.y)).toBeLessThan(15);
      // Under-priced (fair above current) above its point, so away from the diagonal, else below.
      if (p.fair > p.price) expect(l.box.top + l.box.height).toBeLessThan(at(p).y);
      else expect(l.box.top).toBeGreaterThan(at(p).y);
      // The cheaper half's names run rightwards, the dearer half's leftwards.
      if (p.name.endsWith('cheap')) expect(l.box.left).toBeGreaterThan(at(p).x);
      else expect(l.box.left + l.box.width).toBeLessThan(at(p).x);
    }
  });

  it('any cluster of up to LABELLED named points among others: names apart, inside, each name whole or said (property)', () => {
    const price = fc.double({ min: 20, max: 60, noNaN: true });
    const point = fc.record({ price, fair: fc.double({ min: 100, max: 300, noNaN: true }), words: fc.integer({ min: 1, max: 8 }) });
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: LABELLED }), fc.array(point, { maxLength: 40 }), (labelledOnes, others) => {
        const points = [
          ...labelledOnes.map((p, k) => named(`${k} ${'Homunculus'.repeat(1)} with${' word'.repeat(p.words)}`, p.price, p.fair)),
          ...others.map((p, k) => unnamed(`other ${k}`, p.price, p.fair)),
          unnamed('cheapest', 5, 5),
          unnamed('dearest', 1000, 1000),
        ];
        const { labels, unplaced } = priceLabels(points);
        expect(labels.length + unplaced.length).toBe(labelledOnes.length);
        expectSeparate(points, labels);
      }),
      { seed: 40, numRuns: 60 },
    );
  });

  it('the same points, the same places', () => {
    const points = [named('a with b', 50, 280), named('a with c', 50, 281), named('a with d', 51, 280), unnamed('x', 10, 10), unnamed('y', 400, 400)];
    expect(priceLabels(points)).toEqual(priceLabels([...points]));
  });

  it('a name with no room anywhere is left out and said, never drawn over another', () => {
    // A plot 100 x 60 px with the point in its middle: an 80 x 14 box clear of its mark (6 px round (50, 30)) has
    // room above it (top 0-10) and below (top 36-46), one each: a third would meet one of them.
    const request = { x: 50, y: 30, width: 80, height: 14, above: true, rightwards: true };
    const placed = placeLabels([request, request, request], [{ x: 50, y: 30 }], 100, 60);
    expect(placed[0]).toBeDefined();
    expect(placed[1]).toBeDefined();
    expect(placed[2]).toBeUndefined();
    expect(intersect(placed[0]!.box, placed[1]!.box)).toBe(false);
  });

  it('a name wider than the panel (one word, no place to wrap it) is said in the notes and the subtitle, the other names drawn', () => {
    const long = 'X'.repeat(Math.ceil(SCATTER_SIDE / (LABEL_EM * 12)) + 1);
    const renamed = { ...result, entries: result.entries.map((e) => (e.name === 'dear plain' ? { ...e, name: long } : e)) };
    const drawn = priceChartSpec(renamed, context);
    expect(drawn.notes).toContain(`not named on the price panel, no room left beside the other names: ${long} (its point says the name on hover)`);
    expect((drawn.spec.title as { subtitle: string[] }).subtitle.join('')).toContain(long);
    const layer = (drawn.spec.vconcat as [{ layer: Layer[] }])[0].layer.find((l) => l.mark.type === 'text');
    for (const l of (layer?.data?.values ?? []) as PriceLabel[]) expect(l.label).not.toBe(long);
  });

  it('the spec draws the names where priceLabels put them, in pixels, and leader lines from the points', () => {
    const text = layerOf('text');
    const labels = text.data!.values as PriceLabel[];
    expectSeparate(points, labels);
    const enc = text.encoding as unknown as Record<string, { field: string; scale: null }>;
    expect([enc.x!.field, enc.y!.field, enc.text!.field]).toEqual(['textX', 'textY', 'lines']);
    expect(enc.x!.scale).toBeNull();
    expect(enc.y!.scale).toBeNull();
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

/**
 * In this process (`cliInProcess`: the same src/cli/main.ts, the same output, exit code and files), but
 * for one refusal, end to end in a CLI process of its own.
 */
describe('price --chart on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'price-chart-'));
  const PROFILES = 'examples/profiles.json';

  it('refuses a file that is no chart, in one line naming the flag, before reading the profiles; nothing written', () => {
    const file = join(dir, 'prices.txt');
    // The profiles file does not exist: the chart's refusal comes first, so it was checked before anything ran.
    // End to end in a CLI process.
    const r = cli('price', '--profiles', join(dir, 'missing.json'), '--chart', file);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^injury-lab: --chart: ".*prices\.txt" is not a chart file; allowed: a file name ending \.png, \.svg, \.vl\.json, \.html$/m);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses an existing file without --force, keeping it, and replaces it with --force', async () => {
    const kept = join(dir, 'kept.svg');
    writeFileSync(kept, 'mine');
    const r = await cliInProcess('price', '--profiles', PROFILES, '--chart', kept);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--chart: ".*kept\.svg" already exists; .*--force/);
    expect(readFileSync(kept, 'utf8')).toBe('mine');
    const forced = await cliInProcess('price', '--profiles', PROFILES, '--chart', kept, '--force', '--models', 'Unarmoured Trooper,Machine Brute');
    expect(forced.code).toBe(0);
    expect(readFileSync(kept, 'utf8')).toMatch(/^<svg/);
  });

  it('writes an SVG of the example profiles, says so on stderr, and prints the table as without it', async () => {
    const file = join(dir, 'prices.svg');
    const r = await cliInProcess('price', '--profiles', PROFILES, '--chart', file);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`injury-lab: wrote ${file}\n`);
    const svg = readFileSync(file, 'utf8');
    expect(svg).toMatch(/^<svg/);
    // The most mispriced entry of the table (its first row) is named beside its point.
    const first = /^Most mispriced first.*\n\n.*\n.*\n(.+?) {2,}/m.exec(r.stdout)![1]!;
    expect(first).toBe("Machine Brute with Executioner's Axe");
    // Drawn whole, on the lines it is wrapped onto.
    const texts = [...svg.matchAll(/<text[^>]*>(.*?)<\/text>/g)].map((m) => m[1]!.replace(/<tspan[^>]*>(.*?)<\/tspan>/g, '$1 ').trim().replaceAll('&apos;', "'"));
    expect(texts).toContain(first);
    expect(r.stdout).toBe((await cliInProcess('price', '--profiles', PROFILES)).stdout);
  });
});
