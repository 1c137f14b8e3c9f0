import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { percent } from '../src/text.js';
import { outcomeLabel } from '../src/labels.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51 item 2: --cumulative with a chart of stacked bars draws "this or worse" instead of being
 * refused: the segments laid most severe first, so each outcome's segment ends at the chance of it or
 * worse, labelled there. Checked against the same sweep's "or worse" column.
 */

afterAll(() => closePool());

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-or-worse-'));
type Row = { kind: string; y: string; outcome: string; x0: number; x1: number; label: string; lo?: number; hi?: number };
type Spec = { title: { text: string; subtitle: string[] }; data: { values: Row[] } };
type SweepJson = { outcomes: string[]; cells: { labels: string[]; outcomes: { outcome: string; orWorse?: number; orWorseEstimate?: number }[] }[] };

const grid = ['sweep', '--kind', 'attack', '--vary', 'armour=none,standard,reinforced'];

describe('stacked bars of "this or worse"', () => {
  it('each segment ends at its outcome\'s "or worse", labelled there; the most severe starts the bar', async () => {
    const json = JSON.parse((await cliInProcess(...grid, '--format', 'json')).stdout) as SweepJson;
    const r = await cliInProcess(...grid, '--cumulative', '--chart', join(dir, 'bars.vl.json'));
    expect(r.code).toBe(0);
    const spec = JSON.parse(readFileSync(join(dir, 'bars.vl.json'), 'utf8')) as Spec;
    expect(spec.title.text).toContain('this or worse');
    expect(spec.title.subtitle.join(' ')).toContain('most severe on the left');
    const mildest = json.outcomes[0]!;
    const worst = json.outcomes[json.outcomes.length - 1]!;
    for (const cell of json.cells) {
      const bars = spec.data.values.filter((v) => v.kind === 'bar' && v.y === cell.labels[0]);
      expect(bars.find((b) => b.outcome === outcomeLabel(worst))!.x0).toBe(0);
      for (const o of cell.outcomes) {
        const bar = bars.find((b) => b.outcome === outcomeLabel(o.outcome));
        if (!bar) continue;
        expect(bar.x1).toBeCloseTo(o.orWorse!, 12);
        // Wide enough segments carry the "or worse" figure; the mildest's (every attack) is not written.
        if (o.outcome === mildest) expect(bar.label).toBe('');
        else if (bar.x1 - bar.x0 >= 0.06) expect(bar.label).toBe(percent(o.orWorse!, 1));
      }
    }
  });

  it('--chart-type bars --cumulative, simulated: each boundary\'s interval holds its "or worse" estimate', async () => {
    const args = [...grid, '--trials', '2e4', '--no-exact'];
    const json = JSON.parse((await cliInProcess(...args, '--format', 'json')).stdout) as SweepJson;
    const r = await cliInProcess(...args, '--cumulative', '--chart-type', 'bars', '--chart', join(dir, 'sim.vl.json'));
    expect(r.code).toBe(0);
    const bounds = (JSON.parse(readFileSync(join(dir, 'sim.vl.json'), 'utf8')) as Spec).data.values.filter((v) => v.kind === 'bound');
    expect(bounds.length).toBeGreaterThan(0);
    for (const cell of json.cells) {
      const estimates = cell.outcomes.slice(1).map((o) => o.orWorseEstimate!).filter((e) => e > 0);
      const mine = bounds.filter((b) => b.y === cell.labels[0]);
      expect(mine).toHaveLength(estimates.length);
      for (const e of estimates) expect(mine.some((b) => b.lo! <= e && e <= b.hi!)).toBe(true);
    }
  });
});
