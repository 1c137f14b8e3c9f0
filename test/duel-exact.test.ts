import { describe, expect, it } from 'vitest';
import { type Fraction, ONE, ZERO, add, compare, formatFraction, fraction, mul, sub } from '../src/exact/fraction.js';
import { duelExact } from '../src/rules/trench-crusade/duel/chain.js';
import { solveOptimalDuel } from '../src/rules/trench-crusade/duel/optimal.js';
import { type Side, duelPlan } from './helpers/duel.js';
import type { DuelObjective } from '../src/rules/trench-crusade/duel/fields.js';

/**
 * Issue 24: the exact Trench Crusade duel, against a reference written from the rule files alone that
 * rolls every die of every roll (all 6^n faces) as a player would, memoised by the two models' states.
 */

function engine(a: Side, b: Side, first: 'a' | 'b', rounds: number, objective: DuelObjective = 'margin') {
  const plan = duelPlan(a, b, first, rounds, objective);
  const optimal = a.policy === 'optimal' || b.policy === 'optimal' ? solveOptimalDuel(plan) : undefined;
  return duelExact(plan, optimal?.decisions);
}

// ---- The reference: the core rules (004) and the Success Roll bands, die by die. ----

/** Counts of the sum of the `keep` kept dice (highest with extra dice, lowest with fewer) over all 6^(keep+|n|) rolls. */
const keptCache = new Map<string, { counts: Map<number, bigint>; den: bigint }>();
const keptTwo = (n: number) => kept(n, 2);
const keptThree = (n: number) => kept(n, 3);
function kept(n: number, keep: number): { counts: Map<number, bigint>; den: bigint } {
  let hit = keptCache.get(`${n}/${keep}`);
  if (hit) return hit;
  const pool = keep + Math.abs(n);
  const counts = new Map<number, bigint>();
  const faces = new Array<number>(pool).fill(1);
  for (;;) {
    const sorted = [...faces].sort((x, y) => x - y);
    const chosen = n >= 0 ? sorted.slice(pool - keep) : sorted.slice(0, keep);
    const sum = chosen.reduce((s, f) => s + f, 0);
    counts.set(sum, (counts.get(sum) ?? 0n) + 1n);
    let i = 0;
    while (i < pool && faces[i] === 6) faces[i++] = 1;
    if (i === pool) break;
    faces[i]!++;
  }
  hit = { counts, den: 6n ** BigInt(pool) };
  keptCache.set(`${n}/${keep}`, hit);
  return hit;
}

interface Body {
  readonly m: number;
  readonly down: boolean;
  readonly toughLeft: boolean;
}
interface Value {
  readonly a: Fraction;
  readonly b: Fraction;
  readonly activations: Fraction;
}
const NOTHING: Value = { a: ZERO, b: ZERO, activations: ZERO };
const scaled = (v: Value, p: Fraction): Value => ({ a: mul(v.a, p), b: mul(v.b, p), activations: mul(v.activations, p) });
const plus = (x: Value, y: Value): Value => ({ a: add(x.a, y.a), b: add(x.b, y.b), activations: add(x.activations, y.activations) });

