import { describe, expect, it } from 'vitest';
import { ONE, ZERO, add, compare, fraction, mul, sub, type Fraction } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { type ExactAnswer, type Scenario } from '../src/model/types.js';
import { tallyLength } from '../src/model/tally.js';
import { resolveKind } from '../src/rules/registry.js';
import {
  checkTarget,
  fallModifier,
  injuryCheckResult,
  injuryRollResult,
} from '../src/rules/d20-warband/exact.js';
import { DAZED, INCAPACITATED, STUNNED } from '../src/rules/d20-warband/tables.js';
import { editionRules } from '../src/model/rule-table.js';
import { d20WarbandRuleSpec } from '../src/rules/d20-warband/rule-spec.js';
import { Rng } from '../src/sim/rng.js';

/** The v1 rule table: what the rule files print (a variant's engines are tested in d20-variants.test.ts). */
const V1 = editionRules(d20WarbandRuleSpec, 'v1');
const d20 = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'd20-warband', ...fields });
const exact = (fields: Record<string, unknown>): ExactAnswer => {
  const s = d20(fields);
  return resolveKind(s).kind.exact!(s);
};
const f = (n: number, d = 1): Fraction => fraction(n, d);
const pow = (x: Fraction, k: number): Fraction => {
  let r = ONE;
  for (let i = 0; i < k; i++) r = mul(r, x);
  return r;
};
const sum = (xs: readonly Fraction[]): Fraction => xs.reduce(add, ZERO);
const [UNHARMED, WOUNDED, STAGGERED_O, DAZED_O, STUNNED_O, INCAP_O] = [0, 1, 2, 3, 4, 5];

describe('d20 warband: hand-checked values from issue 5', () => {
  it('Mel 10 check succeeds on 10-20: 11/20', () => {
    expect(exact({ kind: 'check', stat: 10 }).outcomes).toEqual([f(9, 20), f(11, 20)]);
  });

  it('with advantage it fails only if both dice show 1-9: 1 - (9/20)^2 = 319/400', () => {
    const a = exact({ kind: 'check', stat: 10, advantage: true });
    expect(a.outcomes[1]).toEqual(f(319, 400));
    // A natural 20 on the kept die: 1 - (19/20)^2 = 39/400.
    expect(a.means[0]).toEqual(f(39, 400));
  });

  it('Mel 3 still fails on a natural 1-4: 16/20', () => {
    expect(exact({ kind: 'check', stat: 3 }).outcomes[1]).toEqual(f(16, 20));
    // Even a huge improvement cannot beat the natural 1-4 rule.
    expect(exact({ kind: 'check', stat: 3, modifier: 20 }).outcomes[1]).toEqual(f(16, 20));
  });

  it('a natural 20 succeeds however bad the stat: Mel 20 with -20 is 1/20', () => {
    expect(exact({ kind: 'check', stat: 20, modifier: -20 }).outcomes[1]).toEqual(f(1, 20));
  });

  it('advantage and disadvantage together cancel: a plain d20', () => {
    expect(exact({ kind: 'check', stat: 10, advantage: true, disadvantage: true }).outcomes[1]).toEqual(f(11, 20));
  });

  it('a Defence of "-" fails every check without a roll, with or without advantage', () => {
    for (const advantage of [false, true]) {
      const a = exact({ kind: 'check', stat: '-', advantage });
      expect(a.outcomes).toEqual([ONE, ZERO]);
      expect(a.means[0]).toEqual(ZERO); // no die, so no natural 20
    }
  });

  it('improving a "-" makes it 20, then 19 (stats file, Stats with Dashes)', () => {
    expect(checkTarget(null, 0, V1)).toBeNull();
    expect(checkTarget(null, -3, V1)).toBeNull();
    expect(checkTarget(null, 1, V1)).toBe(20);
    expect(checkTarget(null, 2, V1)).toBe(19);
    expect(exact({ kind: 'check', stat: '-', modifier: 1 }).outcomes[1]).toEqual(f(1, 20));
    expect(exact({ kind: 'check', stat: '-', modifier: 2 }).outcomes[1]).toEqual(f(2, 20));
  });

  it('a target with Defence "-" fails every Defence check: one Mel 10 attack injures 11/20 of the time', () => {
    const a = exact({ kind: 'attack', stat: 10, defence: '-', wounds: 0, explode: false });
    expect(a.outcomes[UNHARMED]).toEqual(f(9, 20));
    expect(sum(a.outcomes.slice(DAZED_O))).toEqual(f(11, 20));
  });

  it('Pierce worsens Defence and nets against a Defence modifier before a "-" is improved', () => {
    // Def 10 with Pierce 2 needs 12+: fails on 1-11, 11/20. Hit on Def "-" never defended: 1 attack Mel 10.
    const pierced = exact({ kind: 'attack', stat: 10, defence: 10, pierce: 2, wounds: 0, explode: false });
    expect(pierced.outcomes[UNHARMED]).toEqual(sub(ONE, mul(f(11, 20), f(11, 20))));
    // "-" with +2 Defence and Pierce 1 is improved by 1: Def 20, saved only by a natural 20.
    const dash = exact({ kind: 'attack', stat: 10, defence: '-', defenceModifier: 2, pierce: 1, wounds: 0, explode: false });
    expect(dash.outcomes[UNHARMED]).toEqual(sub(ONE, mul(f(11, 20), f(19, 20))));
  });

  it('a Staggered target rolls Defence with disadvantage: saved only if both dice pass', () => {
    // Def 10: a die passes on 10-20 (11/20); with disadvantage both must, (11/20)^2.
    const a = exact({ kind: 'attack', stat: 10, defence: 10, wounds: 1, state: 'staggered', explode: false });
    const saved = mul(f(11, 20), f(11, 20));
    expect(a.outcomes[STAGGERED_O]).toEqual(add(f(9, 20), mul(f(11, 20), saved)));
  });
});

