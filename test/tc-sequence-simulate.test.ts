import { describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { type Scenario, type SimKernel } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { Rng } from '../src/sim/rng.js';
import { crossCheck, FAMILY_ALPHA } from '../src/stats/cross-check.js';

const seq = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'trench-crusade', kind: 'sequence', ...fields });

/** Plays `trials` trials of a kernel in this thread from one fixed stream, as one chunk of a run would. */
function play(kernel: SimKernel, s: Scenario, trials: number, seed: number): Float64Array {
  const tally = new Float64Array(tallyLength(resolveKind(s).kind.layout(s)));
  kernel.run(Rng.forChunk(seed, 0), trials, tally);
  return tally;
}

/**
 * The simulator against the exact chain, through the same test `check` uses: chi-square over the end
 * states, over the attack that took the target out and over the final markers, a z-test per mean
 * (attacks made, markers spent, Tough saved, attacks to out of action with unlimited attacks), all at a
 * family error of 1e-6. With a fixed seed the outcome is deterministic; a correct simulator fails such a
 * test with probability 1e-6, so a pass here is no accident of the seed. 60 000 trials keep the file
 * fast while a rules mistake of a percent or more still stands out (see the broken simulators below).
 */
const TRIALS = 60_000;
const SEED = 20240606;

function agree(s: Scenario, kernel: SimKernel = resolveKind(s).kind.simulator(s)) {
  const { kind } = resolveKind(s);
  return crossCheck(kind.exact!(s), { layout: kind.layout(s), trials: TRIALS, tally: play(kernel, s, TRIALS, SEED) });
}

describe('sequence simulator agrees with the exact chain (fixed seed)', () => {
  const targets: [string, Record<string, unknown>][] = [
    ['Tough in Machine Armour, 10 attacks', { armour: 'machine', tough: true }],
    ['standard armour, 3 markers to start', { armour: 'standard', attacks: 5, bloodMarkers: 3 }],
    ['playtest, reinforced, Tough, 8 attacks', { edition: 'playtest', armour: 'reinforced', attacks: 8, tough: true }],
    ['comprehensive, shield, 2 attacks per activation', { edition: 'comprehensive', armour: 'standard', shield: true, attacks: 6, attacksPerActivation: 2 }],
    ['core blessing markers, Down at the start, 3 per activation', { armour: 'machine', tough: true, attacks: 12, attacksPerActivation: 3, blessingMarkers: 2, blessingPolicy: 'all', targetDown: true }],
    ['playtest markers on the attack roll', { edition: 'playtest', attacks: 6, attackRollMarkers: 2, bloodMarkers: 2, armour: 'standard' }],
    ['playtest Bloodbath die kept apart', { edition: 'playtest', attacks: 6, bloodMarkers: 6, bloodbathDie: 'separate', armour: 'standard', injuryDice: 1 }],
    ['core Deadly with Bloodbath keeping 3', { attacks: 5, bloodMarkers: 6, deadly: true, deadlyBloodbathKeep: 3, armour: 'machine' }],
  ];
  for (const [name, fields] of targets) {
    for (const policy of ['none', 'all', 'bloodbath', 'optimal']) {
      if (policy === 'bloodbath' && fields.edition === 'comprehensive') continue;
      it(`${name}, policy ${policy}`, () => {
        const report = agree(seq({ ...fields, policy }));
        expect(report.failures).toEqual([]);
        expect(report.familyAlpha).toBe(FAMILY_ALPHA);
      });
    }
  }
});

describe('a broken simulator is caught', () => {
  /**
   * Each broken simulator is the real one built for a slightly different scenario: what it would do if
   * it forgot one rule of a sequence. The exact answer is that of the right scenario.
   */
  const broken: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['forgets the Down bonus on later attacks', { attacks: 6, armour: 'standard' }, { downBonus: 'none' }],
    ['lets a Down target stand up after every attack', { attacks: 6, armour: 'standard' }, { attacksPerActivation: 1 }],
    ['forgets Tough', { attacks: 6, armour: 'machine', tough: true }, { tough: false }],
    ['never pays for the Bloodbath', { attacks: 8, armour: 'reinforced', policy: 'bloodbath', bloodMarkers: 4 }, { policy: 'none' }],
    ['forgets the target\'s blessing markers', { attacks: 4, blessingMarkers: 3, blessingPolicy: 'all' }, { blessingPolicy: 'none' }],
    ['keeps the playtest Bloodbath die apart', { edition: 'playtest', attacks: 4, policy: 'bloodbath', bloodMarkers: 6, injuryDice: 2, armour: 'machine' }, { bloodbathDie: 'separate' }],
  ];
  for (const [name, right, wrong] of broken) {
    it(name, () => {
      const s = seq(right);
      const bad = seq({ ...right, ...wrong });
      // Same report layout, so the broken kernel fills the same tally cells.
      expect(resolveKind(bad).kind.layout(bad)).toEqual(resolveKind(s).kind.layout(s));
      const report = agree(s, resolveKind(bad).kind.simulator(bad));
      expect(report.passed).toBe(false);
      expect(report.failures.length).toBeGreaterThan(0);
    });
  }
});
