import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { formatFraction, fraction, sub } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { parseVariant } from '../src/input/variant.js';
import { readVariantFile } from '../src/input/read-files.js';
import { diffGridMarkdown, diffPresenter } from '../src/present/tables/diff.js';
import { diffRules, rankedMoves, rankedReadings, resolveSide, type RuleSide } from '../src/analysis/diff.js';
import { ruleChangeText, ruleChanges } from '../src/analysis/rule-changes.js';
import { editionTable } from '../src/model/edition-table.js';
import { findSystem, systems } from '../src/rules/registry.js';
import { cli } from './helpers/cli.js';

/** `diff` as a designer reads it: changed rules in the table's words, one fact per row, exact values where they fit, the grid documented. */

const tc = findSystem('trench-crusade')!;
const d20 = findSystem('d20-warband')!;
const OOA_FILE = 'examples/variants/out-of-action-on-10.json';
const side = (edition: string, changes?: Record<string, unknown>): RuleSide => {
  if (!changes) return { given: edition, label: edition, system: tc, edition };
  const variant = parseVariant({ name: 'test variant', edition, rules: changes }, 'test', 'test');
  return { given: 'test.json', label: variant.name, system: tc, edition, variant };
};
const sequenceGrid = [{ scenario: { kind: 'sequence', attacks: 10, policy: 'none' }, vary: [{ fields: ['armour', 'shield'], values: [['machine', false], ['none', false]] }, { field: 'injuryDice', values: [3] }, { field: 'targetDown', values: [true] }] }];

describe('diff names each changed rule with its base and new value, in the rule table\'s words', () => {
  it('out-of-action-on-10: the bands printed from the variant file, Down moving with Out of Action', () => {
    const variant = readVariantFile(OOA_FILE);
    const newLowest = (variant.changes.injuryTable as { outOfAction: number }).outOfAction;
    const [change, ...others] = ruleChanges(tc, editionTable(tc, 'core'), variant.table);
    expect(others).toEqual([]);
    expect(change).toMatchObject({ rule: 'injuryTable.outOfAction', base: 9, other: newLowest });
    // Core's "7-8Down ... 9+Out of Action"; the variant's Down ends one below its new Out of Action.
    expect(ruleChangeText(change!)).toBe(`Out of Action: 9+ -> ${newLowest}+ (so Down: 7-8 -> 7-${newLowest - 1})`);
  });

  it('two bands changed are each read under their own rule; a rule with no band wording is its values; a keyword only one side has is "not a keyword" on the other', () => {
    const changes = ruleChanges(tc, editionTable(tc, 'core'), side('core', { injuryTable: { down: 8, outOfAction: 10 }, markers: { cap: 6 }, keywords: { 'SAWN-OFF': { injuryDice: 1 } } }).variant!.table);
    expect(changes.map((c) => c.rule)).toEqual(['injuryTable.down', 'injuryTable.outOfAction', 'markers.cap', 'keywords.SAWN-OFF']);
    expect(changes.map(ruleChangeText)).toEqual([
      'Down: 7-8 -> 8-9 (so Minor Hit: 2-6 -> 2-7)',
      'Out of Action: 9+ -> 10+',
      'null (no cap) -> 6',
      '(not a keyword) -> {"injuryDice":1}',
    ]);
    // A d20 table is worded the same way, and two editions differ in what their tables hold.
    const d20Changes = ruleChanges(d20, editionTable(d20, 'v1'), parseVariant({ system: 'd20-warband', rules: { injuryRollTable: { dazed: 10 } } }, 'test', 'test').table);
    expect(d20Changes.map(ruleChangeText)).toEqual(['Dazed (Injury Roll): 12-14 -> 10-14 (so no effect (Injury Roll): 11 or less -> 9 or less)']);
    expect(ruleChanges(tc, editionTable(tc, 'core'), editionTable(tc, 'playtest')).map((c) => c.rule)).toContain('critical.injuryDice');
  });

  it('the table, JSON and CSV all carry them', () => {
    const r = diffRules(side('core'), resolveSide(OOA_FILE), sequenceGrid, 'test');
    expect(diffPresenter().table(r)).toMatch(/^injuryTable\.outOfAction +Out of Action: 9\+ -> 10\+ \(so Down: 7-8 -> 7-9\) +Lowest modified injury total that is Out of Action$/m);
    const json = JSON.parse(diffPresenter().json(r)) as { changedRules: { rule: string; base: number; other: number; text: string }[] };
    expect(json.changedRules).toMatchObject([{ rule: 'injuryTable.outOfAction', base: 9, other: 10, text: 'Out of Action: 9+ -> 10+ (so Down: 7-8 -> 7-9)' }]);
    expect(diffPresenter().table(diffRules(side('core'), side('core'), sequenceGrid, 'test'))).toContain('No rule differs between the two tables.');
  });
});