describe('d20 warband: worked examples from the rule files', () => {
  it('"a unit with 3 Wounds could lose 2 Wounds without making an Injury Check" (000_…, Wounds)', () => {
    // Two Mel 10 attacks against Defence "-": every hit costs a wound, and neither reaches 0.
    const a = exact({ kind: 'attack', stat: 10, attacks: 2, wounds: 3, defence: '-', explode: false });
    expect(sum(a.outcomes.slice(DAZED_O))).toEqual(ZERO);
    expect(a.outcomes[WOUNDED]).toEqual(sub(ONE, f(81, 400)));
    expect(a.histograms[0]).toEqual([f(81, 400), mul(f(2), f(99, 400)), f(121, 400), ZERO]);
    // A third hit brings it to 0 and makes the Injury Check with that hit's own roll, uniform on 10-20:
    // 18-20 Incapacitated, so P = (11/20)^2 * 3/20 = 363/8000; 10-14 Dazed, (11/20)^2 * 5/20.
    const b = exact({ kind: 'attack', stat: 10, attacks: 3, wounds: 3, defence: '-', explode: false });
    expect(b.outcomes[INCAP_O]).toEqual(f(363, 8000));
    expect(b.outcomes[DAZED_O]).toEqual(f(605, 8000));
  });

  it('Critical Hits (003_…): a natural 20 hits and then 20 again, a 15 is "a hit (and a potential Stun)"', () => {
    expect(injuryCheckResult(15, V1.injuryCheckTable)).toBe(STUNNED);
    expect(injuryCheckResult(20, V1.injuryCheckTable)).toBe(INCAPACITATED);
    expect(injuryCheckResult(14, V1.injuryCheckTable)).toBe(DAZED);
    // Each attack owes one more on a natural 20 (1/20), so one attack becomes 1/(1 - 1/20) = 20/19 on
    // average when nothing it does changes the target (a Stunned target hit at range with Injury -20
    // always rolls Dazed, which "nothing happens" to a Stunned unit).
    const a = exact({ kind: 'attack', attackType: 'ranged', state: 'stunned', wounds: 0, injury: -20, attacks: 1 });
    expect(a.means[0]).toEqual(f(20, 19));
    expect(a.outcomes[STUNNED_O]).toEqual(ONE);
    expect(exact({ kind: 'attack', attackType: 'ranged', state: 'stunned', wounds: 0, injury: -20, attacks: 3 }).means[0]).toEqual(f(60, 19));
  });

  it('Falling 3" is +2, so a roll of 13 Stuns (000_…, Injury Roll modifiers)', () => {
    expect(fallModifier(3, V1.fall)).toBe(2);
    expect(injuryRollResult(13 + fallModifier(3, V1.fall), V1.injuryRollTable)).toBe('stunned');
    // 2" or less adds nothing; 3.9" is still one full inch above 2; 5" is three.
    expect([0, 2, 2.9, 3.9, 5].map((h) => fallModifier(h, V1.fall))).toEqual([0, 0, 0, 2, 6]);
    // d20 + 2: 1-9 no effect, 10-12 Dazed, 13-15 Stunned, 16-20 Incapacitated.
    expect(exact({ kind: 'fall', heightInches: 3 }).outcomes).toEqual([f(9, 20), f(3, 20), f(3, 20), f(5, 20)]);
  });

  it('Injury Roll Table: 1-11 no effect, so a plain roll leaves 11/20 unhurt', () => {
    expect(exact({ kind: 'injury-roll' }).outcomes).toEqual([f(11, 20), f(3, 20), f(3, 20), f(3, 20)]);
  });
});

