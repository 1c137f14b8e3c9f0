import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareScenarios } from '../src/analysis/compare.js';
import { differenceEstimate, ratioEstimate, t975 } from '../src/analysis/paired.js';
import { closePool } from '../src/pool/simulate.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

afterAll(() => closePool());

describe('Student t quantiles for paired batches', () => {
  /**
   * The independent oracle: the t density integrated numerically (Simpson's rule, 20 000 steps on
   * [0, q]) must give 0.475 at the tabled 97.5% quantile. Four printed decimals of q move the
   * integral by at most density(q) * 5e-5 < 3e-6 (plus Simpson's own error, far smaller), so 1e-5
   * is a safe tolerance.
   */
  function tCdfFromZero(q: number, df: number): number {
    const lgamma = (x: number): number => {
      // Lanczos approximation (g = 7, n = 9), accurate to about 1e-15 for x > 0.5.
      const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
      x -= 1;
      let a = c[0]!;
      const t = x + 7.5;
      for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
      return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
    };
    const k = Math.exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / Math.sqrt(df * Math.PI);
    const f = (x: number) => k * (1 + (x * x) / df) ** (-(df + 1) / 2);
    const n = 20_000;
    const h = q / n;
    let s = f(0) + f(q);
    for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(i * h);
    return (s * h) / 3;
  }

  it('match the t distribution for 1 to 40 degrees of freedom', () => {
    for (let df = 1; df <= 40; df++) expect(Math.abs(tCdfFromZero(t975(df), df) - 0.475), `df ${df}`).toBeLessThan(1e-5);
  });

  it('fall back to independent estimates when batches cannot be paired', () => {
    const d = differenceEstimate({ batches: [0.5], trials: 100 }, { batches: [0.6], trials: 100 });
    expect(d.paired).toBe(false);
    expect(d.value).toBeCloseTo(0.1, 12);
    expect(ratioEstimate({ batches: [0, 0], trials: 10 }, { batches: [0.5, 0.5], trials: 10 })).toBeNull();
  });
});

describe('compare', () => {
  it('gives exact differences, ratios and one-line verdicts against the first scenario', async () => {
    const r = await compareScenarios([
      { name: 'a', file: 'a.json', raw: { kind: 'injury' } },
      { name: 'b', file: 'b.json', raw: { kind: 'injury', armour: 'reinforced' } },
    ]);
    const ooa = r.rows.find((x) => x.outcome === 'out-of-action')!;
    // 2D6: 9+ is 10/36; with -2, 11+ is 3/36. Difference -7/36, ratio 3/10.
    expect(ooa.versus[0]!.difference.exact).toBe('-7/36');
    expect(ooa.versus[0]!.ratio.exact).toBe('3/10');
    expect(ooa.versus[0]!.verdict).toBe('b is out of action 19.4 points less often than a (8.3% against 27.8%; 0.30 times as often).');
    const down = r.cumulativeRows.find((x) => x.outcome === 'down')!;
    expect(down.versus[0]!.verdict).toMatch(/^b is down or worse .* less often than a/);
  });

  it('compares kinds with different outcomes when allowed (--allow-mixed), an outcome one cannot have counting as 0', async () => {
    const r = await compareScenarios(
      [
        { name: 'attack', file: 'a.json', raw: { kind: 'attack' } },
        { name: 'roll', file: 'b.json', raw: { kind: 'injury' } },
      ],
      { allowMixed: true },
    );
    expect(r.outcomes).toEqual(['miss', 'no-effect', 'minor-hit', 'down', 'out-of-action']);
    expect(r.rows[0]!.values[1]).toMatchObject({ probability: 0, exact: '0' });
    expect(r.rows[0]!.versus[0]!.difference.exact).toBe('-5/12');
  });

  it('with simulation, gives paired intervals that hold the exact difference', async () => {
    const r = await compareScenarios(
      [
        { name: 'a', file: 'a.json', raw: { kind: 'attack' } },
        { name: 'b', file: 'b.json', raw: { kind: 'attack', armour: 'standard' } },
      ],
      { sim: { trials: 50_000, seed: 4, batches: 20 } },
    );
    for (const row of [...r.rows, ...r.cumulativeRows]) {
      const d = row.versus[0]!.difference;
      expect(d.estimate!.paired).toBe(true);
      // Twice the 95% half-width is t = 4.19 on 19 degrees of freedom: a correct interval misses the
      // exact difference by that much with probability 5e-4 per row, under 0.5% for all nine rows. (That
      // rests on the 20 batches, not the trials: 2,500 a batch make each batch mean close to normal.)
      const half = (d.estimate!.ciHigh - d.estimate!.ciLow) / 2;
      expect(Math.abs(d.estimate!.value - d.value!)).toBeLessThanOrEqual(2 * half + 1e-12);
    }
    // Armour does not change the success roll: with the same seeds, the misses are identical.
    const miss = r.rows[0]!.versus[0]!.difference.estimate!;
    expect([miss.value, miss.ciLow, miss.ciHigh]).toEqual([0, 0, 0]);
  }, 60_000);

  it('injury-lab compare prints tables and verdicts, and JSON on request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-compare-'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ kind: 'injury', name: 'no armour' }));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ kind: 'injury', armour: 'standard', shield: true }));
    // In this process (cliInProcess: main.ts, the same output and exit code) but for the missing file,
    // which runs the built CLI in a process of its own: a refusal end to end.
    const r = await cliInProcess('compare', join(dir, 'a.json'), join(dir, 'b.json'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/b is out of action 19\.4 points less often than no armour \(8\.3% against 27\.8%; 0\.30 times as often\)\./);
    expect(r.stdout).toMatch(/This outcome or worse:/);
    const j = JSON.parse((await cliInProcess('compare', join(dir, 'a.json'), join(dir, 'b.json'), '--format', 'json')).stdout);
    expect(j.verdicts).toHaveLength(4);
    expect((await cliInProcess('compare', join(dir, 'a.json'))).code).toBe(2);
    const missing = cli('compare', join(dir, 'a.json'), join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json.*no such file/);
  });
});
