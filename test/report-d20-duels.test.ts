import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cell } from '../src/analysis/sweep.js';
import { evaluateExact } from '../src/evaluate.js';
import { closePool } from '../src/pool/simulate.js';
import { loadReportDef } from '../src/present/report/definition.js';
import { runReport, type ReportRun } from '../src/present/report/run.js';

/**
 * Issue 24, "Everywhere": reports/d20-duels.json, the d20 warband's matchup matrix, run by `npm start`.
 * Its cells are checked against the same duel written out and answered alone, and the a-first matrix
 * against the b-first one mirrored (the rules treat the two units alike).
 */

let run: ReportRun;
beforeAll(async () => {
  run = await runReport(loadReportDef('reports/d20-duels.json'), { png: false });
}, 120_000);
afterAll(() => closePool());

const analysis = (id: string) => run.analyses.find((a) => a.def.id === id)!;
const cellOf = (id: string, a: string, b: string): Cell => analysis(id).sweep.cells.find((c) => c.labels[0] === a && c.labels[1] === b)!;
const exactOf = (cell: Cell) => Object.fromEntries(cell.outcomes.map((o) => [o.outcome, o.exact]));

describe('reports/d20-duels.json', () => {
  it('gives each cell the duel of its two units, as the duel written out and answered alone gives it', () => {
    const direct = (first: 'a' | 'b', a: Record<string, unknown>, b: Record<string, unknown>) =>
      Object.fromEntries(evaluateExact({ system: 'd20-warband', kind: 'duel', rounds: 10, first, a, b }).outcomes.map((o) => [o.outcome, o.exact]));
    expect(exactOf(cellOf('a-first', 'brute (2 attacks, injury +2)', 'hardy (3 wounds)'))).toEqual(direct('a', { attacks: 2, injury: 2 }, { wounds: 3 }));
    expect(exactOf(cellOf('b-first', 'skilled (Melee 7)', 'armoured (Defence 7)'))).toEqual(direct('b', { stat: 7 }, { defence: 7 }));
  });

  it('is the same duel seen from the other side when the units swap places and the other goes first; the simulated cells agree', () => {
    for (const cell of analysis('a-first').sweep.cells) {
      const mirror = cellOf('b-first', cell.labels[1]!, cell.labels[0]!);
      const [aWins, bWins, undecided] = ['a-wins', 'b-wins', 'undecided'].map((o) => exactOf(cell)[o]);
      expect(exactOf(mirror), cell.labels.join(' against ')).toEqual({ 'a-wins': bWins, 'b-wins': aWins, undecided });
    }
    expect(analysis('check').sweep.cells.every((c) => c.check?.passed)).toBe(true);
  });
});