describe('d20 warband: injured targets', () => {
  it('a Stunned target attacked in melee is Incapacitated at once: one attack, no roll, no explosion', () => {
    const a = exact({ kind: 'attack', state: 'stunned', wounds: 0, attacks: 4 });
    expect(a.outcomes[INCAP_O]).toEqual(ONE);
    expect(a.means[0]).toEqual(ONE);
  });

  it('a Dazed target in melee: attacked with advantage, Incapacitated by any failed Defence check', () => {
    const a = exact({ kind: 'attack', stat: 10, defence: 10, state: 'dazed', wounds: 0, explode: false });
    expect(a.outcomes[INCAP_O]).toEqual(mul(f(319, 400), f(9, 20)));
    expect(a.outcomes[DAZED_O]).toEqual(sub(ONE, mul(f(319, 400), f(9, 20))));
  });

  it('at range an injury is never made less severe: a Stunned target stays Stunned on a Dazed result', () => {
    // Injury -8: a hit of 10-20 gives 2-12, always Dazed.
    const a = exact({ kind: 'attack', attackType: 'ranged', stat: 10, defence: '-', state: 'stunned', wounds: 0, injury: -8 });
    expect(a.outcomes[STUNNED_O]).toEqual(ONE);
  });

  it('next-attack timing: an injury from attack 1 changes attack 2 (Dazed: advantage; Stunned: Incapacitated)', () => {
    // Two Mel 10 attacks on Defence "-", 0 wounds. Attack 1 hits on 10-20: 18-20 (3/20) Incapacitates,
    // 15-17 (3/20) Stuns so attack 2 Incapacitates, 10-14 (5/20) Dazes so attack 2 has advantage and any hit
    // Incapacitates (319/400); a miss (9/20) leaves attack 2 to Incapacitate on 18-20 (3/20).
    const a = exact({ kind: 'attack', stat: 10, defence: '-', wounds: 0, attacks: 2, explode: false });
    const expected = sum([f(3, 20), f(3, 20), mul(f(5, 20), f(319, 400)), mul(f(9, 20), f(3, 20))]);
    expect(expected).toEqual(f(907, 1600));
    expect(a.outcomes[INCAP_O]).toEqual(expected);
  });

  it('end-of-action timing: both attacks see the unhurt target; the worse injury stands', () => {
    const a = exact({ kind: 'attack', stat: 10, defence: '-', wounds: 0, attacks: 2, explode: false, injuryTiming: 'end-of-action' });
    expect(a.outcomes[INCAP_O]).toEqual(sub(ONE, pow(f(17, 20), 2)));
    // Per attack: 3/20 Incapacitated, 3/20 Stunned, 14/20 neither. Stunned at the end: no attack
    // Incapacitated, (17/20)^2, minus neither attack Stunning either, (14/20)^2.
    expect(a.outcomes[STUNNED_O]).toEqual(sub(pow(f(17, 20), 2), pow(f(14, 20), 2)));
  });

  it('attackModifierToInjury adds the attack modifier to the Injury Check', () => {
    // Mel 12 with +2 hits on 10-20; with the +2 counted, 16-20 Incapacitate (5 of 20) instead of 18-20.
    const on = exact({ kind: 'attack', stat: 12, modifier: 2, defence: '-', wounds: 0, explode: false, attackModifierToInjury: true });
    expect(on.outcomes[INCAP_O]).toEqual(f(5, 20));
    const off = exact({ kind: 'attack', stat: 12, modifier: 2, defence: '-', wounds: 0, explode: false });
    expect(off.outcomes[INCAP_O]).toEqual(f(3, 20));
  });

  it('stunnedDefends: false lets every ranged hit on a Stunned target through', () => {
    const a = exact({ kind: 'attack', attackType: 'ranged', stat: 10, defence: 2, state: 'stunned', wounds: 0, explode: false, stunnedDefends: false });
    expect(a.outcomes[INCAP_O]).toEqual(f(3, 20));
  });
});

