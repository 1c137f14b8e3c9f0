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
import { attackDiceOf, successRollDist } from '../exact.js';
import { ABSORBED, type Row, type SequenceModel, type Transition, blessingLeftOf, buildModel, choiceCode, downOf, markersOf, stateIndex, successRowOf, toughLeftOf, transition } from '../sequence/model.js';

import { type DuelPlan, type DuelSide, hinders } from './plan.js';

export interface DuelResult {
  readonly aWins: Fraction;
  readonly bWins: Fraction;
  readonly undecided: Fraction;
  /** After each round r (index r - 1): the chance each side has won by then. */
  readonly decidedWithin: readonly { readonly round: number; readonly aWins: Fraction; readonly bWins: Fraction }[];
  /** Activations made (one is made when the duel is still on at its start), over all the rounds. */
  readonly expectedActivations: Fraction;
}

/** States of both models in one key: a's index (as b's attack packs it), then b's (as a's attack packs it). */
const STRIDE = 1 << 16;
const keyOf = (aIdx: number, bIdx: number) => aIdx * STRIDE + bIdx;
const aOf = (key: number) => Math.floor(key / STRIDE);
const bOf = (key: number) => key % STRIDE;

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
  /** The attack from (own, target) indexes, the opponent's hindering already taken off `own`. */
  attack(own: number, target: number): Transition;
}

/**
 * The attacks of one side. The opponent hinders with every marker on the attacker (policy hinder), and
 * the attacker spends every marker on the target on each injury roll (policy injury); spent markers go.
 */
function attackerOf(side: DuelSide, opponent: DuelSide, model: SequenceModel, opponentModel: SequenceModel, isA: boolean): Attacker {
  const rules = model.rules;
  const hindered_ = hinders(opponent, side);
  const s = model.scenario;
  const baseDice = attackDiceOf(s);
  // The success row with h markers spent against the attacker: h dice fewer.
  const rows = new Map<number, Row>();
  const hindered = (h: number): SequenceModel => {
    if (h === 0) return model;
    let row = rows.get(h);
    if (!row) {
      const dist = successRollDist(baseDice - h * rules.markers.ownRollDicePerMarker, s.attackModifier, rules.successRoll, s.criticalOn, s.autoHit);
      row = successRowOf(dist);
      rows.set(h, row);
    }
    const fixed = row;
    return { ...model, successRow: () => fixed };
  };
  const cache = new Map<number, Transition>();
  return {
    side,
    opponent,
    model,
    opponentModel,
    own: isA ? aOf : bOf,
    target: isA ? bOf : aOf,
    key: isA ? keyOf : (own, target) => keyOf(target, own),
    attack(own, target) {
      const h = hindered_ ? markersOf(own) : 0;
      const cacheKey = h * STRIDE + target;
      let t = cache.get(cacheKey);
      if (!t) {
        const spend = side.policy === 'injury' ? markersOf(target) : 0;
        const code = choiceCode(spend, false);
        t = transition(hindered(h), target, { a: 0, hit: code, crit: code }, model.cap);
        cache.set(cacheKey, t);
      }
      return t;
    },
  };
}

/** The attacker's index with its markers spent by the opponent's hindering. */
function afterHindering(attacker: Attacker, own: number): number {
  if (!hinders(attacker.opponent, attacker.side)) return own;
  return stateIndex(0, downOf(own), toughLeftOf(own), blessingLeftOf(own));
}

/** Whole-number weights over one denominator: the duel still on, by state. */
interface Weights {
  dist: Map<number, bigint>;
  den: bigint;
}

/**
 * One activation of `attacker`: it stands up (its opponent's model knows how the attacker's body
 * recovers at the start of its activation), then makes its attacks while the target stands. Returns the
 * weight (over the new denominator) of the duel it won.
 */
function activate(attacker: Attacker, state: Weights): bigint {
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
    const steps: { key: number; w: bigint; own: number; t: Transition }[] = [];
    let step = 1n;
    for (const [key, w] of live) {
      const own = afterHindering(attacker, attacker.own(key));
      const t = attacker.attack(attacker.own(key), attacker.target(key));
      steps.push({ key, w, own, t });
      if (t.den > step) step = t.den;
    }
    const next = new Map<number, bigint>();
    const put = (into: Map<number, bigint>, k: number, w: bigint) => into.set(k, (into.get(k) ?? 0n) + w);
    const nextEnded = new Map<number, bigint>();
    for (const [k, w] of ended) nextEnded.set(k, w * step);
    won *= step;
    for (const { w, own, t } of steps) {
      const scale = w * (step / t.den);
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

/** The duel's exact answer under fixed policies (none, injury, hinder). */
export function duelExact(setup: DuelPlan): DuelResult {
  const aOnB = buildModel(setup.a.attacking);
  const bOnA = buildModel(setup.b.attacking);
  const a = attackerOf(setup.a, setup.b, aOnB, bOnA, true);
  const b = attackerOf(setup.b, setup.a, bOnA, aOnB, false);
  const order = setup.first === 'a' ? [a, b] : [b, a];
  // a's body is the target of b's attacks, b's of a's.
  const state: Weights = { dist: new Map([[keyOf(bOnA.start, aOnB.start), 1n]]), den: 1n };
  // Won weights, each over the denominator of its time; scaled up as the denominator grows.
  let aWon = 0n;
  let bWon = 0n;
  // Activations made: the weight still on at each activation's start, over the denominator then.
  let activationsNum = 0n;
  const decided: { round: number; aNum: bigint; bNum: bigint; den: bigint }[] = [];
  for (let round = 1; round <= setup.rounds; round++) {
    for (const attacker of order) {
      let on = 0n;
      for (const w of state.dist.values()) on += w;
      const denBefore = state.den;
      const won = activate(attacker, state);
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
  };
}
