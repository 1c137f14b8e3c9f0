import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Fraction, formatFraction } from '../src/exact/fraction.js';
import { evaluateExact } from '../src/evaluate.js';
import { exactJson } from '../src/present/tables/exact-json.js';
import { UsageError } from '../src/errors.js';
import { parseScenario } from '../src/input/scenario.js';
import { type Scenario, type SimKernel } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { betweenAttacks } from '../src/rules/d20-warband/sequence/rules.js';
import { DAZED, NONE, STAGGERED, STUNNED, type Severity } from '../src/rules/d20-warband/tables.js';
import { Rng } from '../src/sim/rng.js';
import { crossCheck } from '../src/stats/cross-check.js';

const d20 = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'd20-warband', ...fields });
const turns = (fields: Record<string, unknown>): Scenario => d20({ kind: 'turns', ...fields });
const f = formatFraction;
const fs = (xs: readonly Fraction[]) => xs.map(f);

describe('recovery between turns (000_87078d30a64c9030.txt, Injury Types)', () => {
  const states: Severity[] = [NONE, STAGGERED, DAZED, STUNNED];
  it('shared turn: end of turn clears Staggered, the next Upkeep moves Stunned to Dazed and Dazed to Staggered', () => {
    expect(states.map((s) => betweenAttacks(s, 'shared'))).toEqual([NONE, NONE, STAGGERED, DAZED]);
  });
  it("separate turns: the target's whole turn, so Dazed has cleared by the next attack", () => {
    expect(states.map((s) => betweenAttacks(s, 'separate'))).toEqual([NONE, NONE, NONE, DAZED]);
  });
});

