import { describe, expect, it } from 'vitest';
import { type Fraction, formatFraction, fraction } from '../src/exact/fraction.js';
import { evaluateExact } from '../src/evaluate.js';
import { parseScenario } from '../src/input/scenario.js';
import type { Scenario } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import { runInThread } from '../src/sim/chunks.js';
import { CHUNK_SIZE } from '../src/sim/protocol.js';
import { crossCheck } from '../src/stats/cross-check.js';
import { describePlan, injuryRollInput, planInjuryRoll } from '../src/rules/trench-crusade/exact.js';
import type { OneRollScenario } from '../src/rules/trench-crusade/fields.js';

/** The injury roll a parsed one-roll scenario makes (parseScenario returns the general Scenario type). */
const roll = (s: Scenario) => injuryRollInput(s as OneRollScenario);

/**
 * Rulings T3, T10 and T11 of docs/rules.md (the Bloodbath's dice and Deadly with Bloodbath), checked
 * against a brute-force count written from the rule text alone: every face of every die is enumerated,
 * the dice are kept as the text says, the table is read, and the combinations are counted. Nothing here
 * uses the engines' dice code.
 */

const tc = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'trench-crusade', ...fields });
const f = formatFraction;

/** Injury table rows of all three files: "1 (or less) No Effect, 2-6 Minor Hit, 7-8 Down, 9+ Out of Action". */
const OUTCOMES = ['no-effect', 'minor-hit', 'down', 'out-of-action'] as const;
function row(total: number): number {
  return total <= 1 ? 0 : total <= 6 ? 1 : total <= 8 ? 2 : 3;
}

/**
 * Rolls `pool` dice (every combination), keeps `keep` of them, highest or lowest, then adds `apart` more
 * dice that no keeping touches (the separate Bloodbath die) and the flat `modifier`. Returns the
 * probability of each table row as fractions over 6^(pool + apart).
 */
function bruteForce(pool: number, keep: number, lowest: boolean, apart: number, modifier: number): Map<string, string> {
  const n = pool + apart;
  const counts = [0, 0, 0, 0];
  const faces = new Array<number>(n).fill(1);
  for (;;) {
    const rolled = faces.slice(0, pool).sort((a, b) => (lowest ? a - b : b - a));
    let total = modifier;
    for (let i = 0; i < keep; i++) total += rolled[i]!;
    for (let i = pool; i < n; i++) total += faces[i]!;
    counts[row(total)]! += 1;
    // Next combination, like an odometer.
    let i = 0;
    while (i < n && faces[i] === 6) faces[i++] = 1;
    if (i === n) break;
    faces[i]! += 1;
  }
  const den = BigInt(6 ** n);
  return new Map(OUTCOMES.map((o, i) => [o, f(fraction(BigInt(counts[i]!), den))]));
}

function exactOutcomes(s: Scenario): Map<string, string> {
  const r = evaluateExact(s);
  return new Map(r.layout.outcomes.map((o, i): [string, string] => [o, f(r.answer.outcomes[i] as Fraction)]));
}

