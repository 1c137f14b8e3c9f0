import { describe, expect, it } from 'vitest';
import { digitsFor, honestPercent } from '../src/text.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 25 part 5, "Output that reads at a glance" (tables): enough decimals that two different exact
 * values never read alike, never a false 0% or 100%, `--digits` to choose, all-zero rows folded, and each
 * mean said with what it counts.
 */

describe('decimals', () => {
  it('the fewest from two that tell every different exact value apart', () => {
    // 1/3 and 3333/10000 both read 33.33% with two decimals; with three, 33.333% and 33.330%.
    expect(digitsFor([{ probability: 1 / 3, exact: '1/3' }, { probability: 0.3333, exact: '3333/10000' }])).toBe(3);
    // Equal values may read alike: two decimals suffice for 5/18 twice.
    expect(digitsFor([{ probability: 5 / 18, exact: '5/18' }, { probability: 5 / 18, exact: '5/18' }])).toBe(2);
    expect(digitsFor([{ probability: 1 / 3, exact: '1/3' }, { probability: 0.3333, exact: '3333/10000' }], 1)).toBe(1);
  });
  it('a chance above 0 is never shown as 0%, one below 1 never as 100%', () => {
    expect(honestPercent({ probability: 1e-9, exact: '1/1000000000' }, 2)).toBe('<0.01%');
    expect(honestPercent({ probability: 0, exact: '0' }, 2)).toBe('0.00%');
    expect(honestPercent({ probability: 1 - 1e-9, exact: '999999999/1000000000' }, 2)).toBe('>99.99%');
    expect(honestPercent({ probability: 1, exact: '1' }, 2)).toBe('100.00%');
  });
  it('exact and sweep print the same value alike, and --digits sets the decimals (bad values: one line, exit 2)', async () => {
    const exact = (await cliInProcess('exact', '--kind', 'injury', '--armour', 'machine')).stdout;
    const sweep = (await cliInProcess('sweep', '--kind', 'injury', '--vary', 'armour=machine,none')).stdout;
    // Machine Armour: out of action is 1/36, 2.78% in both.
    expect(exact).toMatch(/out-of-action\s+2\.78%\s+1\/36/);
    expect(sweep).toMatch(/machine\s+16\.67%\s+66\.67%\s+13\.89%\s+2\.78%/);
    expect((await cliInProcess('exact', '--kind', 'injury', '--armour', 'machine', '--digits', '0')).stdout).toMatch(/out-of-action\s+3%\s+1\/36/);
    const bad = await cliInProcess('sweep', '--vary', 'armour=none', '--digits', '11');
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([2, '', 'injury-lab: --digits: "11" is not allowed; allowed: a whole number from 0 to 10\n']);
  });
});

describe('long outputs', () => {
  it("fold rows that are all exactly 0: a GOLEM is never taken Out of Action without a Bloodbath, so 'within 1-6 attacks' is one row", async () => {
    const out = (await cliInProcess('exact', '--kind', 'sequence', '--attacks', '6', '--golem')).stdout;
    expect(out).toMatch(/^1-6\s+0\.00%\s+0$/m);
    expect(out).toMatch(/^\s+1-6\s+0\.00%\s+0$/m);
  });
  it('say what each mean counts', async () => {
    const out = (await cliInProcess('exact', '--kind', 'sequence', '--attacks', '4')).stdout;
    expect(out).toMatch(/^expectedAttacksMade: [\d.]+ = .*\(attacks made, at most the attacks given: fewer when Out of Action comes first\)$/m);
    expect(out).toMatch(/^expectedAttacks: [\d.]+ = .*\(attacks to Out of Action with unlimited attacks\)$/m);
  });
});
