import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { evaluateExact } from '../src/evaluate.js';
import { formatFraction } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { parseVariant } from '../src/input/variant.js';
import { diffPresenter } from '../src/present/tables/diff.js';
import { diffGridCells, diffGridOutcomes, diffOutcomes, diffRules, keywordGrid, rankedMoves, readDiffGrid, resolveSide, type RuleSide } from '../src/analysis/diff.js';
import { findSystem } from '../src/rules/registry.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { refusal } from './helpers/refusal.js';

/** `diff`: two rule sets over a grid, every cell exact on both sides, the largest moves first. */

const tc = findSystem('trench-crusade')!;
const side = (edition: string, changes?: Record<string, unknown>): RuleSide => {
  if (!changes) return { given: edition, label: edition, system: tc, edition };
  const variant = parseVariant({ name: 'test variant', edition, rules: changes }, 'test', 'test');
  return { given: 'test.json', label: variant.name, system: tc, edition, variant };
};
const armourGrid = [{ scenario: { kind: 'injury' }, vary: [{ field: 'armour', values: ['none', 'standard', 'reinforced', 'machine'] }, { field: 'injuryDice', from: 0, to: 2 }] }];

describe('diff', () => {
  it('moves exactly the cells a change touches: Machine Armour at -2 moves only the machine cells', () => {
    const r = diffRules(side('core'), side('core', { armour: { machine: -2 } }), armourGrid, 'test');
    expect(r.cells).toHaveLength(12);
    for (const cell of r.cells) expect(cell.largest > 0, cell.label).toBe(cell.values.armour === 'machine');
    // Under the variant, Machine Armour is exactly Reinforced Armour (both -2).
    for (const cell of r.cells.filter((c) => c.values.armour === 'machine')) {
      const reinforced = evaluateExact(parseScenario({ kind: 'injury', armour: 'reinforced', injuryDice: cell.values.injuryDice }));
      expect(cell.outcomes.map((o) => formatFraction(o.other))).toEqual(reinforced.outcomes.map((o) => o.exact));
    }
  });

  it('compares duels too: a side varied whole is laid over the part\'s side, each cell the duel answered alone', () => {
    const sides = [{ name: 'plain', value: {} }, { name: 'machine + Tough', value: { armour: 'machine', tough: true } }];
    const grid = [{ scenario: { kind: 'duel', rounds: 3, a: { injuryDice: 1 }, b: {} }, vary: [{ field: 'a', values: sides }, { field: 'b', values: sides }] }];
    const r = diffRules(side('core'), side('core', { injuryTable: { outOfAction: 10 } }), grid, 'test');
    expect(r.cells.map((c) => c.label)).toEqual(['a=plain, b=plain', 'a=plain, b=machine + Tough', 'a=machine + Tough, b=plain', 'a=machine + Tough, b=machine + Tough']);
    // a's base side (+1 injury dice) stays under the named side laid over it.
    const alone = evaluateExact(parseScenario({ kind: 'duel', rounds: 3, a: { injuryDice: 1, armour: 'machine', tough: true }, b: {} }));
    expect(r.cells[2]!.outcomes.map((o) => formatFraction(o.base))).toEqual(alone.outcomes.map((o) => o.exact));
    expect(r.cells.every((c) => c.largest > 0)).toBe(true);
  });

  it("knows its cells' outcomes, in their order, before any cell is solved: the same as its result's (--outcome is checked first)", () => {
    const duel = { scenario: { kind: 'duel', rounds: 2, a: {}, b: {} }, vary: [{ field: 'a', values: [{ name: 'plain', value: {} }] }] };
    for (const grid of [armourGrid, [...tc.diffGrid], [duel, ...armourGrid]]) {
      const [base, other] = [side('core'), side('core', { injuryTable: { outOfAction: 10 } })];
      const cells = diffGridCells(base, other, grid);
      expect(diffGridOutcomes(cells)).toEqual(diffOutcomes(diffRules(base, other, grid, 'test', cells)));
    }
  });

  it('an edition against itself moves nothing; two editions move what their tables differ in', () => {
    expect(rankedMoves(diffRules(side('core'), side('core'), armourGrid, 'test'))).toEqual([]);
    const r = diffRules(side('comprehensive'), side('core'), [{ scenario: { kind: 'attack' }, vary: [{ field: 'injuryDice', values: [0, 1] }] }], 'test');
    // The two tables agree on every number a plain attack reads: nothing moves.
    expect(rankedMoves(r)).toEqual([]);
    const playtest = diffRules(side('core'), side('playtest'), [{ scenario: { kind: 'attack' }, vary: [{ field: 'injuryDice', values: [0] }] }], 'test');
    // The playtest's critical adds no injury dice: fewer Out of Action.
    const out = playtest.cells[0]!.outcomes.find((o) => o.outcome === 'out-of-action')!;
    expect(out.change).toBeLessThan(0);
  });

  it('ranks by the size of the move, and lists the cells a side refuses', () => {
    const r = diffRules(side('core'), side('core', { injuryTable: { outOfAction: 10 } }), [{ scenario: { kind: 'injury' }, vary: [{ fields: ['armour', 'shield'], values: [['none', false], ['machine', true]] }] }], 'test');
    expect(r.skipped.map((s) => [s.side, s.label])).toEqual([['core', 'armour=machine, shield=true'], ['test variant', 'armour=machine, shield=true']]);
    const moves = rankedMoves(r).map((m) => Math.abs(m.outcome.change));
    expect(moves.length).toBeGreaterThan(0);
    expect(moves).toEqual([...moves].sort((a, b) => b - a));
    const table = diffPresenter(5).table(r);
    expect(table).toContain('1 cell skipped, refused by the rules of core and test variant');
  });

  it('takes an edition name or a variant file, and refuses anything else in one line', () => {
    expect(resolveSide('playtest').edition).toBe('playtest');
    expect(resolveSide('examples/variants/out-of-action-on-10.json').label).toBe('Out of Action on 10+');
    expect(() => resolveSide('cor')).toThrow(new UsageError('diff: "cor" is neither an edition nor a variant file (no such file); allowed: an edition (trench-crusade: playtest, comprehensive, core; d20-warband: v1) or a variant file'));
    expect(() => resolveSide('examples/variants/out-of-action-on-10.json', findSystem('d20-warband'))).toThrow(/is a variant of trench-crusade, and the other side is d20-warband/);
  });

  it('from the command line: JSON with every cell, and a refusal in one line', async () => {
    // The answer in this process (cliInProcess: main.ts, the same output and exit code); the refusal in a
    // process of its own, the built CLI end to end.
    const ok = await cliInProcess('diff', 'v1', 'v1', '--format', 'json');
    expect(ok.code).toBe(0);
    const json = JSON.parse(ok.stdout) as { system: string; moves: unknown[]; cells: unknown[] };
    expect(json.system).toBe('d20-warband');
    expect(json.moves).toEqual([]);
    // The standard d20 grid: checks 10 stats x 2, attacks 3 x 4 x 2 x 2, injury rolls 7, falls 11.
    expect(json.cells).toHaveLength(20 + 48 + 7 + 11);
    const bad = cli('diff', 'core', 'nope.json');
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^injury-lab: diff: "nope.json" is neither an edition nor a variant file/)]);
  });
});

