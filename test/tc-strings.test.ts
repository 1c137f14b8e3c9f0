import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { type Fraction, ONE, ZERO, add, formatFraction, fraction, mul, sub } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { simulatorDisagreements } from './helpers/agree.js';
import { bruteCoreMeleeSequence, keptTotals } from './helpers/brute.js';
import { refusal } from './helpers/refusal.js';

/**
 * Strings of attacks and the target's activations (issue "Real warbands"): AUTOMATIC N and CLEAVE N make N attack rolls in one action,
 * and a sequence's activation defaults to that string; RISKY ends the string at its first miss, the
 * string's other rolls being lost (`attacks` counts the rolls the attacker has, made or lost);
 * REGENERATE N removes N markers when the target activates, between the attacker's activations.
 */

/**
 * One ranged core attack against an unarmoured target, from the dice: a success roll of 2D6 (7+ hits,
 * 12 is a critical, +1 injury die), an injury roll of 2D6 (3D6 keep the 2 highest on a critical), 9+
 * Out of Action. Returns P(hit and Out of Action) and P(hit and the target still in play).
 */
function oneRangedAttack(): { out: Fraction; survivedHit: Fraction } {
  let out = ZERO;
  let hit = ZERO;
  for (const [success, ways] of keptTotals(2, 2, false)) {
    if (success < 7) continue;
    const pool = success >= 12 ? 3 : 2;
    const w = fraction(ways, 36n);
    hit = add(hit, w);
    for (const [total, count] of keptTotals(pool, 2, false)) if (total >= 9) out = add(out, mul(w, fraction(count, 6n ** BigInt(pool))));
  }
  return { out, survivedHit: sub(hit, out) };
}

const exactOf = (fields: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'sequence', edition: 'core', attackType: 'ranged', ...fields }));
const outOf = (r: ReturnType<typeof exactOf>) => r.outcomes.find((o) => o.outcome === 'out-of-action')!.exact;
const attacksMade = (r: ReturnType<typeof exactOf>) => formatFraction(r.answer.means[0]!);

describe('AUTOMATIC / CLEAVE N and RISKY', () => {
  it('one RISKY string of 3 against a plain one, by hand: a miss ends the RISKY string, not the plain one', () => {
    const { out: q, survivedHit: h } = oneRangedAttack();
    // Plain: each of the 3 rolls is made while the target is in play. RISKY: only while every roll so far hit.
    const goOnPlain = sub(ONE, q);
    const plain = add(q, mul(goOnPlain, add(q, mul(goOnPlain, q))));
    const risky = add(q, mul(h, add(q, mul(h, q))));
    expect(outOf(exactOf({ attacks: 3, attacksPerAction: 3 }))).toBe(formatFraction(plain));
    expect(outOf(exactOf({ attacks: 3, attacksPerAction: 3, risky: true }))).toBe(formatFraction(risky));
    // Attack rolls made: the first always, the second and third while the string goes on.
    expect(attacksMade(exactOf({ attacks: 3, attacksPerAction: 3, risky: true }))).toBe(formatFraction(add(ONE, add(h, mul(h, h)))));
    expect(attacksMade(exactOf({ attacks: 3, attacksPerAction: 3 }))).toBe(formatFraction(add(ONE, add(goOnPlain, mul(goOnPlain, goOnPlain)))));
  });

  it('RISKY changes nothing for one roll per action', () => {
    expect(exactOf({ attacks: 4, risky: true }).outcomes).toEqual(exactOf({ attacks: 4 }).outcomes);
  });

  it('an activation defaults to the string: the target stands up between strings, as with attacksPerActivation N', () => {
    const s = parseScenario({ kind: 'sequence', attacksPerAction: 3 });
    expect(s).toMatchObject({ attacksPerActivation: 3 });
    expect(parseScenario({ kind: 'sequence', attacksPerAction: 3, attacksPerActivation: 'all' })).toMatchObject({ attacksPerActivation: 'all' });
    expect(parseScenario({ kind: 'sequence' })).toMatchObject({ attacksPerActivation: 'all' });
    expect(exactOf({ attacks: 6, attacksPerAction: 3, attackType: 'melee', policy: 'all' }).outcomes).toEqual(
      exactOf({ attacks: 6, attacksPerActivation: 3, attackType: 'melee', policy: 'all' }).outcomes,
    );
  });

  it('refuses a RISKY string that is not one activation, in one line; the optimal policy takes one', () => {
    const refused = (fields: Record<string, unknown>) => refusal(() => parseScenario({ kind: 'sequence', ...fields }));
    expect(refused({ attacksPerAction: 3, risky: true, attacksPerActivation: 'all' })).toBe(
      'attacksPerActivation: "all" cannot be combined with a RISKY weapon of 3 attacks per action (its string is one activation); allowed: 3',
    );
    expect(refused({ attacksPerAction: 2, risky: true, policy: 'optimal' })).toBe('accepted');
  });

  it('both simulators agree: strings over several activations, the unlimited chain, and a hoarding policy', () => {
    for (const fields of [
      { kind: 'sequence', attacks: 7, attacksPerAction: 3, risky: true, policy: 'all', attackType: 'melee', armour: 'standard' },
      { kind: 'sequence', attacks: 4, attacksPerAction: 2, risky: true, policy: 'bloodbath', bloodMarkers: 3, fireMarkers: 1 },
      { kind: 'sequence', edition: 'playtest', attacks: 4, attacksPerAction: 2, risky: true, attackRollMarkers: 1, bloodMarkers: 1 },
    ]) {
      expect(simulatorDisagreements(fields, 37), JSON.stringify(fields)).toEqual([]);
    }
  });

  it('both simulators agree under the optimal policy: after a miss its tables go on from the next activation', () => {
    for (const fields of [
      { kind: 'sequence', edition: 'playtest', attacks: 5, attacksPerAction: 2, risky: true, policy: 'optimal', attackRollMarkers: 1, bloodMarkers: 2, markerCap: 3, targetDown: true },
      { kind: 'sequence', attacks: 6, attacksPerAction: 3, risky: true, policy: 'optimal', attackType: 'melee', bloodMarkers: 1, markerCap: 4, regenerate: 1 },
    ]) {
      expect(simulatorDisagreements(fields, 43), JSON.stringify(fields)).toEqual([]);
    }
  });
});

