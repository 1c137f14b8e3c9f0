import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dist } from '../src/exact/dist.js';
import { type Fraction, compare, fraction, formatFraction } from '../src/exact/fraction.js';
import { keepDice } from '../src/exact/keep.js';
import { evaluateExact } from '../src/evaluate.js';
import { parseScenario } from '../src/input/scenario.js';
import type { Scenario } from '../src/model/types.js';
import { injuryOutcomeDist, injuryRollInput, planInjuryRoll, successRollDist } from '../src/rules/trench-crusade/exact.js';
import type { OneRollScenario } from '../src/rules/trench-crusade/fields.js';
import { injuryOutcome } from '../src/rules/trench-crusade/tables.js';
import { editionRules } from '../src/model/rule-table.js';
import { trenchCrusadeRuleSpec } from '../src/rules/trench-crusade/rule-spec.js';

/** The core edition's rule table (the bands every edition prints: 1 or less, 2-6, 7-8, 9+). */
const CORE = editionRules(trenchCrusadeRuleSpec, 'core');

/** The injury roll a parsed one-roll scenario makes (parseScenario returns the general Scenario type). */
const roll = (s: Scenario) => injuryRollInput(s as OneRollScenario);

const tc = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'trench-crusade', ...fields });
const outcome = (fields: Record<string, unknown>, id: string): Fraction => {
  const r = evaluateExact(tc(fields));
  const i = r.layout.outcomes.indexOf(id);
  return r.answer.outcomes[i]!;
};
const f = formatFraction;

/** Keeps the highest (net > 0) or lowest (net < 0) `keep` of concrete dice, as the rule text says. */
function keepConcrete(dice: number[], keep: number, net: number): number {
  const sorted = [...dice].sort((a, b) => (net >= 0 ? b - a : a - b));
  return sorted.slice(0, keep).reduce((a, b) => a + b, 0);
}

