import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffRules, resolveSide } from '../src/analysis/diff.js';
import { diffChartSpec } from '../src/present/chart/diff.js';
import { findSystem } from '../src/rules/registry.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/** `diff --chart`: the largest moves drawn as the table lists them, one bar per cell and outcome, in points. */

const tc = findSystem('trench-crusade')!;
const OOA_FILE = 'examples/variants/out-of-action-on-10.json';
const core = resolveSide('core', tc);
const ooaOn10 = resolveSide(OOA_FILE, tc);
/** One injury roll (2D6, no injury dice) against three armours: every move worked out by hand below. */
const armourGrid = [{ scenario: { kind: 'injury', injuryDice: 0 }, vary: [{ field: 'armour', values: ['none', 'standard', 'reinforced'] }] }];

interface Row {
  readonly lines: string[];
  readonly moved: string;
  readonly pts: number;
  readonly colour: string;
  readonly tip: string;
}
const rowsOf = (spec: Record<string, unknown>) => (spec.data as { values: Row[] }).values;

describe('diff --chart draws the largest moves, each worked out by hand', () => {
  const result = diffRules(core, ooaOn10, armourGrid, 'test');

  it('Out of Action on 10+: each armour loses the 2D6 totals that were Out of Action and are Down now', () => {
    // Core: Out of Action on a modified 9+, Down 7-8; the variant 10+, Down 7-9. Armour takes 1 (standard) or 2
    // (reinforced) from the total, so the totals that move are: none 9 (4 ways of 36), standard 10 (3), reinforced 11 (2).
    const { spec } = diffChartSpec(result, { top: 20 });
    const rows = rowsOf(spec);
    expect(rows.map((r) => [r.lines, r.moved])).toEqual([
      [['injury: armour none'], 'out of action -> down'],
      [['injury: armour standard'], 'out of action -> down'],
      [['injury: armour reinforced'], 'out of action -> down'],
    ]);
    for (const [row, ways] of rows.map((r, i) => [r, [4, 3, 2][i]!] as const)) {
      expect(row.pts).toBeCloseTo((-ways / 36) * 100, 12);
      // Less likely under the variant: the falling colour, the bar on the left.
      expect(row.colour).toBe('#2166ac');
      expect(row.tip).toContain(`-> ${ways === 4 ? '1/6' : ways === 3 ? '1/12' : '1/36'}`);
    }
    const title = (spec.title as { text: string[] }).text.join(' ');
    expect(title).toBe('Out of Action on 10+ against core: all 3 moves');
  });

  it('--top keeps the largest; --outcome draws that outcome\'s own move in each cell (Down gains what Out of Action lost)', () => {
    const top2 = diffChartSpec(result, { top: 2 });
    expect(rowsOf(top2.spec).map((r) => r.lines)).toEqual([['injury: armour none'], ['injury: armour standard']]);
    expect(top2.notes).toEqual(['the 2 largest of 3 moves; --top N for more']);
    const down = rowsOf(diffChartSpec(result, { top: 20, outcome: 'down' }).spec);
    expect(down.map((r) => [r.moved, Math.round(r.pts * 36) / 100])).toEqual([
      ['down', 4],
      ['down', 3],
      ['down', 2],
    ]);
    // More likely: the rising colour.
    expect(down.every((r) => r.colour === '#b2182b')).toBe(true);
    expect(rowsOf(diffChartSpec(result, { top: 20, outcome: 'minor-hit' }).spec)).toEqual([]);
  });
});

/**
 * In this process (cliInProcess: main.ts, the same output and exit code), but for the first refusal below,
 * which runs the built CLI in a process of its own, end to end.
 */
describe('diff --chart on the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'diff-chart-'));
  const grid = join(dir, 'grid.json');
  writeFileSync(grid, JSON.stringify(armourGrid));

  it('writes the spec, prints the table narrowed by --outcome, and says on stderr what it wrote', async () => {
    const file = join(dir, 'down.vl.json');
    const r = await cliInProcess('diff', 'core', OOA_FILE, '--grid', grid, '--outcome', 'down', '--chart', file);
    expect(r.stderr).toBe(`injury-lab: wrote ${file}\n`);
    expect(r.code).toBe(0);
    const spec = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(rowsOf(spec).map((row) => row.moved)).toEqual(['down', 'down', 'down']);
    expect(r.stdout).toContain('The 3 largest moves of 3 (down only; exact on both sides; --top N for more):');
    expect(r.stdout).toMatch(/^injury +armour none +down +30\.56% +41\.67% +\+11\.11 +11\/36 -> 5\/12$/m);
    expect(r.stdout).not.toMatch(/^injury .*out-of-action/m);
  });

  it('refuses in one line, writing nothing: an unknown outcome, two outcomes for one chart, a chart file that is no chart or exists', async () => {
    const file = join(dir, 'never.svg');
    const unknown = cli('diff', 'core', OOA_FILE, '--grid', grid, '--outcome', 'dead', '--chart', file);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/^injury-lab: --outcome: "dead" is not an outcome of the cells of this diff; allowed: no-effect, minor-hit, down, out-of-action, or several separated by commas$/m);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    const two = await cliInProcess('diff', 'core', OOA_FILE, '--grid', grid, '--outcome', 'down,out-of-action', '--chart', file);
    expect(two.stderr).toMatch(/names 2 outcomes; a chart draws one/);
    const notChart = await cliInProcess('diff', 'core', OOA_FILE, '--grid', grid, '--chart', join(dir, 'chart.txt'));
    expect(notChart.stderr).toMatch(/--chart: ".*chart\.txt" is not a chart file; allowed: a file name ending \.png, \.svg, \.vl\.json, \.html/);
    for (const run of [unknown, two, notChart]) expect(run.stdout).toBe('');
    expect(existsSync(file)).toBe(false);
    const kept = join(dir, 'kept.svg');
    writeFileSync(kept, 'mine');
    const exists = await cliInProcess('diff', 'core', OOA_FILE, '--grid', grid, '--chart', kept);
    expect(exists.code).not.toBe(0);
    expect(readFileSync(kept, 'utf8')).toBe('mine');
    const json = await cliInProcess('diff', 'core', OOA_FILE, '--grid', grid, '--outcome', 'down', '--format', 'json');
    expect(json.stderr).toMatch(/--outcome: picks rows of the table or the CSV; --format json always holds every outcome/);
  });
});
