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
import { ABSORBED, type Row, type SequenceModel, choiceBloodbath, choiceCode, choiceDice, downOf, markersOf, transition } from '../sequence/model.js';
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

/**
 * Every injury choice an attacker may make on one target state, for a hit or a critical, flattened:
 * choice i is `codes[i]`, and leads to `next[e]` (ABSORBED: Out of Action) with probability `p[e]` for
 * e from `start[i]` to `start[i + 1]`. Built once per solve and state, read in the search's hot loop
 * without a call or an allocation.
 */
interface InjuryChoices {
  readonly codes: Int32Array;
  readonly start: Int32Array;
  readonly next: Int32Array;
  readonly p: Float64Array;
}

/**
 * One side as the search sees it, as plain numbers and arrays: every side is an object of this one
 * shape and the hot loops below are top-level functions, so the optimiser sees one shape and one call
 * target at every site (closures made per solve and per side made V8 throw its optimised code away).
 */
export interface SearchSide {
  readonly side: DuelSide;
  /** Its attacks on the opponent: the opponent's body's states and transitions. */
  readonly model: SequenceModel;
  /** The same model under a success roll that always hits (c 0) or always makes a critical (c 1). */
  readonly pure: readonly [SequenceModel, SequenceModel];
  /** P(a wins) and P(b wins) when this side takes its opponent Out of Action. */
  readonly winA: number;
  readonly winB: number;
  /**
   * What the two chances are worth to this side when it chooses, the more the better: weightA * P(a wins) +
   * weightB * P(b wins). Margin: P(own) - P(other's); win: P(own). (Multiplying by 1, -1 and 0 is exact, so
   * the sums are those of pa - pb and pa alone.)
   */
  readonly weightA: number;
  readonly weightB: number;
  /** The search's key of this side's body index `own` and its target's `target`: own * ownStride + target * targetStride. */
  readonly ownStride: number;
  readonly targetStride: number;
  /** Its own body's index after it stands up at the start of its activation, by its index before. */
  readonly standUp: Int32Array;
  /** May the opponent hinder this side, and may it choose how much? */
  readonly hinderChoice: boolean;
  readonly hinderAll: boolean;
  /** Its success roll with h markers spent against it: miss, hit, critical at 3h, 3h + 1, 3h + 2. */
  readonly success: Float64Array;
  /** Per target index g and c (hit 0, critical 1), at 2g + c, filled as the search first reaches them. */
  readonly choices: (InjuryChoices | undefined)[];
  /** Each injury choice's transition from the fewest markers it can be made with, by target's low bits, c and choice (shiftedChoice). */
  readonly fewest: Map<number, ChoiceTransition>;
}

/** The injury choices `x` may make against a target with m markers, Down or not. */
export function injuryCodes(x: SearchSide, m: number, down: number): number[] {
  const policy = x.side.policy;
  if (policy === 'injury') return [choiceCode(m, false)];
  if (policy !== 'optimal') return [0];
  const out: number[] = [];
  const cost = x.model.bloodbathAllowed ? bloodbathCost(x.model.rules, down === 1) : Number.POSITIVE_INFINITY;
  for (let s = 0; s <= m; s++) {
    out.push(choiceCode(s, false));
    if (s + cost <= m) out.push(choiceCode(s, true));
  }
  return out;
}

/** One injury choice's transition as doubles: next indexes (ABSORBED: Out of Action) and their probabilities. */
export interface ChoiceTransition {
  readonly next: Int32Array;
  readonly p: Float64Array;
}

export function choiceTransition(x: SearchSide, c: number, g: number, code: number): ChoiceTransition {
  const t = transition(x.pure[c]!, g, { a: 0, hit: code, crit: code }, x.model.cap);
  return { next: Int32Array.from(t.next), p: Float64Array.from(t.w, (w) => approxRatio(w, t.den)) };
}

/**
 * The transition of one injury choice on target index g, as the same choice on the same target with
 * only the markers it spends moves it: nothing in an injury roll reads the markers left over, so with
 * no marker cap every next index is that one's moved by the markers' difference (8 indexes a marker),
 * and one exact transition serves every marker count (test/duel-optimal-speed.test.ts checks it against
 * the transition itself). With a cap, markers placed past it are lost, so each is its own.
 */