describe('hand-checked values', () => {
  it('plain 2D6: out of action 10/36, no effect 0', () => {
    // 9+ on 2D6: 9 (4 ways) + 10 (3) + 11 (2) + 12 (1) = 10 of 36. A total of 1 or less is impossible.
    expect(f(outcome({ kind: 'injury' }, 'out-of-action'))).toBe('5/18');
    expect(f(outcome({ kind: 'injury' }, 'no-effect'))).toBe('0');
    // 7-8: 6 + 5 = 11 ways; 2-6: 1+2+3+4+5 = 15 ways.
    expect(f(outcome({ kind: 'injury' }, 'down'))).toBe('11/36');
    expect(f(outcome({ kind: 'injury' }, 'minor-hit'))).toBe('5/12');
  });

  it('3 dice keep 2 highest: total 12 with probability 16/216', () => {
    const plan = planInjuryRoll(roll(tc({ kind: 'injury', injuryDice: 1 })), false);
    expect(plan).toMatchObject({ baseDice: 2, netDice: 1, modifier: 0 });
    expect(keepDice(3, 2, 6, 'highest').probability(12)).toEqual(fraction(16, 216));
  });

  it("core worked example: 4D6 rolling 2, 5, 4, 1 with Standard Armour gives 8, Down (004_…)", () => {
    // "The Heretic player decides to use both Blood Markers ... takes 4D6 (2D6 +2 Injury Dice) and rolls
    // 2, 5, 4 and 1 ... the two highest numbers are used ... total of 9. The Castigator's armour adds -1
    // Injury Modifier ... modified roll of 8 ... the Pilgrim is Down!" (a ranged attack)
    const plan = planInjuryRoll(roll(tc({ kind: 'injury', attackType: 'ranged', bloodMarkersSpent: 2, armour: 'standard' })), false);
    expect(plan.baseDice + Math.abs(plan.netDice)).toBe(4);
    expect(plan.netDice).toBe(2);
    const kept = keepConcrete([2, 5, 4, 1], plan.baseDice, plan.netDice);
    expect(kept).toBe(9);
    expect(kept + plan.modifier).toBe(8);
    expect(injuryOutcome(kept + plan.modifier, CORE.injuryTable)).toBe('down');
  });

  it('comprehensive-style example: 3 dice 2, 4, 5 with -1 gives 8, Down (004_… "For example")', () => {
    // "+1 Injury Dice modifier and a -1 Injury Modifier. 3 dice are rolled, resulting in a 2, 4 and 5. The
    // two highest dice are used, giving a roll of 9. Then the -1 ... changing it to an 8 ... Down".
    for (const edition of ['comprehensive', 'core']) {
      const plan = planInjuryRoll(roll(tc({ edition, kind: 'injury', injuryDice: 1, armour: 'standard' })), false);
      expect(plan.baseDice + Math.abs(plan.netDice)).toBe(3);
      const total = keepConcrete([2, 4, 5], plan.baseDice, plan.netDice) + plan.modifier;
      expect(total).toBe(8);
      expect(injuryOutcome(total, CORE.injuryTable)).toBe('down');
    }
  });

  it('injury table bands: 1 or less, 2-6, 7-8, 9+', () => {
    expect([-3, 1, 2, 6, 7, 8, 9, 15].map((t) => injuryOutcome(t, CORE.injuryTable))).toEqual([
      'no-effect', 'no-effect', 'minor-hit', 'minor-hit', 'down', 'down', 'out-of-action', 'out-of-action',
    ]);
  });

  it('-1 injury dice: 3 dice keep the 2 lowest', () => {
    // Lowest two of three: out of action needs both lower dice >= 4.5, i.e. the sum of the lowest two
    // is 9+: compare against brute force of all 216 rolls.
    let oa = 0;
    for (let a = 1; a <= 6; a++)
      for (let b = 1; b <= 6; b++)
        for (let c = 1; c <= 6; c++) if (keepConcrete([a, b, c], 2, -1) >= 9) oa++;
    expect(outcome({ kind: 'injury', injuryDice: -1 }, 'out-of-action')).toEqual(fraction(oa, 216));
  });

  it('attack: success roll bands on plain 2D6', () => {
    // miss on 2-6: 15/36; hit 7-11: 20/36; critical 12: 1/36.
    const d = successRollDist(0, 0, CORE.successRoll);
    expect(d.probability('miss')).toEqual(fraction(15, 36));
    expect(d.probability('hit')).toEqual(fraction(20, 36));
    expect(d.probability('critical')).toEqual(fraction(1, 36));
  });

  it('attack: out of action = P(hit)·P(OOA | 2D6) + P(critical)·P(OOA | 3D6 keep 2) in core', () => {
    // 20/36 · 10/36 + 1/36 · P(3D6 keep 2 highest >= 9). P(keep-2-of-3 >= 9) from keepDice.
    const k3 = keepDice(3, 2, 6, 'highest');
    let w = 0n;
    for (const [s, ww] of k3.weights) if (s >= 9) w += ww;
    const expected = fraction(20n * 10n * 216n + 1n * w * 36n, 36n * 36n * 216n);
    expect(outcome({ kind: 'attack' }, 'out-of-action')).toEqual(expected);
  });

  it('Tough: out of action becomes down, unless Tough was already used', () => {
    const plain = evaluateExact(tc({ kind: 'injury' }));
    const tough = evaluateExact(tc({ kind: 'injury', tough: true }));
    const used = evaluateExact(tc({ kind: 'injury', tough: true, toughUsed: true }));
    expect(tough.outcomes.find((o) => o.outcome === 'out-of-action')!.exact).toBe('0');
    expect(tough.outcomes.find((o) => o.outcome === 'down')!.exact).toBe('7/12'); // 11/36 + 10/36
    expect(used.outcomes).toEqual(plain.outcomes);
    // A down result in full: 1 marker each for minor hit and down: (15 + 21)/36 = 1.
    expect(tough.means.expectedBloodMarkers!.exact).toBe('1');
  });

  it('blood markers: Down places 2 on a model already Down', () => {
    // Already down, ranged (no down bonus in core): minor 15/36 x1 + down 11/36 x2 = 37/36.
    const r = evaluateExact(tc({ kind: 'injury', attackType: 'ranged', targetDown: true }));
    expect(r.means.expectedBloodMarkers!.exact).toBe('37/36');
  });

  it('falls: none under 3 inches; +1 injury dice per full 3 inches', () => {
    expect(f(outcome({ kind: 'fall', heightInches: 2.9 }, 'no-effect'))).toBe('1');
    const three = tc({ kind: 'fall', heightInches: 3 });
    expect(planInjuryRoll(roll(three), false).netDice).toBe(1);
    expect(planInjuryRoll(roll(tc({ kind: 'fall', heightInches: 7 })), false).netDice).toBe(2);
    expect(planInjuryRoll(roll(tc({ kind: 'fall', heightInches: 8.9 })), false).netDice).toBe(2);
    expect(planInjuryRoll(roll(tc({ kind: 'fall', heightInches: 9 })), false).netDice).toBe(3);
    // A fall is not a melee attack: no down bonus in core even against a Down model.
    expect(planInjuryRoll(roll(tc({ kind: 'fall', heightInches: 3, targetDown: true })), false).netDice).toBe(1);
  });
});

