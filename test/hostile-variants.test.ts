import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editionTable } from '../src/model/edition-table.js';
import { MAX_VARIANT_KEYWORDS, applyRuleChanges } from '../src/model/rule-variant.js';
import { parseScenario } from '../src/input/scenario.js';
import { planCells } from '../src/analysis/sweep.js';
import { sweepDimensions } from '../src/analysis/sweep.js';
import { systems } from '../src/rules/registry.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 21: a variant of many keywords made `diff` quadratic (its changes were checked again in every
 * cell of every keyword's grid), and two variants of one name gave rows that could not be told apart.
 */

const trench = systems.find((s) => s.id === 'trench-crusade')!;
const temp = () => mkdtempSync(join(tmpdir(), 'injury-lab-variants-'));

/** A keyword name profiles can write: capitals only, no digits ("KW" then the number in letters). */
const keywordName = (i: number) => `KW${[...String(i)].map((d) => 'ABCDEFGHIJ'[Number(d)]).join('')}`;
const manyKeywords = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [keywordName(i), { injuryDice: 1 }]));

describe('a variant of many keywords', () => {
  it('its changes are checked once: the same changes over the same table give the very same table', () => {
    const changes = { keywords: manyKeywords(50) };
    const core = editionTable(trench, 'core');
    const first = applyRuleChanges(trench, systems, core, changes);
    // What made diff quadratic: every cell's parseScenario checked and merged the changes again.
    expect(applyRuleChanges(trench, systems, core, changes)).toBe(first);
    expect(parseScenario({ kind: 'attack', rules: changes, weaponKeywords: keywordName(7) }).rules).toBe(first);
    // Over another edition's table, the changes make another table.
    expect(applyRuleChanges(trench, systems, editionTable(trench, 'playtest'), changes)).not.toBe(first);
  });

  it(`more than ${MAX_VARIANT_KEYWORDS} keywords are refused in one line, before anything runs`, async () => {
    const dir = temp();
    const file = join(dir, 'many.json');
    writeFileSync(file, JSON.stringify({ name: 'many', rules: { keywords: manyKeywords(MAX_VARIANT_KEYWORDS + 1) } }));
    const r = await cliInProcess('diff', 'core', file);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `injury-lab: variant file "${file}": rules.keywords: ${MAX_VARIANT_KEYWORDS + 1} keywords; allowed: at most ${MAX_VARIANT_KEYWORDS} in one variant\n`]);
    // At the cap, the variant is read.
    writeFileSync(file, JSON.stringify({ name: 'many', rules: { keywords: manyKeywords(MAX_VARIANT_KEYWORDS) } }));
    expect(refusal(() => parseScenario({ kind: 'attack', rules: file }))).toBe('accepted');
  });
});

describe('two variant files of one name in a rules dimension', () => {
  it('are named with their files, in labels and in the cells (so in every row and CSV line)', () => {
    const dir = temp();
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ name: 'Late', rules: { injuryTable: { down: 8 } } }));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ name: 'Late', rules: { injuryTable: { outOfAction: 11 } } }));
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ name: 'Other', rules: { injuryTable: { down: 6 } } }));
    const [a, b, c] = ['a.json', 'b.json', 'c.json'].map((f) => join(dir, f));
    const dims = sweepDimensions({ kind: 'injury' }, [`rules=${a},${b},${c},none`]);
    expect(dims[0]!.values.map((v) => v.label)).toEqual([`Late (${a})`, `Late (${b})`, 'Other', 'edition rules']);
    const cells = planCells({ kind: 'injury' }, dims);
    expect(cells.map((cell) => cell.scenario.variant)).toEqual([`Late (${a})`, `Late (${b})`, 'Other', undefined]);
  });

  it('labels a definition gives twice are refused', () => {
    expect(refusal(() => sweepDimensions({ kind: 'injury' }, [{ field: 'armour', values: ['none', 'standard'], labels: ['same', 'same'] }]))).toBe(
      'vary: armour: label "same" is given to two values; allowed: a different label for each value',
    );
  });
});