export function shiftedChoice(x: SearchSide, c: number, g: number, code: number): ChoiceTransition {
  if (x.model.cap !== Number.POSITIVE_INFINITY) return choiceTransition(x, c, g, code);
  const need = choiceDice(code) + (choiceBloodbath(code) ? x.model.bloodbathCost(downOf(g)) : 0);
  const fewest = need * 8 + (g & 7);
  const key = (fewest * 2 + c) * 65536 + code;
  let base = x.fewest.get(key);
  if (!base) x.fewest.set(key, (base = choiceTransition(x, c, fewest, code)));
  const shift = g - fewest;
  if (shift === 0) return base;
  const next = base.next.map((to) => (to === ABSORBED ? ABSORBED : to + shift));
  return { next, p: base.p };
}

/** Where each injury choice of `x` on target index g takes it, for a hit (c 0) or critical (c 1). */
function injuryChoices(x: SearchSide, c: number, g: number): InjuryChoices {
  const at = g * 2 + c;
  const known = x.choices[at];
  if (known) return known;
  const codes = injuryCodes(x, markersOf(g), downOf(g));
  const start = new Int32Array(codes.length + 1);
  const next: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < codes.length; i++) {
    const t = shiftedChoice(x, c, g, codes[i]!);
    for (let e = 0; e < t.next.length; e++) {
      next.push(t.next[e]!);
      p.push(t.p[e]!);
    }
    start[i + 1] = next.length;
  }
  const made = { codes: Int32Array.from(codes), start, next: Int32Array.from(next), p: Float64Array.from(p) };
  x.choices[at] = made;
  return made;
}

function searchSide(side: DuelSide, opponent: DuelSide, model: SequenceModel, opponentModel: SequenceModel, isA: boolean, margin: boolean, sizes: { own: number; strideB: number }): SearchSide {
  const standUp = new Int32Array(sizes.own);
  for (let idx = 0; idx < sizes.own; idx++) standUp[idx] = opponentModel.activationStart(idx);
  // The most markers its own body can carry: the most an opponent can spend hindering it.
  const mostHindered = (sizes.own >> 3) - 1;
  const success = new Float64Array((mostHindered + 1) * 3);
  for (let h = 0; h <= mostHindered; h++) success.set(hinderedModel(model, h).successRow(0).p, h * 3);
  return {
    side,
    model,
    pure: [0, 1].map((c) => ({ ...model, successRow: () => PURE[c]! })) as unknown as [SequenceModel, SequenceModel],
    winA: isA ? 1 : 0,
    winB: isA ? 0 : 1,
    weightA: isA ? 1 : margin ? -1 : 0,
    weightB: isA ? (margin ? -1 : 0) : 1,
    ownStride: isA ? sizes.strideB : 1,
    targetStride: isA ? 1 : sizes.strideB,
    standUp,
    hinderChoice: opponent.policy === 'optimal' && model.rules.markers.onOwnRolls,
    hinderAll: hinders(opponent, side),
    success,
    choices: [],
    fewest: new Map(),
  };
}

/**
 * The indexes one body can take in the duel, sorted: from its start, closed under the attacks on it
 * (every injury choice its attacker's policy allows, for a hit and a critical), its standing up at the
 * start of its own activations, and markers spent off it by any number (hindering). A superset of what
 * the chain reaches, so every state a searched state leads to is searched. It skips whole families of
 * indexes the packing has room for: a body without Tough never has Tough left, one without a blessing
 * never has one to spend (a quarter of the pairs for two such sides).
 */
function reachableBodies(attacker: SearchSide, owner: SearchSide, start: number, size: number): Int32Array {
  const seen = new Uint8Array(size);
  const stack = [start];
  seen[start] = 1;
  const visit = (g: number) => {
    if (g >= 0 && g < size && seen[g] === 0) {
      seen[g] = 1;
      stack.push(g);
    }
  };
  while (stack.length > 0) {
    const g = stack.pop()!;
    for (let c = 0; c < 2; c++) {
      const { next } = injuryChoices(attacker, c, g);
      for (let e = 0; e < next.length; e++) if (next[e] !== ABSORBED) visit(next[e]!);
    }
    visit(owner.standUp[g]!);
    for (let h = 1; h <= markersOf(g); h++) visit(g - 8 * h);
  }
  const out: number[] = [];
  for (let g = 0; g < size; g++) if (seen[g] === 1) out.push(g);
  return Int32Array.from(out);
}

