import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { type Fraction, add, formatFraction, fraction, mul } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { duelPlanOf, type DuelScenario } from '../src/rules/trench-crusade/duel/sides.js';
import { simulatorDisagreements } from './helpers/agree.js';
import { keptTotals } from './helpers/brute.js';

/**
 * Three weapon fields of the success and injury rolls (rulings T36-T38), each against values worked out
 * by hand (or a brute force over every face, written here, not the engine's), and the simulator against
 * the exact engine. Core rules: success 2D6, 7+ hits, 12 critical (+1 injury die); injury 2D6 (+ dice:
 * keep the 2 highest), 2-6 Minor Hit (1 marker), 7-8 Down (1 marker, 2 if already Down), 9+ Out of
 * Action; +1 injury die against a Down target of a melee attack.
 *
 * Ways 2D6 make each total or more: 5+ 30, 7+ 21, 9+ 10, 11+ 3, 12 1 (of 36).
 */

const over = (n: bigint, d: bigint) => formatFraction(fraction(n, d));
const exact = (fields: Record<string, unknown>) => evaluateExact(parseScenario(fields));
const outcomes = (fields: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(exact(fields).outcomes.map((o) => [o.outcome, o.exact]));
const mean = (fields: Record<string, unknown>, id: string): string => exact(fields).means[id]!.exact;
const successRoll = (fields: Record<string, unknown>) => {
  const chances = exact({ kind: 'attack', ...fields }).extra!.successRoll as Record<'miss' | 'hit' | 'critical', { exact: string }>;
  return { miss: chances.miss.exact, hit: chances.hit.exact, critical: chances.critical.exact };
};
/** Ways `dice` d6 keeping 2 (highest, or lowest) reach `at` or more, every face enumerated. */
function keptAtLeast(dice: number, lowest: boolean, at: number): bigint {
  let n = 0n;
  for (const [total, ways] of keptTotals(dice, 2, lowest)) if (total >= at) n += ways;
  return n;
}

describe('bloodMarkersMultiplier (ruling T36): the markers a result places are multiplied, no others', () => {
  const markers = (f: Record<string, unknown>) => mean({ kind: 'injury', ...f }, 'expectedBloodMarkers');

  it("2D6: Minor Hit (15 ways) and Down (11 ways) each place 1 marker; x2 and x3 multiply them", () => {
    expect(markers({})).toBe(over(26n, 36n));
    expect(markers({ bloodMarkersMultiplier: 2 })).toBe(over(52n, 36n));
    expect(markers({ bloodMarkersMultiplier: 3 })).toBe(over(78n, 36n));
    // The results themselves do not change.
    expect(outcomes({ kind: 'injury', bloodMarkersMultiplier: 3 })).toEqual(outcomes({ kind: 'injury' }));
  });

  it("a Down on a target already Down places 2, doubled to 4: 15/36 x 2 + 11/36 x 4", () => {
    // A ranged attack: no Down bonus die, 2D6.
    expect(markers({ attackType: 'ranged', targetDown: true, bloodMarkersMultiplier: 2 })).toBe(over(15n * 2n + 11n * 4n, 36n));
  });

  it('FIRE and the weapon\'s extraBloodMarkers are not multiplied: 1 + 1 after each of the 26 rolls survived', () => {
    // Result markers doubled (26 x 2) and 2 more after every surviving roll (26 x 2): 104/36; doubling
    // the keyword's markers too would give 26 x 2 + 26 x 4 = 156/36.
    expect(markers({ bloodMarkersMultiplier: 2, fireMarkers: 1, extraBloodMarkers: 1 })).toBe(over(104n, 36n));
  });

  it('an attack: a miss places none; the expected markers are the plain ones doubled', () => {
    const plain = fraction(...(mean({ kind: 'attack' }, 'expectedBloodMarkers').split('/').map(BigInt) as [bigint, bigint]));
    expect(mean({ kind: 'attack', bloodMarkersMultiplier: 2 }, 'expectedBloodMarkers')).toBe(formatFraction(mul(plain, fraction(2n))));
  });

  /**
   * Two melee auto-hits on a standing target, every face enumerated: the first 2D6 (Minor 2-6, Down 7-8,
   * Out 9+); the second 2D6 on a standing target or 3D6 keep 2 on a Down one. Each result's markers
   * times `times`, `fire` more after every roll survived, at most `cap` on the model after each roll.
   */
  function bruteFinalMarkers(times: number, fire: number, cap: number): Map<string, Fraction> {
    const out = new Map<string, bigint>();
    const put = (bin: string, w: bigint) => out.set(bin, (out.get(bin) ?? 0n) + w);
    const place = (m: number, n: number) => Math.min(m + n, cap);
    for (const [t1, w1] of keptTotals(2, 2, false)) {
      if (t1 >= 9) {
        put('out-of-action', w1 * 216n);
        continue;
      }
      const down = t1 >= 7;
      const m1 = place(place(0, 1 * times), fire);
      const second = down ? keptTotals(3, 2, false) : keptTotals(2, 2, false);
      const scale = down ? 1n : 6n;
      for (const [t2, w2] of second) {
        if (t2 >= 9) put('out-of-action', w1 * w2 * scale);
        else {
          const placed = t2 >= 7 && down ? 2 : 1;
          put(String(place(place(m1, placed * times), fire)), w1 * w2 * scale);
        }
      }
    }
    return new Map([...out].map(([k, w]) => [k, fraction(w, 36n * 216n)]));
  }
  const histogram = (f: Record<string, unknown>) =>
    new Map((exact({ kind: 'sequence', attacks: 2, autoHit: true, ...f }).histograms.finalBloodMarkers ?? []).filter((b) => b.exact !== '0').map((b) => [b.bin, b.exact]));
  const shown = (h: Map<string, Fraction>) => new Map([...h].filter(([, p]) => p.num !== 0n).map(([k, p]) => [k, formatFraction(p)]));

  it('a sequence of two attacks: the final markers, with FIRE, equal a brute force over every face', () => {
    expect(histogram({ bloodMarkersMultiplier: 2, fireMarkers: 1 })).toEqual(shown(bruteFinalMarkers(2, 1, Infinity)));
    // The brute force is not blind to the multiplier: 1 and 2 differ.
    expect(shown(bruteFinalMarkers(2, 0, Infinity))).not.toEqual(shown(bruteFinalMarkers(1, 0, Infinity)));
    expect(histogram({ bloodMarkersMultiplier: 3 })).toEqual(shown(bruteFinalMarkers(3, 0, Infinity)));
  });

  it('the marker cap still holds: x3 with markerCap 4', () => {
    expect(histogram({ bloodMarkersMultiplier: 3, markerCap: 4 })).toEqual(shown(bruteFinalMarkers(3, 0, 4)));
    // One auto-hit, cap 2: every roll survived (26 of 36) leaves 2 markers, not 3.
    const one = exact({ kind: 'sequence', attacks: 1, autoHit: true, bloodMarkersMultiplier: 3, markerCap: 2 }).histograms.finalBloodMarkers!;
    expect(one.find((b) => b.bin === '2')!.exact).toBe(over(26n, 36n));
  });

  it('reaches a duel side, as a weapon field of the attacking side', () => {
    const duel = parseScenario({ kind: 'duel', a: { bloodMarkersMultiplier: 2 }, b: {} }) as unknown as DuelScenario;
    expect(duelPlanOf(duel).a.attacking.bloodMarkersMultiplier).toBe(2);
    expect(duelPlanOf(duel).b.attacking.bloodMarkersMultiplier).toBe(1);
  });

  it('the simulator agrees with the exact engine: an injury, an attack on a Down target, a capped sequence by the policy all', () => {
    expect(simulatorDisagreements({ kind: 'injury', bloodMarkersMultiplier: 3, fireMarkers: 1, tough: true }, 36)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'attack', bloodMarkersMultiplier: 2, targetDown: true, armour: 'standard' }, 36)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'sequence', attacks: 3, bloodMarkersMultiplier: 2, policy: 'all', markerCap: 3, bloodMarkers: 1, extraBloodMarkers: 1 }, 36, 100_000)).toEqual([]);
  });
});