function reference(a: Side, b: Side, first: 'a' | 'b', rounds: number, objective: DuelObjective = 'margin'): Value {
  const sides = { a, b };
  const memo = new Map<string, Value>();
  const order: ('a' | 'b')[] = first === 'a' ? ['a', 'b'] : ['b', 'a'];
  // Activation number t (0-based, 2 per round), attack j within it; bodies of a and b.
  const value = (t: number, j: number, bodyA: Body, bodyB: Body): Value => {
    if (t === 2 * rounds) return NOTHING;
    const who = order[t % 2]!;
    const other = who === 'a' ? 'b' : 'a';
    const me = sides[who];
    const them = sides[other];
    const key = JSON.stringify([t, j, bodyA, bodyB]);
    const known = memo.get(key);
    if (known) return known;
    let mine = who === 'a' ? bodyA : bodyB;
    const theirs = who === 'a' ? bodyB : bodyA;
    let v = NOTHING;
    if (j === 0) {
      // "A model that is Down stands back up when it is next Activated" (004); this activation is made.
      mine = { ...mine, down: false };
      v = { ...v, activations: ONE };
    }
    const bodies = (my: Body, their: Body): [Body, Body] => (who === 'a' ? [my, their] : [their, my]);
    // Under `optimal` a side picks the branch best for it, the first of the best (fewest markers): for the
    // margin, a the largest P(a wins) - P(b wins) and b the smallest; for the win, each its own largest chance.
    const pay = (chooser: 'a' | 'b', x: Value) => (objective === 'win' ? x[chooser] : chooser === 'a' ? sub(x.a, x.b) : sub(x.b, x.a));
    const pick = (chooser: 'a' | 'b', options: Value[]): Value => options.reduce((best, o) => (compare(pay(chooser, o), pay(chooser, best)) > 0 ? o : best));
    /** The attack once `hinder` of the markers on me are spent against my success roll (-1 dice each, removed). */
    const attackWith = (hinder: number): Value => {
      const me2 = { ...mine, m: mine.m - hinder };
      let w = NOTHING;
      const nextAttack = (their: Body): Value => {
        const [nA, nB] = bodies(me2, their);
        return j + 1 < (me.attacks ?? 1) ? value(t, j + 1, nA, nB) : value(t + 1, 0, nA, nB);
      };
      const success = keptTwo((me.attackDice ?? 0) - hinder);
      for (const [sum, count] of success.counts) {
        const p = fraction(count, success.den);
        // Success Roll: 2-6 a failure, 7-11 a success, 12 a critical (ruling T13).
        if (sum < 7) {
          w = plus(w, scaled(nextAttack(theirs), p));
          continue;
        }
        const critical = sum >= 12;
        /** The injury roll with `spent` markers as dice, as a Bloodbath (004: 6 markers, 3 against a Down target; 3 dice kept) or not. */
        const injuryWith = (spent: number, bloodbath: boolean): Value => {
          const cost = bloodbath ? (theirs.down ? 3 : 6) : 0;
          const target = { ...theirs, m: theirs.m - spent - cost };
          // Injury dice: the weapon's, +1 on a critical, +1 in melee against a Down target, +1 per marker spent.
          const dice = (me.injuryDice ?? 0) + (critical ? 1 : 0) + (target.down ? 1 : 0) + spent;
          const armour = them.armour === 'standard' ? -1 : 0;
          const injury = bloodbath ? keptThree(dice) : keptTwo(dice);
          const won: Value = who === 'a' ? { a: ONE, b: ZERO, activations: ZERO } : { a: ZERO, b: ONE, activations: ZERO };
          // "Place 1 Blood Marker next to the model and mark them as being Down. If the model is already Down, place 2" (004).
          const downResult = (body: Body): Body => ({ ...body, m: body.m + (body.down ? 2 : 1), down: true });
          /**
           * `body` taken Down. By a ledge, standing: "Take a Success Roll for the model before it is taken Down
           * ... If the roll is a Failure, the model Falls from the nearest ledge and is then taken Down" (004):
           * 2D6, 7+ a success; the fall's injury roll (001: 3" or more, +1 injury dice per full 3") with its
           * armour, its result in full, then the Down in full (ruling D9).
           */
          const takenDown = (body: Body): Value => {
            const ledge = them.ledge ?? 0;
            if (body.down || ledge === 0) return nextAttack(downResult(body));
            let v = NOTHING;
            const roll = keptTwo(0);
            for (const [sum, c] of roll.counts) {
              const p = fraction(c, roll.den);
              if (sum >= 7) {
                v = plus(v, scaled(nextAttack(downResult(body)), p));
                continue;
              }
              const fall = keptTwo(Math.floor(ledge / 3));
              for (const [kept, c2] of fall.counts) {
                const q = mul(p, fraction(c2, fall.den));
                const total = kept + armour;
                let after: Body | undefined;
                if (ledge < 3 || total < 2) after = body;
                else if (total < 7 || (total < 9 && them.standfast)) after = { ...body, m: body.m + 1 };
                else if (total < 9) after = downResult(body);
                else if (body.toughLeft) after = { ...downResult(body), toughLeft: false };
                v = plus(v, after ? scaled(nextAttack(downResult(after)), q) : scaled(won, q));
              }
            }
            return v;
          };
          let u = NOTHING;
          for (const [kept, c] of injury.counts) {
            const q = fraction(c, injury.den);
            const total = kept + (me.injuryModifier ?? 0) + armour;
            if (total < 2) u = plus(u, scaled(nextAttack(target), q));
            // STANDFAST: the table's Down is a Minor Hit.
            else if (total < 7 || (total < 9 && them.standfast)) u = plus(u, scaled(nextAttack({ ...target, m: target.m + 1 }), q));
            else if (total < 9) u = plus(u, scaled(takenDown(target), q));
            else if (target.toughLeft) u = plus(u, scaled(takenDown({ ...target, toughLeft: false }), q));
            else u = plus(u, scaled(won, q));
          }
          return u;
        };
        let chosen: Value;
        if (me.policy === 'injury') chosen = injuryWith(theirs.m, false);
        else if (me.policy === 'optimal') {
          const options: Value[] = [];
          for (let s = 0; s <= theirs.m; s++) {
            options.push(injuryWith(s, false));
            if (s + (theirs.down ? 3 : 6) <= theirs.m) options.push(injuryWith(s, true));
          }
          chosen = pick(who, options);
        } else chosen = injuryWith(0, false);
        w = plus(w, scaled(chosen, p));
      }
      return w;
    };
    // The opponent hinders with the markers on me: every one (hinder), or as many as serve it best (optimal).
    let attacked: Value;
    if (them.policy === 'hinder') attacked = attackWith(mine.m);
    else if (them.policy === 'optimal') attacked = pick(other, Array.from({ length: mine.m + 1 }, (_, h) => attackWith(h)));
    else attacked = attackWith(0);
    v = plus(v, attacked);
    memo.set(key, v);
    return v;
  };
  const start = (s: Side): Body => ({ m: s.bloodMarkers ?? 0, down: s.down ?? false, toughLeft: s.tough ?? false });
  return value(0, 0, start(a), start(b));
}

