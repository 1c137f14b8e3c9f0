import { describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { add, formatFraction, fraction } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { simulatorDisagreements } from './helpers/agree.js';
import { bruteCoreMeleeSequence, keptTotals } from './helpers/brute.js';

/**
 * The weapon effects on armour (issue "Real warbands"): IGNORE ARMOUR (armour and shield modifiers
 * gone), IGNORE ARMOUR on a critical only, and ARMOUR PIERCING N (the armour's modifier shortened by N,
 * never past 0; the shield's stays). Each against a brute force of a core attack written from the
 * rules: success 2D6, miss under 7, critical 12+ (+1 injury die); injury 2D6 + dice keep 2; armour
 * standard -1, reinforced -2, machine -3, shield -1, negatives capped at -3; 2+ minor, 7+ down, 9+ out.
 */

const ARMOUR = { none: 0, standard: -1, reinforced: -2, machine: -3 } as const;
type Effects = { ignoreArmour?: boolean; ignoreArmourOnCritical?: boolean; armourPiercing?: number };

function bruteOutOfAction(armour: keyof typeof ARMOUR, shield: boolean, injuryDice: number, e: Effects): string {
  const modifierFor = (critical: boolean) => {
    if (e.ignoreArmour || (critical && e.ignoreArmourOnCritical)) return 0;
    const pierced = Math.min(0, ARMOUR[armour] + (e.armourPiercing ?? 0));
    return Math.max(pierced + (shield ? -1 : 0), -3);
  };
  let out = 0n;
  const maxPool = 2 + Math.max(Math.abs(injuryDice), Math.abs(injuryDice + 1));
  for (const [success, ways] of keptTotals(2, 2, false)) {
    if (success < 7) continue;
    const critical = success >= 12;
    const net = injuryDice + (critical ? 1 : 0);
    const pool = 2 + Math.abs(net);
    for (const [kept, w] of keptTotals(pool, 2, net < 0)) if (kept + modifierFor(critical) >= 9) out += ways * w * 6n ** BigInt(maxPool - pool);
  }
  return formatFraction(fraction(out, 36n * 6n ** BigInt(maxPool)));
}

const cases: [keyof typeof ARMOUR, boolean, number, Effects][] = [
  ['standard', true, 0, { ignoreArmour: true }],
  ['reinforced', true, 1, { armourPiercing: 1 }],
  ['standard', false, 0, { armourPiercing: 2 }],
  ['machine', false, -1, { ignoreArmourOnCritical: true }],
  ['reinforced', true, 0, { ignoreArmourOnCritical: true, armourPiercing: 1 }],
];

describe('armour effects of a weapon: exact equals brute force, and the simulator agrees', () => {
  it.each(cases)('%s armour, shield %s, injury dice %i, %o', (armour, shield, injuryDice, effects) => {
    const s = parseScenario({ kind: 'attack', armour, shield, injuryDice, ...effects });
    const exact = evaluateExact(s);
    expect(exact.outcomes.find((o) => o.outcome === 'out-of-action')!.exact).toBe(bruteOutOfAction(armour, shield, injuryDice, effects));
    // The effect moved something: without it the answer differs.
    expect(exact.outcomes).not.toEqual(evaluateExact(parseScenario({ kind: 'attack', armour, shield, injuryDice })).outcomes);
    expect(simulatorDisagreements(s, 5)).toEqual([]);
  });

  it('in a sequence, both engines agree (IGNORE ARMOUR on criticals, ARMOUR PIERCING)', () => {
    expect(simulatorDisagreements({ kind: 'sequence', attacks: 3, armour: 'reinforced', shield: true, ignoreArmourOnCritical: true, armourPiercing: 1, policy: 'all', bloodMarkers: 1 }, 5)).toEqual([]);
  });

  it('a profile carries them: a weapon with IGNORE ARMOUR against Machine Armour is a plain attack', () => {
    const ignoring = evaluateExact(parseScenario({ kind: 'attack', armour: 'machine', ignoreArmour: true }));
    expect(ignoring.outcomes).toEqual(evaluateExact(parseScenario({ kind: 'attack' })).outcomes);
  });
});

describe('a target ability "-1 INJURY DICE": injury rolls against it get the dice, netted with the rest', () => {
  it('against a plain attack: 3D6 keep the lowest 2 on a hit, 2D6 on a critical (its +1 die nets to 0)', () => {
    let out = 0n;
    for (const [success, ways] of keptTotals(2, 2, false)) {
      if (success < 7) continue;
      const critical = success >= 12;
      for (const [kept, w] of keptTotals(critical ? 2 : 3, 2, !critical)) if (kept >= 9) out += ways * w * (critical ? 6n : 1n);
    }
    const s = parseScenario({ kind: 'attack', targetInjuryDice: -1 });
    expect(evaluateExact(s).outcomes.find((o) => o.outcome === 'out-of-action')!.exact).toBe(formatFraction(fraction(out, 36n * 216n)));
    // Netted with the weapon's: +1 injury dice against it is a plain attack.
    expect(evaluateExact(parseScenario({ kind: 'attack', targetInjuryDice: -1, injuryDice: 1 })).outcomes).toEqual(evaluateExact(parseScenario({ kind: 'attack' })).outcomes);
    for (const fields of [{ kind: 'attack', targetInjuryDice: -1, armour: 'standard' }, { kind: 'sequence', attacks: 3, targetInjuryDice: -1, policy: 'all', bloodMarkers: 1 }]) {
      expect(simulatorDisagreements(fields, 9), JSON.stringify(fields)).toEqual([]);
    }
  });
});

describe('an auto-hit weapon (FLAMETHROWER): no success roll, every attack a hit, never a critical', () => {
  it('an attack is then exactly its injury roll, and both simulators agree', () => {
    const attack = evaluateExact(parseScenario({ kind: 'attack', autoHit: true, injuryDice: 1, armour: 'standard', attackModifier: -5 }));
    const injury = evaluateExact(parseScenario({ kind: 'injury', injuryDice: 1, armour: 'standard' }));
    expect(attack.outcomes[0]).toMatchObject({ outcome: 'miss', exact: '0' });
    expect(attack.outcomes.slice(1).map((o) => o.exact)).toEqual(injury.outcomes.map((o) => o.exact));
    expect(attack.extra.successRoll).toMatchObject({ hit: { exact: '1' }, critical: { exact: '0' } });
    for (const fields of [{ kind: 'attack', autoHit: true, armour: 'reinforced' }, { kind: 'sequence', attacks: 3, autoHit: true, armour: 'machine', tough: true, policy: 'all' }]) {
      expect(simulatorDisagreements(fields, 13), JSON.stringify(fields)).toEqual([]);
    }
  });
});

describe('STANDFAST (downBecomesMinor): the table\'s Down is a Minor Hit; the Down Tough saves with stays one', () => {
  it('moves exactly the Down results, and both simulators agree', () => {
    const plain = evaluateExact(parseScenario({ kind: 'attack', armour: 'standard', tough: true }));
    const standfast = evaluateExact(parseScenario({ kind: 'attack', armour: 'standard', tough: true, downBecomesMinor: true }));
    const p = (r: typeof plain, o: string) => fraction(BigInt(r.outcomes.find((x) => x.outcome === o)!.exact.split('/')[0]!), BigInt(r.outcomes.find((x) => x.outcome === o)!.exact.split('/')[1] ?? '1'));
    // Without Tough's save, all the Down weight would move; with it, Down is exactly what Tough turns out of action into.
    const plainNoTough = evaluateExact(parseScenario({ kind: 'attack', armour: 'standard' }));
    expect(standfast.outcomes.find((o) => o.outcome === 'down')!.exact).toBe(plainNoTough.outcomes.find((o) => o.outcome === 'out-of-action')!.exact);
    const minor = p(standfast, 'minor-hit');
    const expected = p(plainNoTough, 'minor-hit');
    const down = p(plainNoTough, 'down');
    expect(formatFraction(minor)).toBe(formatFraction(fraction(expected.num * down.den + down.num * expected.den, expected.den * down.den)));
    expect(plain.outcomes).not.toEqual(standfast.outcomes);
    for (const fields of [{ kind: 'attack', downBecomesMinor: true, injuryDice: 1 }, { kind: 'sequence', attacks: 4, downBecomesMinor: true, tough: true, policy: 'all' }]) {
      expect(simulatorDisagreements(fields, 17), JSON.stringify(fields)).toEqual([]);
    }
  });
});

describe('GOLEM: Out of Action only to a Bloodbath injury roll', () => {
  it('without a Bloodbath, Out of Action is a Down; with one it is the plain roll; both simulators agree', () => {
    const of = (r: ReturnType<typeof evaluateExact>, o: string) => r.outcomes.find((x) => x.outcome === o)!.exact;
    const plain = evaluateExact(parseScenario({ kind: 'injury', injuryDice: 1 }));
    const golem = evaluateExact(parseScenario({ kind: 'injury', injuryDice: 1, golem: true }));
    expect(of(golem, 'out-of-action')).toBe('0');
    const down = fraction(BigInt(of(plain, 'down').split('/')[0]!), BigInt(of(plain, 'down').split('/')[1]!));
    const out = fraction(BigInt(of(plain, 'out-of-action').split('/')[0]!), BigInt(of(plain, 'out-of-action').split('/')[1]!));
    expect(of(golem, 'down')).toBe(formatFraction(fraction(down.num * out.den + out.num * down.den, down.den * out.den)));
    // A Bloodbath roll (core: 3 dice kept) takes it out as it would any model.
    const bloodbath = (extra: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'injury', bloodbath: true, ...extra })).outcomes;
    expect(bloodbath({ golem: true })).toEqual(bloodbath({}));
    for (const fields of [
      { kind: 'attack', golem: true, tough: true },
      { kind: 'sequence', attacks: 4, golem: true, policy: 'bloodbath', bloodMarkers: 6, tough: true },
    ]) {
      expect(simulatorDisagreements(fields, 19), JSON.stringify(fields)).toEqual([]);
    }
    // Without markers for a Bloodbath, a GOLEM never goes out of action in a sequence.
    expect(of(evaluateExact(parseScenario({ kind: 'sequence', attacks: 5, golem: true, injuryDice: 3 })), 'out-of-action')).toBe('0');
  });
});

