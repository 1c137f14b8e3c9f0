import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 25 part 1: `--chart FILE` on exact, simulate, sweep and compare draws the chart a report would draw
 * for what varies. The chart's data are checked against the same command's JSON answer (the bars' widths
 * and the lines' points are the probabilities it prints), and every file form against what it must be.
 */

afterAll(() => closePool());

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-chart-'));
const at = (name: string) => join(dir, name);
type Spec = { title: { text: string | string[]; subtitle: string[] }; data: { values: Record<string, unknown>[] }; layer?: unknown[] };
const spec = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Spec;
const title = (s: Spec) => [s.title.text].flat().join(' ');

describe('--chart draws the answer of one command line', () => {
  it('exact: one bar of the outcomes, each segment the exact probability, the scenario named under the title', async () => {
    const args = ['exact', '--kind', 'attack', '--armour', 'reinforced', '--injury-dice', '1'];
    const json = JSON.parse((await cliInProcess(...args, '--format', 'json')).stdout) as { outcomes: { outcome: string; probability: number }[] };
    const r = await cliInProcess(...args, '--chart', at('attack.vl.json'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote ${at('attack.vl.json')}`);
    const s = spec(at('attack.vl.json'));
    const bars = s.data.values.filter((v) => v.kind === 'bar').map((v) => v.p);
    expect(bars).toEqual(json.outcomes.map((o) => o.probability));
    expect(title(s)).toBe('Outcomes of one attack');
    expect(s.title.subtitle[0]).toBe('trench-crusade (core edition), attack: injuryDice 1, armour reinforced');
  });

  it('sweep: a numeric field gives lines; --outcome and --cumulative pick the line, whose points are the sweep\'s "or worse"', async () => {
    const args = ['sweep', '--kind', 'fall', '--vary', 'heightInches=0..9'];
    const json = JSON.parse((await cliInProcess(...args, '--format', 'json')).stdout) as { cells: { outcomes: { outcome: string; orWorse: number }[] }[] };
    const r = await cliInProcess(...args, '--chart', at('fall.vl.json'), '--outcome', 'down', '--cumulative');
    expect(r.code).toBe(0);
    const points = spec(at('fall.vl.json')).data.values.filter((v) => v.series === 'down or worse').map((v) => v.p);
    expect(points).toEqual(json.cells.map((c) => c.outcomes.find((o) => o.outcome === 'down')!.orWorse));
    // 3 inches and more make an injury roll (T16): the line leaves 0 there.
    expect(points.slice(0, 3)).toEqual([0, 0, 0]);
    expect(points[3]).toBeGreaterThan(0);
  });

  it("sweep: two fields give a heat map of the most severe outcome; the issue's d20 example draws a PNG", async () => {
    const heat = await cliInProcess('sweep', '--kind', 'injury', '--vary', 'armour=none,standard', '--vary', 'injuryDice=0..1', '--chart', at('heat.svg'));
    expect(heat.code).toBe(0);
    const svg = readFileSync(at('heat.svg'), 'utf8');
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('out of action');
    const png = await cliInProcess('sweep', '--system', 'd20-warband', '--kind', 'attack', '--pierce', '2', '--vary', 'defence=4..8', '--chart', at('d20.png'));
    expect(png.code).toBe(0);
    // The PNG signature: \x89 P N G \r \n \x1a \n.
    expect([...readFileSync(at('d20.png')).subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it('simulate: the bar is the estimate, with its interval marks; an HTML page holds the chart inline', async () => {
    const args = ['simulate', '--kind', 'injury', '--trials', '20000', '--seed', '3'];
    const json = JSON.parse((await cliInProcess(...args, '--format', 'json')).stdout) as { outcomes: { probability: number }[] };
    expect((await cliInProcess(...args, '--chart', at('sim.vl.json'))).code).toBe(0);
    const values = spec(at('sim.vl.json')).data.values;
    // An outcome that never came up has no bar (nor a place in the legend).
    expect(values.filter((v) => v.kind === 'bar').map((v) => v.p)).toEqual(json.outcomes.map((o) => o.probability).filter((p) => p > 0));
    expect(values.some((v) => v.kind === 'bound')).toBe(true);
    expect((await cliInProcess(...args, '--chart', at('sim.html'))).code).toBe(0);
    const html = readFileSync(at('sim.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<h1>Outcomes of one injury</h1>');
    expect(html).toMatch(/<svg role="img"/);
  });

  it('compare: one bar per scenario, named as the comparison names them', async () => {
    const r = await cliInProcess('compare', 'examples/standard.json', 'examples/reinforced.json', '--chart', at('compare.vl.json'));
    expect(r.code).toBe(0);
    const labels = [...new Set(spec(at('compare.vl.json')).data.values.filter((v) => v.kind === 'bar').map((v) => v.y))];
    expect(labels).toEqual(['standard armour', 'reinforced armour']);
  });
});

describe('--chart refuses what it cannot draw, in one line, before anything runs or is printed', () => {
  const refused = async (args: string[], message: RegExp, file?: string) => {
    const r = await cliInProcess(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    if (file) expect(existsSync(file)).toBe(false);
  };
  it('a file that is no chart, an existing file, the --out file', async () => {
    await refused(['exact', '--chart', at('x.jpg')], /--chart: ".*x\.jpg" is not a chart file; allowed: a file name ending \.png, \.svg, \.vl\.json, \.html/, at('x.jpg'));
    await refused(['exact', '--kind', 'attack', '--chart', at('attack.vl.json')], /--chart: ".*attack\.vl\.json" already exists; name a new file, or add --force to replace it/);
    expect((await cliInProcess('exact', '--kind', 'attack', '--chart', at('attack.vl.json'), '--force')).code).toBe(0);
    await refused(['sweep', '--vary', 'injuryDice=0..1', '--out', at('same.svg'), '--chart', at('same.svg')], /--chart: names the --out file too; name another file/, at('same.svg'));
  });
  it('an outcome the kind does not have, --outcome without a chart, an outcome on stacked bars, "or worse" of a duel', async () => {
    await refused(['sweep', '--vary', 'injuryDice=0..1', '--chart', at('o.svg'), '--outcome', 'dead'], /--outcome: "dead" is not an outcome of this kind; allowed: no-effect, minor-hit, down, out-of-action/, at('o.svg'));
    // Without --chart it picks the table's rows (test/outcome-pick.test.ts); JSON holds every outcome, so there it is refused.
    await refused(['exact', '--outcome', 'down', '--format', 'json'], /--outcome: picks rows of the table or the CSV; --format json always holds every outcome/);
    await refused(['sweep', '--vary', 'armour=none,standard', '--chart', at('b.svg'), '--outcome', 'down'], /--outcome: a chart of this grid is stacked bars, which show every outcome/, at('b.svg'));
    await refused(['exact', '--kind', 'duel', '--a', '', '--b', '', '--chart', at('d.svg'), '--cumulative'], /--cumulative: the outcomes of this kind are not ranked/, at('d.svg'));
  });
  it('three varied fields', async () => {
    await refused(
      ['sweep', '--vary', 'armour=none,standard', '--vary', 'injuryDice=0..1', '--vary', 'shield=false,true', '--chart', at('3.svg')],
      /--chart: a chart of 3 varied fields needs to be told which goes where; name them, e\.g\. --chart-type heatmap --x injuryDice --y armour --facet shield/,
      at('3.svg'),
    );
  });
});