describe('criticalThreshold (ruling T37): the weapon\'s own lowest critical total', () => {
  it('defaults to the table\'s 12', () => {
    expect((parseScenario({ kind: 'attack' }) as unknown as { criticalThreshold: number }).criticalThreshold).toBe(12);
    expect(successRoll({})).toEqual({ miss: over(15n, 36n), hit: over(20n, 36n), critical: over(1n, 36n) });
  });

  it('11+: 11 and 12 are criticals (3 of 36), 7-10 hits (18), 6 or less misses (15)', () => {
    expect(successRoll({ criticalThreshold: 11 })).toEqual({ miss: over(15n, 36n), hit: over(18n, 36n), critical: over(3n, 36n) });
    // A critical adds its injury die: Out of Action on a hit 2D6 9+ (10 of 36), on a critical 3D6 keep 2, 9+.
    expect(keptAtLeast(3, false, 9)).toBe(113n);
    expect(outcomes({ kind: 'attack', criticalThreshold: 11 })['out-of-action']).toBe(over(18n * 10n * 6n + 3n * 113n, 36n * 216n));
  });

  it('read as criticalOn says: -5 to the roll, 11+ on the dice alone is a critical (and a hit); on the total, none', () => {
    // Unmodified: dice 11-12 critical (3 of 36); dice 12 is the only total that hits anyway.
    expect(successRoll({ criticalThreshold: 11, attackModifier: -5, criticalOn: 'unmodified' })).toEqual({ miss: over(33n, 36n), hit: '0', critical: over(3n, 36n) });
    // Modified: 11 needs dice of 16, never; dice 12 (total 7) hits.
    expect(successRoll({ criticalThreshold: 11, attackModifier: -5 })).toEqual({ miss: over(35n, 36n), hit: over(1n, 36n), critical: '0' });
  });

  it('below the hit total a critical is still a hit: 5+ makes 5 and 6 criticals (30 of 36), nothing a plain hit', () => {
    expect(successRoll({ criticalThreshold: 5 })).toEqual({ miss: over(6n, 36n), hit: '0', critical: over(30n, 36n) });
  });

  it('reaches a duel side, as a weapon field of the attacking side', () => {
    const duel = parseScenario({ kind: 'duel', a: {}, b: { criticalThreshold: 10 } }) as unknown as DuelScenario;
    expect(duelPlanOf(duel).b.attacking.criticalThreshold).toBe(10);
    expect(duelPlanOf(duel).a.attacking.criticalThreshold).toBe(12);
  });

  it('the simulator agrees with the exact engine: plain 2D6, with dice, unmodified, below the hit total, a sequence', () => {
    expect(simulatorDisagreements({ kind: 'attack', criticalThreshold: 10 }, 37)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'attack', criticalThreshold: 11, attackDice: -1, criticalInjuryDice: 2 }, 37)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'attack', criticalThreshold: 11, attackModifier: -3, criticalOn: 'unmodified' }, 37)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'attack', criticalThreshold: 6, attackDice: 1 }, 37)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'sequence', attacks: 3, criticalThreshold: 10, ignoreArmourOnCritical: true, armour: 'reinforced', policy: 'all' }, 37, 100_000)).toEqual([]);
  });
});

