import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 25 part 2: `compare` without files. Each scenario may be a file, its fields on one line
 * ('armour=reinforced,shield=true') or a model or weapon of --profiles; the fields given as flags are every
 * scenario's. Each way is checked against the same scenarios answered by `exact` one at a time.
 */

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-compare-'));
type Compared = { scenarios: { name: string }[]; comparisons: { outcome: string; cumulative: boolean; values: { exact: string }[] }[] };
const compared = async (...args: string[]) => {
  const r = await cliInProcess('compare', ...args, '--format', 'json');
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Compared;
};
const exactOf = async (...args: string[]) => (JSON.parse((await cliInProcess('exact', ...args, '--format', 'json')).stdout) as { outcomes: { exact: string }[] }).outcomes.map((o) => o.exact);
const column = (c: Compared, i: number) => c.comparisons.filter((r) => !r.cumulative).map((r) => r.values[i]!.exact);

describe('compare takes scenarios without files', () => {
  it('fields on one line, the shared ones as flags: the issue\'s example, as two exact runs give it', async () => {
    const c = await compared('armour=reinforced,shield=true', 'armour=machine', '--kind', 'attack', '--injury-dice', '2');
    expect(c.scenarios.map((s) => s.name)).toEqual(['armour=reinforced,shield=true', 'armour=machine']);
    expect(column(c, 0)).toEqual(await exactOf('--kind', 'attack', '--injury-dice', '2', '--armour', 'reinforced', '--shield'));
    expect(column(c, 1)).toEqual(await exactOf('--kind', 'attack', '--injury-dice', '2', '--armour', 'machine'));
  });

  it('models of a profiles file by name, against the weapon the flags give', async () => {
    const c = await compared('Shield Bearer', 'Machine Brute', '--profiles', 'examples/profiles.json', '--weapon', 'Great Hammer', '--kind', 'attack');
    for (const [i, target] of ['Shield Bearer', 'Machine Brute'].entries()) {
      expect(column(c, i)).toEqual(await exactOf('--profiles', 'examples/profiles.json', '--weapon', 'Great Hammer', '--target', target, '--kind', 'attack'));
    }
  });

  it('a file, with the flags over its own fields (as exact FILE --flag reads it), beside a line of fields', async () => {
    const file = join(dir, 'standard.json');
    writeFileSync(file, JSON.stringify({ name: 'standard', kind: 'attack', armour: 'standard', injuryDice: 1 }));
    const c = await compared(file, 'armour=machine', '--kind', 'attack', '--injury-dice', '0');
    expect(column(c, 0)).toEqual(await exactOf(file, '--injury-dice', '0'));
    expect(column(c, 1)).toEqual(await exactOf('--kind', 'attack', '--armour', 'machine'));
  });

  it('refuses in one line what is none of the three, and a field given by a flag and a line both', async () => {
    const nonsense = await cliInProcess('compare', 'armour=machine', 'nonsense');
    expect([nonsense.code, nonsense.stdout]).toEqual([2, '']);
    expect(nonsense.stderr).toBe(
      'injury-lab: scenario 2: "nonsense" is not a scenario file, nor fields; allowed: a scenario file, FIELD=VALUE pairs separated by commas ("armour=reinforced,shield=true"), or a profile name with --profiles, --roster or --catalogue\n',
    );
    const twice = await cliInProcess('compare', 'armour=standard', 'armour=machine', '--armour', 'none');
    expect([twice.code, twice.stderr]).toEqual([2, 'injury-lab: scenario 1 ("armour=standard"): gives armour, which a flag gives every scenario; give it one way\n']);
    const unknown = await cliInProcess('compare', 'armour=standard', 'Nobody', '--profiles', 'examples/profiles.json');
    expect(unknown.stderr).toMatch(/^injury-lab: scenario 2: "Nobody" is not a scenario file, a model or a weapon of "examples\/profiles.json", nor fields; allowed: .*, or a profile name\n$/);
    const mistyped = await cliInProcess('compare', 'armour=standard', 'armor=none');
    expect(mistyped.stderr).toMatch(/^injury-lab: armor=none: armor: not a field of trench-crusade; allowed: /);
  });
});