describe('IMPERVIOUS armour keeps its modifier against IGNORE ARMOUR; its shield does not', () => {
  it('reinforced + shield, IGNORE ARMOUR: impervious is reinforced alone; both simulators agree', () => {
    const outcomes = (fields: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'attack', ...fields })).outcomes;
    expect(outcomes({ armour: 'reinforced', shield: true, impervious: true, ignoreArmour: true })).toEqual(outcomes({ armour: 'reinforced' }));
    expect(outcomes({ armour: 'reinforced', shield: true, impervious: true })).toEqual(outcomes({ armour: 'reinforced', shield: true }));
    for (const fields of [
      { kind: 'attack', armour: 'standard', shield: true, impervious: true, ignoreArmourOnCritical: true },
      { kind: 'sequence', attacks: 3, armour: 'reinforced', shield: true, impervious: true, ignoreArmour: true, policy: 'all' },
    ]) {
      expect(simulatorDisagreements(fields, 23), JSON.stringify(fields)).toEqual([]);
    }
  });
});

describe('FEAR: melee attacks against it get -1 DICE, unless the attacker has FEAR too', () => {
  it('is the attack at one die less in melee, nothing at range or for a FEAR attacker; both simulators agree', () => {
    const outcomes = (fields: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'attack', armour: 'standard', ...fields })).outcomes;
    expect(outcomes({ fear: true })).toEqual(outcomes({ attackDice: -1 }));
    expect(outcomes({ fear: true, attackType: 'ranged' })).toEqual(outcomes({ attackType: 'ranged' }));
    expect(outcomes({ fear: true, attackerFear: true })).toEqual(outcomes({}));
    expect(outcomes({ fear: true, rules: { fear: { attackDice: -2 } } })).toEqual(outcomes({ attackDice: -2 }));
    expect(simulatorDisagreements({ kind: 'sequence', attacks: 3, fear: true, attackDice: 1, policy: 'all' }, 29)).toEqual([]);
    expect(simulatorDisagreements({ kind: 'attack', fear: true, attackDice: 1 }, 29)).toEqual([]);
  });
});

