import { describe, expect, it } from 'vitest';
import { evaluateExact, type ExactResult } from '../src/evaluate.js';
import { exactJson } from '../src/present/tables/exact-json.js';
import { ZERO, compare, formatFraction, fraction, sub } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { type Scenario } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { crossCheck } from '../src/stats/cross-check.js';

/**
 * A variant changes exactly what it says (d20 warband): under rule changes given inline in the scenario,
 * the exact engine equals a brute force written here from the variant's numbers alone - every face of the
 * d20 enumerated (both dice for advantage and disadvantage), kept, looked up and counted - and the
 * simulator agrees with it (check, fixed seed). Each case also differs from the v1 answer, so a rule the
 * engines ignored would fail here.
 */

const d20 = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'd20-warband', ...fields });

/**
 * The simulator in this thread, fixed seed, 200,000 trials. Power: at that size the standard error of an
 * outcome probability is at most 0.11 percentage points (p = 1/2), and crossCheck (chi-square over the
 * outcomes, a z-test per mean, Bonferroni at family-wise 1e-6) flags a deviation of about 6 standard
 * errors, some 0.7 points. Every variant here moves some outcome or mean by at least 2 points against v1
 * (asserted exactly in `expectMoved`), so a simulator that kept v1's numbers would miss by 18 standard
 * errors or more; and the seed is fixed, so a correct simulator passes every time.
 */
function simulateInThread(s: Scenario, trials = 200_000, seed = 11) {
  const { kind } = resolveKind(s);
  const layout = kind.layout(s);
  const tally = runInThread(kind.simulator(s), tallyLength(layout), { trials, seed, chunkSize: CHUNK_SIZE });
  return { layout, trials, tally };
}

type Tilt = 'plain' | 'advantage' | 'disadvantage';
const tiltFields = (t: Tilt) => ({ advantage: t === 'advantage', disadvantage: t === 'disadvantage' });

/** Every way the kept d20 can fall: 20 faces, or all 400 pairs kept high or low. */
function keptFaces(t: Tilt): number[] {
  const out: number[] = [];
  for (let a = 1; a <= 20; a++) {
    if (t === 'plain') out.push(a);
    else for (let b = 1; b <= 20; b++) out.push(t === 'advantage' ? Math.max(a, b) : Math.min(a, b));
  }
  return out;
}

/** Counts of each outcome over `total` equally likely ways, as formatted fractions. */
function shares(counts: Map<string, number>, total: number): (o: string) => string {
  return (o) => formatFraction(fraction(counts.get(o) ?? 0, total));
}

function bump(counts: Map<string, number>, o: string, by = 1): void {
  counts.set(o, (counts.get(o) ?? 0) + by);
}

/**
 * The variant moved the answer: some outcome or mean differs from the same scenario in v1 by at least
 * 2 percentage points (1/50), compared exactly (see simulateInThread for why 2 points).
 */
function expectMoved(variant: ExactResult, v1: ExactResult): void {
  const a = variant.answer;
  const b = v1.answer;
  const gaps = [...a.outcomes.map((p, i) => sub(p, b.outcomes[i]!)), ...a.means.map((m, i) => sub(m, b.means[i]!))];
  const largest = gaps.map((g) => (compare(g, ZERO) < 0 ? sub(ZERO, g) : g)).reduce((x, y) => (compare(x, y) >= 0 ? x : y));
  expect(compare(largest, fraction(1, 50)), `largest move ${formatFraction(largest)}`).toBeGreaterThanOrEqual(0);
}

function expectAgreesWithSimulator(s: Scenario, exact: ExactResult): void {
  expect(crossCheck(exact.answer, simulateInThread(s)).failures).toEqual([]);
}

