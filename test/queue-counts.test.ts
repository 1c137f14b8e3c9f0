import { describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { tallyOffsets } from '../src/model/tally.js';
import type { Scenario } from '../src/model/types.js';
import { readShardResult } from '../src/queue/shards.js';
import { kindSimulation } from '../src/rules/simulations.js';
import { compileKernel, runInThread } from '../src/sim/chunks.js';

/**
 * What a queue's submitter accepts of a worker's shard (issue #36): every honest tally, and none of the
 * answers a fake or buggy worker gave in the hostile round (zeros, twice the trials, 1e300, 65,535.5).
 */

const TRIALS = 3000;

function honest(scenario: Scenario): number[] {
  const { kernel, tallyLength } = compileKernel({ type: 'scenario', scenario });
  return Array.from(runInThread(kernel, tallyLength, { trials: TRIALS, seed: 5, chunkSize: 1024 }));
}

// One scenario of each shape of tally: outcomes and a mean; means and histograms; a duel's sides.
const scenarios: Record<string, Scenario> = {
  attack: parseScenario({ kind: 'attack', weaponKeywords: 'FIRE' }),
  sequence: parseScenario({ kind: 'sequence', attacks: 4, tough: true, injuryDice: 1 }),
  duel: parseScenario({ kind: 'duel', rounds: 3, a: { policy: 'optimal' }, b: { armour: 'standard' } }),
  d20: parseScenario({ system: 'd20-warband', kind: 'turns' }),
};

describe("a worker's shard tally is checked before it is added", () => {
  for (const [name, scenario] of Object.entries(scenarios)) {
    it(`accepts an honest ${name} tally, and refuses each impossible one with its reason`, () => {
      const layout = kindSimulation(scenario).layout(scenario);
      const offsets = tallyOffsets(layout);
      const tally = honest(scenario);
      expect(readShardResult(tally, layout, TRIALS)).toEqual(tally);
      expect(readShardResult(JSON.stringify(tally), layout, TRIALS)).toEqual(tally);

      const changed = (at: number, value: unknown) => tally.map((x, i) => (i === at ? value : x));
      expect(readShardResult(tally.map(() => 0), layout, TRIALS)).toMatch(/outcome counts sum to 0, not the shard's 3000 trials/);
      expect(readShardResult(tally.map((x) => 2 * x), layout, TRIALS)).toMatch(/outcome counts sum to 6000/);
      expect(readShardResult(changed(0, 65535.5), layout, TRIALS)).toMatch(/count 0 is 65535.5, not a whole number from 0/);
      expect(readShardResult(changed(0, 1e300), layout, TRIALS)).toMatch(/count 0 is 1e\+300/);
      expect(readShardResult(changed(1, -1), layout, TRIALS)).toMatch(/count 1 is -1/);
      expect(readShardResult(changed(0, null), layout, TRIALS)).toMatch(/count 0 is null/);
      expect(readShardResult(tally.slice(1), layout, TRIALS)).toMatch(/counts where the layout has/);
      expect(readShardResult('{"a":1}', layout, TRIALS)).toBe('it is not a list of counts');
      // Moving a trial between outcomes keeps the sum: such a tally is possible, and accepted.
      const first = tally.findIndex((x, i) => i < layout.outcomes.length && x > 0);
      const moved = changed(first, tally[first]! - 1).map((x, i) => (i === (first + 1) % layout.outcomes.length ? (x as number) + 1 : x));
      expect(readShardResult(moved, layout, TRIALS)).toEqual(moved);

      for (const [i, h] of layout.histograms.entries()) {
        const at = offsets.histograms[i]!;
        expect(readShardResult(changed(at, tally[at]! + 1), layout, TRIALS)).toMatch(new RegExp(`histogram ${h.id} sums to`));
      }
      for (const [i, m] of layout.means.entries()) {
        const sum = offsets.means + 2 * i;
        const bad = (why: string, t: unknown[]) => expect(readShardResult(t, layout, TRIALS), why).toMatch(new RegExp(`mean ${m.id} \\(sum`));
        // A sum of squares below the sum: some value would be between 0 and 1.
        bad('squares below sum', changed(sum, tally[sum + 1]! + 2));
        // Of the other parity: x*x - x is always even.
        bad('parity', changed(sum + 1, tally[sum + 1]! + 1));
        // Every trial counting 1e6 (a sum far past what its squares allow): Cauchy-Schwarz.
        bad('Cauchy-Schwarz', changed(sum, TRIALS * 1e6 + (tally[sum + 1]! % 2)));
      }
    });
  }

  it('checks Cauchy-Schwarz in whole numbers, where doubles would round the difference away', () => {
    // 1e6 trials each counting 1e4: sum 1e10, squares 1e14, and sum^2 = 1e20 = trials * squares exactly.
    const layout = { outcomes: ['x'], means: [{ id: 'm', jsonKey: 'm', label: 'm' }], histograms: [] };
    expect(readShardResult([1e6, 1e10, 1e14], layout, 1e6)).toEqual([1e6, 1e10, 1e14]);
    // Sum 1e10 + 2, squares 1e14 + 4e4: sum^2 - trials * squares = 4, lost in a double near 1e20 (whose
    // step is 16384), though squares >= sum and the parity hold. No 1e6 whole counts give it.
    expect(readShardResult([1e6, 1e10 + 2, 1e14 + 4e4], layout, 1e6)).toMatch(/mean m/);
  });
});
