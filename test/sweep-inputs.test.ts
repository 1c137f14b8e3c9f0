import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * `cli` starts the built CLI in a process of its own (run `npm run build` first); `cliInProcess` runs the
 * same src/cli/main.ts inside this process, with the same refusal line and exit code, at a fraction of the
 * CPU. One refusal stays a real process, end to end; the others differ only in what they say.
 */

/** Issue 10: a grid that silently drops or ignores what the user wrote. Each is one line and exit 2. */
function expectRefused(r: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(message);
  expect(r.code).toBe(2);
}

describe('sweep grids that would drop or ignore a value', () => {
  it('an empty item in a --vary list is refused, not dropped', async () => {
    // A real process: a refused grid exits 2 and prints its one line, end to end.
    expectRefused(cli('sweep', '--kind', 'injury', '--vary', 'armour=none,,standard'), /--vary: "armour=none,,standard": value 2 is empty/);
    expectRefused(await cliInProcess('sweep', '--kind', 'injury', '--vary', 'armour=none,standard,'), /value 3 is empty/);
    expectRefused(await cliInProcess('sweep', '--kind', 'injury', '--vary', 'armour,shield=none/false,standard/'), /value 2 is empty; .* one part per field separated by \//);
  });

  it('a field given as a flag and varied too is refused, not ignored', async () => {
    expectRefused(await cliInProcess('sweep', '--kind', 'injury', '--injury-dice', '1', '--vary', 'injuryDice=0..2'), /^injury-lab: --injury-dice 1: the field is also varied \(--vary injuryDice\); give it one way$/m);
    expectRefused(await cliInProcess('sweep', '--kind', 'injury', '--edition', 'core', '--vary', 'edition=core,playtest'), /--edition core: the field is also varied/);
  });

  it('a scenario file may set a field the grid varies, but its value must still be allowed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-base-'));
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, JSON.stringify({ kind: 'injury', injuryDice: 1 }));
    const r = await cliInProcess('sweep', ok, '--vary', 'injuryDice=0..1', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).cells.map((c: { values: Record<string, unknown> }) => c.values)).toEqual([{ injuryDice: 0 }, { injuryDice: 1 }]);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ kind: 'injury', injuryDice: 'lots' }));
    expectRefused(await cliInProcess('sweep', bad, '--vary', 'injuryDice=0..1'), /scenario: injuryDice: "lots" is not allowed; allowed: a whole number from -10 to 10 \(the grid varies injuryDice/);
  });

  it('report --check-only refuses a base value the grid overrides, if it is not allowed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-base-'));
    const def = join(dir, 'garbage.json');
    const analysis = { id: 'a', title: 'A', vary: ['injuryDice=0..2'] };
    writeFileSync(def, JSON.stringify({ title: 'G', analyses: [{ ...analysis, scenario: { kind: 'injury', injuryDice: 'garbage' } }] }));
    expectRefused(await cliInProcess('report', def, '--check-only'), /analysis "a" \(analyses\[0\]\): scenario: injuryDice: "garbage" is not allowed/);
    writeFileSync(def, JSON.stringify({ title: 'G', analyses: [{ ...analysis, vary: ['edition=core,playtest'], scenario: { kind: 'injury', edition: 'v9' } }] }));
    expectRefused(await cliInProcess('report', def, '--check-only'), /scenario: edition: "v9" is not an edition of trench-crusade/);
  });
});
