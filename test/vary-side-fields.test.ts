import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { sweepDimensions, planGrid } from '../src/analysis/sweep.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 38 item 1: a duel's side fields varied in a grid. "a.policy" varies side a's field, "sides.armour"
 * both sides' at once, "a.weapon" a side's weapon of the profiles. Each cell must be the duel written out
 * by hand with that value in that side: its exact fractions are evaluateExact's of that scenario, so a
 * value put in the wrong side, or in no side, fails.
 */

type Outcome = { outcome: string; exact: string };
const exactOf = (outcomes: readonly Outcome[]) => Object.fromEntries(outcomes.map((o) => [o.outcome, o.exact]));
const byHand = (scenario: Record<string, unknown>) => exactOf(evaluateExact(scenario).outcomes);

async function json(...args: string[]): Promise<{ cells: { values: Record<string, unknown>; labels: string[]; outcomes: Outcome[] }[]; dimensions: { title: string }[] }> {
  const r = await cliInProcess(...args, '--format', 'json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

const refused = async (pattern: RegExp, ...args: string[]) => {
  const r = await cliInProcess(...args);
  expect(r.stdout).toBe('');
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
};

const DUEL = ['--kind', 'duel', '--a', 'armour=standard,tough=true', '--b', 'armour=standard', '--rounds', '3'];

describe('a duel side field varied in sweep, compare and solve', () => {
  it('a.policy: one cell per policy, each the duel with that policy in side a only', async () => {
    const out = await json('sweep', ...DUEL, '--vary', 'a.policy=none,injury,hinder,optimal');
    expect(out.dimensions.map((d) => d.title)).toEqual(['Side a: policy']);
    expect(out.cells.map((c) => c.labels[0])).toEqual(['none', 'injury', 'hinder', 'optimal']);
    for (const cell of out.cells) {
      const policy = cell.values['a.policy'];
      expect({ policy, exact: exactOf(cell.outcomes) }).toEqual({ policy, exact: byHand({ kind: 'duel', rounds: 3, a: { armour: 'standard', tough: true, policy }, b: { armour: 'standard' } }) });
    }
    // The policies do differ here: a cell that ignored its value would equal the default's.
    expect(new Set(out.cells.map((c) => JSON.stringify(exactOf(c.outcomes)))).size).toBe(4);
  });

  it('sides.armour gives both sides the one value; with b.attacksPerActivation, a grid of both', async () => {
    const out = await json('sweep', '--kind', 'duel', '--a', 'tough=true', '--b', 'fear=true', '--rounds', '2', '--vary', 'sides.armour=none,machine', '--vary', 'b.attacksPerActivation=1..2');
    expect(out.cells.map((c) => c.values)).toEqual([
      { 'sides.armour': 'none', 'b.attacksPerActivation': 1 },
      { 'sides.armour': 'none', 'b.attacksPerActivation': 2 },
      { 'sides.armour': 'machine', 'b.attacksPerActivation': 1 },
      { 'sides.armour': 'machine', 'b.attacksPerActivation': 2 },
    ]);
    for (const cell of out.cells) {
      const armour = cell.values['sides.armour'];
      const attacks = cell.values['b.attacksPerActivation'];
      // Each side keeps what its flag gave and takes the varied values on top.
      expect(exactOf(cell.outcomes)).toEqual(byHand({ kind: 'duel', rounds: 2, a: { tough: true, armour }, b: { fear: true, armour, attacksPerActivation: attacks } }));
    }
  });

  it("a.weapon names the profiles' weapons, labelled with their cost", async () => {
    const out = await json('sweep', '--kind', 'duel', '--profiles', 'examples/profiles.json', '--a', 'profile=Shield Bearer', '--b', 'armour=standard', '--rounds', '2', '--vary', 'a.weapon=Great Hammer,Trench Club');
    expect(out.cells.map((c) => c.labels[0])).toEqual(['Great Hammer (12)', 'Trench Club (2)']);
    for (const cell of out.cells) {
      const weapon = cell.values['a.weapon'];
      expect(exactOf(cell.outcomes)).toEqual(byHand({ kind: 'duel', profiles: 'examples/profiles.json', rounds: 2, a: { profile: 'Shield Bearer', weapon }, b: { armour: 'standard' } }));
    }
  });

  it('a side\'s keywords varied as lists separated by ";"', async () => {
    const out = await json('sweep', '--kind', 'duel', '--a', 'armour=none', '--b', 'armour=machine', '--rounds', '2', '--vary', 'a.weaponKeywords=none;IGNORE ARMOUR, FIRE');
    expect(out.cells.map((c) => c.labels[0])).toEqual(['no keywords', 'IGNORE ARMOUR, FIRE']);
    expect(exactOf(out.cells[1]!.outcomes)).toEqual(byHand({ kind: 'duel', rounds: 2, a: { armour: 'none', weaponKeywords: 'IGNORE ARMOUR, FIRE' }, b: { armour: 'machine' } }));
    expect(exactOf(out.cells[0]!.outcomes)).not.toEqual(exactOf(out.cells[1]!.outcomes));
  });

  it('compare takes a side field inline: "a.policy=optimal" against "a.policy=injury"', async () => {
    const r = await cliInProcess('compare', 'a.policy=optimal', 'a.policy=injury', ...DUEL, '--format', 'json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { scenarios: { name: string; outcomes: Outcome[] }[] };
    expect(out.scenarios.map((s) => s.name)).toEqual(['a.policy=optimal', 'a.policy=injury']);
    for (const [s, policy] of [[out.scenarios[0]!, 'optimal'], [out.scenarios[1]!, 'injury']] as const) {
      expect(exactOf(s.outcomes)).toEqual(byHand({ kind: 'duel', rounds: 3, a: { armour: 'standard', tough: true, policy }, b: { armour: 'standard' } }));
    }
    await refused(/^injury-lab: scenario 1 \("a\.tough=true"\): gives a\.tough, which a flag gives every scenario; give it one way$/m, 'compare', 'a.tough=true', 'a.tough=false', ...DUEL);
  });

  it('compare on a duel: no "or worse" (its outcomes have no order), verdicts said of the duel, each scenario named once', async () => {
    const r = await cliInProcess('compare', 'a.policy=optimal', 'a.policy=none', ...DUEL);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // Once "b wins or worse" rows showed "-" for every value and numbers in the difference columns.
    expect(r.stdout).not.toMatch(/or worse/);
    // Named once each; numbered, as the table's headers call them (named in full they made it wider than 100 columns).
    expect(lines.slice(0, 2)).toEqual(['#1 a.policy=optimal (trench-crusade duel, core edition)', '#2 a.policy=none (trench-crusade duel, core edition)']);
    const table = lines.slice(lines.indexOf('') + 1, lines.indexOf('Verdicts:'));
    expect(Math.max(...table.map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(table[0]!.trim().split(/\s{2,}/)).toEqual(['outcome', '#1', '#2', '#2 - #1 (points)', '#2 / #1']);
    const optimal = byHand({ kind: 'duel', rounds: 3, a: { armour: 'standard', tough: true, policy: 'optimal' }, b: { armour: 'standard' } });
    const none = byHand({ kind: 'duel', rounds: 3, a: { armour: 'standard', tough: true, policy: 'none' }, b: { armour: 'standard' } });
    const pct = (f: string) => `${((Number(f.split('/')[0]) / Number(f.split('/')[1])) * 100).toFixed(1)}%`;
    const verdicts = lines.slice(lines.indexOf('Verdicts:') + 1).filter((l) => l !== '');
    expect(verdicts).toHaveLength(3);
    expect(verdicts[0]).toMatch(new RegExp(`^  With a\\.policy=none, a wins [0-9.]+ points (less|more) often than with a\\.policy=optimal \\(${pct(none['a-wins']!)} against ${pct(optimal['a-wins']!)}`));
    expect(verdicts[1]).toMatch(/^  With a\.policy=none, b wins /);
    expect(verdicts[2]).toMatch(/^  With a\.policy=none, the duel is undecided /);
    const json = JSON.parse((await cliInProcess('compare', 'a.policy=optimal', 'a.policy=none', ...DUEL, '--format', 'json')).stdout) as { comparisons: { cumulative: boolean }[] };
    expect(json.comparisons.map((c) => c.cumulative)).toEqual([false, false, false]);
  });

  it('solve seeks over a side field', async () => {
    const r = await cliInProcess('solve', '--kind', 'duel', '--a', 'armour=standard', '--b', 'armour=machine', '--rounds', '2', '--vary', 'a.injuryDice=0..3', '--where', 'a-wins>=0.1', '--format', 'json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { values: { values: Record<string, unknown>; exact: string; meets: boolean }[] };
    expect(out.values.map((v) => v.values)).toEqual([0, 1, 2, 3].map((n) => ({ 'a.injuryDice': n })));
    for (const row of out.values) {
      const aWins = byHand({ kind: 'duel', rounds: 2, a: { armour: 'standard', injuryDice: row.values['a.injuryDice'] }, b: { armour: 'machine' } })['a-wins']!;
      expect(row.exact).toBe(aWins);
    }
  });

  it('a report definition\'s vary item names a side field as the flag does', () => {
    const base = { kind: 'duel', rounds: 2, a: { armour: 'standard' }, b: {} };
    const dims = sweepDimensions(base, [{ field: 'b.armour', values: ['none', 'machine'] }]);
    const plan = planGrid(base, dims, { strict: true });
    expect(plan.cells.map((c) => [c.scenario.kind === 'duel' && (c.scenario as unknown as { b: { armour: string } }).b.armour, (c.scenario as unknown as { a: { armour: string } }).a.armour])).toEqual([
      ['none', 'standard'],
      ['machine', 'standard'],
    ]);
  });

  it('refuses, in one line, what it cannot vary: a misspelt side field, a side field without its side, a side the kind lacks, a field twice', async () => {
    await refused(/vary: "a\.polcy": "polcy" is not a field of a side \(did you mean a\.policy\?\); allowed after "a\.": .*policy/, 'sweep', ...DUEL, '--vary', 'a.polcy=none');
    await refused(/vary: "policy" is a field of each side of trench-crusade kind "duel"; allowed: a\.policy, b\.policy, sides\.policy/, 'sweep', ...DUEL, '--vary', 'policy=none,injury');
    await refused(/vary: "c\.armour": "c" is not a side of trench-crusade kind "duel"/, 'sweep', ...DUEL, '--vary', 'c.armour=none');
    await refused(/vary: "a\.armour": trench-crusade kind "attack" has no sides/, 'sweep', '--kind', 'attack', '--vary', 'a.armour=none');
    await refused(/vary: field "a\.armour" is in both "sides\.armour" and "a\.armour"; vary each field once/, 'sweep', ...DUEL, '--vary', 'sides.armour=none', '--vary', 'a.armour=machine');
    await refused(/^injury-lab: --a policy=injury: the field is also varied \(--vary a\.policy\); give it one way$/m, 'sweep', '--kind', 'duel', '--a', 'policy=injury', '--b', 'armour=none', '--vary', 'a.policy=none,injury');
    await refused(/^injury-lab: cell a\.armour="mythril": a\.armour: "mythril" is not allowed; allowed: none, standard, reinforced, machine$/m, 'sweep', '--kind', 'duel', '--a', 'tough=true', '--b', 'armour=none', '--vary', 'a.armour=none,mythril');
    // A side varied whole and a field of it: one would cover the other.
    expect(() => sweepDimensions({ kind: 'duel', a: {}, b: {} }, [{ field: 'a', values: [{ name: 'plain', value: {} }] }, 'a.policy=none,injury'])).toThrow(/"a\.policy" varies a field of side "a", which "a" varies whole/);
  });
});
