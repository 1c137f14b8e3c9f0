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

/**
 * Every roll of `rest` dice with a 6 put beside them, the pool sorted and `keep` kept from the top (or the
 * bottom): sums and their ways, of 6^rest. Written from the weapon's text, not the engine's closed form.
 */
function withSix(rest: number, keep: number, lowest: boolean): Map<number, bigint> {
  const out = new Map<number, bigint>();
  const faces = new Array<number>(rest).fill(1);
  for (;;) {
    const pool = [6, ...faces].sort((a, b) => (lowest ? a - b : b - a));
    const total = pool.slice(0, keep).reduce((a, b) => a + b, 0);
    out.set(total, (out.get(total) ?? 0n) + 1n);
    let i = 0;
    while (i < rest && faces[i] === 6) faces[i++] = 1;
    if (i === rest) return out;
    faces[i]!++;
  }
}

/** The injury table's rows for the kept totals plus `modifier` (core: 2 minor, 7 down, 9 out). */
function rows(totals: Map<number, bigint>, modifier: number, den: bigint): Record<string, string> {
  const w = { 'no-effect': 0n, 'minor-hit': 0n, down: 0n, 'out-of-action': 0n };
  for (const [t, ways] of totals) {
    const total = t + modifier;
    w[total <= 1 ? 'no-effect' : total <= 6 ? 'minor-hit' : total <= 8 ? 'down' : 'out-of-action'] += ways;
  }
  return Object.fromEntries(Object.entries(w).map(([k, v]) => [k, over(v, den)]));
}

describe('sixAgainstArmoured (ruling T34): one injury die put aside as a 6 against armour or a shield', () => {
  const injury = (f: Record<string, unknown>) => exact({ kind: 'injury', sixAgainstArmoured: true, ...f });

  it('standard armour: 6 + D6 - 1, so Out of Action on a D6 of 4+, Down on 2-3, Minor Hit on 1', () => {
    expect(injury({ armour: 'standard' })).toEqual({ 'no-effect': '0', 'minor-hit': over(1n, 6n), down: over(2n, 6n), 'out-of-action': over(3n, 6n) });
    // A shield alone is armour enough, and gives the same -1.
    expect(injury({ shield: true })).toEqual(injury({ armour: 'standard' }));
  });

  it('with injury dice the 6 is one die of the pool: kept highest it is always kept, kept lowest the rolled dice are', () => {
    // +1 injury die: 6 and 2D6, keep the 2 highest: 6 + the higher D6; Out of Action when it is 4+: 1 - (3/6)^2 = 27/36.
    expect(injury({ armour: 'standard', injuryDice: 1 })['out-of-action']).toBe(over(27n, 36n));
    // -1 injury die: 6 and 2D6, keep the 2 lowest: the two D6 (neither is above the 6): 2D6 - 1 >= 9, 2D6 10+, 6 of 36.
    expect(injury({ armour: 'standard', injuryDice: -1 })['out-of-action']).toBe(over(6n, 36n));
    // A Bloodbath (3 dice, all kept): 6 + 2D6 - 1 >= 9, 2D6 4+, 33 of 36.
    expect(injury({ armour: 'standard', bloodbath: true })['out-of-action']).toBe(over(33n, 36n));
  });

  it('equals a brute force over every face for pools of 2 to 5 dice, kept highest or lowest, and Deadly', () => {
    for (const injuryDice of [-3, -2, -1, 0, 1, 2, 3]) {
      const rest = 1 + Math.abs(injuryDice);
      // Reinforced armour: -2.
      expect(injury({ armour: 'reinforced', injuryDice }), `injury dice ${injuryDice}`).toEqual(rows(withSix(rest, 2, injuryDice < 0), -2, 6n ** BigInt(rest)));
    }
    // Deadly (core): 3 dice, all kept; with +1 injury die 4, the 3 highest kept.
    expect(injury({ armour: 'standard', deadly: true, injuryDice: 1 })).toEqual(rows(withSix(3, 3, false), -1, 216n));
    expect(injury({ armour: 'standard', deadly: true, injuryDice: -1 })).toEqual(rows(withSix(3, 3, true), -1, 216n));
  });

  it('against no armour and no shield it is a plain roll; IGNORE ARMOUR does not take the armour off the target', () => {
    expect(injury({ injuryDice: 1 })).toEqual(exact({ kind: 'injury', injuryDice: 1 }));
    expect(exact({ kind: 'attack', sixAgainstArmoured: true, targetDown: true })).toEqual(exact({ kind: 'attack', targetDown: true }));
    // Standard armour ignored: still armoured, so 6 + D6 with no modifier: Out of Action on a D6 of 3+, 4 of 6.
    expect(injury({ armour: 'standard', ignoreArmour: true })['out-of-action']).toBe(over(4n, 6n));
  });

  it('the simulator agrees with the exact engine: attacks with + and - dice, a Bloodbath, Deadly, a sequence', () => {
    expect(simulatorDisagreements({ kind: 'attack', sixAgainstArmoured: true, armour: 'reinforced', injuryDice: 1 }, 34)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'attack', sixAgainstArmoured: true, shield: true, injuryDice: -2 }, 34)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'injury', sixAgainstArmoured: true, armour: 'machine', bloodbath: true, injuryDice: -1 }, 34)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'injury', sixAgainstArmoured: true, armour: 'standard', deadly: true, injuryDice: 1 }, 34)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'sequence', attacks: 3, sixAgainstArmoured: true, armour: 'standard', shield: true, policy: 'all', bloodMarkers: 1 }, 34)).toEqual([]);
  });
});
