import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { parseScenario } from '../src/input/scenario.js';
import { type Scenario } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { crossCheck } from '../src/stats/cross-check.js';

/**
 * `check` for every Trench Crusade single-roll kind in every edition that has it, with a fixed seed, so
 * the test is deterministic. The chunks run in this thread: the same streams as the worker pool.
 * Each scenario exercises the rules that differ between editions (armour, the cap, Down, criticals,
 * Bloodbath), then each reading of the Bloodbath options (bloodbathDie, deadlyBloodbathKeep), sequences
 * included.
 */
const editions = ['playtest', 'comprehensive', 'core'] as const;
const kinds: Record<string, Record<string, unknown>> = {
  injury: { injuryDice: 1, armour: 'reinforced', shield: true, targetInjuryModifier: -1, targetDown: true, attackType: 'ranged' },
  attack: { attackDice: 1, injuryDice: -1, armour: 'standard', targetDown: true, tough: true },
  fall: { heightInches: 7, armour: 'standard', injuryModifier: 1 },
};

function run(s: Scenario, trials = 300_000, seed = 2024) {
  const { kind } = resolveKind(s);
  const layout = kind.layout(s);
  const tally = runInThread(kind.simulator(s), tallyLength(layout), { trials, seed, chunkSize: CHUNK_SIZE });
  return { layout, trials, tally };
}

describe('check: simulation agrees with exact for every kind and edition (fixed seed)', () => {
  for (const edition of editions) {
    for (const [kind, fields] of Object.entries(kinds)) {
      if (kind === 'fall' && edition === 'playtest') continue; // no falling rule in the playtest
      it(`${edition} ${kind}`, () => {
        const s = parseScenario({ system: 'trench-crusade', edition, kind, ...fields });
        const report = crossCheck(evaluateExact(s).answer, run(s));
        expect(report.failures).toEqual([]);
        expect(report.passed).toBe(true);
      });
    }
  }
  it('bloodbath in playtest and core', () => {
    for (const edition of ['playtest', 'core']) {
      const s = parseScenario({ edition, kind: 'attack', bloodbath: true, injuryDice: 1 });
      expect(crossCheck(evaluateExact(s).answer, run(s)).passed).toBe(true);
    }
  });
  // The readings of rulings T10 and T11: the playtest Bloodbath die pooled or apart, Deadly with
  // Bloodbath keeping 4 or 3, with +/- injury dice, in single rolls and in sequences.
  const readings: Record<string, unknown>[] = [
    { edition: 'playtest', kind: 'attack', bloodbath: true, bloodbathDie: 'pooled', injuryDice: -1, armour: 'standard' },
    { edition: 'playtest', kind: 'attack', bloodbath: true, bloodbathDie: 'separate', injuryDice: 1, targetDown: true },
    { edition: 'playtest', kind: 'injury', bloodbath: true, bloodbathDie: 'separate', injuryDice: -2, armour: 'reinforced' },
    { kind: 'attack', deadly: true, bloodbath: true, deadlyBloodbathKeep: 4, injuryDice: -1, armour: 'machine' },
    { kind: 'fall', heightInches: 4, deadly: true, bloodbath: true, deadlyBloodbathKeep: 3, armour: 'machine' },
    { edition: 'playtest', kind: 'sequence', attacks: 4, policy: 'bloodbath', bloodMarkers: 6, bloodbathDie: 'separate', armour: 'standard' },
    { kind: 'sequence', attacks: 3, policy: 'all', bloodMarkers: 2, deadly: true, deadlyBloodbathKeep: 3, armour: 'machine' },
  ];
  for (const fields of readings) {
    it(`reading ${JSON.stringify(fields)}`, () => {
      const s = parseScenario(fields);
      const report = crossCheck(evaluateExact(s).answer, run(s, 100_000));
      expect(report.failures).toEqual([]);
      expect(report.passed).toBe(true);
    });
  }
});

describe('the same check catches a simulator that breaks an edition rule', () => {
  // Each pair: the scenario whose exact answer is the truth, and a scenario whose simulator plays a
  // broken version of the rule (the field that switches the rule off), run with the same seed.
  const broken: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['ignores the -3 cap', { kind: 'injury', armour: 'reinforced', shield: true, targetInjuryModifier: -2, injuryDice: 2 }, { modifierCap: 'none' }],
    ['forgets the Down bonus on melee', { kind: 'attack', targetDown: true, armour: 'standard' }, { downBonus: 'none' }],
    ['forgets the critical injury dice', { kind: 'attack', attackDice: 2, armour: 'machine' }, { criticalInjuryDice: 0 }],
    ['gives the playtest its Down bonus on ranged rolls', { kind: 'injury', attackType: 'ranged', targetDown: true }, { downBonus: 'any' }],
    ['keeps the playtest Bloodbath die apart', { edition: 'playtest', kind: 'injury', bloodbath: true, injuryDice: 2, armour: 'machine' }, { bloodbathDie: 'separate' }],
    ['keeps 3 dice for Deadly with Bloodbath', { kind: 'injury', deadly: true, bloodbath: true, armour: 'machine' }, { deadlyBloodbathKeep: 3 }],
  ];
  for (const [name, truth, breakage] of broken) {
    it(name, () => {
      const s = parseScenario(truth);
      const b = parseScenario({ ...truth, ...breakage });
      const report = crossCheck(evaluateExact(s).answer, run(b));
      expect(report.passed).toBe(false);
    });
  }
});