/**
 * FIRE (GAS, SHRAPNEL): the target gains the weapon's markers after every injury roll it survives,
 * whatever the result. Brute force of a core melee sequence against an unarmoured target under the
 * policy `all` (every marker spent as +1 injury dice), written from the rules: success 2D6, 7+ hits,
 * 12 a critical (+1 injury die); injury 2D6 + dice keep 2 highest, +1 die against a Down target in
 * melee; 2+ Minor Hit (1 marker), 7+ Down (1 marker, 2 if already Down), 9+ Out of Action; then the
 * weapon's markers, unless the target negates them.
 */

describe('FIRE, GAS, SHRAPNEL: markers after every injury roll, unless the target negates the kind', () => {
  const outWithin = (fields: Record<string, unknown>) =>
    evaluateExact(parseScenario({ kind: 'sequence', edition: 'core', attacks: 3, policy: 'all', ...fields })).outcomes.find((o) => o.outcome === 'out-of-action')!.exact;

  it('equals a brute force of three attacks spending every marker, and moves the answer', () => {
    expect(outWithin({ fireMarkers: 1 })).toBe(formatFraction(bruteCoreMeleeSequence({ attacks: 3, fireMarkers: 1 })));
    expect(outWithin({ attacks: 2, gasMarkers: 2 })).toBe(formatFraction(bruteCoreMeleeSequence({ attacks: 2, fireMarkers: 2 })));
    expect(outWithin({ fireMarkers: 1 })).not.toBe(outWithin({}));
  });

  it('kinds add up, and a negated kind leaves nothing', () => {
    expect(outWithin({ fireMarkers: 1, shrapnelMarkers: 1 })).toBe(outWithin({ gasMarkers: 2 }));
    expect(outWithin({ fireMarkers: 1, negateFire: true })).toBe(outWithin({}));
    expect(outWithin({ fireMarkers: 1, gasMarkers: 1, negateGas: true })).toBe(outWithin({ shrapnelMarkers: 1 }));
  });

  it('one attack places them on top of the result: exact mean markers, and both simulators agree', () => {
    const plain = evaluateExact(parseScenario({ kind: 'attack' }));
    const fire = evaluateExact(parseScenario({ kind: 'attack', fireMarkers: 1 }));
    // The mean markers placed (the attack's only mean) grow by P(a hit the target survives): no effect, Minor Hit or Down.
    const p = (o: string) => plain.answer.outcomes[plain.outcomes.findIndex((x) => x.outcome === o)]!;
    const survivedHits = add(add(p('no-effect'), p('minor-hit')), p('down'));
    expect(formatFraction(fire.answer.means[0]!)).toBe(formatFraction(add(plain.answer.means[0]!, survivedHits)));
    for (const fields of [
      { kind: 'attack', fireMarkers: 2, targetDown: true },
      { kind: 'sequence', attacks: 4, fireMarkers: 1, gasMarkers: 1, negateGas: true, policy: 'bloodbath', armour: 'standard' },
      { kind: 'sequence', attacks: 3, shrapnelMarkers: 1, policy: 'optimal', markerCap: 3 },
    ]) {
      expect(simulatorDisagreements(fields, 31), JSON.stringify(fields)).toEqual([]);
    }
  });
});