describe('d20 warband check under a variant (naturalFailMax 2, naturalSuccessMin 18)', () => {
  const rules = { naturalFailMax: 2, naturalSuccessMin: 18 };

  /** A check from the variant's numbers: naturals 18-20 always pass, 1-2 always fail, else reach the need. */
  function bruteCheck(need: number | null, t: Tilt) {
    const counts = new Map<string, number>();
    const faces = keptFaces(t);
    if (need === null) {
      bump(counts, 'fail', faces.length); // a "-" stat rolls nothing and fails
      return { p: shares(counts, faces.length), alwaysSucceeds: '0' };
    }
    let top = 0;
    for (const face of faces) {
      const pass = face >= 18 ? true : face <= 2 ? false : face >= need;
      bump(counts, pass ? 'success' : 'fail');
      if (face >= 18) top++;
    }
    return { p: shares(counts, faces.length), alwaysSucceeds: formatFraction(fraction(top, faces.length)) };
  }

  // Stat 1 and 3: naturalFailMax matters (natural 3-4 now pass); stat 20 and 15 with -5: the
  // always-succeeding 18-19 matter; stat 10: only the mean moves (natural 18-20 instead of 20).
  const cases: { stat: number; modifier: number; tilt: Tilt }[] = [];
  for (const tilt of ['plain', 'advantage', 'disadvantage'] as const)
    for (const [stat, modifier] of [[1, 0], [3, 0], [20, 0], [15, -5], [10, 0]] as const) cases.push({ stat, modifier, tilt });
  it.each(cases)('stat $stat, modifier $modifier, $tilt', ({ stat, modifier, tilt }) => {
    const fields = { kind: 'check', stat, modifier, ...tiltFields(tilt) };
    const s = d20({ ...fields, rules });
    const exact = evaluateExact(s);
    const brute = bruteCheck(stat - modifier, tilt);
    for (const row of exact.outcomes) expect(row.exact, row.outcome).toBe(brute.p(row.outcome));
    // The mean keeps its key: the chance of a natural that always succeeds, here 18-20.
    expect(exact.means.naturalTwentyProbability?.exact).toBe(brute.alwaysSucceeds);
    expect(exact.layout.means[0]?.label).toBe('natural 18-20 rolled');
    expectMoved(exact, evaluateExact(d20(fields)));
    expectAgreesWithSimulator(s, exact);
  });

  it('a "-" stat improved by 3 under dashFirstImproved 16 needs 14 (16, then 15, 14)', () => {
    const variant = { ...rules, dashFirstImproved: 16 };
    const s = d20({ kind: 'check', stat: '-', modifier: 3, rules: variant });
    const exact = evaluateExact(s);
    const brute = bruteCheck(14, 'plain');
    for (const row of exact.outcomes) expect(row.exact, row.outcome).toBe(brute.p(row.outcome));
    expect(exact.notes[0]).toBe('Check: d20 needs 14+ (natural 1-2 always fail, natural 18-20 always succeed)');
    expectMoved(exact, evaluateExact(d20({ kind: 'check', stat: '-', modifier: 3 })));
    // Unimproved, it still rolls nothing.
    expect(evaluateExact(d20({ kind: 'check', stat: '-', rules: variant })).outcomes.map((o) => o.exact)).toEqual(['1', '0']);
    expectAgreesWithSimulator(s, exact);
  });
});

describe('d20 warband injury roll and fall under a variant', () => {
  const rules = { injuryRollTable: { dazed: 10, stunned: 14, incapacitated: 19 }, fall: { freeInches: 1, modifierPerInch: 3 } };

  /** The Injury Roll from the variant's table: 19+ Incapacitated, 14-18 Stunned, 10-13 Dazed, below no effect. */
  function bruteRoll(add: number, t: Tilt) {
    const counts = new Map<string, number>();
    const faces = keptFaces(t);
    for (const face of faces) {
      const total = face + add;
      bump(counts, total >= 19 ? 'incapacitated' : total >= 14 ? 'stunned' : total >= 10 ? 'dazed' : 'no-effect');
    }
    return shares(counts, faces.length);
  }

  const cases: { kind: string; modifier: number; heightInches?: number; tilt: Tilt; add: number }[] = [
    { kind: 'injury-roll', modifier: 0, tilt: 'plain', add: 0 },
    { kind: 'injury-roll', modifier: 2, tilt: 'advantage', add: 2 },
    { kind: 'injury-roll', modifier: -1, tilt: 'disadvantage', add: -1 },
    // +3 per full inch above 1": 3.5" is 2 full inches above, +6 (v1: +2 for 1 inch above 2").
    { kind: 'fall', modifier: 1, heightInches: 3.5, tilt: 'plain', add: 1 + 3 * 2 },
    // 1.9" is no full inch above 1": only the modifier.
    { kind: 'fall', modifier: 0, heightInches: 1.9, tilt: 'advantage', add: 0 },
    { kind: 'fall', modifier: -2, heightInches: 6, tilt: 'disadvantage', add: -2 + 3 * 5 },
  ];
  it.each(cases)('$kind, modifier $modifier, height $heightInches, $tilt', ({ tilt, add, ...fields }) => {
    const s = d20({ ...fields, ...tiltFields(tilt), rules });
    const exact = evaluateExact(s);
    const brute = bruteRoll(add, tilt);
    for (const row of exact.outcomes) expect(row.exact, row.outcome).toBe(brute(row.outcome));
    expectMoved(exact, evaluateExact(d20({ ...fields, ...tiltFields(tilt) })));
    expectAgreesWithSimulator(s, exact);
  });
});