const show = (f: Fraction) => formatFraction(f);

describe('the Trench Crusade duel, exactly', () => {
  it('one activation by hand: a wins on a hit (20/36) or a critical (1/36) that takes b Out of Action', () => {
    const r = engine({}, {}, 'a', 1);
    // 2D6 of 9+ is 10/36 (sums 9, 10, 11, 12 in 4 + 3 + 2 + 1 ways); with the critical's +1 injury dice, the
    // best two of 3D6 make 9+ in 113 of 216 rolls (counted apart from this code: in Python,
    // sum(1 for r in product(range(1, 7), repeat=3) if sum(sorted(r)[1:]) >= 9) is 113).
    // b, if still standing, strikes back the same way.
    const threeKeepTwo = [...keptTwo(1).counts].filter(([s]) => s >= 9).reduce((n, [, c]) => n + c, 0n);
    expect(threeKeepTwo).toBe(113n);
    const aFirst = add(mul(fraction(20, 36), fraction(10, 36)), mul(fraction(1, 36), fraction(113, 216)));
    expect(show(r.decidedWithin[0]!.aWins)).toBe(show(aFirst));
    expect(show(r.bWins)).toBe(show(mul(sub(ONE, aFirst), aFirst)));
    // Activations: a's always, b's unless a won.
    expect(show(r.expectedActivations)).toBe(show(add(ONE, sub(ONE, aFirst))));
  });

  const cases: [string, Side, Side, 'a' | 'b', number][] = [
    ['plain against plain, 3 rounds', {}, {}, 'a', 3],
    ['b first, armour and injury dice', { armour: 'standard', injuryDice: 1 }, { attackDice: 1 }, 'b', 3],
    ['Tough in standard armour against two attacks an activation', { tough: true, armour: 'standard' }, { attacks: 2, injuryModifier: 1 }, 'a', 2],
    ['policy injury against a marked target', { policy: 'injury' }, { bloodMarkers: 2, down: true }, 'a', 2],
    ['policy hinder against an attacker carrying markers', { bloodMarkers: 3, attackDice: 1 }, { policy: 'hinder', tough: true }, 'a', 2],
    ['both spend: injury against hinder, Tough on both', { policy: 'injury', tough: true, bloodMarkers: 1 }, { policy: 'hinder', tough: true, attacks: 2 }, 'b', 2],
    // Ruling D9: ledges. A 4" drop adds one injury dice to the fall, a 7" drop two; Tough may save either roll.
    ['b by a 4-inch ledge', {}, { ledge: 4 }, 'a', 3],
    ['both by a 7-inch ledge, Tough and armour on b, b first', { ledge: 7, injuryDice: 1 }, { ledge: 7, tough: true, armour: 'standard' }, 'b', 2],
    ['a by a 9-inch ledge in STANDFAST armour against two attacks, spending on injury', { ledge: 9, standfast: true, tough: true }, { attacks: 2, policy: 'injury' }, 'a', 2],
  ];
  it('counts the markers each side spends: by hand for one round', () => {
    // a spends b's 2 markers on its first injury roll, made on a hit or a critical: 21 of 36 success rolls.
    const injury = engine({ policy: 'injury' }, { bloodMarkers: 2 }, 'a', 1);
    expect(show(injury.spent.a.injury)).toBe(show(mul(fraction(21, 36), fraction(2, 1))));
    expect(show(injury.spent.b.injury)).toBe('0');
    // b spends a's 3 markers against a's first success roll, always (a attacks first).
    const hinder = engine({ bloodMarkers: 3 }, { policy: 'hinder' }, 'a', 1);
    expect([show(hinder.spent.b.hinder), show(hinder.spent.a.hinder)]).toEqual(['3', '0']);
  });

  const optimalCases: [string, Side, Side, 'a' | 'b', number][] = [
    ['a optimal against b spending on injury, markers on both', { policy: 'optimal', bloodMarkers: 2, tough: true }, { policy: 'injury', bloodMarkers: 1 }, 'a', 2],
    // a goes first against a Down b in standard armour carrying 3 markers: a Bloodbath (3 against a Down
    // target, 3 dice kept) is among a's best choices here (the case fails if the search leaves it out).
    ['both optimal: hinder or injure, a Bloodbath in reach', { policy: 'optimal', bloodMarkers: 1 }, { policy: 'optimal', bloodMarkers: 3, down: true, armour: 'standard' }, 'a', 2],
    ['b optimal against a hindering', { policy: 'hinder', attackDice: 1, bloodMarkers: 1 }, { policy: 'optimal', bloodMarkers: 2, armour: 'standard' }, 'a', 2],
    ['both optimal, b by a 3-inch ledge', { policy: 'optimal', bloodMarkers: 1 }, { policy: 'optimal', bloodMarkers: 1, ledge: 3 }, 'b', 1],
  ];
  it('a ledge under 3 inches is a success roll and a harmless fall: the same duel as no ledge (001: no roll under 3")', () => {
    const none = engine({}, { tough: true }, 'a', 3);
    const low = engine({ ledge: 2 }, { tough: true, ledge: 2.5 }, 'a', 3);
    expect([show(low.aWins), show(low.bWins), show(low.expectedActivations)]).toEqual([show(none.aWins), show(none.bWins), show(none.expectedActivations)]);
  });

  it('one attack on a model by a 3-inch ledge, by hand', () => {
    // a's first activation (decidedWithin[0] counts wins by the end of round 1: a's only come from it).
    const r = engine({}, { ledge: 3 }, 'a', 1);
    // a wins in its activation by Out of Action on the attack (10/36 on a hit: 9+ on 2D6; 113/216 on a
    // critical), or by a Down (7-8: 11/36 on a hit; 2D6+1 keep two 7-8 on a critical: 61/216 - counted
    // apart: sum(1 for r in product(range(1,7),repeat=3) if 7 <= sum(sorted(r)[1:]) <= 8) is 61) followed by a
    // failed success roll (15/36) and a fall of 3" (one injury dice: 113/216 for 9+).
    const down = add(mul(fraction(20, 36), fraction(11, 36)), mul(fraction(1, 36), fraction(61, 216)));
    const out = add(mul(fraction(20, 36), fraction(10, 36)), mul(fraction(1, 36), fraction(113, 216)));
    const sixtyOne = [...keptTwo(1).counts].filter(([s]) => s >= 7 && s <= 8).reduce((n, [, c]) => n + c, 0n);
    expect(sixtyOne).toBe(61n);
    expect(show(r.decidedWithin[0]!.aWins)).toBe(show(add(out, mul(down, mul(fraction(15, 36), fraction(113, 216))))));
  });

  for (const [name, a, b, first, rounds] of optimalCases) {
    it(`optimal: the decisions found reach the game's value, by the die-by-die minimax: ${name}`, () => {
      const r = engine(a, b, first, rounds);
      const ref = reference(a, b, first, rounds);
      // The value P(a wins) - P(b wins) is the game's; the two sides' chances alone may differ with ties.
      expect(show(sub(r.aWins, r.bWins))).toBe(show(sub(ref.a, ref.b)));
      expect(show(add(add(r.aWins, r.bWins), r.undecided))).toBe('1');
    });
  }

  // Objective win (ruling D8): each optimal side plays for its own chance of winning alone. The game is no
  // longer zero-sum, so both chances are the reference's to the last digit, not their difference alone.
  const winCases: [string, Side, Side, 'a' | 'b', number][] = [
    ['a optimal for the win against b spending on injury, Tough and markers on both', { policy: 'optimal', tough: true, bloodMarkers: 2 }, { policy: 'injury', tough: true, bloodMarkers: 1 }, 'a', 2],
    ['both optimal for the win: hinder or injure, a Bloodbath in reach', { policy: 'optimal', bloodMarkers: 1 }, { policy: 'optimal', bloodMarkers: 3, down: true, armour: 'standard' }, 'a', 2],
    ['b optimal for the win against a hindering, b first', { policy: 'hinder', attackDice: 1, bloodMarkers: 1 }, { policy: 'optimal', bloodMarkers: 2, armour: 'standard' }, 'b', 2],
  ];
  for (const [name, a, b, first, rounds] of winCases) {
    it(`objective win: both chances are the die-by-die game's: ${name}`, () => {
      const r = engine(a, b, first, rounds, 'win');
      const ref = reference(a, b, first, rounds, 'win');
      expect([show(r.aWins), show(r.bWins)]).toEqual([show(ref.a), show(ref.b)]);
      expect(show(add(add(r.aWins, r.bWins), r.undecided))).toBe('1');
    });
  }

  it("objective win is a's best answer to a fixed opponent: no policy of a's wins more often, and here the margin's wins less", () => {
    const a: Side = { policy: 'optimal', tough: true, bloodMarkers: 2 };
    const b: Side = { policy: 'injury', tough: true, bloodMarkers: 1 };
    const win = engine(a, b, 'a', 2, 'win');
    for (const policy of ['none', 'injury', 'hinder'] as const) expect(compare(win.aWins, engine({ ...a, policy }, b, 'a', 2).aWins)).toBeGreaterThanOrEqual(0);
    // Playing for the margin, a hinders b and gives up a little of its own chance: what the objective is for.
    const margin = engine(a, b, 'a', 2, 'margin');
    expect(compare(win.aWins, margin.aWins)).toBeGreaterThan(0);
    expect(compare(sub(margin.aWins, margin.bWins), sub(win.aWins, win.bWins))).toBeGreaterThan(0);
  });

  for (const [name, a, b, first, rounds] of cases) {
    it(`equals the die-by-die reference: ${name}`, () => {
      const r = engine(a, b, first, rounds);
      const ref = reference(a, b, first, rounds);
      expect([show(r.aWins), show(r.bWins), show(r.expectedActivations)]).toEqual([show(ref.a), show(ref.b), show(ref.activations)]);
      expect(show(add(add(r.aWins, r.bWins), r.undecided))).toBe('1');
      // decidedWithin is cumulative and ends at the totals; each round's equals a shorter duel's totals.
      expect(show(r.decidedWithin[rounds - 1]!.aWins)).toBe(show(r.aWins));
      const shorter = engine(a, b, first, rounds - 1 || 1);
      expect(show(r.decidedWithin[Math.max(0, rounds - 2)]!.bWins)).toBe(show(shorter.bWins));
    });
  }
});