/**
 * Brute-force twin: enumerate every sequence of d20 faces the simulator can ask for, and add up what it
 * tallies, each sequence weighted (1/20)^length. This replays the simulator's own rules code path by
 * path, so exact equality checks the exact engine against an independent reading, not against itself.
 * Sequences that would need more than `maxDice` dice are cut and their mass returned as `cut`.
 */
const NEED_A_DIE = new Error('the script ran out');
class ScriptRng extends Rng {
  script: number[] = [];
  used = 0;
  override d20(): number {
    if (this.used < this.script.length) return this.script[this.used++]!;
    throw NEED_A_DIE;
  }
}

interface Enumerated {
  slots: Fraction[];
  cut: Fraction;
}

function bfEnumerate(s: Scenario, maxDice: number): Enumerated {
  const { kind } = resolveKind(s);
  const kernel = kind.simulator(s);
  const width = tallyLength(kind.layout(s));
  const byLength: bigint[][] = [];
  const cutByLength: bigint[] = [];
  const rng = new ScriptRng();
  const tally = new Float64Array(width);
  const stack: number[][] = [[]];
  while (stack.length > 0) {
    const script = stack.pop()!;
    rng.script = script;
    rng.used = 0;
    tally.fill(0);
    try {
      kernel.run(rng, 1, tally);
    } catch (e) {
      if (e !== NEED_A_DIE) throw e;
      if (script.length >= maxDice) {
        cutByLength[script.length] = (cutByLength[script.length] ?? 0n) + 1n;
        continue;
      }
      for (let face = 1; face <= 20; face++) stack.push([...script, face]);
      continue;
    }
    const row = (byLength[script.length] ??= new Array<bigint>(width).fill(0n));
    for (let i = 0; i < width; i++) row[i]! += BigInt(tally[i]!);
  }
  const slots: Fraction[] = new Array<Fraction>(width).fill(ZERO);
  let cut = ZERO;
  const weight = (len: number) => fraction(1n, 20n ** BigInt(len));
  byLength.forEach((row, len) => {
    if (!row) return;
    for (let i = 0; i < width; i++) slots[i] = add(slots[i]!, mul(fraction(row[i]!), weight(len)));
  });
  cutByLength.forEach((n, len) => {
    if (n) cut = add(cut, mul(fraction(n), weight(len)));
  });
  return { slots, cut };
}

/** The exact answer in tally order, with each mean's sum of squares left out (the exact engine has none). */
function exactSlots(s: Scenario): { slots: (Fraction | undefined)[] } {
  const a = resolveKind(s).kind.exact!(s);
  const slots: (Fraction | undefined)[] = [...a.outcomes];
  for (const m of a.means) slots.push(m, undefined);
  for (const h of a.histograms) slots.push(...h);
  return { slots };
}

function expectTwins(fields: Record<string, unknown>, maxDice = 12): void {
  const s = d20(fields);
  const bf = bfEnumerate(s, maxDice);
  expect(bf.cut).toEqual(ZERO);
  const ex = exactSlots(s).slots;
  ex.forEach((e, i) => {
    if (e) expect({ fields, slot: i, value: bf.slots[i] }).toEqual({ fields, slot: i, value: e });
  });
}

