import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Fraction, add, compare, formatFraction, fraction, mul, sub } from '../src/exact/fraction.js';
import { evaluateExact } from '../src/evaluate.js';
import { exactJson } from '../src/present/tables/exact-json.js';
import { UsageError } from '../src/errors.js';
import { parseScenario } from '../src/input/scenario.js';
import type { Scenario } from '../src/model/types.js';

const tc = (fields: Record<string, unknown>): Scenario => parseScenario({ system: 'trench-crusade', ...fields });
const seq = (fields: Record<string, unknown>): Scenario => tc({ kind: 'sequence', ...fields });
const f = formatFraction;

/** Exact outcome of a scenario by id. */
function outcome(s: Scenario, id: string): Fraction {
  const r = evaluateExact(s);
  return r.answer.outcomes[r.layout.outcomes.indexOf(id)]!;
}
function mean(s: Scenario, id: string): Fraction {
  const r = evaluateExact(s);
  return r.answer.means[r.layout.means.findIndex((m) => m.id === id)]!;
}
function histogram(s: Scenario, id: string): Map<string, Fraction> {
  const r = evaluateExact(s);
  const h = r.layout.histograms.findIndex((x) => x.id === id);
  return new Map(r.layout.histograms[h]!.bins.map((b, i) => [b, r.answer.histograms[h]![i]!]));
}
const outWithin = (s: Scenario): Fraction => outcome(s, 'out-of-action');
/** A Down result, or (Tough) an out-of-action result turned into a Down in full. */
const endsDownOrStaysDown = (a: Scenario, tough: boolean): Fraction =>
  add(outcome(a, 'down'), tough ? outcome(a, 'out-of-action') : fraction(0));

