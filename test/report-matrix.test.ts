import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51 item 5, in reports: each analysis's grid is also written as the matrix a spreadsheet user
 * pastes, matrices/ID.csv, byte for byte what `sweep --wide` writes for the same grid, and the report's
 * page links it beside the analysis's probabilities.
 */

afterAll(() => closePool());

describe("a report's matrices", () => {
  it('matrices/ID.csv is sweep --wide of the analysis, linked from its section', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-report-matrix-'));
    const def = join(dir, 'matrix.json');
    writeFileSync(
      def,
      JSON.stringify({
        title: 'Matrix',
        analyses: [
          { id: 'armour-dice', title: 'Armour and injury dice', scenario: { kind: 'attack' }, vary: ['armour=none,standard', 'injuryDice=0..2'] },
          { id: 'heights', title: 'Falls', scenario: { kind: 'fall' }, vary: ['heightInches=0..6:3'] },
        ],
      }),
    );
    const out = join(dir, 'out');
    const r = await cliInProcess('report', def, '--out', out);
    expect(r.code).toBe(0);
    const two = await cliInProcess('sweep', '--kind', 'attack', '--vary', 'armour=none,standard', '--vary', 'injuryDice=0..2', '--wide');
    expect(readFileSync(join(out, 'matrices', 'armour-dice.csv'), 'utf8')).toBe(two.stdout);
    const one = await cliInProcess('sweep', '--kind', 'fall', '--vary', 'heightInches=0..6:3', '--wide');
    expect(readFileSync(join(out, 'matrices', 'heights.csv'), 'utf8')).toBe(one.stdout);
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).toContain('<a href="matrices/armour-dice.csv">matrices/armour-dice.csv</a>');
    expect(page).toContain('<a href="matrices/heights.csv">matrices/heights.csv</a>');
    // A second run replaces the folder it wrote, matrices and all (they are listed as the report's own).
    expect((await cliInProcess('report', def, '--out', out)).code).toBe(0);
  });
});
