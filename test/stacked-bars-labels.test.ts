import { describe, expect, it } from 'vitest';
import type { SweepResult } from '../src/analysis/cells.js';
import { chartSpec } from '../src/present/chart/charts.js';
import type { ChartDef, VlSpec } from '../src/present/chart/definition.js';
import { textWidth } from '../src/present/chart/shared/text.js';
import { renderChart } from '../src/present/report/render.js';

/**
 * Issue 51, item 4: a duel's chart left side a's 0.6-2.6% share unlabelled, the number a designer
 * wants. A share too narrow to be written inside its segment (under 6%) is written outside the bar; a
 * share of exactly 0 draws no segment and gets no number; wide shares keep their inside labels as they
 * were. The sweep is made by hand so each share is the one the test needs.
 */

type Row = Record<string, unknown>;
type Layer = { transform?: { filter: string }[]; mark: { type: string }; encoding: Record<string, { field?: string }> };

/** Side a's bodies against one b, each cell's shares of a wins, b wins and undecided, as a duel sweep gives them. */
function duelSweep(cells: readonly [string, number, number, number][]): SweepResult {
  const sideA = { id: 'a', fields: ['a'], title: 'Side a', numeric: false, values: cells.map(([label]) => ({ values: [label], label })) };
  return {
    base: {},
    dimensions: [sideA],
    cells: cells.map(([label, a, b, undecided], index) => ({
      index,
      point: [index],
      labels: [label],
      scenario: { kind: 'duel' },
      layout: { trial: 'duel', unranked: true },
      exact: {},
      outcomes: [
        { outcome: 'a-wins', probability: a },
        { outcome: 'b-wins', probability: b },
        { outcome: 'undecided', probability: undecided },
      ],
      means: [],
    })),
    notAllowed: [],
    outcomes: ['a-wins', 'b-wins', 'undecided'],
    exact: true,
  } as unknown as SweepResult;
}

const bars: ChartDef = { type: 'stacked-bars', y: 'a', file: 'bars' };

// Hand-chosen shares, each summing to 1: a's narrow wins (0.6%, 2.6%), an exact 0 for b, two narrow
// shares in one bar (1.2% and 0.03%, which one decimal would print as "0.0%"), and a bar all wide.
const cells: [string, number, number, number][] = [
  ['plain', 0.006, 0.3, 0.694],
  ['tough', 0.026, 0, 0.974],
  ['machine', 0.012, 0.0003, 0.9877],
  ['two dice', 0.4, 0.35, 0.25],
];

/** Each text layer's labels, by bar: the data rows its filter keeps (the filters are plain JS expressions of `datum`). */
function textsByBar(spec: VlSpec): { inside: Map<string, string[]>; all: Map<string, string[]> } {
  const rows = (spec.data as { values: Row[] }).values;
  const inside = new Map<string, string[]>();
  const all = new Map<string, string[]>();
  for (const layer of spec.layer as Layer[]) {
    if (layer.mark.type !== 'text') continue;
    const filter = layer.transform?.[0]?.filter ?? 'true';
    const keep = new Function('datum', `return ${filter};`) as (d: Row) => boolean;
    const textField = layer.encoding.text!.field!;
    // The inside labels are the layer centred on each segment's middle.
    const isInside = layer.encoding.x!.field === 'mid';
    for (const row of rows.filter(keep)) {
      const label = String(row[textField]);
      for (const map of isInside ? [inside, all] : [all]) map.set(String(row.y), [...(map.get(String(row.y)) ?? []), label]);
    }
  }
  return { inside, all };
}

describe("stacked bars write every share's number, inside its segment or outside the bar", () => {
  const spec = chartSpec(duelSweep(cells), bars);
  const { inside, all } = textsByBar(spec);

  it('write a share too narrow to hold its number outside the bar, in the inside labels\' format', () => {
    expect(all.get('plain')!.filter((t) => t.includes('0.6%'))).toHaveLength(1);
    expect(all.get('tough')!.filter((t) => t.includes('2.6%'))).toHaveLength(1);
    expect(all.get('machine')!.filter((t) => t.includes('1.2%'))).toHaveLength(1);
    // 0.03% as one decimal would read "0.0%", as if nothing: it gets the decimals that show it.
    expect(all.get('machine')!.filter((t) => t.includes('0.03%'))).toHaveLength(1);
    expect(all.get('machine')!.join(' ')).not.toContain('0.0%');
    // Nothing narrow in the bar of wide shares: no outside text for it.
    expect(all.get('two dice')).toEqual(inside.get('two dice'));
  });

  it('write no number for a share of exactly 0', () => {
    // b never wins against the tough body: its only texts are a's 2.6% outside and undecided's 97.4% inside.
    expect(all.get('tough')).toHaveLength(2);
    expect(all.get('tough')!.join(' ')).not.toMatch(/b wins|(^|\D)0(\.0)?%/);
  });

  it('keep the inside labels of wide shares as they were: one decimal, centred in the segment', () => {
    expect(Object.fromEntries(inside)).toEqual({
      plain: ['30.0%', '69.4%'],
      tough: ['97.4%'],
      machine: ['98.8%'],
      'two dice': ['40.0%', '35.0%', '25.0%'],
    });
  });

  it('place the outside numbers right of the bar\'s end, each clear of the one before it in the same bar', () => {
    const rows = (spec.data as { values: Row[] }).values.filter((r) => r.kind === 'outside');
    expect(rows.length).toBe(4);
    const width = spec.width as number;
    for (const y of new Set(rows.map((r) => r.y))) {
      const ofBar = rows.filter((r) => r.y === y).sort((p, q) => (p.textAt as number) - (q.textAt as number));
      // Every bar ends at 100% (x = 1): nothing outside starts within the plot, where the inside labels are.
      for (const r of ofBar) expect(Math.min(r.swatchAt as number, r.textAt as number)).toBeGreaterThan(1);
      // The next share's swatch starts past this share's text, measured as vega measures it (0.8 em a character).
      for (let i = 1; i < ofBar.length; i++) {
        const endOfText = (ofBar[i - 1]!.textAt as number) * width + textWidth(String(ofBar[i - 1]!.label), 11);
        expect((ofBar[i]!.swatchAt as number) * width).toBeGreaterThan(endOfText);
      }
    }
  });

  it('draw the outside numbers within the chart\'s planned width, with no warning from vega', async () => {
    const withNarrow = await renderChart(spec, { png: false });
    const allWide = await renderChart(chartSpec(duelSweep([['plain', 0.3, 0.3, 0.4], ['two dice', 0.4, 0.35, 0.25]]), bars), { png: false });
    expect(withNarrow.warnings).toEqual([]);
    expect(withNarrow.svg).toContain('a wins 0.6%');
    // The column of outside numbers takes its room from the plot: the chart is as wide as one without it.
    expect(Math.abs(withNarrow.width - allWide.width)).toBeLessThanOrEqual(2);
  });
});
