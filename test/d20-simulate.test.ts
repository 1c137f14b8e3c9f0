import { describe, expect, it } from 'vitest';
import { toNumber } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { type ExactAnswer, type ReportLayout, type Scenario, type SimKernel } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { Rng } from '../src/sim/rng.js';
import { crossCheck } from '../src/stats/cross-check.js';

const d20 = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'd20-warband', ...fields });

/** Returns the given d20 faces in order and fails loudly if the kernel asks for one more. */
function scripted(faces: number[]): Rng & { used(): number } {
  let i = 0;
  return {
    d20: () => {
      if (i >= faces.length) throw new Error(`script of ${faces.length} faces ran out`);
      return faces[i++]!;
    },
    used: () => i,
  } as unknown as Rng & { used(): number };
}

function runKernel(s: Scenario, rng: Rng, trials: number, kernel?: SimKernel): Float64Array {
  const { kind } = resolveKind(s);
  const tally = new Float64Array(tallyLength(kind.layout(s)));
  (kernel ?? kind.simulator(s)).run(rng, trials, tally);
  return tally;
}

describe('d20 warband simulator replays the worked examples', () => {
  it('Critical Hits (003_…): 20, again 20, then 15 "which is a hit (and a potential Stun)"', () => {
    // Melee, Mel 10 against Def 10 with no wounds. Each attack is followed by the target's Defence roll:
    // the two critical hits are saved on natural 20s, the 15 is not defended (a 3), so the Injury Check on
    // 15 Stuns. Three attacks were made from one.
    const s = d20({ kind: 'attack', stat: 10, defence: 10, wounds: 0, attacks: 1 });
    const rng = scripted([20, 20, 20, 20, 15, 3]);
    const t = runKernel(s, rng, 1);
    expect([...t.subarray(0, 6)]).toEqual([0, 0, 0, 0, 1, 0]); // stunned
    expect(t[6]).toBe(3); // attacks made
    expect(rng.used()).toBe(6);
    // Had the first critical not been saved, its Injury Check on 20 Incapacitates and ends the attack.
    const rng2 = scripted([20, 3]);
    expect([...runKernel(s, rng2, 1).subarray(0, 6)]).toEqual([0, 0, 0, 0, 0, 1]);
    expect(rng2.used()).toBe(2);
  });

  it('"a unit with 3 Wounds could lose 2 Wounds without making an Injury Check" (000_…, Wounds)', () => {
    const s = d20({ kind: 'attack', stat: 10, defence: 10, wounds: 3, attacks: 2, explode: false });
    const t = runKernel(s, scripted([15, 2, 18, 4]), 1);
    expect([...t.subarray(0, 6)]).toEqual([0, 1, 0, 0, 0, 0]); // wounded
    expect([...t.subarray(8)]).toEqual([0, 0, 1, 0]); // 2 wounds lost
  });

  it('falling 3" and rolling 13 Stuns, as 13 + 2 = 15 (000_…)', () => {
    expect([...runKernel(d20({ kind: 'fall', heightInches: 3 }), scripted([13]), 1)]).toEqual([0, 0, 1, 0]);
  });

  it('a Dazed target in melee: the attacker rolls two dice, and a failed Defence check Incapacitates', () => {
    const s = d20({ kind: 'attack', stat: 10, defence: 10, state: 'dazed', wounds: 0, explode: false });
    const rng = scripted([3, 16, 7]); // advantage keeps 16, a hit; Defence 7 fails
    expect([...runKernel(s, rng, 1).subarray(0, 6)]).toEqual([0, 0, 0, 0, 0, 1]);
    expect(rng.used()).toBe(3);
  });

  it('next-attack timing: attack 1 Dazes, so attack 2 rolls with advantage', () => {
    const s = d20({ kind: 'attack', stat: 10, defence: '-', wounds: 0, attacks: 2, explode: false });
    const rng = scripted([12, 3, 16]); // 12 hits and Dazes; then 2 dice, 16 kept, Incapacitates (Dazed, melee)
    expect([...runKernel(s, rng, 1).subarray(0, 6)]).toEqual([0, 0, 0, 0, 0, 1]);
    expect(rng.used()).toBe(3);
  });

  it('a Stunned target attacked in melee rolls nothing and is Incapacitated', () => {
    const rng = scripted([]);
    const t = runKernel(d20({ kind: 'attack', state: 'stunned', wounds: 0, attacks: 3 }), rng, 1);
    expect([...t.subarray(0, 6)]).toEqual([0, 0, 0, 0, 0, 1]);
    expect(t[6]).toBe(1);
  });

  it('a Staggered target rolls Defence with disadvantage: 18 and 6 keep 6, which fails Def 10', () => {
    const s = d20({ kind: 'attack', stat: 10, defence: 10, state: 'staggered', wounds: 0, explode: false });
    const rng = scripted([19, 18, 6]); // attack 19 hits; Defence 18/6 keeps 6; Injury Check 19
    expect([...runKernel(s, rng, 1).subarray(0, 6)]).toEqual([0, 0, 0, 0, 0, 1]);
    expect(rng.used()).toBe(3);
  });
});