describe('a cell whose change moves probability from one outcome to another is one row', () => {
  const r = diffRules(side('core'), resolveSide(OOA_FILE), sequenceGrid, 'test');
  const exactOutcomes = (armour: string, rules?: Record<string, unknown>) =>
    evaluateExact(parseScenario({ kind: 'sequence', attacks: 10, policy: 'none', armour, injuryDice: 3, targetDown: true, ...(rules ? { rules } : {}) })).outcomes;

  it('its points are the exact difference `exact` gives with and without the variant', () => {
    const machine = r.cells.find((c) => c.values.armour === 'machine')!;
    const [core, variant] = [exactOutcomes('machine'), exactOutcomes('machine', { injuryTable: { outOfAction: 10 } })];
    const exact = (list: typeof core, outcome: string) => list.find((o) => o.outcome === outcome)!.exact;
    const parse = (text: string) => {
      const [num, den] = text.split('/');
      return fraction(BigInt(num!), BigInt(den ?? '1'));
    };
    // Only Down and Out of Action move: Out of Action 10+ is beyond 2 kept dice under Machine Armour's -3 cap.
    for (const o of core) if (o.outcome !== 'down' && o.outcome !== 'out-of-action') expect(exact(variant, o.outcome), o.outcome).toBe(o.exact);
    const lost = sub(parse(exact(core, 'out-of-action')), parse(exact(variant, 'out-of-action')));
    expect(machine.shift).toMatchObject({ from: 'out-of-action', to: 'down' });
    expect(formatFraction(machine.shift!.amount)).toBe(formatFraction(lost));
    expect(formatFraction(sub(parse(exact(variant, 'down')), parse(exact(core, 'down'))))).toBe(formatFraction(lost));
    expect(exact(variant, 'out-of-action')).toBe('0');
  });

  it('the table shows one row per such cell; the JSON still lists every outcome, with the merged reading beside', () => {
    expect(rankedMoves(r)).toHaveLength(4);
    expect(rankedReadings(r).map((m) => [m.cell.values.armour, m.shift?.from, m.shift?.to])).toEqual([
      ['machine', 'out-of-action', 'down'],
      ['none', 'out-of-action', 'down'],
    ]);
    const rows = diffPresenter().table(r).split('\n').filter((l) => l.startsWith('sequence ') && l.includes(' -> '));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/ out-of-action -> down +81\.53% +0\.00% +-81\.53 +exact in JSON$/);
    const json = JSON.parse(diffPresenter().json(r)) as { moves: { outcome: string; shift?: string }[]; cells: { outcomes: unknown[]; shift?: { from: string; to: string; points: number; exact: string } }[] };
    expect(json.moves.map((m) => [m.outcome, m.shift])).toEqual([
      ['down', 'out-of-action -> down'],
      ['out-of-action', 'out-of-action -> down'],
      ['down', 'out-of-action -> down'],
      ['out-of-action', 'out-of-action -> down'],
    ]);
    expect(json.cells[0]!.outcomes).toHaveLength(exactOutcomes('machine').length);
    expect(json.cells[0]!.shift).toMatchObject({ from: 'out-of-action', to: 'down', exact: formatFraction(r.cells[0]!.shift!.amount) });
    const csv = diffPresenter().csv(r).trim().split('\n');
    expect(csv[0]!.endsWith(',change_points,shift')).toBe(true);
    // The column is the cell's: on each of its rows.
    expect(csv.filter((l) => l.endsWith(',out-of-action -> down'))).toHaveLength(2 * exactOutcomes('machine').length);
  });

  it('a cell where three outcomes move keeps a row each', () => {
    // Minor Hit from 3: a total of 2 is no effect, and Down from 8 takes 7 from Down: three outcomes move.
    const injury = diffRules(side('core'), side('core', { injuryTable: { minorHit: 3, down: 8 } }), [{ scenario: { kind: 'injury' }, vary: [{ field: 'injuryDice', values: [0] }] }], 'test');
    expect(injury.cells[0]!.shift).toBeUndefined();
    expect(rankedReadings(injury)).toHaveLength(3);
  });
});

describe('exact values in the table where they fit', () => {
  it('one injury roll: 2D6 against the bands, 6/36 of Out of Action become Down under 10+', () => {
    const r = diffRules(side('core'), resolveSide(OOA_FILE), [{ scenario: { kind: 'injury' }, vary: [{ field: 'injuryDice', values: [0] }] }], 'test');
    // 9+ on 2D6 is 10/36 = 5/18; 10+ is 6/36 = 1/6.
    expect(diffPresenter().table(r)).toMatch(/^injury +injuryDice 0 +out-of-action -> down +27\.78% +16\.67% +-11\.11 +5\/18 -> 1\/6$/m);
  });
});

describe('docs/variants.md documents the standard grid as declared', () => {
  const doc = readFileSync('docs/variants.md', 'utf8');
  it.each(systems.map((s) => [s.id, s] as const))('%s: the table between its markers is the one the grid declaration gives', (id, system) => {
    const block = new RegExp(`<!-- diff-grid:${id} [^>]*-->\\n([\\s\\S]*?)<!-- /diff-grid:${id} -->`).exec(doc);
    expect(block, `docs/variants.md has no <!-- diff-grid:${id} ... --> block`).not.toBeNull();
    expect(block![1], 'docs/variants.md is out of step with the standard grid: paste the expected table').toBe(diffGridMarkdown(system));
  });

  it('its cell counts are the cells diff compares (the d20 grid has no forbidden cells)', () => {
    const counts = (markdown: string) => markdown.split('\n').filter((l) => /^\| [a-z]/.test(l) && !l.startsWith('| kind')).map((l) => Number(l.split('|').at(-2)!.trim()));
    const json = JSON.parse(cli('diff', 'v1', 'v1', '--format', 'json').stdout) as { cells: unknown[] };
    expect(counts(diffGridMarkdown(d20)).reduce((a, b) => a + b, 0)).toBe(json.cells.length);
    // Trench Crusade: 160 + 640 + 160 cells and 16 duels, of which Machine Armour with a shield (20 + 80 + 20) is refused by core.
    expect(counts(diffGridMarkdown(tc)).slice(0, 4)).toEqual([160, 640, 160, 16]);
  });
});
