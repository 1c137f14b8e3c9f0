import { describe, expect, it } from 'vitest';
import { parseScenario } from '../src/input/scenario.js';
import { type Scenario } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { Rng } from '../src/sim/rng.js';
import { evaluateExact } from '../src/evaluate.js';
import { toNumber } from '../src/exact/fraction.js';

const tc = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'trench-crusade', ...fields });

/** A stand-in generator that returns the given faces in order, so a rule example can be replayed. */
function scripted(faces: number[]): Rng {
  let i = 0;
  return { d6: () => faces[i++]!, d20: () => faces[i++]!, nextUint32: () => 0, die: () => faces[i++]! } as unknown as Rng;
}

function runKernel(s: Scenario, rng: Rng, trials: number): Float64Array {
  const { kind } = resolveKind(s);
  const tally = new Float64Array(tallyLength(kind.layout(s)));
  kind.simulator(s).run(rng, trials, tally);
  return tally;
}

describe('Trench Crusade simulator replays the worked examples', () => {
  it('core: 4D6 rolling 2, 5, 4, 1 with Standard Armour is Down (004_…)', () => {
    const s = tc({ kind: 'injury', attackType: 'ranged', bloodMarkersSpent: 2, armour: 'standard' });
    const tally = runKernel(s, scripted([2, 5, 4, 1]), 1);
    expect([...tally.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // no effect, minor, down, out of action
  });

  it('3 dice 2, 4, 5 with +1 injury dice and -1 is Down', () => {
    const s = tc({ edition: 'comprehensive', kind: 'injury', injuryDice: 1, armour: 'standard' });
    expect([...runKernel(s, scripted([2, 4, 5]), 1).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  it('-1 injury dice keeps the two lowest: 6, 6, 1 totals 7, Down', () => {
    const s = tc({ kind: 'injury', injuryDice: -1 });
    expect([...runKernel(s, scripted([6, 6, 1]), 1).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  it('attack: a success roll of 6, 6 is a critical, so the injury roll gets +1 dice (core)', () => {
    // Success 6+6 = 12 (critical), then 3 injury dice 1, 4, 5 keep 2 highest = 9: out of action.
    const s = tc({ kind: 'attack' });
    const t = runKernel(s, scripted([6, 6, 1, 4, 5]), 1);
    expect([...t.subarray(0, 5)]).toEqual([0, 0, 0, 0, 1]);
    // Playtest: no critical bonus, 2 injury dice 1, 4 = 5, minor hit.
    const p = tc({ edition: 'playtest', kind: 'attack' });
    expect([...runKernel(p, scripted([6, 6, 1, 4]), 1).subarray(0, 5)]).toEqual([0, 0, 1, 0, 0]);
  });

  it('playtest Bloodbath: 3 of the pool kept (002_…: "roll four dice and keep and total the highest three"), or the D6 apart', () => {
    // +1 injury dice and Bloodbath, dice 3, 3, 3, 1. Pooled (the default since ruling T10): 4 dice keep 3
    // highest = 9, out of action. (This test used to expect the D6 apart, now bloodbathDie "separate".)
    const play = tc({ edition: 'playtest', kind: 'injury', injuryDice: 1, bloodbath: true });
    expect([...runKernel(play, scripted([3, 3, 3, 1]), 1).subarray(0, 4)]).toEqual([0, 0, 0, 1]);
    // Separate: 3 dice (3, 3, 3) keep 2 highest = 6, plus a D6 of 1 = 7, Down.
    const apart = tc({ edition: 'playtest', kind: 'injury', injuryDice: 1, bloodbath: true, bloodbathDie: 'separate' });
    expect([...runKernel(apart, scripted([3, 3, 3, 1]), 1).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    // Core: 4 dice (1, 2, 6, 1) keep 3 highest = 2 + 6 + 1 = 9.
    const core = tc({ edition: 'core', kind: 'injury', injuryDice: 1, bloodbath: true });
    expect([...runKernel(core, scripted([1, 2, 6, 1]), 1).subarray(0, 4)]).toEqual([0, 0, 0, 1]);
  });

  it('core Deadly with Bloodbath keeps 4 of the pool, or 3 with deadlyBloodbathKeep 3', () => {
    // Reinforced (-2), dice 3, 3, 2, 1: all 4 kept = 9 - 2 = 7, Down; 3 dice 3, 3, 2 = 8 - 2 = 6, minor hit.
    const four = tc({ kind: 'injury', deadly: true, bloodbath: true, armour: 'reinforced' });
    expect([...runKernel(four, scripted([3, 3, 2, 1]), 1).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    const three = tc({ kind: 'injury', deadly: true, bloodbath: true, armour: 'reinforced', deadlyBloodbathKeep: 3 });
    expect([...runKernel(three, scripted([3, 3, 2]), 1).subarray(0, 4)]).toEqual([0, 1, 0, 0]);
  });
});

describe('Trench Crusade simulator agrees with the exact engine (in-process, fixed seed)', () => {
  const scenarios: Record<string, unknown>[] = [
    { kind: 'injury' },
    { kind: 'injury', injuryDice: 2, armour: 'reinforced', shield: true },
    { kind: 'injury', injuryDice: -2, armour: 'standard', tough: true },
    { kind: 'attack', attackDice: 1, armour: 'machine', targetDown: true },
    { kind: 'fall', heightInches: 7, armour: 'standard' },
    { edition: 'playtest', kind: 'attack', bloodbath: true, targetDown: true, attackType: 'ranged' },
    { edition: 'playtest', kind: 'injury', bloodbath: true, bloodbathDie: 'separate', injuryDice: -1, armour: 'standard' },
    { kind: 'injury', deadly: true, bloodbath: true, deadlyBloodbathKeep: 3, injuryDice: 1, armour: 'machine' },
    { edition: 'comprehensive', kind: 'injury', armour: 'reinforced', shield: true, targetInjuryModifier: -2, injuryModifier: 1 },
  ];
  for (const fields of scenarios) {
    it(JSON.stringify(fields), () => {
      const s = tc(fields);
      const n = 200_000;
      const tally = runKernel(s, Rng.forChunk(12345, 0), n);
      const exact = evaluateExact(s);
      exact.answer.outcomes.forEach((f, i) => {
        const p = toNumber(f);
        // 6 standard errors: a false alarm has probability about 2e-9 per outcome.
        const tolerance = 6 * Math.sqrt((p * (1 - p)) / n) + 1e-12;
        expect(Math.abs(tally[i]! / n - p)).toBeLessThanOrEqual(tolerance);
      });
    });
  }

  it('a simulator that ignores the -3 cap is caught by the same tolerance', () => {
    // Reinforced + shield + a further -2: capped at -3 in core, -5 uncapped. Simulate the uncapped
    // reading (modifierCap none) and compare with the exact capped answer.
    const capped = tc({ kind: 'injury', armour: 'reinforced', shield: true, targetInjuryModifier: -2, injuryDice: 2 });
    const broken = tc({ ...capped, modifierCap: 'none' });
    const n = 200_000;
    const tally = runKernel(broken, Rng.forChunk(12345, 0), n);
    const exact = evaluateExact(capped).answer.outcomes.map(toNumber);
    const worst = Math.max(...exact.map((p, i) => Math.abs(tally[i]! / n - p) / Math.sqrt((p * (1 - p)) / n + 1e-300)));
    expect(worst).toBeGreaterThan(6);
  });
});
