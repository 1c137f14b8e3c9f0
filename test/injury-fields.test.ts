import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { formatFraction, fraction } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { duelPlanOf, type DuelScenario } from '../src/rules/trench-crusade/duel/sides.js';
import { simulatorDisagreements } from './helpers/agree.js';
import { keptTotals } from './helpers/brute.js';

/**
 * Three profile fields of issue 48's catalogue sentences, each against values worked out by hand (or a
 * brute force over every face, written here, not the engine's), and the simulator against the exact
 * engine. Core rules: injury 2D6 (+ dice: keep the 2 highest), 2-6 Minor Hit (1 marker), 7-8 Down (1
 * marker, 2 if already Down), 9+ Out of Action; armour standard -1, reinforced -2; a shield -1.
 *
 * Ways 2D6 make each total or more, used throughout: 9+ 10, 10+ 6, 11+ 3, 12 1 (of 36).
 */

function exact(fields: Record<string, unknown>): Record<string, string> {
  const r = evaluateExact(parseScenario(fields));
  return Object.fromEntries(r.outcomes.map((o) => [o.outcome, o.exact]));
}
const outOfAction = (fields: Record<string, unknown>) => exact(fields)['out-of-action'];
const over = (n: bigint, d: bigint) => formatFraction(fraction(n, d));
/** P(the kept dice alone reach `at`) for `dice` d6 keeping 2, every face enumerated (test/helpers/brute.ts). */
function keptAtLeast(dice: number, lowest: boolean, at: number): bigint {
  let n = 0n;
  for (const [total, ways] of keptTotals(dice, 2, lowest)) if (total >= at) n += ways;
  return n;
}

describe('armourWhenIgnored (ruling T32): ignored armour still gives its modifier', () => {
  const injury = (f: Record<string, unknown>) => outOfAction({ kind: 'injury', ...f });

  it('IGNORE ARMOUR into reinforced armour that still gives -1: 2D6 - 1, Out of Action on 10+', () => {
    // 2D6 - 1 >= 9: 2D6 >= 10, 6 ways of 36.
    expect(injury({ armour: 'reinforced', ignoreArmour: true, armourWhenIgnored: -1 })).toBe(over(6n, 36n));
    // Without the field IGNORE ARMOUR leaves nothing: 9+, 10 ways; not ignored the armour's -2: 11+, 3 ways.
    expect(injury({ armour: 'reinforced', ignoreArmour: true })).toBe(over(10n, 36n));
    expect(injury({ armour: 'reinforced', armourWhenIgnored: -1 })).toBe(over(3n, 36n));
  });

  it('never more than the armour it has; the shield stays ignored; none without armour', () => {
    // Standard armour (-1) with a value of -2: the weaker, -1 (10+, 6 ways), not -2 (11+, 3 ways).
    expect(injury({ armour: 'standard', ignoreArmour: true, armourWhenIgnored: -2 })).toBe(over(6n, 36n));
    // A shield with standard armour: the armour's -1 only (6 ways), not -2 with the shield (3 ways).
    expect(injury({ armour: 'standard', shield: true, ignoreArmour: true, armourWhenIgnored: -1 })).toBe(over(6n, 36n));
    // A shield and no armour: no armour to keep a modifier, 9+ (10 ways).
    expect(injury({ armour: 'none', shield: true, ignoreArmour: true, armourWhenIgnored: -1 })).toBe(over(10n, 36n));
  });

  it('ARMOUR PIERCING shortens what is left, as it shortens armour; IMPERVIOUS keeps all of it', () => {
    // Reinforced, the value -1, ARMOUR PIERCING 1: -1 + 1 = 0, 9+ (10 ways).
    expect(injury({ armour: 'reinforced', ignoreArmour: true, armourWhenIgnored: -1, armourPiercing: 1 })).toBe(over(10n, 36n));
    // The value -2, ARMOUR PIERCING 1: -1, 10+ (6 ways).
    expect(injury({ armour: 'reinforced', ignoreArmour: true, armourWhenIgnored: -2, armourPiercing: 1 })).toBe(over(6n, 36n));
    // IMPERVIOUS reinforced armour keeps its -2 whatever the value: 11+ (3 ways).
    expect(injury({ armour: 'reinforced', impervious: true, ignoreArmour: true, armourWhenIgnored: -1 })).toBe(over(3n, 36n));
  });

  it('every way armour is ignored: against a Down target, and on a critical', () => {
    // A Down target of a melee attack: +1 injury die, 3D6 keep the 2 highest, - 1: the kept dice 10+.
    expect(injury({ armour: 'reinforced', targetDown: true, ignoreArmourIfDown: true, armourWhenIgnored: -1 })).toBe(over(keptAtLeast(3, false, 10), 216n));
    // An attack ignoring armour on a critical only: a hit that is not one (2D6 7-11, 20 ways of 36) rolls
    // 2D6 - 2 (11+, 3 ways of 36); a critical (12, 1 way) rolls 3D6 keep 2 - 1 (kept dice 10+, 77 of 216).
    expect(keptAtLeast(3, false, 10)).toBe(77n);
    const attack = { kind: 'attack', armour: 'reinforced', ignoreArmourOnCritical: true };
    expect(outOfAction({ ...attack, armourWhenIgnored: -1 })).toBe(over(20n * 3n * 6n + 1n * 77n, 36n * 216n));
    // Without the field the critical's roll is 3D6 keep 2 with no modifier: kept dice 9+, 113 of 216.
    expect(keptAtLeast(3, false, 9)).toBe(113n);
    expect(outOfAction(attack)).toBe(over(20n * 3n * 6n + 1n * 113n, 36n * 216n));
  });

  it('reaches a duel side, as a model field of the side that is attacked', () => {
    const duel = parseScenario({ kind: 'duel', a: { armour: 'reinforced', armourWhenIgnored: -1 }, b: { ignoreArmour: true } }) as unknown as DuelScenario;
    const plan = duelPlanOf(duel);
    expect(plan.b.attacking.armourWhenIgnored).toBe(-1);
    expect(plan.a.attacking.armourWhenIgnored).toBe(0);
  });

  it('the simulator agrees with the exact engine: one attack, and a sequence against a Down target', () => {
    expect(simulatorDisagreements({ kind: 'attack', armour: 'reinforced', shield: true, ignoreArmour: true, armourWhenIgnored: -1, injuryDice: 1 }, 32)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'sequence', attacks: 3, armour: 'reinforced', ignoreArmourIfDown: true, ignoreArmourOnCritical: true, armourWhenIgnored: -2, armourPiercing: 1, policy: 'all', bloodMarkers: 1 }, 32)).toEqual([]);
  });
});

