import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';

describe('simulated "within n" views of sequence kinds', () => {
  const cases: [string, string[], string, string][] = [
    ['trench-crusade sequence', ['--kind', 'sequence', '--attacks', '4', '--armour', 'standard'], 'outOfActionWithin', 'attacks'],
    ['d20-warband turns', ['--system', 'd20-warband', '--kind', 'turns', '--turns', '3', '--stat', '9', '--defence', '12'], 'incapacitatedBy', 'turn'],
  ];
  for (const [name, args, key, index] of cases) {
    it(`${name}: ${key} from simulation brackets the exact values`, () => {
      const exact = JSON.parse(cli('exact', ...args, '--format', 'json').stdout);
      const sim = JSON.parse(cli('simulate', ...args, '--trials', '400000', '--seed', '3', '--workers', '1', '--format', 'json').stdout);
      expect(sim[key]).toHaveLength(exact[key].length);
      sim[key].forEach((row: Record<string, number>, i: number) => {
        const p = exact[key][i].probability as number;
        expect(row[index]).toBe(exact[key][i][index]);
        // Running sums are non-decreasing; each is within 6 standard errors of the exact value
        // (a false alarm about 2e-9 per row).
        if (i > 0) expect(row.count).toBeGreaterThanOrEqual(sim[key][i - 1].count);
        expect(Math.abs(row.probability! - p)).toBeLessThanOrEqual(6 * Math.sqrt((p * (1 - p)) / 400000) + 1e-12);
        expect(row.ciLow!).toBeLessThanOrEqual(row.probability!);
        expect(row.ciHigh!).toBeGreaterThanOrEqual(row.probability!);
      });
    });
  }
});