/**
 * Our own agreement test: every outcome, histogram bin and mean within 6 standard errors of the exact
 * value (the standard error of a proportion from the exact p; of a mean from the sample variance). For a
 * correct simulator each comparison fails with probability about 2e-9 (normal approximation, good here
 * since n p is at least tens for every p we test that is not 0 or 1); over the ~150 comparisons in this
 * file that is below 1e-6, and with a fixed seed the outcome is deterministic anyway. A cell of exact
 * probability 0 or 1 must match exactly.
 */
const Z_LIMIT = 6;
function worstZ(exact: ExactAnswer, layout: ReportLayout, tally: Float64Array, n: number): { z: number; where: string } {
  let worst = { z: 0, where: '' };
  const proportion = (count: number, p: number, where: string) => {
    const sd = Math.sqrt((p * (1 - p)) / n);
    const z = sd > 0 ? Math.abs(count / n - p) / sd : count / n === p ? 0 : Number.POSITIVE_INFINITY;
    if (z > worst.z) worst = { z, where };
  };
  layout.outcomes.forEach((o, i) => proportion(tally[i]!, toNumber(exact.outcomes[i]!), o));
  let at = layout.outcomes.length;
  layout.means.forEach((m, j) => {
    const mean = tally[at]! / n;
    const variance = Math.max(0, tally[at + 1]! / n - mean * mean) * (n / (n - 1));
    const se = Math.sqrt(variance / n);
    const target = toNumber(exact.means[j]!);
    const z = se > 0 ? Math.abs(mean - target) / se : Math.abs(mean - target) < 1e-12 ? 0 : Number.POSITIVE_INFINITY;
    if (z > worst.z) worst = { z, where: m.id };
    at += 2;
  });
  layout.histograms.forEach((h, k) => {
    h.bins.forEach((b, i) => proportion(tally[at + i]!, toNumber(exact.histograms[k]![i]!), `${h.id}[${b}]`));
    at += h.bins.length;
  });
  return worst;
}

const TRIALS = 200_000;
const SEED = 20240605;

const agreeing: Record<string, unknown>[] = [
  { kind: 'check', stat: 10 },
  { kind: 'check', stat: 3, advantage: true },
  { kind: 'check', stat: '-', modifier: 3, disadvantage: true },
  { kind: 'injury-roll', modifier: 2, advantage: true },
  { kind: 'fall', heightInches: 5.5 },
  { kind: 'attack', stat: 7, attacks: 3, wounds: 2, defence: 9, pierce: 1, injury: 1 },
  { kind: 'attack', stat: 5, attacks: 4, wounds: 0, defence: 12, attackType: 'ranged', state: 'dazed', injury: 3 },
  { kind: 'attack', stat: 9, attacks: 3, wounds: 1, defence: 8, state: 'staggered', advantage: true, injuryTiming: 'end-of-action' },
  // Staggered Defence disadvantage after a worse injury, both readings (too many dice to enumerate).
  { kind: 'attack', stat: 9, attacks: 3, wounds: 0, defence: 9, state: 'staggered', staggerPersists: true },
  { kind: 'attack', stat: 9, attacks: 3, wounds: 0, defence: 9, state: 'staggered', staggerPersists: false },
  { kind: 'attack', stat: 6, attacks: 3, wounds: 0, defence: 11, attackType: 'ranged', state: 'stunned', stunnedDefends: false },
  { kind: 'attack', stat: 4, attacks: 10, wounds: 6, defence: '-', defenceModifier: 3, injury: -2 },
];

