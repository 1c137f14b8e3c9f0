import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartSpec, chartTitle } from '../src/present/chart/charts.js';
import type { VlSpec } from '../src/present/chart/definition.js';
import { sharedScaleKey } from '../src/present/chart/heatmap.js';
import { CHART_WIDTH, SERIES_COLOURS, seriesStyle } from '../src/present/chart/shared/theme.js';
import { loadReportDef, parseReportDef } from '../src/present/report/definition.js';
import { OUTCOME_COLOURS, outcomeColour, outcomeLabel, textColourOn } from '../src/labels.js';
import { percent } from '../src/text.js';
import { renderChart } from '../src/present/report/render.js';
import { reportHtml } from '../src/present/report/page.js';
import { runReport, type ReportRun } from '../src/present/report/run.js';
import { closePool } from '../src/pool/simulate.js';

/** Every chart type and option the shipped reports do not use, on small grids. */
const variants = parseReportDef(
  {
    title: 'Chart variants',
    seed: 5,
    analyses: [
      {
        id: 'three-dims',
        title: 'Three dimensions: facets',
        scenario: { kind: 'injury' },
        vary: ['armour=none,standard', 'injuryDice=0..2', 'edition=comprehensive,core'],
        simulate: { trials: 2000, batches: 2 },
        charts: [
          { type: 'lines', x: 'injuryDice', series: 'armour', facet: 'edition', outcomes: ['down'], cumulative: true },
          { type: 'heatmap', x: 'injuryDice', y: 'armour', facet: 'edition', outcome: 'out-of-action' },
        ],
      },
      {
        id: 'simulated-only',
        title: 'Simulation only, by precision',
        scenario: { kind: 'attack' },
        vary: ['armour=none,standard', 'attackType=melee,ranged'],
        exact: false,
        simulate: { precision: 0.02 },
        charts: [
          { type: 'heatmap', x: 'attackType', y: 'armour', outcome: 'out-of-action' },
          { type: 'stacked-bars', y: 'armour', facet: 'attackType' },
          { type: 'lines', x: 'armour', series: 'attackType', outcomes: ['down'] },
        ],
      },
      {
        id: 'one-dim',
        title: 'One categorical dimension, default charts',
        scenario: { kind: 'attack' },
        vary: ['armour=none,standard,reinforced,machine'],
      },
    ],
  },
  'variants.json',
);

const runs: ReportRun[] = [];

beforeAll(async () => {
  const defs = [...readdirSync('reports').filter((f) => f.endsWith('.json')).map((f) => loadReportDef(join('reports', f))), variants];
  // The specs and SVG of every chart; the PNG of a few (below): resvg drawing them all took a third of this file's time.
  // All at once: one report's charts are drawn on this thread while the pools' threads solve another's cells.
  runs.push(...(await Promise.all(defs.map((def) => runReport(def, { png: false })))));
}, 120_000);
afterAll(() => closePool());

const allCharts = () => runs.flatMap((r) => r.analyses.flatMap((a) => a.charts.map((c) => ({ report: r.def.id, ...c }))));