describe('d20 warband attack under a variant (criticalHitMin 18, Injury Check Stunned 13+, Incapacitated 16+)', () => {
  const rules = { criticalHitMin: 18, injuryCheckTable: { stunned: 13, incapacitated: 16 } };

  /**
   * One attack (attacks 1, explode false), target uninjured with no wounds, from the variant's numbers:
   * the attack hits on a natural 18+ (a Critical Hit, whatever the stat) or as a check (20 always, 1-4
   * never, else at least the need); a hit is saved by a Defence check (same natural rules) unless the
   * Defence is "-"; a hit that gets through rolls the Injury Check on the kept attack die + Injury:
   * 16+ Incapacitated, 13-15 Stunned, below Dazed.
   */
  function bruteAttack(o: { need: number; defenceNeed: number | null; injury: number; tilt: Tilt }) {
    const counts = new Map<string, number>();
    const attackFaces = keptFaces(o.tilt);
    const check = (face: number, need: number) => (face >= 20 ? true : face <= 4 ? false : face >= need);
    for (const a of attackFaces) {
      const hit = a >= 18 || check(a, o.need);
      for (let d = 1; d <= 20; d++) {
        const saved = o.defenceNeed !== null && check(d, o.defenceNeed);
        if (!hit || saved) {
          bump(counts, 'unharmed');
          continue;
        }
        const value = a + o.injury;
        bump(counts, value >= 16 ? 'incapacitated' : value >= 13 ? 'stunned' : 'dazed');
      }
    }
    return shares(counts, attackFaces.length * 20);
  }

  const cases = [
    // Mel 19: v1 hits on 19-20, the variant on 18-20 too.
    { fields: { attackType: 'melee', stat: 19, defence: 10 }, need: 19, defenceNeed: 10, injury: 0, tilt: 'plain' as Tilt },
    { fields: { attackType: 'ranged', stat: 12, modifier: -8, defence: 8, pierce: 1, injury: -2 }, need: 20, defenceNeed: 9, injury: -2, tilt: 'advantage' as Tilt },
    { fields: { attackType: 'melee', stat: 6, defence: '-', injury: 1 }, need: 6, defenceNeed: null, injury: 1, tilt: 'disadvantage' as Tilt },
  ];
  it.each(cases)('one attack, no explosions: %o', ({ fields, tilt, ...o }) => {
    const base = { kind: 'attack', attacks: 1, explode: false, wounds: 0, state: 'none', ...fields, ...tiltFields(tilt) };
    const s = d20({ ...base, rules });
    const exact = evaluateExact(s);
    const brute = bruteAttack({ ...o, tilt });
    for (const row of exact.outcomes) expect(row.exact, row.outcome).toBe(brute(row.outcome));
    expectMoved(exact, evaluateExact(d20(base)));
    expectAgreesWithSimulator(s, exact);
  });

  it('one attack that explodes: the Critical Hits saved by Defence repeat, a geometric series', () => {
    // Melee, Mel 10 against Defence 10, wounds 1, uninjured, Injury 0, explode. One attack, plain d20:
    //   1-9   miss (9/20): the action ends, unharmed.
    //   10-17 a hit (8/20): saved on Defence 10+ (11/20), ends unharmed; else the wound goes (1 -> 0) and
    //         the Injury Check on the die: 10-12 Dazed, 13-15 Stunned, 16-17 Incapacitated; it ends.
    //   18-20 a Critical Hit (3/20): saved (11/20), the target is as it was and one attack is owed again:
    //         the same attack once more; not saved (9/20), the Injury Check on 18+ Incapacitates, and it ends.
    // So each attack repeats with r = 3/20 * 11/20 = 33/400, else ends with, in 400ths:
    //   unharmed 9*20 + 8*11 = 268, Dazed 3*9 = 27, Stunned 3*9 = 27, Incapacitated 2*9 + 3*9 = 45 (367 in all).
    // P(X) = t_X + r t_X + r^2 t_X + ... = t_X / (1 - r) = t_X / (367/400): 268/367, 27/367, 27/367, 45/367.
    // Attacks made: k repeats then an end, P = r^k (1 - r), so E = sum (k + 1) r^k (1 - r) = 1 / (1 - r) = 400/367.
    const fields = { kind: 'attack', attackType: 'melee', stat: 10, defence: 10, wounds: 1, state: 'none', attacks: 1, explode: true };
    const s = d20({ ...fields, rules });
    const exact = evaluateExact(s);

    // The same from the variant's numbers, face by face (one attack's ends t_X and its repeat r, in 400ths).
    const ends = new Map<string, number>();
    let repeat = 0;
    for (let a = 1; a <= 20; a++) {
      const critical = a >= 18;
      const hit = critical || (a > 4 && a >= 10);
      for (let d = 1; d <= 20; d++) {
        const saved = d >= 20 || (d > 4 && d >= 10);
        if (!hit || saved) {
          if (critical) repeat++;
          else bump(ends, 'unharmed');
          continue;
        }
        bump(ends, a >= 16 ? 'incapacitated' : a >= 13 ? 'stunned' : 'dazed');
      }
    }
    expect([repeat, ends.get('unharmed'), ends.get('dazed'), ends.get('stunned'), ends.get('incapacitated')]).toEqual([33, 268, 27, 27, 45]);
    const p = (o: string) => formatFraction(fraction(ends.get(o) ?? 0, 400 - repeat));
    for (const row of exact.outcomes) expect(row.exact, row.outcome).toBe(p(row.outcome));
    expect(exact.outcomes.map((o) => o.exact)).toEqual(['268/367', '0', '0', '27/367', '27/367', '45/367']);
    expect(exact.means.expectedAttacks?.exact).toBe(formatFraction(fraction(400, 400 - repeat)));
    expect(exact.means.expectedAttacks?.exact).toBe('400/367');
    // Every hit that got through cost the one wound.
    expect(exact.histograms.woundsLost?.map((b) => b.exact)).toEqual(['268/367', '99/367']);
    expect(exact.notes[0]).toBe('Attack check: d20 needs 10+ (natural 1-4 always fail, natural 20 always succeeds); a natural 18-20 is a critical hit and grants one more attack');
    expect(exact.notes[2]).toBe('Injury check: kept attack roll + 0; 12 or less Dazed, 13-15 Stunned, 16+ Incapacitated');
    expectMoved(exact, evaluateExact(d20(fields)));
    expectAgreesWithSimulator(s, exact);
  });
});

