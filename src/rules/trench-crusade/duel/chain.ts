/**
 * The exact Trench Crusade duel (issue 24): two models take turns to activate, each attacking the other,
 * until one is Out of Action or the rounds run out. Blood markers cut both ways: the markers on a model
 * are its opponent's to spend, on injury rolls against it (+1 injury dice each) or on its own success
 * rolls (-1 dice each, rule markers.onOwnRolls).
 *
 * Each direction of attack is a sequence model (../sequence/model.ts): "a attacking b" is a's weapon
 * against b's body, and b's state (markers, Down, Tough left, blessing left) is packed as that model
 * packs a target. One attack is that model's own transition, so a duel's attack is the `attack` kind
 * by construction; only the success roll differs, by the dice the opponent's hindering takes away.
 *
 * The chain runs forward activation by activation with whole-number weights over one denominator per
 * attack (every probability is a count over a power of 6), as the sequence chain does, and reduces
 * fractions once at the end.
 */
import { type Fraction, fraction } from '../../../exact/fraction.js';
import type { DuelResult as DuelReportResult } from '../../duel-report.js';
import { attackDiceOf, successRollDist } from '../exact.js';
import { ABSORBED, type SequenceModel, type Transition, blessingLeftOf, choiceCode, downOf, markersOf, stateIndex, successRowOf, toughLeftOf, transition } from '../sequence/model.js';
import { duelModel } from './ledge.js';
import { type DuelPlan, type DuelSide, hinders } from './plan.js';

/** The shared duel result (../../duel-report.ts), with the markers each side spent on average. */
export interface DuelResult extends DuelReportResult {
  /** On its injury rolls (Bloodbaths included), and hindering the other. */
  readonly spent: { readonly [K in 'a' | 'b']: { readonly injury: Fraction; readonly hinder: Fraction } };
}

/** States of both models in one key: a's index (as b's attack packs it), then b's (as a's attack packs it). */
const STRIDE = 1 << 16;
export const keyOf = (aIdx: number, bIdx: number) => aIdx * STRIDE + bIdx;
export const aOf = (key: number) => Math.floor(key / STRIDE);
export const bOf = (key: number) => key % STRIDE;

/**
 * What the two sides decide at an attack, in the duel's state as the chain packs it (keyOf): how many
 * of the markers on the attacker its opponent spends against its success roll, and what the attacker
 * spends on a hit (c = 0) or a critical (c = 1) as an injury choice code (choiceCode: markers as dice,
 * and a Bloodbath). Fixed policies decide from the state alone; `optimal` looks its tables up
 * (./optimal.ts). `stage` counts attacks from the duel's start: activation * 8 + attack in it.
 */
export interface DuelDecisions {
  hinder(stage: number, key: number): number;
  injury(stage: number, key: number, c: number): number;
}

/** Room for the attacks of one activation in a stage number (at most 4; 8 keeps it a shift). */
export const STAGE_ATTACKS = 8;

/** The fixed policies' decisions: `hinder` spends every marker on the attacker, `injury` every one on the target. */
export function fixedDecisions(plan: DuelPlan, first: 'a' | 'b' = plan.first): DuelDecisions {
  const attackerIsA = (stage: number) => (Math.floor(stage / STAGE_ATTACKS) % 2 === 0) === (first === 'a');
  return {
    hinder(stage, key) {
      const aActs = attackerIsA(stage);
      const [attacker, opponent] = aActs ? [plan.a, plan.b] : [plan.b, plan.a];
      return hinders(opponent, attacker) ? markersOf(aActs ? aOf(key) : bOf(key)) : 0;
    },
    injury(stage, key) {
      const aActs = attackerIsA(stage);
      const attacker = aActs ? plan.a : plan.b;
      return attacker.policy === 'injury' ? choiceCode(markersOf(aActs ? bOf(key) : aOf(key)), false) : 0;
    },
  };
}