/**
 * REGENERATE N: between the attacker's activations the target has its own, stands up and removes N
 * markers. Brute force of a core melee sequence against an unarmoured target, one attack per
 * activation, policy `all`: success 2D6 (7+ hits, 12 a critical, +1 injury die), injury 2D6 + every
 * marker as a die (+1 against a Down target), keep 2 highest; 2+ Minor Hit (1 marker), 7+ Down (1, or
 * 2 if already Down), 9+ Out of Action.
 */

describe('REGENERATE N', () => {
  const sequence = (fields: Record<string, unknown>) => ({ kind: 'sequence', edition: 'core', attacks: 3, attacksPerActivation: 1, policy: 'all', bloodMarkers: 2, ...fields });

  it('equals a brute force of three activations spending every marker, and moves the answer', () => {
    expect(outOf(evaluateExact(parseScenario(sequence({ regenerate: 1 }))))).toBe(formatFraction(bruteCoreMeleeSequence({ attacks: 3, startMarkers: 2, regenerate: 1, activationPerAttack: true })));
    expect(outOf(evaluateExact(parseScenario(sequence({}))))).toBe(formatFraction(bruteCoreMeleeSequence({ attacks: 3, startMarkers: 2, activationPerAttack: true })));
    expect(outOf(evaluateExact(parseScenario(sequence({ regenerate: 1 }))))).not.toBe(outOf(evaluateExact(parseScenario(sequence({})))));
  });

  it('does nothing in one activation', () => {
    const one = (fields: Record<string, unknown>) => evaluateExact(parseScenario(sequence({ attacksPerActivation: 'all', ...fields }))).outcomes;
    expect(one({ regenerate: 2 })).toEqual(one({}));
  });

  it('both simulators agree, the optimal policy included', () => {
    for (const fields of [
      sequence({ attacks: 5, regenerate: 1, attacksPerActivation: 2, fireMarkers: 1 }),
      sequence({ attacks: 4, regenerate: 2, policy: 'optimal', markerCap: 4 }),
    ]) {
      expect(simulatorDisagreements(fields, 41), JSON.stringify(fields)).toEqual([]);
    }
  });
});
