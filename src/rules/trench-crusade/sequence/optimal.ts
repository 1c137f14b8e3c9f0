/**
 * The `optimal` blood-marker policy, by dynamic programming over (markers, Down, Tough left, blessing
 * left, attacks left).
 *
 * The search runs in doubles, which is fast, and every decision the doubles cannot prove is settled in
 * exact arithmetic. The finite DP works on the chance the target survives (see REL for the error bound:
 * an option more than a relative 1e-12 worse in doubles is worse exactly); the expected-attacks search
 * evaluates each policy exactly and only takes an improvement that is clear in doubles or confirmed by
 * fractions (MARGIN).
 *
 * Three facts keep the exact comparisons rare and cheap. Values never get worse with more markers on the
 * target (the attacker can always leave the extra ones unspent), so of two options with the same outcome
 * probabilities the one that spends fewer markers is at least as good. An option whose every outcome
 * leads where Out of Action is impossible (or certain) has survival exactly 1 (or 0), known without
 * arithmetic. And every probability is a count over a power of six, so exact values are num / 6^exp and
 * need no gcd. Exact ties go to the option that spends the fewest markers.
 */
import { type Fraction, ONE, ZERO, add, compare, fraction, mul } from '../../../exact/fraction.js';
import { solveUnlimited, standsUpBefore, unlimitedStart, type UnlimitedValues } from './chain.js';
import {
  DOWN,
  HIT,
  MINOR,
  MISS,
  NO_EFFECT,
  OUT,
  type Decision,
  type Row,
  type SequenceModel,
  blessingLeftOf,
  choiceBloodbath,
  choiceCode,
  choiceDice,
  downOf,
  fixedDecision,
  markersOf,
  stateIndex,
  standUp,
  toughLeftOf,
} from './model.js';

/**
 * Relative gap below which two doubles are settled exactly. A survival chance is a sum of products of
 * non-negative terms; each probability carries at most 3 roundings (toNumber), each stage adds at most
 * 14 more (four products and sums per injury roll, three per attack), so after 50 stages the relative
 * error is under 700 * 2^-53 < 8e-14, and two values 1e-12 apart are apart in exact arithmetic too.
 */
const REL = 1e-12;
/** Survival chances this small may have lost relative precision to underflow; settle them exactly. */
const TINY = 1e-250;
/** Relative gap for the expected-attacks search (values >= 1, same error argument). */
const MARGIN = 1e-9;

/** An injury option: its code, markers it costs, its outcome row and where each outcome leads. */
interface Option {
  readonly code: number;
  readonly cost: number;
  readonly row: Row;
}

/** Options of an injury roll with m markers available, cheapest first (no Bloodbath before Bloodbath at equal cost). */
function injuryOptions(model: SequenceModel, m: number, d: number, bl: number, crit: number): Option[] {
  const blessingSpent = bl === 1 ? model.blessingMarkers : 0;
  const opts: Option[] = [];
  for (let s = 0; s <= m; s++) opts.push({ code: choiceCode(s, false), cost: s, row: model.injuryRow(crit, d, false, s, blessingSpent) });
  const bbCost = model.bloodbathCost(d);
  for (let s = 0; s + bbCost <= m; s++) opts.push({ code: choiceCode(s, true), cost: bbCost + s, row: model.injuryRow(crit, d, true, s, blessingSpent) });
  opts.sort((x, y) => x.cost - y.cost || (x.code & 1) - (y.code & 1));
  return opts;
}

/** Same outcome probabilities, exactly. */
function sameRow(x: Row, y: Row): boolean {
  if (x === y) return true;
  for (let i = 0; i < x.w.length; i++) if (x.w[i]! * y.den !== y.w[i]! * x.den) return false;
  return true;
}