/** One side in the middle of its activation: who it is, who it attacks, and how its attacks go. */
interface Attacker {
  readonly side: DuelSide;
  readonly opponent: DuelSide;
  /** This side attacking the other: its weapon against the other's body, whose state it packs. */
  readonly model: SequenceModel;
  /** The other side attacking this one: it packs this side's body and knows how it stands up. */
  readonly opponentModel: SequenceModel;
  /** The attacker's own index and the target's, from a duel key. */
  own(key: number): number;
  target(key: number): number;
  key(own: number, target: number): number;
  /** The attack on `target` with h markers spent against the success roll, and the attacker's injury choices. */
  attack(h: number, target: number, hitCode: number, critCode: number): Transition;
  readonly isA: boolean;
}

/** The success row of `model`'s attacks with h of the attacker's markers spent against it: h dice fewer each (D1). */
export function hinderedModel(model: SequenceModel, h: number): SequenceModel {
  if (h === 0) return model;
  const s = model.scenario;
  const rules = model.rules;
  const row = successRowOf(successRollDist(attackDiceOf(s) - h * rules.markers.ownRollDicePerMarker, s.attackModifier, rules.successRoll, s.criticalOn, s.autoHit, s.criticalThreshold, s.rerollFailedSuccess));
  return { ...model, successRow: () => row };
}

function attackerOf(side: DuelSide, opponent: DuelSide, model: SequenceModel, opponentModel: SequenceModel, isA: boolean): Attacker {
  const models = new Map<number, SequenceModel>();
  const cache = new Map<number, Transition>();
  return {
    side,
    opponent,
    model,
    opponentModel,
    isA,
    own: isA ? aOf : bOf,
    target: isA ? bOf : aOf,
    key: isA ? keyOf : (own, target) => keyOf(target, own),
    attack(h, target, hitCode, critCode) {
      const cacheKey = ((h * 256 + hitCode) * 256 + critCode) * STRIDE + target;
      let t = cache.get(cacheKey);
      if (!t) {
        let m = models.get(h);
        if (!m) models.set(h, (m = hinderedModel(model, h)));
        t = transition(m, target, { a: 0, hit: hitCode, crit: critCode }, model.cap);
        cache.set(cacheKey, t);
      }
      return t;
    },
  };
}

/** An index with h markers fewer (spent). */
const spend = (idx: number, h: number) => (h === 0 ? idx : stateIndex(markersOf(idx) - h, downOf(idx), toughLeftOf(idx), blessingLeftOf(idx)));

/** Whole-number weights over one denominator: the duel still on, by state. */
interface Weights {
  dist: Map<number, bigint>;
  den: bigint;
  /** Markers spent so far, weighted, over den: by the attacker on injury rolls, by its opponent hindering; per side. */
  injurySpent: { a: bigint; b: bigint };
  hinderSpent: { a: bigint; b: bigint };
}

/**
 * One activation of `attacker`: it stands up (its opponent's model knows how the attacker's body
 * recovers at the start of its activation), then makes its attacks while the target stands. Returns the
 * weight (over the new denominator) of the duel it won.
 */