describe('playtest Bloodbath: the extra D6 joins the pool (T10)', () => {
  it('the chart\'s own example: "3D6 with +1 DICE … roll four dice and keep and total the highest three"', () => {
    // 002_…: Bloodbath is the chart's only rule that totals more than 2D6.
    const plan = planInjuryRoll(roll(tc({ edition: 'playtest', kind: 'injury', bloodbath: true, injuryDice: 1 })), false);
    expect(describePlan(plan)).toBe('4D6 keep 3 highest');
    const apart = planInjuryRoll(roll(tc({ edition: 'playtest', kind: 'injury', bloodbath: true, injuryDice: 1, bloodbathDie: 'separate' })), false);
    expect(describePlan(apart)).toBe('3D6 keep 2 highest + 1D6 (Bloodbath)');
  });

  it('against a Down target (+1 dice on any roll, T8): out of action 145/162 pooled, 191/216 apart', () => {
    const pooled = bruteForce(4, 3, false, 0, 0);
    expect(pooled.get('out-of-action')).toBe('145/162');
    expect(exactOutcomes(tc({ edition: 'playtest', kind: 'injury', bloodbath: true, targetDown: true }))).toEqual(pooled);
    const apart = bruteForce(3, 2, false, 1, 0);
    expect(apart.get('out-of-action')).toBe('191/216');
    expect(exactOutcomes(tc({ edition: 'playtest', kind: 'injury', bloodbath: true, targetDown: true, bloodbathDie: 'separate' }))).toEqual(apart);
  });

  it('-injury dice add dice to the 3-dice pool and the 3 lowest are kept (002_…: "keep the highest or lowest number of dice equal to the number of dice in the starting dice pool")', () => {
    const fields = { edition: 'playtest', kind: 'injury', bloodbath: true, armour: 'standard' };
    expect(exactOutcomes(tc({ ...fields, injuryDice: -1 }))).toEqual(bruteForce(4, 3, true, 0, -1));
    expect(exactOutcomes(tc({ ...fields, injuryDice: -2 }))).toEqual(bruteForce(5, 3, true, 0, -1));
    // Kept apart: 2 lowest of 2 + |net|, then the D6.
    expect(exactOutcomes(tc({ ...fields, injuryDice: -2, bloodbathDie: 'separate' }))).toEqual(bruteForce(4, 2, true, 1, -1));
  });

  it('pooling helps the attacker with + dice and the target with - dice (3 of 4 against 2 of the first 3 + the 4th)', () => {
    const ooa = (m: Map<string, string>) => {
      const [num, den] = m.get('out-of-action')!.split('/').map(Number);
      return num! / den!;
    };
    // The 3 highest of 4 dice total at least any 3 of them, the 3 lowest at most.
    expect(ooa(bruteForce(4, 3, false, 0, -2))).toBeGreaterThan(ooa(bruteForce(3, 2, false, 1, -2)));
    expect(ooa(bruteForce(4, 3, true, 0, -2))).toBeLessThan(ooa(bruteForce(3, 2, true, 1, -2)));
  });

  it('core is the pooled roll by its own text, so bloodbathDie "separate" is rejected there; comprehensive has no Bloodbath', () => {
    expect(exactOutcomes(tc({ kind: 'injury', bloodbath: true, injuryDice: 1 }))).toEqual(bruteForce(4, 3, false, 0, 0));
    expect(() => tc({ kind: 'injury', bloodbathDie: 'separate' })).toThrow(
      /^bloodbathDie: "separate" is not allowed in the core edition \(004_8876b2fc69d19d53\.txt makes the Bloodbath one pool/,
    );
    expect(() => tc({ edition: 'comprehensive', kind: 'attack', bloodbathDie: 'separate' })).toThrow(/^bloodbathDie: "separate" is not allowed in the comprehensive edition \(001_920d0edf0f4b2e8e\.txt has no Bloodbath; rule bloodbath.separateDie is false\)/);
    // Defaults: pooled everywhere; a fall (no playtest falls) does not read the field at all.
    expect(tc({ edition: 'playtest', kind: 'injury' }).bloodbathDie).toBe('pooled');
    expect(tc({ edition: 'playtest', kind: 'sequence' }).bloodbathDie).toBe('pooled');
    expect(() => tc({ kind: 'fall', bloodbathDie: 'pooled' })).toThrow(/bloodbathDie: "pooled" is not read by kind "fall"/);
  });

  it('a sequence reads the choice too: one attack with the bloodbath policy is the attack with a Bloodbath', () => {
    for (const bloodbathDie of ['pooled', 'separate']) {
      const seq = evaluateExact(tc({ edition: 'playtest', kind: 'sequence', attacks: 1, policy: 'bloodbath', bloodMarkers: 6, injuryDice: 1, bloodbathDie }));
      const attack = evaluateExact(tc({ edition: 'playtest', kind: 'attack', bloodbath: true, injuryDice: 1, bloodbathDie }));
      const out = (r: ReturnType<typeof evaluateExact>) => f(r.answer.outcomes[r.layout.outcomes.indexOf('out-of-action')]!);
      expect(out(seq)).toBe(out(attack));
    }
  });
});

describe('core Deadly with Bloodbath: 4 dice kept is an assumption, 3 the option (T11)', () => {
  it('injury dice 0: 4D6 all kept, or 3D6 all kept', () => {
    const s = { kind: 'injury', deadly: true, bloodbath: true, armour: 'reinforced' };
    expect(exactOutcomes(tc(s))).toEqual(bruteForce(4, 4, false, 0, -2));
    expect(exactOutcomes(tc({ ...s, deadlyBloodbathKeep: 3 }))).toEqual(bruteForce(3, 3, false, 0, -2));
    expect(bruteForce(3, 3, false, 0, -2).get('out-of-action')).toBe('1/2'); // 3D6 - 2 >= 9: 3D6 >= 11, 108 of 216
  });

  it('+1 and -1 injury dice: 5 dice keep 4 or 4 dice keep 3, highest or lowest', () => {
    const s = { kind: 'injury', deadly: true, bloodbath: true, armour: 'machine' };
    expect(exactOutcomes(tc({ ...s, injuryDice: 1 }))).toEqual(bruteForce(5, 4, false, 0, -3));
    expect(exactOutcomes(tc({ ...s, injuryDice: 1, deadlyBloodbathKeep: 3 }))).toEqual(bruteForce(4, 3, false, 0, -3));
    expect(exactOutcomes(tc({ ...s, injuryDice: -1, deadlyBloodbathKeep: 3 }))).toEqual(bruteForce(4, 3, true, 0, -3));
  });

  it('changes nothing without both keywords; a value other than 4 is rejected outside core (no Deadly there)', () => {
    expect(exactOutcomes(tc({ kind: 'injury', deadly: true, deadlyBloodbathKeep: 3 }))).toEqual(bruteForce(3, 3, false, 0, 0));
    expect(exactOutcomes(tc({ kind: 'injury', bloodbath: true, deadlyBloodbathKeep: 3 }))).toEqual(bruteForce(3, 3, false, 0, 0));
    expect(tc({ kind: 'injury' }).deadlyBloodbathKeep).toBe(4);
    expect(() => tc({ edition: 'playtest', kind: 'injury', deadlyBloodbathKeep: 3 })).toThrow(
      /^deadlyBloodbathKeep: 3 is not allowed in the playtest edition \(Deadly is a core keyword/,
    );
  });

  it('a sequence reads it too', () => {
    const seq = evaluateExact(tc({ kind: 'sequence', attacks: 1, policy: 'bloodbath', bloodMarkers: 6, deadly: true, deadlyBloodbathKeep: 3, armour: 'machine' }));
    const attack = evaluateExact(tc({ kind: 'attack', bloodbath: true, deadly: true, deadlyBloodbathKeep: 3, armour: 'machine' }));
    const out = (r: ReturnType<typeof evaluateExact>) => f(r.answer.outcomes[r.layout.outcomes.indexOf('out-of-action')]!);
    expect(out(seq)).toBe(out(attack));
  });
});

describe('criticalOn: a critical on the modified total (T13) or on the kept dice alone', () => {
  // 2D6 totals: 2:1 3:2 4:3 5:4 6:5 7:6 8:5 9:4 10:3 11:2 12:1 ways of 36.
  const chances = (fields: Record<string, unknown>) => {
    const r = evaluateExact(tc({ kind: 'attack', ...fields }));
    const roll = r.extra.successRoll as Record<'miss' | 'hit' | 'critical', { exact: string }>;
    return [roll.miss.exact, roll.hit.exact, roll.critical.exact];
  };
  it('+3: modified, dice 9+ are critical (10/36), 4-8 hit (23/36); unmodified, only 12 (1/36), 4-11 hit (32/36)', () => {
    expect(chances({ attackModifier: 3 })).toEqual([f(fraction(3, 36)), f(fraction(23, 36)), f(fraction(10, 36))]);
    expect(chances({ attackModifier: 3, criticalOn: 'unmodified' })).toEqual([f(fraction(3, 36)), f(fraction(32, 36)), f(fraction(1, 36))]);
  });
  it('-2: modified, no critical (14 is out of reach) and dice 9+ hit (10/36); unmodified, a 12 on the dice is a critical and so a hit', () => {
    expect(chances({ attackModifier: -2 })).toEqual([f(fraction(26, 36)), f(fraction(10, 36)), '0']);
    expect(chances({ attackModifier: -2, criticalOn: 'unmodified' })).toEqual([f(fraction(26, 36)), f(fraction(9, 36)), f(fraction(1, 36))]);
  });
  it('the attack and sequence simulators read it the same way (check, fixed seed)', () => {
    for (const fields of [
      { kind: 'attack', attackModifier: -2, criticalOn: 'unmodified', injuryDice: 1 },
      { kind: 'sequence', attacks: 3, attackModifier: 3, criticalOn: 'unmodified', armour: 'standard' },
    ]) {
      const s = tc(fields);
      const { kind } = resolveKind(s);
      const layout = kind.layout(s);
      const tally = runInThread(kind.simulator(s), tallyLength(layout), { trials: 200_000, seed: 7, chunkSize: CHUNK_SIZE });
      expect(crossCheck(evaluateExact(s).answer, { layout, trials: 200_000, tally }).failures, JSON.stringify(fields)).toEqual([]);
    }
  });
});
