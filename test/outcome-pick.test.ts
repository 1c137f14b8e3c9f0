import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { percent } from '../src/text.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 38 item 7: --outcome picks the rows of a table (a sweep's columns), for a one-line answer, and
 * still picks a chart's one outcome. The row kept is the full table's row, to the character.
 */

const ATTACK = ['--kind', 'attack', '--armour', 'standard', '--injury-dice', '1'];
const tableRows = (stdout: string) => stdout.split('\n').filter((l) => /^(miss|no-effect|minor-hit|down|out-of-action)\s/.test(l));

const refused = async (pattern: RegExp, ...args: string[]) => {
  const r = await cliInProcess(...args);
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
  expect(r.stderr).toMatch(pattern);
};

describe('--outcome picks the rows of a table', () => {
  it('exact: the one row asked for, as the full table prints it, and nothing else of the table', async () => {
    const full = await cliInProcess('exact', ...ATTACK);
    const one = await cliInProcess('exact', ...ATTACK, '--outcome', 'out-of-action');
    expect(one.code).toBe(0);
    const row = tableRows(full.stdout).find((l) => l.startsWith('out-of-action'))!;
    expect(tableRows(one.stdout)).toEqual([row]);
    // Its probability is the library's.
    const p = evaluateExact({ kind: 'attack', armour: 'standard', injuryDice: 1 }).outcomes.find((o) => o.outcome === 'out-of-action')!.probability;
    expect(row).toContain(percent(p, 2));
    // No means, no histogram: a one-line answer under its heading.
    expect(one.stdout).not.toMatch(/expected/i);
    // Several, in the table's order whatever the order given.
    const two = await cliInProcess('exact', ...ATTACK, '--outcome', 'out-of-action,down');
    expect(tableRows(two.stdout).map((l) => l.split(/\s+/)[0])).toEqual(['down', 'out-of-action']);
  });

  it('simulate and compare keep the rows asked for; a sweep its columns', async () => {
    const sim = await cliInProcess('simulate', ...ATTACK, '--trials', '2000', '--outcome', 'down');
    expect(tableRows(sim.stdout).map((l) => l.split(/\s+/)[0])).toEqual(['down']);
    const full = await cliInProcess('compare', 'armour=standard', 'armour=machine', '--kind', 'attack');
    const one = await cliInProcess('compare', 'armour=standard', 'armour=machine', '--kind', 'attack', '--outcome', 'out-of-action');
    // The same cells as the full table's row (its columns may be narrower).
    const rows = (s: string) => s.split('\n').filter((l) => l.startsWith('out of action')).map((l) => l.split(/\s{2,}/));
    expect(rows(one.stdout)).toEqual(rows(full.stdout));
    expect(one.stdout).not.toMatch(/^down /m);
    // One verdict: one outcome, one scenario against the first.
    expect(one.stdout.split('\n').filter((l) => l.startsWith('  ') && /often/.test(l))).toHaveLength(1);
    const sweep = await cliInProcess('sweep', '--kind', 'attack', '--vary', 'armour=none,machine', '--outcome', 'out-of-action');
    const header = sweep.stdout.split('\n').find((l) => l.startsWith('armour'))!;
    expect(header.trim().split(/\s{2,}/)).toEqual(['armour', 'out of action']);
  });

  it('keeps the rows asked for in a CSV, each as the full CSV writes it (issue 51: it was refused)', async () => {
    for (const args of [['exact', ...ATTACK], ['compare', 'armour=standard', 'armour=machine', '--kind', 'attack'], ['sweep', '--kind', 'attack', '--vary', 'armour=none,machine']]) {
      const full = (await cliInProcess(...args, '--format', 'csv')).stdout.split('\n');
      const picked = await cliInProcess(...args, '--format', 'csv', '--outcome', 'down,out-of-action');
      expect(picked.code, picked.stderr).toBe(0);
      const at = full[0]!.split(',').indexOf('outcome');
      const wanted = full.filter((line, i) => i === 0 || line === '' || ['down', 'out-of-action'].includes(line.split(',')[at]!));
      expect(picked.stdout.split('\n')).toEqual(wanted);
      expect(wanted.length).toBeLessThan(full.length);
    }
  });

  it('refuses an outcome the kind has not, several with a chart, and a format that holds every outcome', async () => {
    await refused(/^injury-lab: --outcome: "out-of-acton" is not an outcome of trench-crusade attack; allowed: miss, no-effect, minor-hit, down, out-of-action, or several separated by commas$/m, 'exact', ...ATTACK, '--outcome', 'out-of-acton');
    await refused(/--outcome: "down,out-of-action" names 2 outcomes; a chart draws one/, 'exact', ...ATTACK, '--outcome', 'down,out-of-action', '--chart', '/tmp/never-written.svg');
    await refused(/--outcome: picks rows of the table or the CSV; --format json always holds every outcome/, 'exact', ...ATTACK, '--outcome', 'down', '--format', 'json');
  });
});