describe('a one-attack sequence is the attack kind', () => {
  /**
   * With N = 1 the sequence makes exactly one `attack`. Its outcomes regroup the attack's: out of action
   * is out of action; a target that was standing ends Down on a Down result (and, if Tough, on an Out of
   * Action result), otherwise it is still standing; the markers it ends with are those it started with,
   * minus those spent, plus those placed.
   */
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['no markers, no armour', { policy: 'none' }, {}],
    ['machine armour, Tough', { policy: 'none', armour: 'machine', tough: true }, { armour: 'machine', tough: true }],
    ['all 3 markers spent', { policy: 'all', bloodMarkers: 3, armour: 'standard' }, { bloodMarkersSpent: 3, armour: 'standard' }],
    ['core Bloodbath with 6 markers', { policy: 'bloodbath', bloodMarkers: 6, armour: 'reinforced' }, { bloodbath: true, armour: 'reinforced' }],
    ['core Bloodbath against a Down target costs 3', { policy: 'bloodbath', bloodMarkers: 3, targetDown: true }, { bloodbath: true, targetDown: true }],
    ['playtest Bloodbath, ranged', { edition: 'playtest', policy: 'bloodbath', bloodMarkers: 6, attackType: 'ranged' }, { edition: 'playtest', bloodbath: true, attackType: 'ranged' }],
    ['playtest Bloodbath die apart, Down target', { edition: 'playtest', policy: 'bloodbath', bloodMarkers: 3, targetDown: true, bloodbathDie: 'separate' }, { edition: 'playtest', bloodbath: true, targetDown: true, bloodbathDie: 'separate' }],
    ['core Deadly Bloodbath keeping 3', { policy: 'bloodbath', bloodMarkers: 6, deadly: true, deadlyBloodbathKeep: 3, injuryDice: 1, armour: 'machine' }, { bloodbath: true, deadly: true, deadlyBloodbathKeep: 3, injuryDice: 1, armour: 'machine' }],
    ['blessing markers spent', { blessingPolicy: 'all', blessingMarkers: 2, policy: 'all', bloodMarkers: 1 }, { blessingMarkersSpent: 2, bloodMarkersSpent: 1 }],
    ['attack dice and modifiers', { attackDice: 1, attackModifier: -1, injuryDice: -1, injuryModifier: 2, deadly: true }, { attackDice: 1, attackModifier: -1, injuryDice: -1, injuryModifier: 2, deadly: true }],
  ];
  for (const [name, sFields, aFields] of cases) {
    it(name, () => {
      const s = seq({ attacks: 1, ...sFields });
      const a = tc({ kind: 'attack', ...aFields });
      const startDown = s.targetDown === true;
      const tough = s.tough === true;
      const ooa = outcome(a, 'out-of-action');
      const downResult = outcome(a, 'down');
      expect(f(outWithin(s))).toBe(f(tough ? fraction(0) : ooa));
      const endsDown = add(downResult, tough ? ooa : fraction(0));
      if (startDown) expect(f(outcome(s, 'down'))).toBe(f(sub(fraction(1), tough ? fraction(0) : ooa)));
      else expect(f(outcome(s, 'down'))).toBe(f(endsDown));
      // Markers: a miss spends none of them; an injury roll spends per the policy, then places its own.
      const m0 = s.bloodMarkers as number;
      const spent = s.policy === 'all' || s.policy === 'bloodbath' ? m0 : 0;
      const left = m0 - spent;
      const placedDown = startDown ? 2 : 1;
      const expected = new Map<string, Fraction>();
      const put = (m: number, p: Fraction) => expected.set(String(m), add(expected.get(String(m)) ?? fraction(0), p));
      put(m0, outcome(a, 'miss'));
      put(left, outcome(a, 'no-effect'));
      put(left + 1, outcome(a, 'minor-hit'));
      put(left + placedDown, endsDownOrStaysDown(a, tough));
      const markers = histogram(s, 'finalBloodMarkers');
      for (const [bin, p] of markers) if (bin !== 'out-of-action') expect(f(p), `markers ${bin}`).toBe(f(expected.get(bin) ?? fraction(0)));
    });
  }

  it('for random attack fields, policies none and all (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.record({
          edition: fc.constantFrom('playtest', 'comprehensive', 'core'),
          armour: fc.constantFrom('none', 'standard', 'reinforced', 'machine'),
          injuryDice: fc.integer({ min: -2, max: 2 }),
          injuryModifier: fc.integer({ min: -2, max: 2 }),
          attackDice: fc.integer({ min: -1, max: 1 }),
          targetDown: fc.boolean(),
          attackType: fc.constantFrom('melee', 'ranged'),
          markers: fc.integer({ min: 0, max: 4 }),
        }),
        ({ markers, ...fields }) => {
          const s = seq({ attacks: 1, policy: 'all', bloodMarkers: markers, ...fields });
          const a = tc({ kind: 'attack', bloodMarkersSpent: markers, ...fields });
          expect(f(outWithin(s))).toBe(f(outcome(a, 'out-of-action')));
          expect(f(mean(s, 'bloodMarkersSpent'))).toBe(f(mul(fraction(markers), sub(fraction(1), outcome(a, 'miss')))));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('hand-checked two-attack sequence', () => {
  it('core, no armour, melee, no critical bonus, policy none: P(out of action within 2) = 362047/1119744', () => {
    /*
     * Each attack: success 2D6 of 7+ hits, 21/36 (a 12 is a critical, but criticalInjuryDice 0 makes it a
     * plain hit). Injury against a standing target, 2D6: 2-6 minor 15/36, 7-8 down 11/36, 9+ out 10/36.
     * Against a Down target a melee attack adds +1 injury dice: 3D6 keep the 2 highest, whose totals
     * 9, 10, 11, 12 come up 36, 34, 27, 16 times in 216 (12: two or three sixes, 3 * 5 + 1 = 16), so
     * out of action 113/216.
     *
     * Attack 1, target standing:
     *   out of action             21/36 * 10/36              = 210/1296
     *   down                      21/36 * 11/36              = 231/1296
     *   still standing            15/36 + 21/36 * 15/36      = 855/1296
     * Attack 2:
     *   from standing: out        210/1296
     *   from Down:     out        21/36 * 113/216            = 2373/7776
     * P(out within 2) = 210/1296 + 855/1296 * 210/1296 + 231/1296 * 2373/7776
     *                 = (1632960 + 1077300 + 548163) / 10077696 = 3258423/10077696 = 362047/1119744.
     * Down at the end: 231/1296 * (1 - 2373/7776) + 855/1296 * 231/1296.
     */
    const s = seq({ attacks: 2, criticalInjuryDice: 0, policy: 'none' });
    expect(f(outWithin(s))).toBe('362047/1119744');
    const within = exactJson(evaluateExact(s)).outOfActionWithin as { attacks: number; exact: string }[];
    expect(within).toEqual([
      expect.objectContaining({ attacks: 1, exact: f(fraction(210, 1296)) }),
      expect.objectContaining({ attacks: 2, exact: '362047/1119744' }),
    ]);
    const down = add(mul(fraction(231, 1296), sub(fraction(1), fraction(2373, 7776))), mul(fraction(855, 1296), fraction(231, 1296)));
    expect(f(outcome(s, 'down'))).toBe(f(down));
  });

  it('unlimited attacks, ranged (no Down bonus), no critical bonus: expected attacks 1/p = 216/35', () => {
    // Every attack is alike: out of action 21/36 * 10/36 = 35/216, so attacks to out of action are
    // geometric with mean 216/35.
    const s = seq({ attacks: 3, criticalInjuryDice: 0, attackType: 'ranged' });
    expect(f(mean(s, 'attacksToOutOfAction'))).toBe('216/35');
    expect(exactJson(evaluateExact(s)).expectedAttacks).toEqual({ value: 216 / 35, exact: '216/35' });
  });

  it('a Tough target needs two out-of-action results: with ranged attacks the expectation doubles', () => {
    // Tough turns the first into Down (2 markers if already Down); ranged attacks get no Down bonus, so
    // each stage is the same geometric wait.
    const s = seq({ attacks: 3, criticalInjuryDice: 0, attackType: 'ranged', tough: true });
    expect(f(mean(s, 'attacksToOutOfAction'))).toBe('432/35');
  });
});

describe('the optimal policy', () => {
  const target = fc.record({
    edition: fc.constantFrom('playtest', 'comprehensive', 'core'),
    armour: fc.constantFrom('none', 'standard', 'reinforced', 'machine'),
    tough: fc.boolean(),
    bloodMarkers: fc.integer({ min: 0, max: 6 }),
    attacks: fc.integer({ min: 1, max: 6 }),
    injuryDice: fc.integer({ min: -1, max: 1 }),
    attacksPerActivation: fc.constantFrom('all', 1, 2),
    attackType: fc.constantFrom('melee', 'ranged'),
  });

  it('is never worse than all, none or bloodbath, compared as fractions (fast-check)', () => {
    fc.assert(
      fc.property(target, (fields) => {
        const best = outWithin(seq({ ...fields, policy: 'optimal' }));
        const others = ['all', 'none', ...(fields.edition === 'comprehensive' ? [] : ['bloodbath'])];
        for (const policy of others) expect(compare(best, outWithin(seq({ ...fields, policy })))).toBeGreaterThanOrEqual(0);
        // Its expected attacks with unlimited attacks are the fewest too.
        const e = (policy: string) => mean(seq({ ...fields, policy }), 'attacksToOutOfAction');
        for (const policy of others) expect(compare(e('optimal'), e(policy))).toBeLessThanOrEqual(0);
      }),
      { numRuns: 25 },
    );
  });

  it('prints its rules and reports its gains over all and none', () => {
    const r = evaluateExact(seq({ armour: 'machine', tough: true, policy: 'optimal' }));
    expect(r.notes.some((n) => n.startsWith('Optimal policy for 10 attacks'))).toBe(true);
    expect(r.notes.some((n) => n.startsWith('Optimal policy for unlimited attacks'))).toBe(true);
    const opt = r.extra.optimal as { versus: Record<string, { gain: { exact: string } }> };
    expect(Object.keys(opt.versus).sort()).toEqual(['all', 'bloodbath', 'none']);
    for (const v of Object.values(opt.versus)) expect(v.gain.exact.startsWith('-')).toBe(false);
  });

  it('with one attack left spends every marker on a non-Tough target (more dice never hurt)', () => {
    // One attack, 4 markers: the DP must agree with `all` exactly.
    const fields = { attacks: 1, bloodMarkers: 4, armour: 'machine' };
    expect(f(outWithin(seq({ ...fields, policy: 'optimal' })))).toBe(f(outWithin(seq({ ...fields, policy: 'all' }))));
  });
});

describe('sequence results', () => {
  it('outOfActionWithin rises to P(out of action) and the histograms sum to 1', () => {
    const s = seq({ attacks: 6, armour: 'standard', tough: true, policy: 'all', attacksPerActivation: 2 });
    const r = evaluateExact(s);
    const within = exactJson(r).outOfActionWithin as { attacks: number; probability: number }[];
    expect(within.map((w) => w.attacks)).toEqual([1, 2, 3, 4, 5, 6]);
    for (let i = 1; i < within.length; i++) expect(within[i]!.probability).toBeGreaterThanOrEqual(within[i - 1]!.probability);
    for (const h of r.answer.histograms) expect(f(h.reduce(add, fraction(0)))).toBe('1');
  });

  it('a cap of six markers (playtest) never shows seven', () => {
    const s = seq({ edition: 'playtest', attacks: 12, policy: 'none' });
    const bins = evaluateExact(s).layout.histograms[1]!.bins;
    expect(bins[bins.length - 1]).toBe('6');
  });

  it('standing up between activations removes the Down bonus and lowers the chance', () => {
    const one = outWithin(seq({ attacks: 4 }));
    const split = outWithin(seq({ attacks: 4, attacksPerActivation: 1 }));
    expect(compare(split, one)).toBeLessThan(0);
  });
});

describe('bad input', () => {
  const message = (fields: Record<string, unknown>): string => {
    try {
      seq(fields);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };
  it('attacks out of range or not whole', () => {
    expect(message({ attacks: 0 })).toBe('attacks: 0 is not allowed; allowed: a whole number from 1 to 50');
    expect(message({ attacks: 51 })).toBe('attacks: 51 is not allowed; allowed: a whole number from 1 to 50');
    expect(message({ attacks: 2.5 })).toBe('attacks: 2.5 is not allowed; allowed: a whole number from 1 to 50');
  });
  it('an unknown policy', () => {
    expect(message({ policy: 'greedy' })).toBe('policy: "greedy" is not allowed; allowed: none, all, bloodbath, optimal');
  });
  it('the bloodbath policy in the comprehensive edition', () => {
    expect(message({ edition: 'comprehensive', policy: 'bloodbath' })).toBe(
      'policy: "bloodbath" is not a policy of the comprehensive edition (001_920d0edf0f4b2e8e.txt has no Bloodbath; rule bloodbath.available is false); allowed: none, all, optimal',
    );
  });
  it('a blessing policy outside core, attack-roll markers outside playtest, markers over the cap', () => {
    expect(message({ edition: 'playtest', blessingPolicy: 'all' })).toMatch(/^blessingPolicy: "all" is not a policy of the playtest edition/);
    expect(message({ edition: 'comprehensive', blessingMarkers: 1 })).toMatch(/^blessingMarkers: 1 is not allowed in the comprehensive edition/);
    expect(message({ attackRollMarkers: 1 })).toMatch(/^attackRollMarkers: 1 is not allowed in the core edition/);
    expect(message({ edition: 'playtest', bloodMarkers: 7 })).toBe('bloodMarkers: 7 is more than the marker cap (markerCap 6); allowed: 0 to 6');
    expect(message({ attacksPerActivation: 'some' })).toBe('attacksPerActivation: "some" is not allowed; allowed: a whole number from 1 to 50, or "all"');
  });
  it('single-roll spending fields are not read by a sequence', () => {
    expect(message({ bloodMarkersSpent: 2 })).toMatch(/^bloodMarkersSpent: 2 is not read by kind "sequence"/);
  });
});
