import { describe, expect, it } from 'vitest';
import { type Fraction, ONE, ZERO, add, div, formatFraction, fraction, mul, sub } from '../src/exact/fraction.js';
import { d20DuelExact } from '../src/rules/d20-warband/duel/chain.js';
import { type Unit, d20DuelPlan } from './helpers/d20-duel.js';

/**
 * Issue 24: the exact d20 warband duel, against a hand calculation and against a reference written from
 * the rule files alone (003 stats, 000 injury) and docs/rules.md DW1-DW10, which rolls every face of every
 * d20 (both dice of an advantage or disadvantage pair) as a player would, one attack after another.
 */

const engine = (a: Unit, b: Unit, first: 'a' | 'b', rounds: number) => d20DuelExact(d20DuelPlan(a, b, first, rounds));
const show = (f: Fraction) => formatFraction(f);
const f = (n: number, d: number) => fraction(n, d);

describe('the d20 duel, by hand', () => {
  it('one round of two default units (Mel 10, Def 10, 1 wound, 1 attack, explode), a first', () => {
    // a's attack on b, one d20 needing 10 (natural 1-4 fail, natural 20 hits and explodes); b's Defence
    // d20 needs 10 too, so b fails it on 1-9: 9/20. At 1 wound the hit that gets through takes b to 0
    // and the Injury Check is the attack die: 10-14 Dazed, 15-17 Stunned, 18-20 Incapacitated.
    //   Incapacitated: (18, 19 or 20) and Defence failed = 3/20 * 9/20 = 27/400
    //   Dazed:        (10-14) and Defence failed = 5/20 * 9/20 = 45/400; Stunned: 3/20 * 9/20 = 27/400
    //   again:        a 20 that b defends (1/20 * 11/20 = 11/400) leaves b as it was and owes a new attack
    // so each result is its share of the 389/400 that end the action: Incapacitated 27/389, Dazed 45/389,
    // Stunned 27/389, nothing 290/389.
    // b's turn: Upkeep first. Unhurt, b attacks as a did: 27/389. Dazed, b recovers to Staggered and
    // attacks with disadvantage: the lower of 2d20 is k with chance (41 - 2k)/400, so 18 or 19 or 20
    // is (5 + 3 + 1)/400 = 9/400, and a 20 on both dice that a defends (1/400 * 11/20 = 11/8000) comes
    // round again: (9/400 * 9/20) / (1 - 11/8000) = 81/7989. Stunned, b recovers only to Dazed, which
    // "cannot do anything except move 1"": no attack.
    const r = engine({}, {}, 'a', 1);
    const aWins = f(27, 389);
    const bWins = add(mul(f(290, 389), f(27, 389)), mul(f(45, 389), f(81, 7989)));
    expect(show(r.aWins)).toBe(show(aWins));
    expect(show(r.bWins)).toBe(show(bWins));
    expect(show(r.bWins)).toBe('21323925/402967823');
    expect(show(r.undecided)).toBe(show(sub(sub(ONE, aWins), bWins)));
    // Two turns begin unless a wins in the first.
    expect(show(r.expectedActivations)).toBe(show(add(ONE, sub(ONE, aWins))));
  });

  it('a unit that starts Stunned skips its turn and is attacked Dazed: with advantage, a failed Defence check Incapacitates it', () => {
    // a, first, recovers Stunned -> Dazed in its Upkeep and cannot attack. b attacks the Dazed a with
    // advantage: the higher of 2d20 is 10 or more in 1 - (9/20)^2 = 319/400, and a 20 in 39/400. a fails
    // its Defence check (Def 10) in 9/20 and is then Incapacitated, wounds or not. A 20 that a defends
    // (39/400 * 11/20 = 429/8000) owes b another attack on a still Dazed: (319/400 * 9/20) / (1 - 429/8000).
    const r = engine({ state: 'stunned', wounds: 0 }, {}, 'a', 1);
    expect(show(r.aWins)).toBe('0');
    expect(show(r.bWins)).toBe(show(div(mul(f(319, 400), f(9, 20)), sub(ONE, f(429, 8000)))));
    expect(show(r.bWins)).toBe('2871/7571');
    expect(show(r.expectedActivations)).toBe('2');
  });
});

// ---- The reference: the rule files, die by die. ----

type State = 'none' | 'staggered' | 'dazed' | 'stunned' | 'out';
const SEVERITY: readonly State[] = ['none', 'staggered', 'dazed', 'stunned', 'out'];
const worse = (x: State, y: State): State => (SEVERITY.indexOf(x) >= SEVERITY.indexOf(y) ? x : y);
interface Body {
  readonly state: State;
  readonly wounds: number;
}

