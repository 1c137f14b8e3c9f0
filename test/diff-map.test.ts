import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51 item 1, for diff: `--chart-type heatmap|lines` with `--x`, `--y`/`--series`, `--facet` lays
 * one outcome's change out over two fields of the diff's grid, the other fields held at their defaults,
 * a panel per kind that varies them. Each drawn change is checked against the diff's own JSON cells.
 */

afterAll(() => closePool());

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-diff-map-'));
const variant = 'examples/variants/out-of-action-on-10.json';
type Row = { x: string; y?: string; series?: string; facet?: string; p: number };
type DiffJson = { cells: { kind: string; values: Record<string, unknown>; outcomes: { outcome: string; changePoints: number }[] }[] };
const signed = (v: unknown) => (typeof v === 'number' && v > 0 ? `+${v}` : String(v));

describe('diff lays a change out over two fields of its grid', () => {
  it('a heat map of out of action over armour x injury dice: a panel per kind, shield, Tough, Down and attack dice at their defaults', async () => {
    const json = JSON.parse((await cliInProcess('diff', 'core', variant, '--format', 'json')).stdout) as DiffJson;
    const r = await cliInProcess('diff', 'core', variant, '--chart-type', 'heatmap', '--x', 'injuryDice', '--y', 'armour', '--chart', join(dir, 'map.vl.json'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('held at their defaults: shield false, tough false, targetDown false, attackDice 0');
    const rows = (JSON.parse(readFileSync(join(dir, 'map.vl.json'), 'utf8')) as { data: { values: Row[] } }).data.values;
    const plain = (c: DiffJson['cells'][number]) => c.values.shield === false && c.values.tough === false && c.values.targetDown === false && (c.values.attackDice ?? 0) === 0;
    const expected = json.cells.filter((c) => 'armour' in c.values && 'injuryDice' in c.values && plain(c));
    // injury, attack and sequence: 4 armours x 5 injury dice each.
    expect(new Set(expected.map((c) => c.kind))).toEqual(new Set(['injury', 'attack', 'sequence']));
    expect(rows).toHaveLength(expected.length);
    for (const c of expected) {
      const row = rows.find((x) => x.facet === c.kind && x.y === c.values.armour && x.x === signed(c.values.injuryDice))!;
      expect(row.p * 100).toBeCloseTo(c.outcomes.find((o) => o.outcome === 'out-of-action')!.changePoints, 10);
    }
  });

  it('lines of Down, one per armour, a panel per kind; a duel\'s two sides as a heat map', async () => {
    const lines = await cliInProcess('diff', 'core', variant, '--chart-type', 'lines', '--x', 'injuryDice', '--series', 'armour', '--facet', 'kind', '--outcome', 'down', '--chart', join(dir, 'lines.vl.json'));
    expect(lines.code).toBe(0);
    const spec = JSON.parse(readFileSync(join(dir, 'lines.vl.json'), 'utf8')) as { title: { text: string[] }; data: { values: Row[] } };
    expect(spec.title.text.join(' ')).toMatch(/^Down: /);
    expect(new Set(spec.data.values.map((v) => v.series))).toEqual(new Set(['none', 'standard', 'reinforced', 'machine']));
    const duel = await cliInProcess('diff', 'core', variant, '--x', 'a', '--y', 'b', '--chart', join(dir, 'duel.vl.json'));
    expect(duel.code).toBe(0);
    // Four archetypes a side; a duel's default outcome is its first, a wins.
    expect((JSON.parse(readFileSync(join(dir, 'duel.vl.json'), 'utf8')) as { data: { values: Row[] } }).data.values).toHaveLength(16);
  });

  const refused: [string, string[], RegExp][] = [
    ['one field named', ['--chart-type', 'heatmap', '--x', 'injuryDice'], /^injury-lab: --chart-type: heatmap: a diff's grid has cells of several kinds and fields, so its chart is told which two to lay out/],
    ['a field the grid does not vary', ['--x', 'injurydice', '--y', 'armour'], /^injury-lab: --x: "injurydice" is not a field this diff's grid varies \(did you mean "injuryDice"\?\)/],
    ['fields no kind varies together', ['--x', 'attackDice', '--y', 'a'], /^injury-lab: --chart-type: no kind of this diff's grid varies "attackDice" and "a" together/],
    ['a field on bars', ['--chart-type', 'bars', '--x', 'armour'], /^injury-lab: --x: a diff's bars are its largest moves, one per cell and outcome: no field goes on them/],
  ];
  it.each(refused)('refused in one line, no file: %s', async (_, flags, message) => {
    const file = join(dir, `refused-${flags.join('')}.svg`);
    const r = await cliInProcess('diff', 'core', variant, ...flags, '--chart', file);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });
});