describe('d20 warband: exact engine equals brute-force enumeration of every roll', () => {
  it('check: every stat, "-", modifiers and advantage', () => {
    for (const stat of [...Array.from({ length: 20 }, (_, i) => i + 1), '-'])
      for (const modifier of [-3, 0, 2, 20])
        for (const [advantage, disadvantage] of [[false, false], [true, false], [false, true], [true, true]])
          expectTwins({ kind: 'check', stat, modifier, advantage, disadvantage });
  });

  it('injury-roll and fall', () => {
    for (const modifier of [-12, -1, 0, 4, 9])
      for (const [advantage, disadvantage] of [[false, false], [true, false], [false, true]])
        expectTwins({ kind: 'injury-roll', modifier, advantage, disadvantage });
    for (const heightInches of [0, 2, 2.9, 3, 3.5, 7, 12]) expectTwins({ kind: 'fall', heightInches });
  });

  it('one attack without explosions: every state, attack type and advantage', () => {
    for (const state of ['none', 'staggered', 'dazed', 'stunned'])
      for (const attackType of ['melee', 'ranged'])
        for (const [advantage, disadvantage] of [[false, false], [true, false], [false, true]])
          for (const defence of ['-', 9, 20])
            for (const wounds of [0, 1, 2])
              expectTwins({ kind: 'attack', stat: 8, injury: 2, pierce: 1, attacks: 1, explode: false, state, attackType, advantage, disadvantage, defence, wounds });
  });

  it('two attacks without explosions: injuries from attack 1 change attack 2', () => {
    // Defence "-" rolls no die, which keeps each case under 400^2 sequences even with advantage.
    for (const injuryTiming of ['next-attack', 'end-of-action'])
      for (const state of ['none', 'staggered', 'dazed', 'stunned'])
        for (const attackType of ['melee', 'ranged'])
          for (const wounds of [0, 1, 2])
            expectTwins({ kind: 'attack', stat: 11, injury: 1, attacks: 2, explode: false, injuryTiming, state, attackType, wounds, defence: '-' });
    // With Defence rolls: 2 wounds keep attack 2 from seeing an injury, so no advantage dice (20^4 sequences).
    for (const attackType of ['melee', 'ranged'])
      for (const pierce of [-3, 0, 4])
        expectTwins({ kind: 'attack', stat: 11, attacks: 2, explode: false, attackType, wounds: 2, defence: 13, pierce });
    // A Stunned target at range, with and without Defence checks.
    for (const stunnedDefends of [true, false])
      expectTwins({ kind: 'attack', stat: 7, attacks: 2, explode: false, attackType: 'ranged', state: 'stunned', wounds: 0, defence: 9, stunnedDefends });
  });

  it('explosions: the exact answer lies within the mass the enumeration had to cut', () => {
    // Defence "-" rolls no die and Injury -6 keeps a natural 20 at Dazed, so chains of critical hits go
    // on past an injury. A Dazed target costs two dice per attack (advantage), which bounds maxDice here.
    const cases: [Record<string, unknown>, number][] = [
      [{ attackType: 'ranged', wounds: 1, attacks: 1 }, 7],
      [{ attackType: 'melee', wounds: 1, attacks: 1 }, 7],
      [{ attackType: 'ranged', wounds: 3, attacks: 2 }, 7],
      [{ attackType: 'melee', wounds: 2, attacks: 2, injuryTiming: 'end-of-action' }, 8],
      [{ attackType: 'ranged', wounds: 0, attacks: 1, state: 'dazed', disadvantage: true }, 8],
      [{ attackType: 'ranged', wounds: 0, attacks: 2, state: 'stunned', injury: -20 }, 8],
    ];
    for (const [fields, maxDice] of cases) {
      const s = d20({ kind: 'attack', stat: 9, defence: '-', injury: -6, ...fields });
      const bf = bfEnumerate(s, maxDice);
      expect(compare(bf.cut, fraction(1, 10000))).toBeLessThan(0);
      const a = resolveKind(s).kind.exact!(s);
      a.outcomes.forEach((p, i) => {
        expect(compare(bf.slots[i]!, p)).toBeLessThanOrEqual(0);
        expect(compare(p, add(bf.slots[i]!, bf.cut))).toBeLessThanOrEqual(0);
      });
      // Attacks made: the enumeration only counts paths it finished, so it is a lower bound.
      expect(compare(bf.slots[6]!, a.means[0]!)).toBeLessThanOrEqual(0);
    }
  });
});

describe('d20 warband: every distribution sums to exactly 1', () => {
  it('outcomes and histograms of a spread of scenarios', () => {
    const cases: Record<string, unknown>[] = [
      { kind: 'check', stat: 7, modifier: -2, disadvantage: true },
      { kind: 'injury-roll', modifier: 3, advantage: true },
      { kind: 'fall', heightInches: 6.5 },
      { kind: 'attack', stat: 6, attacks: 10, wounds: 10, defence: 8, state: 'staggered', advantage: true },
      { kind: 'attack', stat: 4, attacks: 6, wounds: 3, defence: '-', attackType: 'ranged', state: 'dazed', injury: 4 },
      { kind: 'attack', stat: 12, attacks: 5, wounds: 0, defence: 12, pierce: -2, injuryTiming: 'end-of-action' },
    ];
    for (const c of cases) {
      const a = exact(c);
      expect(sum(a.outcomes)).toEqual(ONE);
      for (const h of a.histograms) expect(sum(h)).toEqual(ONE);
    }
  });

  // How long it takes is measured by `npm run bench` (exact engine), never asserted here.
  it('the largest scenario (10 attacks, 10 wounds, advantage)', () => {
    const a = exact({ kind: 'attack', stat: 2, attacks: 10, wounds: 10, defence: '-', attackType: 'ranged', state: 'staggered', advantage: true, injury: -4 });
    expect(sum(a.outcomes)).toEqual(ONE);
    for (const h of a.histograms) expect(sum(h)).toEqual(ONE);
  });
});