describe('diff --grid FILE', () => {
  it('takes a report-style grid: falls only, where the playtest has no falling rule (every cell skipped on that side)', () => {
    const grid = readDiffGrid('test/fixtures/grids/falls.json');
    const r = diffRules(side('core'), side('core', { fall: { inchesPerStep: 2 } }), grid, 'grid file');
    // 2": no roll under 3" either way; 3": one step of 3" = +1 die, one step of 2" = +1 die; 6": +2 against +3 dice.
    expect(r.cells.map((c) => [c.values.heightInches, c.largest > 0])).toEqual([[2, false], [3, false], [6, true]]);
    const playtest = diffRules(side('playtest'), side('core'), grid, 'grid file');
    expect(playtest.cells).toEqual([]);
    expect(new Set(playtest.skipped.map((s) => s.side))).toEqual(new Set(['playtest']));
  });

  it('refuses a grid that sets the rules itself, or is not a grid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-grid-'));
    const write = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(value));
      return join(dir, name);
    };
    expect(() => readDiffGrid(write('a.json', { scenario: { kind: 'injury', edition: 'core' }, vary: ['armour=none'] }))).toThrow(/scenario.edition: a grid cannot set it; the two sides of the diff give the rules$/);
    expect(() => readDiffGrid(write('b.json', []))).toThrow(/an empty list; allowed: \{ "scenario": \{\.\.\.\}, "vary": \[\.\.\.\] \} or a list of them$/);
    expect(() => readDiffGrid(write('c.json', [{ vary: 'armour=none' }]))).toThrow(/item 1: vary: "armour=none" is not allowed; allowed: a list like a report's/);
  });
});