/** Next states of an injury roll's four outcomes (or -1 where Out of Action ends the sequence). */
function injuryNext(cap: number, m2: number, d: number, tl: number): [number, number, number, number] {
  const placed = d === 1 ? 2 : 1;
  return [
    stateIndex(m2, d, tl, 0),
    stateIndex(Math.min(m2 + 1, cap), d, tl, 0),
    stateIndex(Math.min(m2 + placed, cap), 1, tl, 0),
    tl === 1 ? stateIndex(Math.min(m2 + placed, cap), 1, 0, 0) : -1,
  ];
}

export interface FiniteOptimal {
  /** States per stage: (maxMarkers + 1) * 8. */
  readonly stride: number;
  /** Markers on the attack roll, at k * stride + idx (idx after standing up), k = attacks left. */
  readonly attack: Int32Array;
  /** Injury choice code, at (k * stride + idx(m', d, tl, bl)) * 2 + crit, m' the markers left after the attack roll. */
  readonly inner: Int32Array;
  decide(k: number, idx: number): Decision;
}

const cache = new WeakMap<SequenceModel, FiniteOptimal>();

/**
 * Exact survival chances in the settling step: every probability here is a count over a power of six,
 * so a value is num / 6^exp, and sums and products never need a gcd.
 */
interface Pow6 {
  readonly num: bigint;
  readonly exp: number;
}
const P6_ZERO: Pow6 = { num: 0n, exp: 0 };
const P6_ONE: Pow6 = { num: 1n, exp: 0 };
const pow6: bigint[] = [1n];
function six(e: number): bigint {
  while (pow6.length <= e) pow6.push(pow6[pow6.length - 1]! * 6n);
  return pow6[e]!;
}
function p6Add(a: Pow6, b: Pow6): Pow6 {
  if (a.num === 0n) return b;
  if (b.num === 0n) return a;
  return a.exp >= b.exp ? { num: a.num + b.num * six(a.exp - b.exp), exp: a.exp } : { num: b.num + a.num * six(b.exp - a.exp), exp: b.exp };
}
/** w / 6^e times a. */
function p6Scale(w: bigint, e: number, a: Pow6): Pow6 {
  return { num: w * a.num, exp: e + a.exp };
}
function p6Compare(a: Pow6, b: Pow6): number {
  const l = a.exp >= b.exp ? a.num : a.num * six(b.exp - a.exp);
  const r = b.exp >= a.exp ? b.num : b.num * six(a.exp - b.exp);
  return l < r ? -1 : l > r ? 1 : 0;
}

/**
 * Candidates of one decision, in typed arrays reused across the whole DP (no allocation per decision):
 * the double value (survival chance) and the two facts known exactly about it.
 */
class Candidates {
  w = new Float64Array(16);
  canOut = new Uint8Array(16);
  canSurvive = new Uint8Array(16);
  count = 0;
  private near: number[] = [];

  reset(size: number): void {
    if (this.w.length < size) {
      this.w = new Float64Array(size * 2);
      this.canOut = new Uint8Array(size * 2);
      this.canSurvive = new Uint8Array(size * 2);
    }
    this.count = 0;
  }

  push(w: number, canOut: boolean, canSurvive: boolean): void {
    const i = this.count++;
    this.w[i] = w;
    this.canOut[i] = canOut ? 1 : 0;
    this.canSurvive[i] = canSurvive ? 1 : 0;
  }

  /**
   * The candidate of least survival chance (candidates come cheapest first). Doubles decide unless two
   * are within REL of each other; then the exact facts, dominance and `exact` (survival as num / 6^exp)
   * decide, exact ties going to the cheapest.
   */
  pick(rowOf: (i: number) => Row, exact: (i: number) => Pow6): number {
    const n = this.count;
    // Survival impossible: exactly 0, the least there is.
    for (let i = 0; i < n; i++) if (this.canSurvive[i] === 0) return i;
    let best = Infinity;
    for (let i = 0; i < n; i++) if (this.w[i]! < best) best = this.w[i]!;
    const bound = best * (1 + REL) + TINY;
    let first = -1;
    let nearCount = 0;
    for (let i = 0; i < n; i++) if (this.w[i]! <= bound) (nearCount++, first < 0 && (first = i));
    if (nearCount === 1) return first;
    let near = this.near;
    near.length = 0;
    for (let i = 0; i < n; i++) if (this.w[i]! <= bound) near.push(i);
    // Out of Action impossible: survival exactly 1, worse than any candidate where it can happen.
    if (!near.some((i) => this.canOut[i] === 1)) return near[0]!;
    near = near.filter((i) => this.canOut[i] === 1);
    const kept: number[] = [];
    for (const i of near) if (!kept.some((k) => sameRow(rowOf(k), rowOf(i)))) kept.push(i);
    if (kept.length === 1) return kept[0]!;
    let chosen = kept[0]!;
    let bestExact = exact(chosen);
    for (let j = 1; j < kept.length; j++) {
      const v = exact(kept[j]!);
      if (p6Compare(v, bestExact) < 0) {
        bestExact = v;
        chosen = kept[j]!;
      }
    }
    return chosen;
  }
}