describe('Vega-Lite charts', () => {
  it("a lines chart labels each value of its x axis as given, never rounded to its ticks' step", () => {
    // reports/trench-battles.json's share of shots into cover: 0, 0.25, 0.5, 0.75, 1 (vega alone labels 0.25 as 0.3).
    const cover = allCharts().find((c) => c.report === 'trench-battles' && c.def.file === 'cover-lines')!;
    const labels = [...cover.rendered.svg.matchAll(/>(0\.\d+|0|1)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(expect.arrayContaining(['0', '0.25', '0.5', '0.75', '1']));
    expect(labels).not.toContain('0.3');
  });

  it('every emitted spec compiles with vega-lite and renders with vega without warnings', async () => {
    const charts = allCharts();
    expect(charts.length).toBeGreaterThan(25);
    for (const c of charts) {
      expect({ chart: `${c.report}/${c.def.file}`, warnings: c.rendered.warnings }).toEqual({ chart: `${c.report}/${c.def.file}`, warnings: [] });
      expect(c.rendered.svg).toMatch(/^<svg[^>]+viewBox/);
    }
    // The file as written (JSON) is the spec: render it again from its text.
    const again = await renderChart(JSON.parse(JSON.stringify(charts[0]!.spec)) as VlSpec);
    expect(again.warnings).toEqual([]);
  });

  it("are planned for the page's column: no chart is much wider nor much narrower, and the PNG is the SVG at twice the size", async () => {
    expect(CHART_WIDTH).toBeGreaterThanOrEqual(1000);
    for (const c of allCharts()) {
      expect(c.rendered.width, c.def.file).toBeGreaterThan(600);
      expect(c.rendered.width, c.def.file).toBeLessThanOrEqual(CHART_WIDTH + 20);
    }
    // One chart of each type, drawn to PNG as reports draw them.
    const oneOfEach = [...new Map(allCharts().map((c) => [c.def.type, c])).values()];
    expect(oneOfEach.length).toBeGreaterThanOrEqual(4);
    for (const c of oneOfEach) {
      const png = (await renderChart(c.spec)).png;
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBe(Math.ceil(c.rendered.width * 2));
    }
  });

  it('have a title, axis titles and units where the definition gives them', () => {
    for (const c of allCharts()) {
      const title = (c.spec.title as { text: string | string[] }).text;
      expect(String(title).length, c.def.file).toBeGreaterThan(5);
    }
    const falls = runs.find((r) => r.def.id === 'trench-falls')!.analyses[0]!.charts[0]!;
    expect(falls.rendered.svg).toContain('Fall height (inches)');
  });

  it('give each outcome the same colour in every chart: out of action is always the same dark red', () => {
    const seen = new Map<string, Set<string>>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      const scale = o.scale as { domain?: unknown[]; range?: unknown[] } | undefined;
      if (o.field === 'outcome' || (o.field === 'series' && scale?.domain?.some((d) => String(d).includes('or worse') || String(d) === 'out of action'))) {
        scale?.domain?.forEach((d, i) => {
          const key = String(d).replace(/ or worse$/, '');
          seen.set(key, (seen.get(key) ?? new Set()).add(String(scale.range![i])));
        });
      }
      Object.values(o).forEach(visit);
    };
    for (const c of allCharts()) visit(c.spec);
    expect(seen.get('out of action')).toEqual(new Set([OUTCOME_COLOURS['out-of-action']]));
    for (const [outcome, colours] of seen) expect({ outcome, colours: [...colours] }).toEqual({ outcome, colours: [outcomeColour(outcome.replace(/ /g, '-'))] });
    // Heat maps of an outcome end their ramp in that outcome's colour.
    const heat = allCharts().find((c) => c.def.type === 'heatmap' && 'outcome' in c.def && c.def.outcome === 'out-of-action' && !('differenceFrom' in c.def && c.def.differenceFrom))!;
    expect(JSON.stringify(heat.spec)).toContain(OUTCOME_COLOURS['out-of-action']);
  });

  it('write labels in a colour that reads on their background', () => {
    expect(textColourOn(OUTCOME_COLOURS['out-of-action']!)).toBe('#ffffff');
    expect(textColourOn(OUTCOME_COLOURS['minor-hit']!)).toBe('#111111');
    expect(textColourOn(OUTCOME_COLOURS['no-effect']!)).toBe('#111111');
  });

  it('show error bars where values are simulated, and none where they are only exact', () => {
    const bars = (s: VlSpec) => JSON.stringify(s).includes('"errorbar"');
    const armour = runs.find((r) => r.def.id === 'trench-armour')!;
    expect(armour.analyses[0]!.charts.some((c) => bars(c.spec))).toBe(true);
    const plain = runs.find((r) => r.def.id === 'trench-editions')!.analyses.find((a) => a.def.id === 'plain')!;
    expect(plain.charts.some((c) => bars(c.spec))).toBe(false);
    // A heat map of estimates only labels each cell with its interval.
    const simOnly = runs.find((r) => r.def.id === 'variants')!.analyses.find((a) => a.def.id === 'simulated-only')!;
    expect(JSON.stringify(simOnly.charts[0]!.spec)).toMatch(/"label":"[\d.]+% ±[\d.]+"/);
  });

  it('tell on hover, for every mark, its exact fraction, and its estimate and interval where simulated', () => {
    const oneDim = runs.find((r) => r.def.id === 'variants')!.analyses.find((a) => a.def.id === 'one-dim')!;
    const bars = oneDim.charts.find((c) => c.def.type === 'stacked-bars')!;
    const titles = [...bars.rendered.svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    // One title per drawn segment: every outcome of every cell that can happen somewhere, each naming its row.
    let expected = 0;
    for (const cell of oneDim.sweep.cells) {
      for (const o of cell.outcomes) {
        if (o.probability === 0 && oneDim.sweep.cells.every((c) => c.outcomes.find((x) => x.outcome === o.outcome)?.probability === 0)) continue;
        expected++;
        expect(titles).toContain(`${cell.labels.join(', ')}: ${outcomeLabel(o.outcome)} ${percent(o.probability!, 2)} = ${o.exact}`);
      }
    }
    expect(titles).toHaveLength(expected);
    const both = runs.find((r) => r.def.id === 'trench-armour')!.analyses[0]!.charts[0]!.rendered.svg;
    expect(both).toMatch(/<title>[^<]* = \d+\/\d+; simulated [\d.]+% \(95% [\d.]+%-[\d.]+%\)<\/title>/);
    const simOnly = runs.find((r) => r.def.id === 'variants')!.analyses.find((a) => a.def.id === 'simulated-only')!.charts[0]!.rendered.svg;
    expect(simOnly).toMatch(/<title>[^<]*: out of action [\d.]+% simulated \(95% [\d.]+%-[\d.]+%\)<\/title>/);
    expect(simOnly).not.toMatch(/<title>[^<]*=/);
  });

  it('note lines that lie on top of each other', () => {
    const armour = runs.find((r) => r.def.id === 'trench-armour')!.analyses[0]!;
    const lines = armour.charts.find((c) => c.def.type === 'lines')!;
    expect((lines.spec.title as { subtitle: string[] }).subtitle.join(' ')).toContain('none + shield = standard');
  });

  it('draw every legend title whole: none cut with an ellipsis ("Chance of at lea...")', () => {
    const legendTitles = (node: unknown): string[] => {
      if (Array.isArray(node)) return node.flatMap(legendTitles);
      if (!node || typeof node !== 'object') return [];
      const o = node as Record<string, unknown>;
      const own = ['color', 'strokeDash'].flatMap((k) => {
        const t = (o[k] as { title?: unknown } | undefined)?.title;
        return typeof t === 'string' ? [t] : Array.isArray(t) ? t.map(String) : [];
      });
      return [...own, ...Object.values(o).flatMap(legendTitles)];
    };
    const checked = allCharts().filter((c) => legendTitles(c.spec).length > 0);
    expect(checked.some((c) => legendTitles(c.spec).includes('Chance of at least'))).toBe(true);
    for (const c of checked) for (const t of legendTitles(c.spec)) expect({ chart: c.def.file, drawn: c.rendered.svg.includes(`>${t.replace(/&/g, '&amp;')}<`) }).toEqual({ chart: c.def.file, drawn: true });
  });

  it('have titles that tell apart every chart of a report', () => {
    for (const r of runs) {
      const titles = r.analyses.flatMap((a) => a.charts.map((c) => chartTitle(c.spec)));
      const repeated = titles.filter((t, i) => titles.indexOf(t) !== i);
      expect({ report: r.def.id, repeated }).toEqual({ report: r.def.id, repeated: [] });
    }
    // Charts alike but for their analysis's scenario are told apart by the analysis.
    const editions = runs.find((r) => r.def.id === 'trench-editions')!;
    const protectedBars = editions.analyses.find((a) => a.def.id === 'protected')!.charts.find((c) => c.def.type === 'stacked-bars')!;
    expect(chartTitle(protectedBars.spec)).toContain('A heavily protected target');
  });

  it('name what a bar is: a sequence of attacks or turns, not a roll', () => {
    const axisTitle = (report: string, analysis: string) => {
      const a = runs.find((r) => r.def.id === report)!.analyses.find((x) => x.def.id === analysis)!;
      return JSON.stringify(a.charts.find((c) => c.def.type === 'stacked-bars')!.spec);
    };
    expect(axisTitle('trench-tough', 'ten-attacks')).toContain('Share of sequences of 10 attacks');
    expect(axisTitle('d20-turns', 'after-five')).toContain('Share of sequences of 5 turns');
    expect(axisTitle('trench-armour', 'attack')).toContain('Share of rolls');
  });

  it('fill every row of panels, so no empty panel is drawn: 4 panels in 2 rows of 2, not 3 and 1', () => {
    const tough = runs.find((r) => r.def.id === 'trench-tough')!.analyses.find((a) => a.def.id === 'curves')!;
    const curves = tough.charts.find((c) => c.def.type === 'lines')!.spec;
    expect(curves.columns).toBe(2);
  });

  it('leave out of the legend an outcome at 0% in every cell, and say so', () => {
    const defence = runs.find((r) => r.def.id === 'd20-defence')!;
    const bars = defence.analyses.flatMap((a) => a.charts).find((c) => c.def.type === 'stacked-bars')!;
    const text = JSON.stringify(bars.spec);
    expect(text).not.toContain('"staggered"');
    expect(chartTitle(bars.spec)).not.toContain('staggered');
    expect((bars.spec.title as { subtitle: string[] }).subtitle.join(' ')).toContain('Left out of the legend, at 0% in every cell: staggered.');
  });

  it('say "no Defence roll" for a d20 Defence of "-", not a bare dash', () => {
    const defence = runs.find((r) => r.def.id === 'd20-defence')!;
    for (const c of defence.analyses.flatMap((a) => a.charts)) {
      expect(JSON.stringify(c.spec), c.def.file).toContain('no Defence roll');
      expect(JSON.stringify(c.spec), c.def.file).not.toMatch(/"(y|x|series|facet)":"-"/);
    }
  });

  it('give every line of a chart its own colour and dash, and no two series one colour within the palette', () => {
    let checked = 0;
    for (const c of allCharts()) {
      const layers = ((c.spec.spec as VlSpec | undefined)?.layer ?? c.spec.layer) as { encoding?: Record<string, { scale?: { range?: unknown[] } }> }[] | undefined;
      const line = layers?.[0]?.encoding;
      if (c.def.type !== 'lines' || !line?.strokeDash) continue;
      const colours = line.color!.scale!.range!.map(String);
      const styles = colours.map((colour, i) => `${colour} ${JSON.stringify(line.strokeDash!.scale!.range![i])}`);
      expect(new Set(styles).size, c.def.file).toBe(styles.length);
      expect(new Set(colours).size, c.def.file).toBe(Math.min(colours.length, 8));
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('style series so that none looks like another: unique colour x dash, and colours far apart', () => {
    const styles = Array.from({ length: SERIES_COLOURS.length * 4 }, (_, i) => JSON.stringify(seriesStyle(i)));
    expect(new Set(styles).size).toBe(styles.length);
    const rgb = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
    for (const [i, a] of SERIES_COLOURS.entries())
      for (const b of SERIES_COLOURS.slice(i + 1)) expect({ a, b, far: Math.hypot(...rgb(a).map((v, k) => v - rgb(b)[k]!)) > 50 }).toEqual({ a, b, far: true });
  });

  it('colour the heat maps of one outcome in one report on one scale', () => {
    const domainOf = (spec: VlSpec) => {
      const layers = ((spec.spec as VlSpec | undefined)?.layer ?? spec.layer) as { encoding: { color: { scale: { domain: number[] } } } }[];
      return layers[0]!.encoding.color.scale.domain;
    };
    let shared = 0;
    for (const r of runs) {
      const maps = r.analyses.flatMap((a) => a.charts).filter((c) => sharedScaleKey(c.def) !== undefined);
      for (const m of maps) {
        const others = maps.filter((o) => sharedScaleKey(o.def) === sharedScaleKey(m.def));
        if (others.length > 1) shared++;
        for (const o of others) expect({ report: r.def.id, chart: o.def.file, domain: domainOf(o.spec) }).toEqual({ report: r.def.id, chart: o.def.file, domain: domainOf(m.spec) });
      }
    }
    expect(shared).toBeGreaterThan(3);
  });

  it("say why a Tough model's column of one-attack maps is at 0%", () => {
    const matrix = runs.find((r) => r.def.id === 'matrix-example')!.analyses.find((a) => a.def.id === 'one-attack')!;
    const map = matrix.charts.find((c) => c.def.type === 'heatmap' && 'outcome' in c.def && c.def.outcome === 'out-of-action')!;
    const line = expect.stringMatching(/^0% throughout for Machine Brute \(110\): Tough saves a model from its first Out of Action, so one attack never takes it out\.$/);
    expect(map.notes).toContainEqual(line);
    expect((map.spec.title as { subtitle: string[] }).subtitle.join(' ')).toContain('Tough saves a model');
    // Not where the model can be taken out: five attacks, or Down or worse.
    const five = runs.find((r) => r.def.id === 'matrix-example')!.analyses.find((a) => a.def.id === 'five-attacks')!;
    expect(five.charts.flatMap((c) => c.notes).join(' ')).not.toContain('Tough saves');
    expect(matrix.charts.find((c) => c.def.file === 'one-attack-down-or-worse')!.notes.join(' ')).not.toContain('Tough saves');
  });

  it('wrap column labels too wide for their columns onto lines, not tilt them up a third of the figure', () => {
    const matrix = runs.find((r) => r.def.id === 'matrix-example')!.analyses.find((a) => a.def.id === 'one-attack')!;
    const map = matrix.charts.find((c) => c.def.file === 'one-attack-out-of-action')!;
    const x = ((map.spec.layer as { encoding: { x: { axis: Record<string, unknown> } } }[])[0]!).encoding.x.axis;
    expect(x).toMatchObject({ labelAngle: 0 });
    expect(String(x.labelExpr)).toContain('"Unarmoured Trooper (30)": ["Unarmoured","Trooper (30)"]');
    expect(map.rendered.svg).toContain('Unarmoured');
  });

  it('link the spec as what it is: a JSON file, which opens no editor offline', () => {
    const page = reportHtml(runs.find((r) => r.def.id === 'trench-falls')!);
    expect(page).toContain('>Vega-Lite spec (JSON)</a>');
    expect(page).not.toContain('Vega editor');
  });

  it('keep the spec self-contained (data inline) so it opens in the Vega editor as it is', () => {
    for (const c of allCharts()) {
      const text = JSON.stringify(c.spec);
      expect(text).not.toMatch(/"url"\s*:/);
      expect(c.spec.$schema).toBe('https://vega.github.io/schema/vega-lite/v6.json');
    }
  });
});

describe('a chart of a sweep', () => {
  it('is built from the sweep alone, for any chart type', () => {
    const analysis = runs.find((r) => r.def.id === 'variants')!.analyses[2]!;
    const spec = chartSpec(analysis.sweep, { type: 'stacked-bars', y: 'armour', file: 'x' });
    expect(JSON.stringify(spec)).toContain('miss');
  });
});