describe('one turn is the attack kind', () => {
  it('for random attacks and targets (fast-check): outcomes, wounds lost and attacks made agree exactly', () => {
    fc.assert(
      fc.property(
        fc.record({
          stat: fc.integer({ min: 2, max: 20 }),
          attackType: fc.constantFrom('melee', 'ranged'),
          attacks: fc.integer({ min: 1, max: 3 }),
          defence: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant('-')),
          wounds: fc.integer({ min: 0, max: 2 }),
          injury: fc.integer({ min: -4, max: 4 }),
          state: fc.constantFrom('none', 'staggered', 'dazed', 'stunned'),
          injuryTiming: fc.constantFrom('next-attack', 'end-of-action'),
        }),
        (fields) => {
          const t = evaluateExact(turns({ ...fields, turns: 1 })).answer;
          const a = evaluateExact(d20({ kind: 'attack', ...fields })).answer;
          expect(fs(t.outcomes)).toEqual(fs(a.outcomes));
          expect(f(t.means[0]!)).toBe(f(a.means[0]!));
          expect(fs(t.histograms[1]!)).toEqual(fs(a.histograms[0]!)); // wounds lost
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('hand-checked two turns', () => {
  /*
   * Melee, Mel 10 (a natural 10+ hits: 11/20), Defence "-" (no Defence roll: every hit gets through),
   * no wounds, one attack, no critical hits. The Injury Check is the natural die: 10-14 Dazed (5/20),
   * 15-17 Stunned (3/20), 18-20 Incapacitated (3/20); a miss (9/20) leaves the target as it was.
   *
   * Turn 2 (shared turn: end of turn 1, then turn 2's Upkeep):
   *   uninjured after turn 1 (9/20)  -> uninjured:  Incapacitated 3/20
   *   Dazed (5/20)                    -> Staggered: Incapacitated 3/20 (Staggered only hurts Defence rolls)
   *   Stunned (3/20)                  -> Dazed: the attack has advantage, 1 - (9/20)^2 = 319/400 hits,
   *                                      and a Dazed unit that fails Defence in melee is Incapacitated.
   * P(Incapacitated by turn 2) = 3/20 + (9/20 + 5/20) 3/20 + 3/20 * 319/400
   *                            = (1200 + 840 + 957) / 8000 = 2997/8000.
   *
   * Unlimited turns: Staggered and uninjured behave alike here (call both N); D = Dazed at the attack.
   *   h_N = 1 + 3/20 h_D + 14/20 h_N      (Stunned -> Dazed next turn; Dazed -> Staggered; a miss stays)
   *   h_D = 1 + 81/400 h_N                (a miss leaves it Dazed, which has recovered to Staggered next turn)
   *   => (6/20 - 243/8000) h_N = 23/20 => h_N = 9200/2157.
   */
  const fields = { turns: 2, stat: 10, defence: '-', wounds: 0, explode: false };

  it('P(Incapacitated by turn 2) = 2997/8000', () => {
    const by = exactJson(evaluateExact(turns(fields))).incapacitatedBy as { turn: number; exact: string }[];
    expect(by.map((b) => [b.turn, b.exact])).toEqual([
      [1, '3/20'],
      [2, '2997/8000'],
    ]);
  });

  it('expected turns with unlimited turns = 9200/2157', () => {
    const json = exactJson(evaluateExact(turns(fields)));
    expect(json.expectedTurns).toEqual({ value: 9200 / 2157, exact: '9200/2157' });
  });

  it('infinite when no Injury Check can Incapacitate and no injured-target rule can', () => {
    // Ranged, Injury -5: a natural 20 makes 15 at most, Stunned; ranged attacks have no instant kills.
    const json = exactJson(evaluateExact(turns({ attackType: 'ranged', injury: -5 })));
    expect(json.expectedTurns).toEqual({ value: null, exact: 'infinite' });
  });

  it('the state after each turn is a full distribution, and "separate" turns give a Dazed target time to recover', () => {
    const shared = evaluateExact(turns({ turns: 3, defence: 12 }));
    const separate = evaluateExact(turns({ turns: 3, defence: 12, targetTurn: 'separate' }));
    for (const h of shared.answer.histograms) expect(h.reduce((a, b) => a + Number(b.num) / Number(b.den), 0)).toBeCloseTo(1, 12);
    const last = (r: typeof shared) => r.answer.outcomes[5]!;
    expect(Number(last(separate).num) / Number(last(separate).den)).toBeLessThan(Number(last(shared).num) / Number(last(shared).den));
  });
});

describe('bad input', () => {
  const message = (fields: Record<string, unknown>): string => {
    try {
      turns(fields);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };
  it('turns out of range, an unknown target turn, a "-" attack stat', () => {
    expect(message({ turns: 0 })).toBe('turns: 0 is not allowed; allowed: a whole number from 1 to 20');
    expect(message({ turns: 21 })).toBe('turns: 21 is not allowed; allowed: a whole number from 1 to 20');
    expect(message({ targetTurn: 'mine' })).toBe('targetTurn: "mine" is not allowed; allowed: shared, separate');
    expect(message({ stat: '-' })).toMatch(/^stat: "-" cannot make an attack/);
  });
});

describe('turns simulator against the exact chain (fixed seed)', () => {
  /**
   * The same family test as `check` (chi-square per histogram and over outcomes, z per mean, Bonferroni
   * at 1e-6), in this thread on one fixed stream: deterministic, and a correct simulator fails it with
   * probability 1e-6.
   */
  const TRIALS = 100_000;
  const run = (s: Scenario, kernel: SimKernel) => {
    const { kind } = resolveKind(s);
    const layout = kind.layout(s);
    const tally = new Float64Array(tallyLength(layout));
    kernel.run(Rng.forChunk(314159, 0), TRIALS, tally);
    return crossCheck(kind.exact!(s), { layout, trials: TRIALS, tally });
  };
  const cases: Record<string, unknown>[] = [
    {},
    { attackType: 'ranged', wounds: 2 },
    { targetTurn: 'separate', attacks: 2, defence: 12 },
    { state: 'staggered', staggerPersists: false, attacks: 3, turns: 8 },
    { state: 'dazed', wounds: 0, attacks: 2, injuryTiming: 'end-of-action' },
    { defence: '-', pierce: 2, advantage: true, explode: false, wounds: 2 },
  ];
  for (const c of cases) {
    it(JSON.stringify(c), () => {
      const s = turns(c);
      expect(run(s, resolveKind(s).kind.simulator(s)).failures).toEqual([]);
    });
  }

  const broken: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['lets a Dazed target recover a whole turn (wrong turn structure)', { defence: 12, turns: 4 }, { targetTurn: 'separate' }],
    ['drops Staggered\'s disadvantage once a worse injury comes', { state: 'staggered', attacks: 3, turns: 3, defence: 8 }, { staggerPersists: false }],
  ];
  for (const [name, right, wrong] of broken) {
    it(`catches a simulator that ${name}`, () => {
      const s = turns(right);
      const bad = turns({ ...right, ...wrong });
      expect(resolveKind(bad).kind.layout(bad)).toEqual(resolveKind(s).kind.layout(s));
      expect(run(s, resolveKind(bad).kind.simulator(bad)).passed).toBe(false);
    });
  }
});