/** What one attack's search reads and writes: the chances after it, and its tables. */
interface AttackStage {
  /** P(a wins), P(b wins) after the attack (the next attack's, or the next activation's). */
  readonly nextA: Float64Array;
  readonly nextB: Float64Array;
  /** The same after a miss: the next activation's for a risky attacker, whose miss ends its activation. */
  readonly missA: Float64Array;
  readonly missB: Float64Array;
  /** Out: P(a wins), P(b wins) before the attack, by the search's key. */
  readonly currentA: Float64Array;
  readonly currentB: Float64Array;
  /** Scratch: the chances under the attacker's best injury choice per (key after the hindering, c); NaN until found. */
  readonly injuryA: Float64Array;
  readonly injuryB: Float64Array;
  /** Out: the defender's hindering by the key after the attacker stood up, the attacker's injury choice by (key, c). */
  readonly hinder: Uint8Array;
  readonly injury: Uint16Array;
}

/** The attacker's best injury choice for a hit (c 0) or critical (c 1) from `key`: its place in injuryA and injuryB. */
function bestInjury(x: SearchSide, st: AttackStage, c: number, key: number, strideB: number): number {
  const at = key * 2 + c;
  if (!Number.isNaN(st.injuryA[at]!)) return at;
  const { nextA, nextB } = st;
  const own = x.ownStride === 1 ? key % strideB : Math.floor(key / strideB);
  const g = x.ownStride === 1 ? Math.floor(key / strideB) : key % strideB;
  const base = own * x.ownStride;
  const targetStride = x.targetStride;
  const { codes, start, next, p } = injuryChoices(x, c, g);
  let bestScore = Number.NaN;
  let bestA = 0;
  let bestB = 0;
  let bestCode = 0;
  for (let i = 0; i < codes.length; i++) {
    let pa = 0;
    let pb = 0;
    for (let e = start[i]!, end = start[i + 1]!; e < end; e++) {
      const to = next[e]!;
      const pe = p[e]!;
      if (to === ABSORBED) {
        pa += pe * x.winA;
        pb += pe * x.winB;
      } else {
        const k = base + to * targetStride;
        pa += pe * nextA[k]!;
        pb += pe * nextB[k]!;
      }
    }
    // The attacker's choice, for what it plays for; ties keep the fewest markers.
    const score = x.weightA * pa + x.weightB * pb;
    if (Number.isNaN(bestScore) || score > bestScore + 1e-12) {
      bestScore = score;
      bestA = pa;
      bestB = pb;
      bestCode = codes[i]!;
    }
  }
  st.injuryA[at] = bestA;
  st.injuryB[at] = bestB;
  st.injury[at] = bestCode;
  return at;
}

/**
 * One attack of x on d, every reachable state (a's body index below reachA, b's below reachB): the
 * defender's best hindering, then the attacker's best injury choice, for what each plays for.
 */
function searchAttack(x: SearchSide, d: SearchSide, st: AttackStage, first: boolean, bodiesA: Int32Array, reachA: number, bodiesB: Int32Array, reachB: number, strideB: number): void {
  const { missA, missB, currentA, currentB, injuryA, injuryB } = st;
  const success = x.success;
  const xIsA = x.ownStride !== 1;
  for (let ia = 0; ia < bodiesA.length; ia++) {
    const aIdx = bodiesA[ia]!;
    if (aIdx >= reachA) break;
    for (let ib = 0; ib < bodiesB.length; ib++) {
      const bIdx = bodiesB[ib]!;
      if (bIdx >= reachB) break;
      const key = aIdx * strideB + bIdx;
      // At an activation's start the attacker stands up first (its opponent's model knows how).
      const own0 = xIsA ? aIdx : bIdx;
      const own = first ? x.standUp[own0]! : own0;
      const g = xIsA ? bIdx : aIdx;
      const m = markersOf(own);
      const lo = x.hinderChoice ? 0 : x.hinderAll ? m : 0;
      const hi = x.hinderChoice ? m : lo;
      let bestScore = Number.NaN;
      let bestA = 0;
      let bestB = 0;
      let bestH = lo;
      for (let h = lo; h <= hi; h++) {
        // h markers spent off the attacker's body: the same state with h fewer markers (stateIndex's top bits).
        const k = (own - 8 * h) * x.ownStride + g * x.targetStride;
        const miss = success[h * 3]!;
        let pa = miss * missA[k]!;
        let pb = miss * missB[k]!;
        for (let c = 0; c < 2; c++) {
          const pc = success[h * 3 + c + 1]!;
          if (pc === 0) continue;
          const at = bestInjury(x, st, c, k, strideB);
          pa += pc * injuryA[at]!;
          pb += pc * injuryB[at]!;
        }
        // The defender's choice, for what it plays for; ties keep the fewest markers.
        const score = d.weightA * pa + d.weightB * pb;
        if (Number.isNaN(bestScore) || score > bestScore + 1e-12) {
          bestScore = score;
          bestA = pa;
          bestB = pb;
          bestH = h;
        }
      }
      currentA[key] = bestA;
      currentB[key] = bestB;
      st.hinder[own * x.ownStride + g * x.targetStride] = bestH;
    }
  }
}