describe('d20 warband turns under a variant: expected turns are promised only when certain', () => {
  it('naturalFailMax 0 against Defence 1: no hit ever gets through, so expected turns are infinite, not promised', () => {
    // In v1 a natural 20 + Injury 0 reaches 18, which made Incapacitated certain; here a natural 1 no
    // longer fails a Defence check, and Defence 1 passes on every die.
    const fields = { kind: 'turns', turns: 2, stat: 10, defence: 1, wounds: 0, rules: { naturalFailMax: 0 } };
    const s = d20(fields);
    const exact = evaluateExact(s);
    expect(exact.layout.means.map((m) => m.id)).toEqual(['attacksMade']);
    expect(exactJson(exact).expectedTurns).toEqual({ value: null, exact: 'infinite' });
    expect(exact.outcomes.map((o) => o.exact)).toEqual(['1', '0', '0', '0', '0', '0']);
    expectAgreesWithSimulator(s, exact);
  });

  it('no natural always hits and Mel 20 with -5 needs 25: nothing hits, expected turns infinite', () => {
    const s = d20({ kind: 'turns', turns: 2, stat: 20, modifier: -5, defence: '-', wounds: 0, rules: { naturalSuccessMin: 21, criticalHitMin: 21 } });
    const exact = evaluateExact(s);
    expect(exact.layout.means.map((m) => m.id)).toEqual(['attacksMade']);
    expect(exactJson(exact).expectedTurns).toEqual({ value: null, exact: 'infinite' });
    expect(exact.outcomes.map((o) => o.exact)).toEqual(['1', '0', '0', '0', '0', '0']);
    expectAgreesWithSimulator(s, exact);
  });
});