/**
 * The policy that maximises P(Out of Action within N attacks), i.e. minimises the chance the target
 * survives them. The DP works on that survival chance W rather than on 1 - W: it is a sum of products of
 * non-negative numbers, so its doubles carry a small *relative* error (under 1e-13 after fifty stages)
 * even when W is tiny, which is where a hoarding attacker's options differ.
 */
export function optimalFinite(model: SequenceModel): FiniteOptimal {
  const hit = cache.get(model);
  if (hit) return hit;
  const n = model.attacks;
  const cap = model.cap;
  const maxM = model.maxMarkers;
  const stride = (maxM + 1) * 8;
  const attack = new Int32Array((n + 1) * stride);
  const inner = new Int32Array((n + 1) * stride * 2);
  const tl0 = toughLeftOf(model.start);
  const bl0 = blessingLeftOf(model.start);
  // Survival chance with k - 1 attacks left, and whether Out of Action / survival are possible at all.
  let wPrev = new Float64Array(stride).fill(1);
  let outPrev = new Uint8Array(stride);
  let survPrev = new Uint8Array(stride).fill(1);
  const exactMemo: Map<number, Pow6>[] = [new Map()];
  const optionCache = new Map<number, Option[]>();
  const optionsFor = (m: number, d: number, bl: number, crit: number): Option[] => {
    const key = ((m * 2 + d) * 2 + bl) * 2 + crit;
    let opts = optionCache.get(key);
    if (!opts) optionCache.set(key, (opts = injuryOptions(model, m, d, bl, crit)));
    return opts;
  };

  const decide = (k: number, idx: number): Decision => {
    const m = markersOf(idx);
    const a = attack[k * stride + idx]!;
    const key = (k * stride + stateIndex(m - a, downOf(idx), toughLeftOf(idx), blessingLeftOf(idx))) * 2;
    return { a, hit: inner[key]!, crit: inner[key + 1]! };
  };

  // Exact survival chance with k attacks left from state idx (before standing up), under settled decisions.
  const exactW = (k: number, idx: number): Pow6 => {
    if (k === 0) return P6_ONE;
    const memo = exactMemo[k]!;
    const known = memo.get(idx);
    if (known) return known;
    const at = standsUpBefore(model, n - k + 1) ? standUp(idx) : idx;
    const v = exactAttack(k, at, decide(k, at).a);
    memo.set(idx, v);
    return v;
  };
  const exactInner = (k: number, m: number, d: number, tl: number, opt: Option): Pow6 => {
    const next = injuryNext(cap, m - opt.cost, d, tl);
    let v = P6_ZERO;
    for (let o = NO_EFFECT; o <= OUT; o++) {
      const w = opt.row.w[o]!;
      if (w === 0n || next[o]! < 0) continue;
      v = p6Add(v, p6Scale(w, opt.row.exp, exactW(k - 1, next[o]!)));
    }
    return v;
  };
  const settledOption = (k: number, m: number, d: number, tl: number, bl: number, crit: number): Option => {
    const code = inner[(k * stride + stateIndex(m, d, tl, bl)) * 2 + crit]!;
    return optionsFor(m, d, bl, crit).find((o) => o.code === code)!;
  };
  const exactAttack = (k: number, at: number, a: number): Pow6 => {
    const m = markersOf(at) - a;
    const d = downOf(at);
    const tl = toughLeftOf(at);
    const bl = blessingLeftOf(at);
    const sr = model.successRow(a);
    let v = P6_ZERO;
    if (sr.w[MISS] !== 0n) v = p6Add(v, p6Scale(sr.w[MISS]!, sr.exp, exactW(k - 1, stateIndex(m, d, tl, bl))));
    for (let c = 0; c < 2; c++) {
      if (sr.w[HIT + c] === 0n) continue;
      v = p6Add(v, p6Scale(sr.w[HIT + c]!, sr.exp, exactInner(k, m, d, tl, settledOption(k, m, d, tl, bl, c))));
    }
    return v;
  };

  const innerW = new Float64Array(stride * 2);
  const innerOut = new Uint8Array(stride * 2);
  const innerSurv = new Uint8Array(stride * 2);
  const cands = new Candidates();
  for (let k = 1; k <= n; k++) {
    const j = n - k + 1;
    const stand = standsUpBefore(model, j);
    const mj = Math.min(maxM, model.startMarkers + 2 * (j - 1));
    exactMemo[k] = new Map();
    const wCur = new Float64Array(stride).fill(1);
    const outCur = new Uint8Array(stride);
    const survCur = new Uint8Array(stride).fill(1);
    // Injury choices for every (m', d, tl, bl, crit).
    for (let m = 0; m <= mj; m++)
      for (let d = 0; d < 2; d++)
        for (let tl = 0; tl <= tl0; tl++)
          for (let bl = 0; bl <= bl0; bl++)
            for (let crit = 0; crit < 2; crit++) {
              const opts = optionsFor(m, d, bl, crit);
              cands.reset(opts.length);
              const placed = d === 1 ? 2 : 1;
              for (let i = 0; i < opts.length; i++) {
                const opt = opts[i]!;
                const p = opt.row.p;
                const m2 = m - opt.cost;
                let w = 0;
                let canOut = false;
                let canSurvive = false;
                // No effect, minor hit, down, out of action (a Down in full while Tough is left).
                const up = m2 + placed < cap ? m2 + placed : cap;
                const t0 = stateIndex(m2, d, tl, 0);
                const t1 = stateIndex(m2 + 1 < cap ? m2 + 1 : cap, d, tl, 0);
                const t2 = stateIndex(up, 1, tl, 0);
                if (p[NO_EFFECT]! > 0) (w += p[NO_EFFECT]! * wPrev[t0]!), (canOut ||= outPrev[t0] === 1), (canSurvive ||= survPrev[t0] === 1);
                if (p[MINOR]! > 0) (w += p[MINOR]! * wPrev[t1]!), (canOut ||= outPrev[t1] === 1), (canSurvive ||= survPrev[t1] === 1);
                if (p[DOWN]! > 0) (w += p[DOWN]! * wPrev[t2]!), (canOut ||= outPrev[t2] === 1), (canSurvive ||= survPrev[t2] === 1);
                if (p[OUT]! > 0) {
                  if (tl === 1) {
                    const t3 = stateIndex(up, 1, 0, 0);
                    (w += p[OUT]! * wPrev[t3]!), (canOut ||= outPrev[t3] === 1), (canSurvive ||= survPrev[t3] === 1);
                  } else canOut = true;
                }
                cands.push(w, canOut, canSurvive);
              }
              const chosen = cands.pick(
                (i) => opts[i]!.row,
                (i) => exactInner(k, m, d, tl, opts[i]!),
              );
              const key = stateIndex(m, d, tl, bl) * 2 + crit;
              inner[k * stride * 2 + key] = opts[chosen]!.code;
              innerW[key] = cands.w[chosen]!;
              innerOut[key] = cands.canOut[chosen]!;
              innerSurv[key] = cands.canSurvive[chosen]!;
            }
    // Markers on the attack roll, for every state (after standing up).
    for (let m = 0; m <= mj; m++)
      for (let d = 0; d < 2; d++)
        for (let tl = 0; tl <= tl0; tl++)
          for (let bl = 0; bl <= bl0; bl++) {
            const idx = stateIndex(m, d, tl, bl);
            const at = stand ? standUp(idx) : idx;
            const maxA = Math.min(model.attackRollMarkers, m);
            cands.reset(maxA + 1);
            for (let a = 0; a <= maxA; a++) {
              const sr = model.successRow(a);
              const left = stateIndex(m - a, downOf(at), tl, bl);
              let w = 0;
              let canOut = false;
              let canSurvive = false;
              if (sr.p[MISS]! > 0) (w += sr.p[MISS]! * wPrev[left]!), (canOut = outPrev[left] === 1), (canSurvive = survPrev[left] === 1);
              for (let c = 0; c < 2; c++) {
                if (sr.p[HIT + c] === 0) continue;
                w += sr.p[HIT + c]! * innerW[left * 2 + c]!;
                canOut ||= innerOut[left * 2 + c] === 1;
                canSurvive ||= innerSurv[left * 2 + c] === 1;
              }
              cands.push(w, canOut, canSurvive);
            }
            const chosen = cands.pick(
              (a) => model.successRow(a),
              (a) => exactAttack(k, at, a),
            );
            attack[k * stride + at] = chosen;
            wCur[idx] = cands.w[chosen]!;
            outCur[idx] = cands.canOut[chosen]!;
            survCur[idx] = cands.canSurvive[chosen]!;
          }
    wPrev = wCur;
    outPrev = outCur;
    survPrev = survCur;
  }
  const result: FiniteOptimal = { stride, attack, inner, decide };
  cache.set(model, result);
  return result;
}