describe('minorAsDown (ruling T33): a Minor Hit of the weapon is a Down result', () => {
  const injury = (f: Record<string, unknown>) => exact({ kind: 'injury', ...f });
  const markers = (f: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'injury', ...f })).means.expectedBloodMarkers!.exact;

  it('2D6: the Minor Hits (2-6, 15 ways of 36) join the Downs (7-8, 11 ways); No Effect and Out of Action stay', () => {
    expect(injury({ minorAsDown: true })).toEqual({ 'no-effect': '0', 'minor-hit': '0', down: over(26n, 36n), 'out-of-action': over(10n, 36n) });
    // Reinforced armour, 2D6 - 2: No Effect on 2D6 2-3 (3 ways), Minor Hit on 4-8 (23), Down 9-10 (7), Out 11+ (3).
    expect(injury({ armour: 'reinforced' })).toEqual({ 'no-effect': over(3n, 36n), 'minor-hit': over(23n, 36n), down: over(7n, 36n), 'out-of-action': over(3n, 36n) });
    expect(injury({ armour: 'reinforced', minorAsDown: true })).toEqual({ 'no-effect': over(3n, 36n), 'minor-hit': '0', down: over(30n, 36n), 'out-of-action': over(3n, 36n) });
  });

  it("places a Down's markers: 2 on a target already Down", () => {
    // A ranged attack on a Down target (no Down bonus die): 2D6. A Down places 2 markers there, a Minor Hit 1.
    // With the weapon: 26/36 x 2 = 52/36; without: 15/36 x 1 + 11/36 x 2 = 37/36.
    expect(markers({ attackType: 'ranged', targetDown: true, minorAsDown: true })).toBe(over(52n, 36n));
    expect(markers({ attackType: 'ranged', targetDown: true })).toBe(over(37n, 36n));
  });

  it("STANDFAST then makes that Down a Minor Hit: against STANDFAST the weapon changes nothing; Tough's Down stays", () => {
    const standfast = { minorAsDown: true, downBecomesMinor: true };
    expect(injury(standfast)).toEqual({ 'no-effect': '0', 'minor-hit': over(26n, 36n), down: '0', 'out-of-action': over(10n, 36n) });
    expect(injury(standfast)).toEqual(injury({ downBecomesMinor: true }));
    // Tough's Down from an Out of Action (9+, 10 ways) is not a table's Down: STANDFAST leaves it.
    expect(injury({ ...standfast, tough: true })).toEqual({ 'no-effect': '0', 'minor-hit': over(26n, 36n), down: over(10n, 36n), 'out-of-action': '0' });
  });

  it('the simulator agrees with the exact engine: one attack on a Down target, and a sequence', () => {
    expect(simulatorDisagreements({ kind: 'attack', minorAsDown: true, targetDown: true, armour: 'standard', tough: true }, 33)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'sequence', attacks: 3, minorAsDown: true, armour: 'reinforced', policy: 'all', bloodMarkers: 1 }, 33)).toEqual([]);
  });
});