/** The search's state space and its two sides (a attacks b's body, b attacks a's). */
export function searchSides(plan: DuelPlan) {
  const space = searchSpace(plan);
  const { aOnB, bOnA, sa, sb } = space;
  const margin = plan.objective === 'margin';
  const a = searchSide(plan.a, plan.b, aOnB, bOnA, true, margin, { own: sa, strideB: sb });
  const b = searchSide(plan.b, plan.a, bOnA, aOnB, false, margin, { own: sb, strideB: sb });
  return { ...space, a, b };
}

export function solveOptimalDuel(plan: DuelPlan): OptimalDuel {
  const { aOnB, bOnA, ma, mb, sa, sb, a, b } = searchSides(plan);
  const keys = sa * sb;
  const order = plan.first === 'a' ? [a, b] : [b, a];
  const activations = plan.rounds * 2;
  // a's body is attacked by b, and b's by a.
  const bodiesA = reachableBodies(b, a, bOnA.start, sa);
  const bodiesB = reachableBodies(a, b, aOnB.start, sb);

  // Decision tables per stage, indexed by the search's key: hindering after the attacker stood up,
  // injury choices (hit, critical) after the hindering.
  const hinderTab = new Map<number, Uint8Array>();
  const injuryTab = new Map<number, Uint16Array>();
  /**
   * The indexes each body can have before attack j of activation t: no more markers than it started with
   * and the most every attack on it so far placed (the whole bound only by the end). Only those states
   * are searched; the tables' other entries are never looked up.
   */
  const attacksBy = (side: SearchSide, t: number, j: number) => {
    let n = order[t % 2] === side ? j : 0;
    for (let u = 0; u < t; u++) if (order[u % 2] === side) n += side.side.attacksPerActivation;
    return n;
  };

  // Every attack's decision tables in one allocation each, a view per stage: thousands of fresh typed
  // arrays per solve cost more in allocation and collection than the search itself.
  const attacks = activations * Math.max(plan.a.attacksPerActivation, plan.b.attacksPerActivation);
  const hinderAll = new Uint8Array(attacks * keys);
  const injuryAll = new Uint16Array(attacks * keys * 2);
  let used = 0;
  // Buffers of chances by key, reused once no stage reads them (cleared when taken again).
  const free: Float64Array[] = [];
  const take = (): Float64Array => {
    const buffer = free.pop();
    return buffer ? buffer.fill(0) : new Float64Array(keys);
  };
  // P(a wins) and P(b wins) at the start of activation t + 1 (0 past the last).
  let afterA = take();
  let afterB = take();
  // Scratch of each attack, cleared for each.
  const injuryA = new Float64Array(keys * 2);
  const injuryB = new Float64Array(keys * 2);
  for (let t = activations - 1; t >= 0; t--) {
    const x = order[t % 2]!;
    // The defender, who chooses how much to hinder x's success rolls.
    const d = x === a ? b : a;
    const per = x.side.attacksPerActivation;
    let nextA = afterA;
    let nextB = afterB;
    for (let j = per - 1; j >= 0; j--) {
      injuryA.fill(Number.NaN);
      const st: AttackStage = {
        nextA,
        nextB,
        missA: x.model.risky ? afterA : nextA,
        missB: x.model.risky ? afterB : nextB,
        currentA: take(),
        currentB: take(),
        injuryA,
        injuryB,
        hinder: hinderAll.subarray(used * keys, (used + 1) * keys),
        injury: injuryAll.subarray(used * keys * 2, (used + 1) * keys * 2),
      };
      used++;
      const reachA = (Math.min(ma, markerBound(bOnA, attacksBy(b, t, j))) + 1) * 8;
      const reachB = (Math.min(mb, markerBound(aOnB, attacksBy(a, t, j))) + 1) * 8;
      searchAttack(x, d, st, j === 0, bodiesA, reachA, bodiesB, reachB, sb);
      const stage = t * STAGE_ATTACKS + j;
      hinderTab.set(stage, st.hinder);
      injuryTab.set(stage, st.injury);
      // The chances after this attack are read no more, unless they are the activation's end (a miss's).
      if (nextA !== afterA) free.push(nextA, nextB);
      nextA = st.currentA;
      nextB = st.currentB;
    }
    free.push(afterA, afterB);
    afterA = nextA;
    afterB = nextB;
  }
  const dp = (aIdx: number, bIdx: number) => aIdx * sb + bIdx;
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