const bareInjury = {
  injuryDice: fc.integer({ min: -4, max: 4 }),
  injuryModifier: fc.integer({ min: -3, max: 3 }),
  targetInjuryModifier: fc.integer({ min: -2, max: 0 }),
  bloodMarkersSpent: fc.integer({ min: 0, max: 3 }),
  targetDown: fc.boolean(),
  attackType: fc.constantFrom('melee', 'ranged'),
  tough: fc.boolean(),
  edition: fc.constantFrom('playtest', 'comprehensive', 'core'),
  kind: fc.constantFrom('injury', 'attack'),
};

describe('properties', () => {
  it('every distribution sums to exactly 1', () => {
    fc.assert(
      fc.property(fc.record(bareInjury), fc.constantFrom('none', 'standard', 'reinforced', 'machine'), (fields, armour) => {
        // evaluateExact itself asserts the sum; check again independently here.
        const r = evaluateExact(tc({ ...fields, armour }));
        let sum = fraction(0);
        for (const x of r.answer.outcomes) sum = fraction(sum.num * x.den + x.num * sum.den, sum.den * x.den);
        expect(f(sum)).toBe('1');
      }),
      { numRuns: 150 },
    );
  });

  it('more injury dice never lowers the chance of out of action', () => {
    fc.assert(
      fc.property(fc.record(bareInjury), (fields) => {
        const lower = outcome(fields, 'out-of-action');
        const higher = outcome({ ...fields, injuryDice: fields.injuryDice + 1 }, 'out-of-action');
        expect(compare(higher, lower)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 150 },
    );
  });

  it('heavier armour never raises the chance of out of action', () => {
    const order = [
      ['none', false],
      ['standard', false],
      ['reinforced', false],
      ['reinforced', true],
    ] as const;
    fc.assert(
      fc.property(fc.record(bareInjury), fc.integer({ min: 0, max: order.length - 2 }), (fields, i) => {
        const [a1, s1] = order[i]!;
        const [a2, s2] = order[i + 1]!;
        const lighter = outcome({ ...fields, armour: a1, shield: s1 }, 'out-of-action');
        const heavier = outcome({ ...fields, armour: a2, shield: s2 }, 'out-of-action');
        expect(compare(heavier, lighter)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 150 },
    );
  });

  it('the -3 cap holds for any combination (comprehensive and core)', () => {
    fc.assert(
      fc.property(
        fc.record({ ...bareInjury, edition: fc.constantFrom('comprehensive', 'core') }),
        fc.constantFrom('none', 'standard', 'reinforced', 'machine'),
        fc.boolean(),
        (fields, armour, shield) => {
          const sh = armour === 'machine' ? false : shield;
          const plan = planInjuryRoll(roll(tc({ ...fields, armour, shield: sh })), false);
          const positives = Math.max(fields.injuryModifier, 0);
          expect(plan.modifier).toBeGreaterThanOrEqual(-3 + positives);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('edition differences (each fails if the editions were swapped)', () => {
  it('Bloodbath: playtest and core keep 3 of the pool; the playtest may keep the die apart; comprehensive rejects it', () => {
    const play = injuryOutcomeDist(planInjuryRoll(roll(tc({ edition: 'playtest', kind: 'injury', bloodbath: true })), false));
    const core = injuryOutcomeDist(planInjuryRoll(roll(tc({ edition: 'core', kind: 'injury', bloodbath: true })), false));
    // 3D6 keep 3 in both. (Changed by ruling T10: the playtest used to add the D6 apart, which is
    // bloodbathDie "separate" now; with no injury dice the two readings agree anyway.)
    expect(play.probability('out-of-action')).toEqual(core.probability('out-of-action'));
    // With +1 injury dice both keep 3 of 4; the separate reading keeps 2 of 3, then adds a D6.
    const play1 = evaluateExact(tc({ edition: 'playtest', kind: 'injury', bloodbath: true, injuryDice: 1 }));
    const core1 = evaluateExact(tc({ edition: 'core', kind: 'injury', bloodbath: true, injuryDice: 1 }));
    const apart1 = evaluateExact(tc({ edition: 'playtest', kind: 'injury', bloodbath: true, injuryDice: 1, bloodbathDie: 'separate' }));
    const keep2of3plusD6 = keepDice(3, 2, 6, 'highest').plus(Dist.die(6));
    const keep3of4 = keepDice(4, 3, 6, 'highest');
    const p = (d: Dist<number>) => d.probabilityWhere((t) => t >= 9);
    expect(play1.outcomes.at(-1)!.exact).toBe(f(p(keep3of4)));
    expect(core1.outcomes.at(-1)!.exact).toBe(f(p(keep3of4)));
    expect(apart1.outcomes.at(-1)!.exact).toBe(f(p(keep2of3plusD6)));
    expect(apart1.outcomes.at(-1)!.exact).not.toBe(play1.outcomes.at(-1)!.exact);
    expect(() => tc({ edition: 'comprehensive', kind: 'injury', bloodbath: true })).toThrow(/bloodbath: true is not a rule of the comprehensive edition/);
  });

  it('Deadly: a 3-dice roll in core, 4 kept with Bloodbath (3 with deadlyBloodbathKeep 3); rejected elsewhere', () => {
    expect(planInjuryRoll(roll(tc({ kind: 'injury', deadly: true })), false).baseDice).toBe(3);
    expect(planInjuryRoll(roll(tc({ kind: 'injury', deadly: true, bloodbath: true })), false).baseDice).toBe(4);
    expect(planInjuryRoll(roll(tc({ kind: 'injury', deadly: true, bloodbath: true, deadlyBloodbathKeep: 3 })), false).baseDice).toBe(3);
    expect(() => tc({ edition: 'playtest', kind: 'injury', deadly: true })).toThrow(/deadly/);
  });

  it('Machine Armour with a shield: playtest the shield adds nothing; comprehensive and core reject', () => {
    const withShield = outcome({ edition: 'playtest', kind: 'injury', armour: 'machine', shield: true }, 'out-of-action');
    const without = outcome({ edition: 'playtest', kind: 'injury', armour: 'machine' }, 'out-of-action');
    expect(withShield).toEqual(without);
    for (const edition of ['comprehensive', 'core'])
      expect(() => tc({ edition, kind: 'injury', armour: 'machine', shield: true })).toThrow(/shield: true cannot be combined with armour "machine"/);
  });

  it('-3 cap: comprehensive and core cap the negatives; the playtest has no cap', () => {
    const fields = { kind: 'injury', armour: 'reinforced', shield: true, targetInjuryModifier: -1 };
    expect(planInjuryRoll(roll(tc({ ...fields, edition: 'playtest' })), false).modifier).toBe(-4);
    expect(planInjuryRoll(roll(tc({ ...fields, edition: 'comprehensive' })), false).modifier).toBe(-3);
    expect(planInjuryRoll(roll(tc({ ...fields, edition: 'core' })), false).modifier).toBe(-3);
    // Positives are added after the cap (default reading) or the net total is capped (option).
    const mixed = { kind: 'injury', armour: 'machine', targetInjuryModifier: -1, injuryModifier: 1 };
    expect(planInjuryRoll(roll(tc({ ...mixed, modifierCap: 'negative' })), false).modifier).toBe(-2);
    expect(planInjuryRoll(roll(tc({ ...mixed, modifierCap: 'net' })), false).modifier).toBe(-3);
  });

  it('Down target: playtest +1 dice on any injury roll; comprehensive and core on melee attacks only', () => {
    const ranged = { kind: 'injury', attackType: 'ranged', targetDown: true };
    expect(planInjuryRoll(roll(tc({ ...ranged, edition: 'playtest' })), false).netDice).toBe(1);
    expect(planInjuryRoll(roll(tc({ ...ranged, edition: 'comprehensive' })), false).netDice).toBe(0);
    expect(planInjuryRoll(roll(tc({ ...ranged, edition: 'core' })), false).netDice).toBe(0);
    expect(planInjuryRoll(roll(tc({ ...ranged, attackType: 'melee', edition: 'core' })), false).netDice).toBe(1);
  });

  it('critical success: +1 injury dice in comprehensive and core, none in the playtest chart', () => {
    expect(planInjuryRoll(roll(tc({ kind: 'attack', edition: 'playtest' })), true).netDice).toBe(0);
    expect(planInjuryRoll(roll(tc({ kind: 'attack', edition: 'comprehensive' })), true).netDice).toBe(1);
    expect(planInjuryRoll(roll(tc({ kind: 'attack', edition: 'core' })), true).netDice).toBe(1);
  });

  it('Blessing markers: core only', () => {
    expect(planInjuryRoll(roll(tc({ kind: 'injury', blessingMarkersSpent: 2 })), false).netDice).toBe(-2);
    expect(() => tc({ edition: 'comprehensive', kind: 'injury', blessingMarkersSpent: 1 })).toThrow(/blessingMarkersSpent: 1 is not allowed in the comprehensive edition/);
  });

  it('falls: comprehensive and core only', () => {
    expect(() => tc({ edition: 'playtest', kind: 'fall', heightInches: 6 })).toThrow(/kind: "fall" is not a rule of the playtest edition/);
    expect(outcome({ edition: 'comprehensive', kind: 'fall', heightInches: 6 }, 'out-of-action')).toEqual(
      outcome({ edition: 'comprehensive', kind: 'injury', attackType: 'ranged', injuryDice: 2 }, 'out-of-action'),
    );
  });
});