describe('a target ability "attacks against it get -1 DICE" (targetAttackDice), for melee, ranged or both', () => {
  it('is the attack at one die less where it applies and nothing elsewhere; both simulators agree', () => {
    const outcomes = (fields: Record<string, unknown>) => evaluateExact(parseScenario({ kind: 'attack', armour: 'standard', ...fields })).outcomes;
    expect(outcomes({ targetAttackDice: -1 })).toEqual(outcomes({ attackDice: -1 }));
    expect(outcomes({ targetAttackDice: -1, targetAttackDiceApplies: 'ranged' })).toEqual(outcomes({}));
    expect(outcomes({ targetAttackDice: -1, targetAttackDiceApplies: 'ranged', attackType: 'ranged' })).toEqual(outcomes({ attackDice: -1, attackType: 'ranged' }));
    // With FEAR the two net: -2 dice in melee.
    expect(outcomes({ targetAttackDice: -1, fear: true })).toEqual(outcomes({ attackDice: -2 }));
    for (const fields of [
      { kind: 'attack', targetAttackDice: -1, attackDice: 1 },
      { kind: 'sequence', attacks: 3, targetAttackDice: 1, targetAttackDiceApplies: 'melee', policy: 'all' },
    ]) {
      expect(simulatorDisagreements(fields, 43), JSON.stringify(fields)).toEqual([]);
    }
  });
});
