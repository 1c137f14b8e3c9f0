/**
 * The exact d20 warband duel (issue 24): two units take turns, each turn Upkeep (the unit recovers one
 * step), its attack action on the other if it can act, and the end of the turn (Staggered clears),
 * until one is Incapacitated or the rounds run out (rulings DW1-DW10 in docs/rules.md).
 *
 * A state is both units' (injury state, wounds left); a step is one turn. The attack action is the
 * `attack` kind's exact chain (../exact.ts, solveAttack) started from the other unit as it is, with the
 * acting unit's disadvantage while it is Staggered; its results are exact (explosions summed in closed
 * form), so the duel is too. The chain runs forward turn by turn with whole-number weights over one
 * denominator (as the Trench Crusade duel chain does: reducing every sum cost most of the time) and
 * reduces once at the end; an Incapacitated unit ends it, won by the unit whose turn it was.
 */
import { type Fraction, ONE, ZERO, add, fraction, lcm, mul, sub } from '../../../exact/fraction.js';
import type { DuelResult } from '../../duel-report.js';
import { type AttackPlan, attackPlan, fallModifier, injuryRollResult, keptD20, passes, solveAttack } from '../exact.js';
import { DAZED, INCAPACITATED, NONE, STAGGERED, STUNNED, type Severity } from '../tables.js';
import { endOfTurn, upkeep } from '../sequence/rules.js';
import type { D20DuelPlan, D20DuelSide, Ledge } from './plan.js';

/** One unit as a number: its state and wounds left (wounds are at most 10). */
const unit = (state: Severity, wounds: number) => state * 64 + wounds;
const stateOf = (u: number) => Math.floor(u / 64) as Severity;
const woundsOf = (u: number) => u % 64;
/** Both units in one key: a's, then b's. */
const STRIDE = 512;
const keyOf = (a: number, b: number) => a * STRIDE + b;
const aOf = (k: number) => Math.floor(k / STRIDE);
const bOf = (k: number) => k % STRIDE;
const over = (k: number) => stateOf(aOf(k)) === INCAPACITATED || stateOf(bOf(k)) === INCAPACITATED;

/** The severity of an Injury Roll's row. */
const ROLL_SEVERITY = { 'no-effect': NONE, dazed: DAZED, stunned: STUNNED, incapacitated: INCAPACITATED } as const;

/**
 * A unit left Dazed or Stunned by an attack action by its ledge (ruling DW9): it makes an Agility Check,
 * and on a failure Falls: an Injury Roll with the fall's modifier, its state the more severe of the two.
 * `disadvantage`: the unit's checks are still rolled with disadvantage (it began the action Staggered).
 */
function byTheLedge(ledge: Ledge, state: Severity, wounds: number, disadvantage: boolean, rules: AttackPlan['rules']): Map<number, Fraction> {
  const out = new Map<number, Fraction>();
  const put = (u: number, p: Fraction) => out.set(u, add(out.get(u) ?? ZERO, p));
  const pass = keptD20(disadvantage ? -1 : 0).probabilityWhere((d) => passes(d, ledge.agility, rules));
  put(unit(state, wounds), pass);
  const roll = keptD20(0)
    .shift(fallModifier(ledge.heightInches, rules.fall))
    .map((total) => ROLL_SEVERITY[injuryRollResult(total, rules.injuryRollTable)]);
  for (const [result, w] of roll.weights) {
    const p = mul(sub(ONE, pass), fraction(w, roll.total));
    put(unit(result > state ? result : state, wounds), p);
  }
  return out;
}

/** One unit's attack actions on the other: where the other ends, from where it starts. */
interface Attacker {
  /** The other unit after this one's action, from the other as it is (`target`), this unit Staggered or not. */
  action(staggered: boolean, target: number): ReadonlyMap<number, Fraction>;
}

function attackerOf(side: D20DuelSide, targetLedge: Ledge | undefined): Attacker {
  const plans = [attackPlan(side.attacking), attackPlan(side.attackingStaggered)] as const;
  const staggerPersists = side.attacking.staggerPersists !== false;
  const cache = new Map<number, ReadonlyMap<number, Fraction>>();
  return {
    action(staggered, target) {
      const cacheKey = (staggered ? STRIDE : 0) + target;
      let dist = cache.get(cacheKey);
      if (dist) return dist;
      const plan = plans[staggered ? 1 : 0];
      const state = stateOf(target);
      // The other unit's Defence disadvantage while Staggered lasts the action that starts with it so
      // (the `attack` kind's rule 20, ruling DW6).
      const staggeredAllAction = staggerPersists && state === STAGGERED;
      const solved = solveAttack({ ...plan, startState: state, startWounds: woundsOf(target), staggeredAllAction });
      if (!targetLedge) {
        dist = solved.finals;
      } else {
        const out = new Map<number, Fraction>();
        for (const [f, p] of solved.finals) {
          const after = stateOf(f);
          // Left Dazed or Stunned by this action: it was neither before (in melee a Dazed unit is never Stunned).
          if (after !== state && (after === DAZED || after === STUNNED)) {
            for (const [g, q] of byTheLedge(targetLedge, after, woundsOf(f), staggeredAllAction, plan.rules)) out.set(g, add(out.get(g) ?? ZERO, mul(p, q)));
          } else {
            out.set(f, add(out.get(f) ?? ZERO, p));
          }
        }
        dist = out;
      }
      cache.set(cacheKey, dist);
      return dist;
    },
  };
}

