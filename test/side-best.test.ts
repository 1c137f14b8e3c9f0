import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51 item 4: a sweep over a choice a side makes in play (a duel's a.policy, a battle's b.tactic)
 * says which value serves that side best for the duel's objective, and by how much, as solve says
 * which values meet its condition. Each figure is recomputed here from the same sweep's cells.
 */

afterAll(() => closePool());

type Outcome = { outcome: string; probability?: number; estimate?: number };
type SweepJson = {
  cells: { labels: string[]; outcomes: Outcome[] }[];
  best?: { dimension: string; side: string; objective: string; best: string[]; scores: { label: string; score: number }[]; lead?: number; leadInterval?: { ciLow: number; ciHigh: number }; simulated: boolean }[];
};
const p = (cell: SweepJson['cells'][number], id: string) => cell.outcomes.find((o) => o.outcome === id)!.probability!;

const policies = ['sweep', '--kind', 'duel', '--rounds', '3', '--vary', 'a.policy=none,injury,optimal'];

describe('a sweep of a side\'s choices names the best', () => {
  it('margin (the default objective): P(a wins) - P(b wins), highest first; optimal, which plays for it, is best', async () => {
    const json = JSON.parse((await cliInProcess(...policies, '--format', 'json')).stdout) as SweepJson;
    const margins = json.cells.map((c) => ({ label: c.labels[0]!, score: p(c, 'a-wins') - p(c, 'b-wins') })).sort((x, y) => y.score - x.score);
    expect(json.best).toHaveLength(1);
    const best = json.best![0]!;
    expect(best).toMatchObject({ dimension: 'a.policy', side: 'a', objective: 'margin', simulated: false });
    expect(best.scores.map((s) => s.label)).toEqual(margins.map((m) => m.label));
    best.scores.forEach((s, i) => expect(s.score).toBeCloseTo(margins[i]!.score, 12));
    // Policy optimal maximises the margin against this opponent (its definition): nothing beats it.
    expect(best.best).toContain('optimal');
    expect(best.lead).toBeCloseTo(margins[best.best.length - 1]!.score - margins[best.best.length]!.score, 12);
    const table = (await cliInProcess(...policies)).stdout;
    const pts = (x: number) => (x * 100).toFixed(2);
    expect(table).toContain(`best for a by a.policy (margin, P(a wins) - P(b wins)): optimal at +${pts(margins[0]!.score)} points, ${pts(best.lead!)} points ahead of ${margins[1]!.label} (+${pts(margins[1]!.score)}).`);
  });

  it('objective win: P(a wins) alone; one verdict per value of the other varied field', async () => {
    const json = JSON.parse((await cliInProcess(...policies, '--objective', 'win', '--vary', 'b.armour=none,standard', '--format', 'json')).stdout) as SweepJson;
    // a.policy's verdicts (one per b.armour); b.armour is what b is, not a choice it plays: no verdict of its own.
    expect(json.best!.map((b) => b.dimension)).toEqual(['a.policy', 'a.policy']);
    for (const b of json.best!) {
      expect(b.objective).toBe('win');
      const top = Math.max(...b.scores.map((s) => s.score));
      expect(b.scores[0]!.score).toBe(top);
    }
    const scores = json.best![0]!.scores.map((s) => s.score).sort();
    const wins = json.cells.filter((c) => c.labels[1] === 'none').map((c) => p(c, 'a-wins')).sort();
    expect(scores).toEqual(wins);
  });

  it('simulated only: the lead with its 95% interval from the paired batches', async () => {
    const json = JSON.parse((await cliInProcess('sweep', '--kind', 'duel', '--rounds', '2', '--vary', 'b.policy=none,injury', '--trials', '2e4', '--no-exact', '--format', 'json')).stdout) as SweepJson;
    const b = json.best![0]!;
    expect(b.simulated).toBe(true);
    expect(b.leadInterval!.ciLow).toBeLessThanOrEqual(b.lead!);
    expect(b.leadInterval!.ciHigh).toBeGreaterThanOrEqual(b.lead!);
  });

  it('no verdict where none is asked: what a side is (its armour), or a grid with no sides', async () => {
    const armour = await cliInProcess('sweep', '--kind', 'duel', '--rounds', '2', '--vary', 'a.armour=none,standard', '--format', 'json');
    expect((JSON.parse(armour.stdout) as SweepJson).best).toBeUndefined();
    const attack = await cliInProcess('sweep', '--kind', 'attack', '--vary', 'armour=none,standard');
    expect(attack.stdout).not.toContain('best for');
  });
});