describe('rerollFailedSuccess (ruling T38): a failed success roll is rolled again once', () => {
  it('2D6: miss (15/36)^2; a hit or a critical on the first roll or on the second, after a miss', () => {
    // Hit 20/36 x (1 + 15/36) = 1020/1296; critical 1/36 x 51/36; miss 225/1296.
    expect(successRoll({ rerollFailedSuccess: true })).toEqual({ miss: over(225n, 1296n), hit: over(1020n, 1296n), critical: over(51n, 1296n) });
    expect(successRoll({ rerollFailedSuccess: true, criticalThreshold: 11 })).toEqual({ miss: over(225n, 1296n), hit: over(18n * 51n, 1296n), critical: over(3n * 51n, 1296n) });
  });

  it('equals a brute force over both rolls, every face: -1 dice, +1 modifier, a critical on 10+', () => {
    // 3D6 keep the 2 lowest + 1: a miss below 7, a critical from 10; on a miss the 3 dice again.
    const first = keptTotals(3, 2, true);
    const read = (kept: number) => (kept + 1 >= 10 ? 'critical' : kept + 1 >= 7 ? 'hit' : 'miss');
    const w = { miss: 0n, hit: 0n, critical: 0n };
    for (const [t1, w1] of first) {
      if (read(t1) !== 'miss') w[read(t1)] += w1 * 216n;
      else for (const [t2, w2] of first) w[read(t2)] += w1 * w2;
    }
    const den = 216n * 216n;
    expect(successRoll({ rerollFailedSuccess: true, attackDice: -1, attackModifier: 1, criticalThreshold: 10 })).toEqual({ miss: over(w.miss, den), hit: over(w.hit, den), critical: over(w.critical, den) });
  });

  it('an auto-hit weapon makes no roll to re-roll', () => {
    expect(outcomes({ kind: 'attack', autoHit: true, rerollFailedSuccess: true })).toEqual(outcomes({ kind: 'attack', autoHit: true }));
  });

  it('RISKY: only the re-roll\'s failure ends the string: attacks made = 1 + P(first hits, target standing after it)', () => {
    // Hit 1020/1296 then 2D6 under 9 (26 of 36); critical 51/1296 then 3D6 keep 2 under 9 (216 - 113 = 103 of 216).
    const made = add(fraction(1n), add(mul(fraction(1020n, 1296n), fraction(26n, 36n)), mul(fraction(51n, 1296n), fraction(103n, 216n))));
    const risky = { kind: 'sequence', attacks: 2, attacksPerAction: 2, risky: true };
    expect(mean({ ...risky, rerollFailedSuccess: true }, 'expectedAttacksMade')).toBe(formatFraction(made));
    // Without the re-roll: 1 + 20/36 x 26/36 + 1/36 x 103/216.
    const plain = add(fraction(1n), add(mul(fraction(20n, 36n), fraction(26n, 36n)), mul(fraction(1n, 36n), fraction(103n, 216n))));
    expect(mean(risky, 'expectedAttacksMade')).toBe(formatFraction(plain));
  });

  it('reaches a duel side, as a weapon field of the attacking side', () => {
    const duel = parseScenario({ kind: 'duel', a: { rerollFailedSuccess: true }, b: {} }) as unknown as DuelScenario;
    expect(duelPlanOf(duel).a.attacking.rerollFailedSuccess).toBe(true);
    expect(duelPlanOf(duel).b.attacking.rerollFailedSuccess).toBe(false);
  });

  it('the simulator agrees with the exact engine: plain 2D6, -1 dice with 11+, unmodified, a RISKY string', () => {
    expect(simulatorDisagreements({ kind: 'attack', rerollFailedSuccess: true }, 38)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'attack', rerollFailedSuccess: true, attackDice: -1, criticalThreshold: 11 }, 38)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'attack', rerollFailedSuccess: true, attackModifier: -4, criticalOn: 'unmodified', criticalThreshold: 11 }, 38)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'sequence', attacks: 4, attacksPerAction: 2, risky: true, rerollFailedSuccess: true, attackDice: -1, policy: 'all' }, 38, 100_000)).toEqual([]);
  });
});