function activate(attacker: Attacker, state: Weights, decisions: DuelDecisions, activation: number): bigint {
  const standUp = attacker.opponentModel.activationStart;
  let live = new Map<number, bigint>();
  for (const [key, w] of state.dist) {
    const k = attacker.key(standUp(attacker.own(key)), attacker.target(key));
    live.set(k, (live.get(k) ?? 0n) + w);
  }
  // A RISKY string's miss ends the activation: those states wait out its other attacks here.
  let ended = new Map<number, bigint>();
  let won = 0n;
  for (let j = 0; j < attacker.side.attacksPerActivation; j++) {
    const stage = activation * STAGE_ATTACKS + j;
    const steps: { w: bigint; own: number; t: Transition; h: number }[] = [];
    let step = 1n;
    for (const [key, w] of live) {
      const h = decisions.hinder(stage, key);
      const own = spend(attacker.own(key), h);
      const target = attacker.target(key);
      const chosen = attacker.key(own, target);
      const t = attacker.attack(h, target, decisions.injury(stage, chosen, 0), decisions.injury(stage, chosen, 1));
      steps.push({ w, own, t, h });
      if (t.den > step) step = t.den;
    }
    const next = new Map<number, bigint>();
    const put = (into: Map<number, bigint>, k: number, w: bigint) => into.set(k, (into.get(k) ?? 0n) + w);
    const nextEnded = new Map<number, bigint>();
    for (const [k, w] of ended) nextEnded.set(k, w * step);
    won *= step;
    const me = attacker.isA ? 'a' : 'b';
    const them = attacker.isA ? 'b' : 'a';
    for (const k of ['a', 'b'] as const) {
      state.injurySpent[k] *= step;
      state.hinderSpent[k] *= step;
    }
    for (const { w, own, t, h } of steps) {
      const scale = w * (step / t.den);
      state.injurySpent[me] += scale * t.spent;
      state.hinderSpent[them] += w * step * BigInt(h);
      if (t.miss) put(nextEnded, attacker.key(own, t.miss.next), scale * t.miss.w);
      for (let e = 0; e < t.next.length; e++) {
        const v = scale * t.w[e]!;
        if (t.next[e] === ABSORBED) won += v;
        else put(next, attacker.key(own, t.next[e]!), v);
      }
    }
    state.den *= step;
    live = next;
    ended = nextEnded;
  }
  for (const [k, w] of ended) live.set(k, (live.get(k) ?? 0n) + w);
  state.dist = live;
  return won;
}

/**
 * The duel's exact answer under the sides' decisions: by default their fixed policies (none, injury,
 * hinder); the optimal policies' tables otherwise (./optimal.ts).
 */
export function duelExact(setup: DuelPlan, decisions: DuelDecisions = fixedDecisions(setup)): DuelResult {
  const aOnB = duelModel(setup.a, setup.b);
  const bOnA = duelModel(setup.b, setup.a);
  const a = attackerOf(setup.a, setup.b, aOnB, bOnA, true);
  const b = attackerOf(setup.b, setup.a, bOnA, aOnB, false);
  const order = setup.first === 'a' ? [a, b] : [b, a];
  // a's body is the target of b's attacks, b's of a's.
  const state: Weights = { dist: new Map([[keyOf(bOnA.start, aOnB.start), 1n]]), den: 1n, injurySpent: { a: 0n, b: 0n }, hinderSpent: { a: 0n, b: 0n } };
  // Won weights, each over the denominator of its time; scaled up as the denominator grows.
  let aWon = 0n;
  let bWon = 0n;
  // Activations made: the weight still on at each activation's start, over the denominator then.
  let activationsNum = 0n;
  const decided: { round: number; aNum: bigint; bNum: bigint; den: bigint }[] = [];
  for (let round = 1; round <= setup.rounds; round++) {
    for (const [turn, attacker] of order.entries()) {
      let on = 0n;
      for (const w of state.dist.values()) on += w;
      const denBefore = state.den;
      const won = activate(attacker, state, decisions, (round - 1) * 2 + turn);
      const grow = state.den / denBefore;
      activationsNum = activationsNum * grow + on * grow;
      aWon *= grow;
      bWon *= grow;
      if (attacker === a) aWon += won;
      else bWon += won;
    }
    decided.push({ round, aNum: aWon, bNum: bWon, den: state.den });
  }
  let left = 0n;
  for (const w of state.dist.values()) left += w;
  return {
    aWins: fraction(aWon, state.den),
    bWins: fraction(bWon, state.den),
    undecided: fraction(left, state.den),
    decidedWithin: decided.map((d) => ({ round: d.round, aWins: fraction(d.aNum, d.den), bWins: fraction(d.bNum, d.den) })),
    expectedActivations: fraction(activationsNum, state.den),
    spent: {
      a: { injury: fraction(state.injurySpent.a, state.den), hinder: fraction(state.hinderSpent.a, state.den) },
      b: { injury: fraction(state.injurySpent.b, state.den), hinder: fraction(state.hinderSpent.b, state.den) },
    },
  };
}
