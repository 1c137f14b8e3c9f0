import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ONE, ZERO, add, compare, type Fraction } from '../src/exact/fraction.js';
import { parseScenario } from '../src/input/scenario.js';
import { resolveKind } from '../src/rules/registry.js';

const INCAPACITATED = 5; // index in the attack outcomes

function pIncapacitated(fields: Record<string, unknown>): Fraction {
  const s = parseScenario({ system: 'd20-warband', kind: 'attack', ...fields });
  return resolveKind(s).kind.exact!(s).outcomes[INCAPACITATED]!;
}

/** Attacks kept to 1-3 and wounds to 0-3 so each exact answer takes milliseconds. */
const attackFields = {
  stat: fc.integer({ min: 2, max: 20 }),
  modifier: fc.integer({ min: -3, max: 3 }),
  attacks: fc.integer({ min: 1, max: 3 }),
  wounds: fc.integer({ min: 0, max: 3 }),
  defence: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant('-')),
  defenceModifier: fc.integer({ min: -3, max: 3 }),
  pierce: fc.integer({ min: -3, max: 3 }),
  injury: fc.integer({ min: -6, max: 6 }),
  state: fc.constantFrom('none', 'staggered', 'dazed', 'stunned'),
  injuryTiming: fc.constantFrom('next-attack', 'end-of-action'),
  advantage: fc.boolean(),
  disadvantage: fc.boolean(),
  explode: fc.boolean(),
  stunnedDefends: fc.boolean(),
  staggerPersists: fc.boolean(),
  attackModifierToInjury: fc.boolean(),
};
// Melee with the default staggerPersists; the test below shows why the other reading is excluded.
const melee = fc.record({ ...attackFields, attackType: fc.constant('melee'), staggerPersists: fc.constant(true) });
const anyAttack = fc.record({ ...attackFields, attackType: fc.constantFrom('melee', 'ranged') });
const RUNS = { seed: 5, numRuns: 300 };

describe('d20 warband: monotonic properties of P(incapacitated)', () => {
  it('a better Melee stat never lowers it', () => {
    fc.assert(
      fc.property(melee, (f) => compare(pIncapacitated({ ...f, stat: f.stat - 1 }), pIncapacitated(f)) >= 0),
      RUNS,
    );
  });

  it('more Pierce never lowers it (melee and ranged)', () => {
    fc.assert(
      fc.property(anyAttack, (f) => compare(pIncapacitated({ ...f, pierce: f.pierce + 1 }), pIncapacitated(f)) >= 0),
      RUNS,
    );
  });

  it('more wounds never raise it (melee and ranged)', () => {
    fc.assert(
      fc.property(anyAttack, (f) => compare(pIncapacitated({ ...f, wounds: f.wounds + 1 }), pIncapacitated(f)) <= 0),
      RUNS,
    );
  });

  it('with staggerPersists: false melee is NOT monotone: a weak hit Dazes, and Dazed defends without disadvantage', () => {
    // Found by fast-check. Mel 9 turns a kept 9 into a hit that Dazes the Staggered target (9 + 1 + 2 = 12);
    // if Dazed replaces Staggered at once, its later Defence checks lose their disadvantage, and against
    // Def 1 that helps more than "a Dazed warrior [who] fails a Defence Check in Melee" costs.
    const base = {
      modifier: 1, attacks: 3, wounds: 0, defence: 1, injury: 2, state: 'staggered', advantage: true,
      explode: false, attackModifierToInjury: true, staggerPersists: false,
    };
    expect(compare(pIncapacitated({ ...base, stat: 9 }), pIncapacitated({ ...base, stat: 10 }))).toBeLessThan(0);
    // The default reading (the disadvantage runs "until the end of the current turn") keeps it monotone.
    const persists = { ...base, staggerPersists: true };
    expect(compare(pIncapacitated({ ...persists, stat: 9 }), pIncapacitated({ ...persists, stat: 10 }))).toBeGreaterThanOrEqual(0);
  });

  it('ranged is NOT monotone in the stat: a hit that Stuns a Dazed target costs the advantage', () => {
    // The literal rules: only attacks on Dazed units have advantage (000_…, Dazed), and a ranged Injury
    // Check never lessens an injury. Rgd 15 instead of 16 turns a 15 into a hit that Stuns the Dazed
    // target, so attack 2 loses its advantage and Incapacitates less often. Documented in docs/rules-d20.md.
    const base = { attackType: 'ranged', state: 'dazed', attacks: 2, wounds: 0, defence: 14, explode: true };
    expect(compare(pIncapacitated({ ...base, stat: 15 }), pIncapacitated({ ...base, stat: 16 }))).toBeLessThan(0);
  });
});

describe('d20 warband: every answer is a distribution', () => {
  it('attack outcomes and the wounds-lost histogram each sum to exactly 1', () => {
    fc.assert(
      fc.property(anyAttack, (f) => {
        const s = parseScenario({ system: 'd20-warband', kind: 'attack', ...f });
        const a = resolveKind(s).kind.exact!(s);
        const total = (xs: readonly Fraction[]) => xs.reduce(add, ZERO);
        return compare(total(a.outcomes), ONE) === 0 && a.histograms.every((h) => compare(total(h), ONE) === 0);
      }),
      { seed: 6, numRuns: 150 },
    );
  });

  it('check, injury-roll and fall outcomes sum to exactly 1', () => {
    const roll = fc.record({
      kind: fc.constantFrom('check', 'injury-roll', 'fall'),
      stat: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant('-')),
      modifier: fc.integer({ min: -20, max: 20 }),
      advantage: fc.boolean(),
      disadvantage: fc.boolean(),
      heightInches: fc.double({ min: 0, max: 100, noNaN: true }),
    });
    fc.assert(
      fc.property(roll, ({ kind, stat, heightInches, ...rest }) => {
        const fields: Record<string, unknown> = { system: 'd20-warband', kind, ...rest };
        if (kind === 'check') fields.stat = stat;
        if (kind === 'fall') fields.heightInches = heightInches;
        const s = parseScenario(fields);
        const a = resolveKind(s).kind.exact!(s);
        return compare(a.outcomes.reduce(add, ZERO), ONE) === 0;
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