describe('diff prices a changed keyword', () => {
  it('adds, for each keyword the sides give different effects, cells with it on the weapon (or the target); a side without it goes without', () => {
    const fire2 = side('core', { keywords: { FIRE: { fireMarkers: 2 } } });
    const grid = keywordGrid(side('core'), fire2);
    // FIRE is a weapon's: one attack and three, each against every armour and shield, Tough or not.
    expect(grid.map((p) => p.scenario)).toEqual([
      { kind: 'attack', weaponKeywords: 'FIRE' },
      { kind: 'sequence', attacks: 3, policy: 'all', weaponKeywords: 'FIRE' },
    ]);
    const r = diffRules(side('core'), fire2, grid, 'test');
    // One attack cannot spend the marker it leaves; three attacks do.
    expect(r.cells.filter((c) => c.kind === 'attack' && c.largest > 0)).toEqual([]);
    const moved = r.cells.filter((c) => c.kind === 'sequence' && c.largest > 0);
    expect(moved.length).toBeGreaterThan(0);
    // Each cell is the same scenario evaluated under each side's keyword table.
    const cell = moved[0]!;
    const outOf = (rules: Record<string, unknown>) =>
      evaluateExact(parseScenario({ kind: 'sequence', attacks: 3, policy: 'all', weaponKeywords: 'FIRE', ...cell.values, rules })).outcomes.find((o) => o.outcome === 'out-of-action')!.exact;
    expect(formatFraction(cell.outcomes.find((o) => o.outcome === 'out-of-action')!.other)).toBe(outOf({ keywords: { FIRE: { fireMarkers: 2 } } }));
    expect(cell.values).toMatchObject({ weaponKeywords: 'FIRE' });

    // A keyword only one side has (a model's, taking a number) is priced against going without it.
    const hardy = keywordGrid(side('core'), side('core', { keywords: { HARDY: { targetInjuryModifier: 'N' } } }));
    expect(hardy[0]!.scenario).toEqual({ kind: 'attack', targetKeywords: 'HARDY 1' });
    expect(diffRules(side('core'), side('core', { keywords: { HARDY: { targetInjuryModifier: -1 } } }), [{ scenario: { kind: 'attack', targetKeywords: 'HARDY' }, vary: [{ field: 'armour', values: ['none'] }] }], 'test').cells[0]!.largest).toBeGreaterThan(0);
    expect(keywordGrid(side('core'), side('core'))).toEqual([]);
  });
});

describe('a scenario\'s own keywords (weaponKeywords, targetKeywords)', () => {
  it('give fields as a profile\'s would, under the scenario\'s own fields, and stay as labels', () => {
    const outcomes = (fields: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'attack', ...fields })).outcomes;
    expect(outcomes({ weaponKeywords: 'ignore armour', armour: 'machine' })).toEqual(outcomes({}));
    expect(parseScenario({ kind: 'attack', weaponKeywords: ['CRITICAL', 'ARMOUR PIERCING 1'], criticalInjuryDice: 3 })).toMatchObject({ criticalInjuryDice: 3, armourPiercing: 1, weaponKeywords: 'CRITICAL, ARMOUR PIERCING 1' });
    expect(parseScenario({ kind: 'sequence', weaponKeywords: 'FIRE', targetKeywords: '-1 INJURY DICE UNLESS FIRE, TOUGH' })).toMatchObject({ targetInjuryDice: 0, tough: true, fireMarkers: 1 });
    const refused = (fields: Record<string, unknown>) => refusal(() => parseScenario({ kind: 'attack', ...fields }));
    expect(refused({ weaponKeywords: 'TOUGH' })).toMatch(/^weaponKeywords: "TOUGH" gives tough, which is not a weapon field/);
    expect(refused({ weaponKeywords: 7 })).toBe('weaponKeywords: 7 is not allowed; allowed: keywords separated by commas ("IGNORE ARMOUR, FIRE"), or a list of them');
  });

  it('add to a named profile\'s keywords, and a scenario read back (as check and sweep do) keeps its answer', () => {
    const named = parseScenario({ kind: 'sequence', attacks: 3, policy: 'all', profiles: 'examples/profiles.json', weapon: 'Great Hammer', target: 'Shield Bearer', weaponKeywords: 'FIRE' });
    expect(named).toMatchObject({ injuryDice: 1, fireMarkers: 1, armour: 'standard', shield: true, weapon: 'Great Hammer' });
    expect(parseScenario(named)).toEqual(named);
    expect(evaluateExact(named).outcomes).toEqual(evaluateExact(parseScenario({ kind: 'sequence', attacks: 3, policy: 'all', injuryDice: 1, fireMarkers: 1, armour: 'standard', shield: true })).outcomes);
  });

  it('from the command line: --weapon-keywords and --target-keywords', async () => {
    const r = await cliInProcess('exact', '--kind', 'attack', '--weapon-keywords', 'IGNORE ARMOUR, CRITICAL', '--target-keywords', 'TOUGH', '--armour', 'machine', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).scenario).toMatchObject({ ignoreArmour: true, criticalInjuryDice: 2, tough: true, weaponKeywords: 'IGNORE ARMOUR, CRITICAL', targetKeywords: 'TOUGH' });
    const bad = await cliInProcess('exact', '--kind', 'attack', '--weapon-keywords', 'IGNORE ARMOR');
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^injury-lab: weaponKeywords: "IGNORE ARMOR" is not a keyword of the rule table \(did you mean "IGNORE ARMOUR"\?\)/);
  });
});
