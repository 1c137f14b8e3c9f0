import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 25 part 9, "Compare keywords in one line": a sweep varies the keywords given to a weapon or a
 * target as whole lists (separated by ";", which keywords never hold), labelled by the keywords; a
 * comparison of weapons speaks of the weapon ("a weapon with ARMOUR PIERCING 1 takes the target out of
 * action ... than a weapon with IGNORE ARMOUR"), not of the target.
 */

const exactOf = async (...args: string[]) => (JSON.parse((await cliInProcess('exact', ...args, '--format', 'json')).stdout) as { outcomes: { exact: string }[] }).outcomes.map((o) => o.exact);

describe('keywords varied in one line', () => {
  it('each list is a cell whose answer is the one-off run with those keywords, labelled by them', async () => {
    const r = await cliInProcess('sweep', '--kind', 'attack', '--armour', 'reinforced', '--vary', 'weaponKeywords=none;IGNORE ARMOUR;ARMOUR PIERCING 1, FIRE', '--format', 'json');
    expect(r.code).toBe(0);
    const cells = (JSON.parse(r.stdout) as { cells: { labels: string[]; outcomes: { exact: string }[] }[] }).cells;
    expect(cells.map((c) => c.labels)).toEqual([['no keywords'], ['IGNORE ARMOUR'], ['ARMOUR PIERCING 1, FIRE']]);
    const base = ['--kind', 'attack', '--armour', 'reinforced'];
    expect(cells[0]!.outcomes.map((o) => o.exact)).toEqual(await exactOf(...base));
    expect(cells[1]!.outcomes.map((o) => o.exact)).toEqual(await exactOf(...base, '--weapon-keywords', 'IGNORE ARMOUR'));
    expect(cells[2]!.outcomes.map((o) => o.exact)).toEqual(await exactOf(...base, '--weapon-keywords', 'ARMOUR PIERCING 1, FIRE'));
  });

  it('refuses an empty list and a keyword the rules do not have, in one line', async () => {
    const empty = await cliInProcess('sweep', '--kind', 'attack', '--vary', 'weaponKeywords=IGNORE ARMOUR;;FIRE');
    expect([empty.code, empty.stdout]).toEqual([2, '']);
    expect(empty.stderr).toMatch(/value 2 is empty; allowed: keyword lists separated by single ";" \("none" for none\)/);
    const unknown = await cliInProcess('sweep', '--kind', 'attack', '--vary', 'weaponKeywords=IGNORE ARMUR;FIRE');
    expect(unknown.stderr).toMatch(/"IGNORE ARMUR" is not a keyword of the rule table \(did you mean "IGNORE ARMOUR"\?\)/);
  });
});

describe('verdicts that read right', () => {
  it('weapons that differ only in keywords are spoken of as weapons', async () => {
    const r = await cliInProcess('compare', 'weaponKeywords=IGNORE ARMOUR', 'weaponKeywords=ARMOUR PIERCING 1', '--kind', 'attack', '--armour', 'reinforced');
    expect(r.stdout).toMatch(/a weapon with ARMOUR PIERCING 1 takes the target out of action [\d.]+ points less often than a weapon with IGNORE ARMOUR/);
    expect(r.stdout).not.toMatch(/is out of action/);
  });
  it('targets that differ are spoken of as targets, as before', async () => {
    const r = await cliInProcess('compare', 'armour=standard', 'armour=machine', '--kind', 'attack');
    expect(r.stdout).toMatch(/armour=machine is out of action [\d.]+ points less often than armour=standard/);
  });
});