/** Counts of the kept face over every roll: one d20 (0), the higher of two (1), the lower of two (-1). */
function kept(mode: -1 | 0 | 1): { counts: Map<number, number>; den: number } {
  const counts = new Map<number, number>();
  if (mode === 0) {
    for (let d = 1; d <= 20; d++) counts.set(d, 1);
    return { counts, den: 20 };
  }
  for (let d = 1; d <= 20; d++) {
    for (let e = 1; e <= 20; e++) {
      const k = mode > 0 ? Math.max(d, e) : Math.min(d, e);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  return { counts, den: 400 };
}
const modeOf = (advantage: boolean, disadvantage: boolean): -1 | 0 | 1 => (advantage === disadvantage ? 0 : advantage ? 1 : -1);
/** A check: natural 1-4 always fail, a natural 20 always passes, otherwise the stat or more. */
const checkPasses = (face: number, need: number) => face === 20 || (face > 4 && face >= need);

/**
 * x's attack action on y (body `start`), x Staggered or not: the distribution of y's body when it ends.
 * Attacks one at a time; a 20 owes one more; a hit meets a Defence check; a failed one costs a wound,
 * and at 0 the Injury Check is the attack die + Injury. Stunned: Incapacitated by a melee attack, no roll;
 * Dazed: advantage against it, and a failed Defence check Incapacitates it. Staggered at the start: its
 * Defence checks with disadvantage for the whole action. A 20 that changes nothing leaves the action where
 * it was, so its value V solves V = rest + stay * V.
 */
function action(x: Unit, y: Unit, start: Body, staggered: boolean): Map<string, Fraction> {
  const memo = new Map<string, Map<string, Fraction>>();
  const need = (x.stat ?? 10) - (x.modifier ?? 0);
  const defenceNeed = (y.defence ?? 10) - (y.defenceModifier ?? 0) + (x.pierce ?? 0);
  const solve = (owed: number, body: Body): Map<string, Fraction> => {
    const here = JSON.stringify(body);
    if (owed === 0 || body.state === 'out') return new Map([[here, ONE]]);
    if (body.state === 'stunned') return new Map([[JSON.stringify({ ...body, state: 'out' }), ONE]]);
    const key = `${owed}|${here}`;
    const known = memo.get(key);
    if (known) return known;
    const attack = kept(modeOf((x.advantage ?? false) || body.state === 'dazed', staggered));
    const defence = kept(start.state === 'staggered' || body.state === 'staggered' ? -1 : 0);
    let stay = ZERO;
    const rest = new Map<string, Fraction>();
    for (const [face, c] of attack.counts) {
      const p = f(c, attack.den);
      const next = owed - 1 + (face === 20 && (x.explode ?? true) ? 1 : 0);
      const results: [Fraction, Body][] = [];
      if (!(face === 20 || checkPasses(face, need))) results.push([p, body]);
      else {
        for (const [d, dc] of defence.counts) {
          const q = mul(p, f(dc, defence.den));
          if (checkPasses(d, defenceNeed)) results.push([q, body]);
          else if (body.state === 'dazed') results.push([q, { ...body, state: 'out' }]);
          else if (body.wounds > 1) results.push([q, { ...body, wounds: body.wounds - 1 }]);
          else {
            const total = face + (x.injury ?? 0);
            const injury: State = total >= 18 ? 'out' : total >= 15 ? 'stunned' : 'dazed';
            results.push([q, { state: worse(body.state, injury), wounds: 0 }]);
          }
        }
      }
      for (const [q, b] of results) {
        if (next === owed && JSON.stringify(b) === here) {
          stay = add(stay, q);
          continue;
        }
        for (const [g, r] of solve(next, b)) rest.set(g, add(rest.get(g) ?? ZERO, mul(q, r)));
      }
    }
    const out = new Map([...rest].map(([g, r]) => [g, div(r, sub(ONE, stay))] as const));
    memo.set(key, out);
    return out;
  };
  const finals = solve(x.attacks ?? 1, start);
  // The ledge: left Dazed or Stunned, an Agility Check (with disadvantage if it began the action
  // Staggered), and on a failure a Fall: d20 + 2 per full inch above 2, 12+ Dazed, 15+ Stunned, 18+ out.
  if (y.ledgeInches === undefined || y.ledgeInches < 2) return finals;
  const out = new Map<string, Fraction>();
  const put = (b: Body, p: Fraction) => out.set(JSON.stringify(b), add(out.get(JSON.stringify(b)) ?? ZERO, p));
  for (const [g, p] of finals) {
    const b = JSON.parse(g) as Body;
    if (b.state === start.state || (b.state !== 'dazed' && b.state !== 'stunned')) {
      put(b, p);
      continue;
    }
    const agility = kept(start.state === 'staggered' ? -1 : 0);
    for (const [d, c] of agility.counts) {
      const q = mul(p, f(c, agility.den));
      if (checkPasses(d, y.agility ?? 10)) {
        put(b, q);
        continue;
      }
      for (let roll = 1; roll <= 20; roll++) {
        const total = roll + 2 * Math.floor(y.ledgeInches - 2);
        const fall: State = total >= 18 ? 'out' : total >= 15 ? 'stunned' : total >= 12 ? 'dazed' : 'none';
        put({ ...b, state: worse(b.state, fall) }, mul(q, f(1, 20)));
      }
    }
  }
  return out;
}

interface Value {
  readonly a: Fraction;
  readonly b: Fraction;
  readonly activations: Fraction;
}

function reference(a: Unit, b: Unit, first: 'a' | 'b', rounds: number): Value {
  const units = { a, b };
  const order: ('a' | 'b')[] = first === 'a' ? ['a', 'b'] : ['b', 'a'];
  const memo = new Map<string, Value>();
  const turn = (t: number, bodyA: Body, bodyB: Body): Value => {
    if (t === 2 * rounds) return { a: ZERO, b: ZERO, activations: ZERO };
    const key = JSON.stringify([t, bodyA, bodyB]);
    const known = memo.get(key);
    if (known) return known;
    const who = order[t % 2]!;
    const other = who === 'a' ? 'b' : 'a';
    const mine = who === 'a' ? bodyA : bodyB;
    const theirs = who === 'a' ? bodyB : bodyA;
    const bodies = (m: Body, o: Body): [Body, Body] => (who === 'a' ? [m, o] : [o, m]);
    // Upkeep: "Stunned units will recover to Dazed", "Dazed units will recover to Staggered".
    const ready: State = mine.state === 'stunned' ? 'dazed' : mine.state === 'dazed' ? 'staggered' : mine.state;
    // The end of the turn: Staggered clears.
    const ended: Body = { ...mine, state: ready === 'staggered' ? 'none' : ready };
    let v: Value = { a: ZERO, b: ZERO, activations: ONE };
    const plus = (w: Value, p: Fraction) => {
      v = { a: add(v.a, mul(p, w.a)), b: add(v.b, mul(p, w.b)), activations: add(v.activations, mul(p, w.activations)) };
    };
    if (ready === 'dazed') plus(turn(t + 1, ...bodies(ended, theirs)), ONE);
    else {
      for (const [g, p] of action(units[who], units[other], theirs, ready === 'staggered')) {
        const hit = JSON.parse(g) as Body;
        if (hit.state === 'out') v = { ...v, [who]: add(v[who], p) };
        else plus(turn(t + 1, ...bodies(ended, hit)), p);
      }
    }
    memo.set(key, v);
    return v;
  };
  const start = (u: Unit): Body => ({ state: u.state ?? 'none', wounds: u.wounds ?? 1 });
  return turn(0, start(a), start(b));
}

describe('the d20 duel, exactly', () => {
  const cases: [string, Unit, Unit, 'a' | 'b', number][] = [
    ['two default units, 3 rounds', {}, {}, 'a', 3],
    ['b first, wounds, Injury and Pierce against two attacks and a better Defence', { stat: 8, wounds: 2, injury: 2 }, { attacks: 2, defence: 12, pierce: 1 }, 'b', 2],
    ['starting injured: a Dazed, b Staggered, b with advantage and no explosions', { state: 'dazed', wounds: 0, injury: 3 }, { state: 'staggered', wounds: 0, advantage: true, explode: false }, 'a', 3],
    ['by ledges: a Staggered by a 4" drop, b by a 2" one, b first', { state: 'staggered', wounds: 0, ledgeInches: 4, agility: 12 }, { ledgeInches: 2, injury: 1 }, 'b', 2],
    ['modifiers: Melee +2, Defence +1, two attacks each', { modifier: 2, attacks: 2, defenceModifier: 1 }, { stat: 12, attacks: 2, wounds: 2 }, 'a', 2],
  ];
  for (const [name, a, b, first, rounds] of cases) {
    it(`equals the die-by-die reference: ${name}`, () => {
      const r = engine(a, b, first, rounds);
      const ref = reference(a, b, first, rounds);
      expect([show(r.aWins), show(r.bWins), show(r.expectedActivations)]).toEqual([show(ref.a), show(ref.b), show(ref.activations)]);
      expect(show(add(add(r.aWins, r.bWins), r.undecided))).toBe('1');
      // decidedWithin is cumulative and ends at the totals; each round's equals a shorter duel's totals.
      expect(show(r.decidedWithin[rounds - 1]!.aWins)).toBe(show(r.aWins));
      const shorter = engine(a, b, first, rounds - 1);
      expect(show(r.decidedWithin[rounds - 2]!.bWins)).toBe(show(shorter.bWins));
    });
  }
});