/** The units at the start: each one's state and wounds, as the other's attack scenario holds them. */
function startKey(plan: D20DuelPlan): number {
  const body = (attackedBy: D20DuelSide) => unit(attackPlan(attackedBy.attacking).startState, attackedBy.attacking.wounds);
  return keyOf(body(plan.b), body(plan.a));
}

/** One turn from a state, over one denominator: where it goes, each with its weight out of `den`. */
interface Move {
  readonly next: readonly { readonly key: number; readonly w: bigint }[];
  readonly den: bigint;
}

function moveOf(next: ReadonlyMap<number, Fraction>): Move {
  let den = 1n;
  for (const p of next.values()) den = lcm(den, p.den);
  return { next: [...next].map(([key, p]) => ({ key, w: p.num * (den / p.den) })), den };
}

export function d20DuelExact(plan: D20DuelPlan): DuelResult {
  const a = attackerOf(plan.a, plan.b.ledge);
  const b = attackerOf(plan.b, plan.a.ledge);
  const aFirst = plan.first === 'a';
  /** Does unit a take turn t (from 1)? */
  const aTurn = (t: number) => (t % 2 === 1) === aFirst;
  const moves = new Map<number, Move>();
  const move = (k: number, isA: boolean): Move => {
    const cacheKey = isA ? -1 - k : k;
    let m = moves.get(cacheKey);
    if (m) return m;
    const own = isA ? aOf(k) : bOf(k);
    const other = isA ? bOf(k) : aOf(k);
    const put = (mine: number, theirs: number) => (isA ? keyOf(mine, theirs) : keyOf(theirs, mine));
    // Upkeep: Stunned to Dazed, Dazed to Staggered (ruling DW3).
    const ready = upkeep(stateOf(own));
    const after = unit(endOfTurn(ready), woundsOf(own));
    if (ready === DAZED || ready === STUNNED) {
      // "A Dazed unit cannot do anything except move 1"" (ruling DW4): no attack action.
      m = { next: [{ key: put(after, other), w: 1n }], den: 1n };
    } else {
      const next = new Map<number, Fraction>();
      for (const [f, p] of (isA ? a : b).action(ready === STAGGERED, other)) next.set(put(after, f), p);
      m = moveOf(next);
    }
    moves.set(cacheKey, m);
    return m;
  };

  // The duel still on, as whole-number weights over one denominator (no fraction is reduced on the
  // way: each turn multiplies the denominator by the lcm of its moves' denominators), as the Trench
  // Crusade duel chain keeps them; won weights and activations are scaled along.
  let dist = new Map<number, bigint>([[startKey(plan), 1n]]);
  let den = 1n;
  let aWon = 0n;
  let bWon = 0n;
  let activations = 0n;
  const decided: { round: number; a: bigint; b: bigint; den: bigint }[] = [];
  for (let t = 1; t <= 2 * plan.rounds; t++) {
    const isA = aTurn(t);
    let step = 1n;
    const dens = new Set<bigint>();
    for (const k of dist.keys()) dens.add(move(k, isA).den);
    for (const d of dens) step = lcm(step, d);
    const next = new Map<number, bigint>();
    let on = 0n;
    let won = 0n;
    for (const [k, w] of dist) {
      on += w;
      const m = move(k, isA);
      const scale = w * (step / m.den);
      for (const { key, w: q } of m.next) {
        const v = scale * q;
        // Only the unit whose turn it is can win in it: the other unit is the only one attacked.
        if (over(key)) won += v;
        else next.set(key, (next.get(key) ?? 0n) + v);
      }
    }
    // An activation is made in every state still on at the turn's start (ruling DW8).
    activations = (activations + on) * step;
    aWon = aWon * step + (isA ? won : 0n);
    bWon = bWon * step + (isA ? 0n : won);
    den *= step;
    dist = next;
    if (t % 2 === 0) decided.push({ round: t / 2, a: aWon, b: bWon, den });
  }
  let left = 0n;
  for (const w of dist.values()) left += w;
  return {
    aWins: fraction(aWon, den),
    bWins: fraction(bWon, den),
    undecided: fraction(left, den),
    decidedWithin: decided.map((d) => ({ round: d.round, aWins: fraction(d.a, d.den), bWins: fraction(d.b, d.den) })),
    expectedActivations: fraction(activations, den),
  };
}