describe('d20 warband simulator agrees with the exact engine (seeded)', () => {
  for (const fields of agreeing) {
    it(JSON.stringify(fields), () => {
      const s = d20(fields);
      const { kind } = resolveKind(s);
      const layout = kind.layout(s);
      const tally = runKernel(s, Rng.forChunk(SEED, 0), TRIALS);
      const exact = kind.exact!(s);
      const worst = worstZ(exact, layout, tally, TRIALS);
      expect(worst.z, worst.where).toBeLessThan(Z_LIMIT);
      // The project's own `check` statistics (chi-square and z-tests, Bonferroni at 1e-6) agree too.
      expect(crossCheck(exact, { layout, trials: TRIALS, tally }).failures).toEqual([]);
      // Every trial lands in exactly one outcome and one histogram bin.
      const outcomes = tally.subarray(0, layout.outcomes.length).reduce((a, b) => a + b, 0);
      expect(outcomes).toBe(TRIALS);
    });
  }
});

describe('the agreement test catches broken simulators', () => {
  it('a check kernel that forgets "natural 1-4 always fail" (Mel 3: 18/20 instead of 16/20)', () => {
    const s = d20({ kind: 'check', stat: 3 });
    const broken: SimKernel = {
      run(rng, trials, tally) {
        for (let t = 0; t < trials; t++) {
          const die = rng.d20();
          tally[die >= 3 ? 1 : 0]! += 1;
          if (die === 20) {
            tally[2]! += 1;
            tally[3]! += 1;
          }
        }
      },
    };
    const { kind } = resolveKind(s);
    const tally = runKernel(s, Rng.forChunk(SEED, 0), TRIALS, broken);
    // 0.1 off on p = 0.8 is 0.1 / sqrt(0.16 / 2e5) = 112 standard errors.
    expect(worstZ(kind.exact!(s), kind.layout(s), tally, TRIALS).z).toBeGreaterThan(50);
    expect(crossCheck(kind.exact!(s), { layout: kind.layout(s), trials: TRIALS, tally }).passed).toBe(false);
  });

  it('an attack kernel with Defence off by one (simulates Def 11 for Def 10)', () => {
    const fields = { kind: 'attack', stat: 10, defence: 10, wounds: 0, explode: false };
    const s = d20(fields);
    const broken = resolveKind(s).kind.simulator(d20({ ...fields, defence: 11 }));
    const { kind } = resolveKind(s);
    const tally = runKernel(s, Rng.forChunk(SEED, 0), TRIALS, broken);
    // P(unharmed) moves by 11/20 * 1/20 = 0.0275 on p = 0.7525: about 28 standard errors.
    expect(worstZ(kind.exact!(s), kind.layout(s), tally, TRIALS).z).toBeGreaterThan(15);
  });

  it('an attack kernel that never explodes (3 attacks: 3 instead of 60/19 expected)', () => {
    const fields = { kind: 'attack', stat: 10, defence: 10, wounds: 5, attacks: 3 };
    const s = d20(fields);
    const broken = resolveKind(s).kind.simulator(d20({ ...fields, explode: false }));
    const { kind } = resolveKind(s);
    const tally = runKernel(s, Rng.forChunk(SEED, 0), TRIALS, broken);
    const worst = worstZ(kind.exact!(s), kind.layout(s), tally, TRIALS);
    expect(worst.z).toBeGreaterThan(50);
    expect(worst.where).toBe('attacksMade');
  });
});

describe('d20 warband simulator: streams', () => {
  it('the same seed gives the same tally; two runs add into one tally', () => {
    const s = d20({ kind: 'attack', stat: 8, attacks: 3, wounds: 1, defence: 11 });
    const a = runKernel(s, Rng.forChunk(7, 3), 5000);
    const b = runKernel(s, Rng.forChunk(7, 3), 5000);
    expect([...a]).toEqual([...b]);
    const { kind } = resolveKind(s);
    const kernel = kind.simulator(s);
    const rng = Rng.forChunk(7, 3);
    const tally = new Float64Array(tallyLength(kind.layout(s)));
    kernel.run(rng, 2000, tally);
    kernel.run(rng, 3000, tally);
    expect([...tally]).toEqual([...a]);
  });
});
