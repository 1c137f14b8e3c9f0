import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51 item 1: the chart you meant. `--chart-type lines|bars|heatmap` with `--x`, `--y`, `--series`
 * and `--facet` lay out sweep's, compare's and solve's chart, checked as a report's chart is. Each drawn
 * chart's data are checked against the same command's JSON answer; each refusal is one line, no file.
 */

afterAll(() => closePool());

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-layout-'));
const at = (name: string) => join(dir, name);
type Encoding = Record<string, { field?: string; title?: string } | undefined>;
type Spec = { data: { values: Record<string, unknown>[] }; layer?: { mark: unknown; encoding?: Encoding }[]; facet?: { field: string; title: string }; spec?: { layer?: { mark: unknown; encoding?: Encoding }[] } };
const spec = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Spec;
const layers = (s: Spec) => s.layer ?? s.spec?.layer ?? [];
/** The interpolation of the chart's line marks (undefined where a line joins its points straight). */
const interpolation = (s: Spec) => layers(s).flatMap((l) => (typeof l.mark === 'object' && l.mark !== null && (l.mark as { type?: string }).type === 'line' ? [(l.mark as { interpolate?: string }).interpolate] : []));

const attackGrid = ['sweep', '--kind', 'attack', '--vary', 'armour=none,standard,reinforced', '--vary', 'injuryDice=0..2'];

describe('--chart-type and the axes lay out a grid chart', () => {
  it('sweep: "out of action against injury dice, one line per armour", each point the sweep\'s exact probability', async () => {
    const json = JSON.parse((await cliInProcess(...attackGrid, '--format', 'json')).stdout) as { cells: { labels: string[]; outcomes: { outcome: string; probability: number }[] }[] };
    const r = await cliInProcess(...attackGrid, '--chart-type', 'lines', '--x', 'injuryDice', '--series', 'armour', '--chart', at('lines.vl.json'));
    expect(r.code).toBe(0);
    const points = spec(at('lines.vl.json')).data.values.filter((v) => typeof v.p === 'number');
    // One point per cell (3 armours x 3 dice), on the armour's line at the dice's x.
    expect(points).toHaveLength(9);
    for (const cell of json.cells) {
      const [armour, dice] = cell.labels;
      const point = points.find((p) => p.series === armour && String(p.x) === String(Number(dice)));
      expect(point?.p).toBe(cell.outcomes.find((o) => o.outcome === 'out-of-action')!.probability);
    }
  });

  it('a heat map takes --series as its rows; the field left goes on the channel left (the x axis)', async () => {
    const r = await cliInProcess(...attackGrid, '--chart-type', 'heatmap', '--series', 'injuryDice', '--chart', at('heat.vl.json'));
    expect(r.code).toBe(0);
    const s = spec(at('heat.vl.json'));
    const encoding = layers(s)[0]!.encoding!;
    expect(encoding.y!.title).toBe('Injury dice');
    expect(encoding.x!.title).toBe('Armour');
  });

  it('three varied fields: named, or with the type alone, the third goes into panels', async () => {
    const three = [...attackGrid, '--vary', 'shield=false,true'];
    const named = await cliInProcess(...three, '--chart-type', 'lines', '--x', 'injuryDice', '--series', 'armour', '--facet', 'shield', '--chart', at('three.vl.json'));
    expect(named.code).toBe(0);
    expect(spec(at('three.vl.json')).facet!.title).toBe('Shield');
    const typeAlone = await cliInProcess(...three, '--chart-type', 'heatmap', '--chart', at('three-heat.vl.json'));
    expect(typeAlone.code).toBe(0);
    // The default heat map's order: the first field down the rows, the second across, the third in panels.
    expect(spec(at('three-heat.vl.json')).facet!.title).toBe('Shield');
  });

  it('stacked bars of a numeric field where the default is lines; lines of a field that is not numeric', async () => {
    const bars = await cliInProcess('sweep', '--kind', 'fall', '--vary', 'heightInches=0..6', '--chart-type', 'bars', '--chart', at('bars.vl.json'));
    expect(bars.code).toBe(0);
    expect(spec(at('bars.vl.json')).data.values.some((v) => v.kind === 'bar')).toBe(true);
    const lines = await cliInProcess('sweep', '--kind', 'attack', '--vary', 'armour=none,standard,reinforced', '--chart-type', 'lines', '--chart', at('armour-lines.vl.json'));
    expect(lines.code).toBe(0);
    expect(spec(at('armour-lines.vl.json')).data.values.filter((v) => v.x === 'reinforced').length).toBeGreaterThan(0);
  });

  it('compare: the scenarios as lines', async () => {
    const r = await cliInProcess('compare', 'armour=none', 'armour=standard', '--chart-type', 'lines', '--chart', at('compare.vl.json'));
    expect(r.code).toBe(0);
    expect(new Set(spec(at('compare.vl.json')).data.values.map((v) => v.x))).toEqual(new Set(['armour=none', 'armour=standard']));
  });

  it("solve: the condition's outcome, \"or worse\" as it says, along the field searched", async () => {
    const args = ['solve', '--kind', 'attack', '--vary', 'injuryDice=0..3', '--where', 'down+<=50%'];
    const json = JSON.parse((await cliInProcess(...args, '--format', 'json')).stdout) as { values: { probability: number }[] };
    const r = await cliInProcess(...args, '--chart', at('solve.vl.json'));
    expect(r.code).toBe(0);
    const points = spec(at('solve.vl.json')).data.values.filter((v) => v.series === 'down or worse').map((v) => v.p);
    expect(points).toEqual(json.values.map((v) => v.probability));
  });
});