export interface UnlimitedOptimal {
  readonly values: UnlimitedValues;
  readonly stride: number;
  readonly phases: number;
  /** Markers on the attack roll at p * stride + idx. */
  readonly attack: Int32Array;
  /** Injury choice at (p * stride + idx(m', d, tl, bl)) * 2 + crit. */
  readonly inner: Int32Array;
  readonly iterations: number;
  readonly notes: string[];
}

const unlimitedCache = new WeakMap<SequenceModel, UnlimitedOptimal>();

/**
 * The stationary policy that minimises the expected attacks to Out of Action, by policy iteration:
 * evaluate the policy exactly (chain.ts), improve every decision that is strictly better against those
 * values, repeat until nothing improves. Improvements are found in doubles; a decision within a
 * relative MARGIN of the current value is only taken if exact arithmetic confirms it is strictly
 * better, so the loop ends with a policy that satisfies Bellman's equation exactly, which for this
 * kind of chain (every step costs one attack) makes it optimal.
 */
export function optimalUnlimited(model: SequenceModel, limit: number): UnlimitedOptimal {
  const hit = unlimitedCache.get(model);
  if (hit && hit.values.limit === limit) return hit;
  const phases = model.perActivation > 0 ? model.perActivation : 1;
  const wrapStands = model.perActivation > 0;
  const stride = (limit + 1) * 8;
  const start = unlimitedStart(model, limit);
  const tl0 = toughLeftOf(start);
  const bl0 = blessingLeftOf(start);
  const attack = new Int32Array(phases * stride);
  const inner = new Int32Array(phases * stride * 2);
  const notes: string[] = [];

  // Start from `all`, or `bloodbath` if only it makes Out of Action certain.
  const seed = (policy: 'all' | 'bloodbath') => {
    const m = { ...model, policy };
    for (let p = 0; p < phases; p++)
      for (let idx = 0; idx < stride; idx++) {
        const dcs = fixedDecision(m, idx);
        attack[p * stride + idx] = dcs.a;
        const left = stateIndex(markersOf(idx) - dcs.a, downOf(idx), toughLeftOf(idx), blessingLeftOf(idx));
        inner[(p * stride + left) * 2] = dcs.hit;
        inner[(p * stride + left) * 2 + 1] = dcs.crit;
      }
  };
  const decide = (idx: number, p: number): Decision => {
    const a = attack[p * stride + idx]!;
    const key = (p * stride + stateIndex(markersOf(idx) - a, downOf(idx), toughLeftOf(idx), blessingLeftOf(idx))) * 2;
    return { a, hit: inner[key]!, crit: inner[key + 1]! };
  };
  // Whether a value is infinite is decided on the transition graph, exactly, in either precision.
  seed('all');
  let values = solveUnlimited(model, limit, decide, 'approx');
  if (!Number.isFinite(values.approx(start, 0)) && model.bloodbathAllowed) {
    seed('bloodbath');
    values = solveUnlimited(model, limit, decide, 'approx');
  }
  const nextNode = (y: number, p: number) => (p + 1 < phases ? { idx: y, p: p + 1 } : { idx: wrapStands ? standUp(y) : y, p: 0 });
  const hApprox = (y: number, p: number) => {
    const to = nextNode(y, p);
    return values.approx(to.idx, to.p);
  };
  const hExact = (y: number, p: number): Fraction | undefined => {
    const to = nextNode(y, p);
    return values.value(to.idx, to.p);
  };

  // First explore in doubles (cheap evaluations, improvements taken only when clearly better), then
  // confirm in exact arithmetic; the exact rounds usually find nothing more to improve.
  let exactRounds = false;
  let iterations = 1;
  for (; iterations < 200; iterations++) {
    let improved = false;
    for (let p = 0; p < phases; p++) {
      // Injury choices: minimise the expected attacks still to come after the roll.
      const innerVal = new Float64Array(stride * 2);
      for (let m = 0; m <= limit; m++)
        for (let d = 0; d < 2; d++)
          for (let tl = 0; tl <= tl0; tl++)
            for (let bl = 0; bl <= bl0; bl++)
              for (let crit = 0; crit < 2; crit++) {
                const key = (p * stride + stateIndex(m, d, tl, bl)) * 2 + crit;
                const opts = injuryOptions(model, m, d, bl, crit);
                const val = (opt: Option) => {
                  const next = injuryNext(limit, m - opt.cost, d, tl);
                  let v = 0;
                  for (let o = NO_EFFECT; o <= OUT; o++) if (opt.row.p[o] !== 0 && next[o]! >= 0) v += opt.row.p[o]! * hApprox(next[o]!, p);
                  return v;
                };
                const exactVal = (opt: Option): Fraction | undefined => {
                  const next = injuryNext(limit, m - opt.cost, d, tl);
                  let v = ZERO;
                  for (let o = NO_EFFECT; o <= OUT; o++) {
                    if (opt.row.w[o] === 0n || next[o]! < 0) continue;
                    const h = hExact(next[o]!, p);
                    if (!h) return undefined;
                    v = add(v, mul(fraction(opt.row.w[o]!, opt.row.den), h));
                  }
                  return v;
                };
                const current = opts.find((o) => o.code === inner[key]) ?? opts[0]!;
                const curVal = val(current);
                let best = current;
                let bestVal = curVal;
                for (const opt of opts) {
                  const v = val(opt);
                  if (v < bestVal) (best = opt), (bestVal = v);
                }
                innerVal[key - p * stride * 2] = curVal;
                if (best === current) continue;
                const margin = MARGIN * Math.max(1, Math.abs(curVal));
                if (bestVal < curVal - margin) {
                  inner[key] = best.code;
                  innerVal[key - p * stride * 2] = bestVal;
                  improved = true;
                  continue;
                }
                // Near tie: switch only on an exact strict improvement (not while exploring in doubles).
                if (!exactRounds) continue;
                const curExact = exactVal(current);
                for (const opt of opts) {
                  if (opt === current || val(opt) > curVal + margin) continue;
                  const v = exactVal(opt);
                  if (v && (!curExact || compare(v, curExact) < 0)) {
                    inner[key] = opt.code;
                    improved = true;
                    break;
                  }
                }
              }
      // Markers on the attack roll.
      for (let idx = 0; idx < stride; idx++) {
        if (toughLeftOf(idx) > tl0 || blessingLeftOf(idx) > bl0) continue;
        if (wrapStands && p === 0 && downOf(idx) === 1 && idx !== start) continue;
        const m = markersOf(idx);
        const maxA = Math.min(model.attackRollMarkers, m);
        if (maxA === 0) continue;
        const d = downOf(idx);
        const tl = toughLeftOf(idx);
        const bl = blessingLeftOf(idx);
        const q = (a: number) => {
          const sr = model.successRow(a);
          const left = stateIndex(m - a, d, tl, bl);
          let v = 1;
          if (sr.p[MISS] !== 0) v += sr.p[MISS]! * hApprox(left, p);
          for (let c = 0; c < 2; c++) if (sr.p[HIT + c] !== 0) v += sr.p[HIT + c]! * innerVal[left * 2 + c]!;
          return v;
        };
        const cur = attack[p * stride + idx]!;
        const curQ = q(cur);
        let bestA = cur;
        let bestQ = curQ;
        for (let a = 0; a <= maxA; a++) {
          const v = q(a);
          if (v < bestQ) (bestA = a), (bestQ = v);
        }
        if (bestA === cur) continue;
        const margin = MARGIN * Math.max(1, Math.abs(curQ));
        if (bestQ < curQ - margin) {
          attack[p * stride + idx] = bestA;
          improved = true;
          continue;
        }
        if (!exactRounds) continue;
        const curExact = values.value(idx, p);
        for (let a = 0; a <= maxA; a++) {
          if (a === cur || q(a) > curQ + margin) continue;
          const v = exactAttackValue(model, limit, a, m, d, tl, bl, p, inner, stride, hExact);
          if (v && (!curExact || compare(v, curExact) < 0)) {
            attack[p * stride + idx] = a;
            improved = true;
            break;
          }
        }
      }
    }
    if (!improved) {
      if (exactRounds) break;
      exactRounds = true;
    }
    values = solveUnlimited(model, limit, decide, exactRounds ? 'exact' : 'approx');
  }
  if (!values.value(start, 0)) notes.push('Unlimited attacks: no spending rule makes Out of Action certain from the start, so the expected attacks are infinite');
  const result: UnlimitedOptimal = { values, stride, phases, attack, inner, iterations, notes };
  unlimitedCache.set(model, result);
  return result;
}

