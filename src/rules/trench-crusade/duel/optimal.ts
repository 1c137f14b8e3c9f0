/**
 * The duel's `optimal` policy (issue 24, rule 6): at every roll where a side may spend the markers on
 * its opponent, it chooses how many, and on what, to do best against an opponent who does the same. The
 * two decisions of an attack are made in turn with everything known (the opponent's hindering before
 * the success roll, the attacker's injury spending after it, knowing hit or critical), so the game has
 * perfect information and backward induction over the finite rounds solves it in pure decisions
 * (ruling D8). By default each side plays for its margin, P(own win) - P(other's win): the game is
 * zero-sum (a win is worth 1, an undecided duel 1/2, a loss 0, to each side). With the objective `win`
 * each plays for its own chance of winning alone; the game is then not zero-sum, so the search carries
 * both chances, P(a wins) and P(b wins), through every state, and each chooser weighs them its own way.
 *
 * The values are doubles; the decisions they pick are handed to the exact chain (./chain.ts), which
 * reports the resulting pair of policies in fractions, and to the simulator, which plays them. A side
 * whose policy is fixed keeps it: the optimal side then plays its best answer to it.
 */
import { approxRatio } from '../../../exact/fraction.js';
import { ABSORBED, type Row, type SequenceModel, blessingLeftOf, choiceCode, downOf, markersOf, stateIndex, toughLeftOf, transition } from '../sequence/model.js';
import { bloodbathCost } from '../sequence/rules.js';
import { type DuelDecisions, STAGE_ATTACKS, aOf, bOf, hinderedModel } from './chain.js';
import type { DuelPlan, DuelSide } from './plan.js';
import { duelModel } from './ledge.js';
import { hinders } from './plan.js';

/** Most duel states times attacks the search may visit (a few seconds per million on one core, the exact chain under the decisions included): past it the duel is refused (./sides.ts, checkDuel). */
export const OPTIMAL_STATE_BUDGET = 4_000_000;

export interface OptimalDuel {
  /** P(a wins) - P(b wins) under both sides' decisions, as the doubles of the search found it (whatever the objective). */
  readonly value: number;
  readonly decisions: DuelDecisions;
  /** The tables' own packing, for the simulator: a's body index times `strideB`, plus b's. */
  readonly strideB: number;
  readonly hinderAt: (stage: number, aIdx: number, bIdx: number) => number;
  readonly injuryAt: (stage: number, aIdx: number, bIdx: number, c: number) => number;
}

/** Rows that always hit (c = 0) or always make a critical (c = 1): what follows a success roll. */
const PURE: readonly Row[] = [0, 1].map((c) => ({ w: c === 0 ? [0n, 1n, 0n] : [0n, 0n, 1n], den: 1n, exp: 0, p: Float64Array.from(c === 0 ? [0, 1, 0] : [0, 0, 1]) }));

/** The most markers a side's body can carry in the duel: what it starts with, and the most every attack on it can place. */
function markerBound(attackingIt: SequenceModel, attacks: number): number {
  return Math.min(attackingIt.cap, attackingIt.startMarkers + attackingIt.mostPlaced * attacks);
}

/** The two directions of attack and the most markers each body can carry: the search's state space. */
function searchSpace(plan: DuelPlan) {
  const aOnB = duelModel(plan.a, plan.b);
  const bOnA = duelModel(plan.b, plan.a);
  const ma = markerBound(bOnA, plan.rounds * plan.b.attacksPerActivation);
  const mb = markerBound(aOnB, plan.rounds * plan.a.attacksPerActivation);
  return { aOnB, bOnA, ma, mb, sa: (ma + 1) * 8, sb: (mb + 1) * 8 };
}

/** Does the state space of the optimal search fit? (The message names the fields that make it smaller.) */
export function optimalSize(plan: DuelPlan): number {
  const { sa, sb } = searchSpace(plan);
  return sa * sb * plan.rounds * (plan.a.attacksPerActivation + plan.b.attacksPerActivation);
}

interface Injury {
  /** Next target indexes (ABSORBED: Out of Action) and their probabilities. */
  readonly next: Int32Array;
  readonly p: Float64Array;
}

