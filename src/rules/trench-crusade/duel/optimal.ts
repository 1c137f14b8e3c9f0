/**
 * The duel's `optimal` policy (issue 24, rule 6): at every roll where a side may spend the markers on
 * its opponent, it chooses how many, and on what, to do best against an opponent who does the same. The
 * two decisions of an attack are made in turn with everything known (the opponent's hindering before
 * the success roll, the attacker's injury spending after it, knowing hit or critical), so the game has
 * perfect information and backward induction over the finite rounds solves it in pure decisions
 * (ruling D8). The payoff is P(a wins) - P(b wins): a maximises it, b minimises it (a win is worth 1, an
 * undecided duel 1/2, a loss 0, to each side).
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
  /** P(a wins) - P(b wins) under both sides' decisions, as the doubles of the search found it. */
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
      /** a's sign: the payoff of this side winning. */
      win: isA ? 1 : -1,
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

  let afterActivation = new Float64Array(keys); // V at the start of activation t + 1 (0 past the last)
  for (let t = activations - 1; t >= 0; t--) {
    const x = order[t % 2]!;
    const per = x.side.attacksPerActivation;
    let next = afterActivation; // V after attack j (the next attack's, or the next activation's)
    for (let j = per - 1; j >= 0; j--) {
      const stage = t * STAGE_ATTACKS + j;
      const missNext = x.model.risky ? afterActivation : next;
      const hTab = new Uint8Array(keys);
      const iTab = new Uint16Array(keys * 2);
      // I(c, key): the attacker's best injury choice from a state after the hindering.
      const injuryValue = new Float64Array(keys * 2).fill(Number.NaN);
      const best = (c: number, key: number): number => {
        const at = key * 2 + c;
        const known = injuryValue[at]!;
        if (!Number.isNaN(known)) return known;
        const own = x.own(key);
        const g = x.target(key);
        let bestValue = Number.NaN;
        let bestCode = 0;
        for (const code of x.codes(markersOf(g), downOf(g))) {
          const inj = x.injury(c, g, code);
          let v = 0;
          for (let e = 0; e < inj.next.length; e++) {
            const to = inj.next[e]!;
            v += inj.p[e]! * (to === ABSORBED ? x.win : next[x.key(own, to)]!);
          }
          // The attacker's choice: a maximises, b minimises; ties keep the fewest markers.
          if (Number.isNaN(bestValue) || (x.isA ? v > bestValue + 1e-12 : v < bestValue - 1e-12)) {
            bestValue = v;
            bestCode = code;
          }
        }
        injuryValue[at] = bestValue;
        iTab[at] = bestCode;
        return bestValue;
      };
      const current = new Float64Array(keys);
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
          let bestValue = Number.NaN;
          let bestH = first;
          for (let h = first; h <= last; h++) {
            const spent = h === 0 ? own : stateIndex(m - h, downOf(own), toughLeftOf(own), blessingLeftOf(own));
            const k = x.key(spent, g);
            const row = x.success(h);
            let v = row.p[0]! * missNext[k]!;
            if (row.p[1]! > 0) v += row.p[1]! * best(0, k);
            if (row.p[2]! > 0) v += row.p[2]! * best(1, k);
            // The opponent's choice: the opposite extreme of the attacker's.
            if (Number.isNaN(bestValue) || (x.isA ? v < bestValue - 1e-12 : v > bestValue + 1e-12)) {
              bestValue = v;
              bestH = h;
            }
          }
          current[key] = bestValue;
          hTab[x.key(own, g)] = bestH;
        }
      }
      hinderTab.set(stage, hTab);
      injuryTab.set(stage, iTab);
      next = current;
    }
    afterActivation = next;
  }
  const start = dp(bOnA.start, aOnB.start);
  const hinderAt = (stage: number, aIdx: number, bIdx: number) => hinderTab.get(stage)![dp(aIdx, bIdx)]!;
  const injuryAt = (stage: number, aIdx: number, bIdx: number, c: number) => injuryTab.get(stage)![dp(aIdx, bIdx) * 2 + c]!;
  return {
    value: afterActivation[start]!,
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