describe('a fall is drawn in steps', () => {
  // A fall's chance holds from one whole threshold to the next (+1 injury dice per full 3 inches), so
  // its lines step (the field declares `steps`); injury dice, a count with nothing between, join straight.
  it('by height: step-after, with or without a series; by injury dice: straight', async () => {
    expect((await cliInProcess('sweep', '--kind', 'fall', '--vary', 'heightInches=0..9', '--chart', at('fall.vl.json'))).code).toBe(0);
    expect(interpolation(spec(at('fall.vl.json')))).toContain('step-after');
    const series = await cliInProcess('sweep', '--kind', 'fall', '--vary', 'heightInches=0..9', '--vary', 'armour=none,standard', '--chart-type', 'lines', '--chart', at('fall-series.vl.json'));
    expect(series.code).toBe(0);
    expect(interpolation(spec(at('fall-series.vl.json')))).toContain('step-after');
    expect((await cliInProcess('sweep', '--kind', 'injury', '--vary', 'injuryDice=0..3', '--chart', at('dice.vl.json'))).code).toBe(0);
    expect(interpolation(spec(at('dice.vl.json'))).every((i) => i === undefined || i === 'linear')).toBe(true);
  });
});

describe('a layout that cannot be drawn is one line, and no file', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown type', ['--chart-type', 'heatmpa'], /^injury-lab: --chart-type: "heatmpa" is not a chart type \(did you mean "heatmap"\?\); allowed: lines, bars, heatmap$/],
    ['a field not varied', ['--x', 'armor'], /^injury-lab: --x: "armor" is not a field this run varies \(did you mean "armour"\?\); allowed: armour, injuryDice$/],
    ["a lines chart's y", ['--chart-type', 'lines', '--y', 'armour'], /^injury-lab: --y: a lines chart's y axis is the chance; allowed with --chart-type lines: --x, --series, --facet$/],
    ['one field on two channels', ['--chart-type', 'lines', '--x', 'armour', '--series', 'armour'], /^injury-lab: --series: "armour" is named for another channel too/],
    ['a heat map of one field', ['--chart-type', 'heatmap'], /^injury-lab: --chart-type: heatmap: a heat map needs two varied fields/],
    ['one outcome of stacked bars', ['--chart-type', 'bars', '--outcome', 'down'], /^injury-lab: --outcome: stacked bars show every outcome/],
  ];
  it.each(cases)('%s', async (_, flags, message) => {
    const file = at(`refused-${flags.join('')}.svg`);
    const vary = flags.includes('heatmap') && flags.length === 2 ? ['--vary', 'armour=none,standard'] : ['--vary', 'armour=none,standard', '--vary', 'injuryDice=0..1'];
    const r = await cliInProcess('sweep', '--kind', 'attack', ...vary, ...flags, '--chart', file);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(message);
    expect(r.stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });

  it('a layout flag with no --chart to lay out', async () => {
    const r = await cliInProcess('sweep', '--kind', 'attack', '--vary', 'armour=none,standard', '--x', 'armour');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('injury-lab: --x: lays out the --chart, and no --chart FILE is given; add --chart FILE (.png, .svg, .vl.json, .html)');
  });
});