function exactAttackValue(
  model: SequenceModel,
  limit: number,
  a: number,
  m: number,
  d: number,
  tl: number,
  bl: number,
  p: number,
  inner: Int32Array,
  stride: number,
  hExact: (y: number, p: number) => Fraction | undefined,
): Fraction | undefined {
  const sr = model.successRow(a);
  const left = stateIndex(m - a, d, tl, bl);
  let v = ONE;
  if (sr.w[MISS] !== 0n) {
    const h = hExact(left, p);
    if (!h) return undefined;
    v = add(v, mul(fraction(sr.w[MISS]!, sr.den), h));
  }
  const blessingSpent = bl === 1 ? model.blessingMarkers : 0;
  for (let c = 0; c < 2; c++) {
    if (sr.w[HIT + c] === 0n) continue;
    const code = inner[(p * stride + left) * 2 + c]!;
    const bb = choiceBloodbath(code);
    const cost = choiceDice(code) + (bb ? model.bloodbathCost(d) : 0);
    const row = model.injuryRow(c, d, bb, choiceDice(code), blessingSpent);
    const next = injuryNext(limit, m - a - cost, d, tl);
    let iv = ZERO;
    for (let o = NO_EFFECT; o <= OUT; o++) {
      if (row.w[o] === 0n || next[o]! < 0) continue;
      const h = hExact(next[o]!, p);
      if (!h) return undefined;
      iv = add(iv, mul(fraction(row.w[o]!, row.den), h));
    }
    v = add(v, mul(fraction(sr.w[HIT + c]!, sr.den), iv));
  }
  return v;
}