export function solveOptimalDuel(plan: DuelPlan): OptimalDuel {
  const { aOnB, bOnA, ma, mb, sa, sb } = searchSpace(plan);
  const keys = sa * sb;
  const dp = (aIdx: number, bIdx: number) => aIdx * sb + bIdx;
  const margin = plan.objective === 'margin';

  /** One side as the search sees it. */
  const sideOf = (side: DuelSide, opponent: DuelSide, model: SequenceModel, opponentModel: SequenceModel, isA: boolean) => {
    const injuries = new Map<number, Injury>();
    const rows = new Map<number, Row>();
    return {
      side,
      opponent,
      model,
      opponentModel,
      isA,
      /** P(a wins) and P(b wins) when this side takes its opponent Out of Action. */
      winA: isA ? 1 : 0,
      winB: isA ? 0 : 1,
      /** What the two chances are worth to this side when it chooses: the more the better. */
      score: (pa: number, pb: number) => (isA ? (margin ? pa - pb : pa) : margin ? pb - pa : pb),
      own: (key: number) => (isA ? Math.floor(key / sb) : key % sb),
      target: (key: number) => (isA ? key % sb : Math.floor(key / sb)),
      key: (own: number, target: number) => (isA ? dp(own, target) : dp(target, own)),
      /** May the opponent hinder this side, and may it choose how much? */
      hinderChoice: opponent.policy === 'optimal' && model.rules.markers.onOwnRolls,
      hinderAll: hinders(opponent, side),
      /** The success row with h markers spent against it. */
      success(h: number): Row {
        let r = rows.get(h);
        if (!r) rows.set(h, (r = hinderedModel(model, h).successRow(0)));
        return r;
      },
      /** Where an injury roll on target index g takes it, for a hit (c 0) or critical (c 1) and choice `code`. */
      injury(c: number, g: number, code: number): Injury {
        const k = (g * 512 + code) * 2 + c;
        let inj = injuries.get(k);
        if (!inj) {
          const t = transition({ ...model, successRow: () => PURE[c]! }, g, { a: 0, hit: code, crit: code }, model.cap);
          inj = { next: Int32Array.from(t.next), p: Float64Array.from(t.w, (w) => approxRatio(w, t.den)) };
          injuries.set(k, inj);
        }
        return inj;
      },
      /** The injury choices this side may make against a target with m markers, Down or not. */
      codes(m: number, down: number): number[] {
        if (side.policy === 'injury') return [choiceCode(m, false)];
        if (side.policy !== 'optimal') return [0];
        const out: number[] = [];
        const cost = model.bloodbathAllowed ? bloodbathCost(model.rules, down === 1) : Number.POSITIVE_INFINITY;
        for (let s = 0; s <= m; s++) {
          out.push(choiceCode(s, false));
          if (s + cost <= m) out.push(choiceCode(s, true));
        }
        return out;
      },
    };
  };
  const a = sideOf(plan.a, plan.b, aOnB, bOnA, true);
  const b = sideOf(plan.b, plan.a, bOnA, aOnB, false);
  const order = plan.first === 'a' ? [a, b] : [b, a];
  const activations = plan.rounds * 2;

  // Decision tables per stage, indexed by the search's key: hindering after the attacker stood up,
  // injury choices (hit, critical) after the hindering.
  const hinderTab = new Map<number, Uint8Array>();
  const injuryTab = new Map<number, Uint16Array>();
  /**
   * The indexes each body can have before attack j of activation t: no more markers than it started with
   * and the most every attack on it so far placed (the whole bound only by the end). Only those states
   * are searched; the tables' other entries are never looked up.
   */
  const attacksBy = (side: typeof a, t: number, j: number) => {
    let n = order[t % 2] === side ? j : 0;
    for (let u = 0; u < t; u++) if (order[u % 2] === side) n += side.side.attacksPerActivation;
    return n;
  };
  const indexesAt = (t: number, j: number) => ({
    a: (Math.min(ma, markerBound(bOnA, attacksBy(b, t, j))) + 1) * 8,
    b: (Math.min(mb, markerBound(aOnB, attacksBy(a, t, j))) + 1) * 8,
  });

  // P(a wins) and P(b wins) at the start of activation t + 1 (0 past the last).
  let afterA = new Float64Array(keys);
  let afterB = new Float64Array(keys);
  for (let t = activations - 1; t >= 0; t--) {
    const x = order[t % 2]!;
    // The defender, who chooses how much to hinder x's success rolls.
    const d = x === a ? b : a;
    const per = x.side.attacksPerActivation;
    // The chances after attack j (the next attack's, or the next activation's).
    let nextA = afterA;
    let nextB = afterB;
    for (let j = per - 1; j >= 0; j--) {
      const stage = t * STAGE_ATTACKS + j;
      const missA = x.model.risky ? afterA : nextA;
      const missB = x.model.risky ? afterB : nextB;
      const hTab = new Uint8Array(keys);
      const iTab = new Uint16Array(keys * 2);
      // The chances under the attacker's best injury choice from a state after the hindering, per (key, c).
      const injuryA = new Float64Array(keys * 2).fill(Number.NaN);
      const injuryB = new Float64Array(keys * 2);
      /** Where the attacker's best injury choice for a hit (c 0) or critical (c 1) from `key` is kept in injuryA and injuryB. */
      const best = (c: number, key: number): number => {
        const at = key * 2 + c;
        if (!Number.isNaN(injuryA[at]!)) return at;
        const own = x.own(key);
        const g = x.target(key);
        let bestScore = Number.NaN;
        let bestA = 0;
        let bestB = 0;
        let bestCode = 0;
        for (const code of x.codes(markersOf(g), downOf(g))) {
          const inj = x.injury(c, g, code);
          let pa = 0;
          let pb = 0;
          for (let e = 0; e < inj.next.length; e++) {
            const to = inj.next[e]!;
            const p = inj.p[e]!;
            if (to === ABSORBED) {
              pa += p * x.winA;
              pb += p * x.winB;
            } else {
              const k = x.key(own, to);
              pa += p * nextA[k]!;
              pb += p * nextB[k]!;
            }
          }
          // The attacker's choice, for what it plays for; ties keep the fewest markers.
          const score = x.score(pa, pb);
          if (Number.isNaN(bestScore) || score > bestScore + 1e-12) {
            bestScore = score;
            bestA = pa;
            bestB = pb;
            bestCode = code;
          }
        }
        injuryA[at] = bestA;
        injuryB[at] = bestB;
        iTab[at] = bestCode;
        return at;
      };
      const currentA = new Float64Array(keys);
      const currentB = new Float64Array(keys);
      const reach = indexesAt(t, j);
      for (let aIdx = 0; aIdx < reach.a; aIdx++) {
        for (let bIdx = 0; bIdx < reach.b; bIdx++) {
          const key = dp(aIdx, bIdx);
          // At an activation's start the attacker stands up first (its opponent's model knows how).
          const own = j === 0 ? x.opponentModel.activationStart(x.own(key)) : x.own(key);
          const g = x.target(key);
          const m = markersOf(own);
          const first = x.hinderChoice ? 0 : x.hinderAll ? m : 0;
          const last = x.hinderChoice ? m : first;
          let bestScore = Number.NaN;
          let bestA = 0;
          let bestB = 0;
          let bestH = first;
          for (let h = first; h <= last; h++) {
            const spent = h === 0 ? own : stateIndex(m - h, downOf(own), toughLeftOf(own), blessingLeftOf(own));
            const k = x.key(spent, g);
            const row = x.success(h);
            let pa = row.p[0]! * missA[k]!;
            let pb = row.p[0]! * missB[k]!;
            for (let c = 0; c < 2; c++) {
              const p = row.p[c + 1]!;
              if (p === 0) continue;
              const at = best(c, k);
              pa += p * injuryA[at]!;
              pb += p * injuryB[at]!;
            }
            // The defender's choice, for what it plays for; ties keep the fewest markers.
            const score = d.score(pa, pb);
            if (Number.isNaN(bestScore) || score > bestScore + 1e-12) {
              bestScore = score;
              bestA = pa;
              bestB = pb;
              bestH = h;
            }
          }
          currentA[key] = bestA;
          currentB[key] = bestB;
          hTab[x.key(own, g)] = bestH;
        }
      }
      hinderTab.set(stage, hTab);
      injuryTab.set(stage, iTab);
      nextA = currentA;
      nextB = currentB;
    }
    afterA = nextA;
    afterB = nextB;
  }
  const start = dp(bOnA.start, aOnB.start);
  const hinderAt = (stage: number, aIdx: number, bIdx: number) => hinderTab.get(stage)![dp(aIdx, bIdx)]!;
  const injuryAt = (stage: number, aIdx: number, bIdx: number, c: number) => injuryTab.get(stage)![dp(aIdx, bIdx) * 2 + c]!;
  return {
    value: afterA[start]! - afterB[start]!,
    strideB: sb,
    hinderAt,
    injuryAt,
    // The chain's keys pack a's and b's indexes its own way (./chain.ts).
    decisions: {
      hinder: (stage, key) => hinderAt(stage, aOf(key), bOf(key)),
      injury: (stage, key, c) => injuryAt(stage, aOf(key), bOf(key), c),
    },
  };
}
