/**
 * The exact absorbing Markov chain of a sequence of attacks. Out of Action is the absorbing state; every
 * other state is (markers, Down, Tough left, blessing left) as packed in ./model.ts.
 *
 * Finite sequences are run forward attack by attack with whole-number weights over one denominator per
 * attack (every probability here is a count over a power of 6), so the only gcds are taken once at the
 * end. The unlimited chain (expected attacks to Out of Action) is solved exactly as a linear system,
 * block by block: Tough and blessing markers can only be used up, never regained, so the chain is
 * block-triangular in (Tough left, blessing left), and within a block the activation phase is
 * eliminated by walking one activation backwards, leaving a system over the states an activation can
 * start in.
 */
import { type Fraction, fraction } from '../../../exact/fraction.js';
import { solveIntegerSystem } from './linear.js';
import {
  ABSORBED,
  type Decision,
  type SequenceModel,
  type Transition,
  blessingLeftOf,
  markersOf,
  stateIndex,
  standUp,
  downOf,
  toughLeftOf,
  transition,
} from './model.js';

/** Caches transitions of one model and cap by (state, decision). */
export class TransitionCache {
  private readonly cache = new Map<string, Transition>();
  constructor(
    readonly model: SequenceModel,
    readonly cap: number,
  ) {}

  get(idx: number, d: Decision): Transition {
    const key = `${idx}:${d.a}:${d.hit}:${d.crit}`;
    let t = this.cache.get(key);
    if (!t) {
      t = transition(this.model, idx, d, this.cap);
      this.cache.set(key, t);
    }
    return t;
  }
}

/** Does attack j (1-based) start a new activation, so that a Down target has stood up before it? */
export function standsUpBefore(model: SequenceModel, j: number): boolean {
  return model.perActivation > 0 && j > 1 && (j - 1) % model.perActivation === 0;
}

export interface FiniteResult {
  /** P(Out of Action at attack j), j = 1..N (index j - 1). */
  readonly outAt: Fraction[];
  /** The states the target survives the N attacks in, as weights over finalDen (not reduced). */
  readonly final: Map<number, bigint>;
  readonly finalDen: bigint;
  /** E[attacks made] = sum over j of P(still in play before attack j). */
  readonly attacksMade: Fraction;
  /** E[blood markers the attacker spends]. */
  readonly spent: Fraction;
}

/**
 * Runs the N attacks forward. `decide(k, idx)` is the decision with k attacks left in state idx (after
 * standing up). Weights stay whole numbers over the product of the attacks' denominators; fractions are
 * reduced only once, at the end.
 */
export function runFinite(model: SequenceModel, decide: (k: number, idx: number) => Decision, cache = new TransitionCache(model, model.cap)): FiniteResult {
  const n = model.attacks;
  let dist = new Map<number, bigint>([[model.start, 1n]]);
  let den = 1n;
  const outNum: bigint[] = [];
  const dens: bigint[] = [];
  const spentNum: bigint[] = [];
  for (let j = 1; j <= n; j++) {
    const stand = standsUpBefore(model, j);
    const steps: { w: bigint; t: Transition }[] = [];
    let step = 1n;
    for (const [idx, w] of dist) {
      const at = stand ? standUp(idx) : idx;
      const t = cache.get(at, decide(n - j + 1, at));
      steps.push({ w, t });
      if (t.den > step) step = t.den;
    }
    const next = new Map<number, bigint>();
    let out = 0n;
    let spent = 0n;
    for (const { w, t } of steps) {
      const scale = w * (step / t.den);
      spent += scale * t.spent;
      for (let e = 0; e < t.next.length; e++) {
        const v = scale * t.w[e]!;
        const to = t.next[e]!;
        if (to === ABSORBED) out += v;
        else next.set(to, (next.get(to) ?? 0n) + v);
      }
    }
    den *= step;
    outNum.push(out);
    spentNum.push(spent);
    dens.push(den);
    dist = next;
  }
  // Everything over the last denominator: whole-number sums, one gcd per answer.
  let spentTotal = 0n;
  let made = 0n;
  let outSoFar = 0n;
  const outAt: Fraction[] = [];
  for (let j = 0; j < n; j++) {
    const up = den / dens[j]!;
    made += den - outSoFar;
    outSoFar += outNum[j]! * up;
    outAt.push(fraction(outNum[j]!, dens[j]!));
    spentTotal += spentNum[j]! * up;
  }
  return { outAt, final: dist, finalDen: den, attacksMade: fraction(made, den), spent: fraction(spentTotal, den) };
}

/** Exact expected attacks from every state of the unlimited chain, or Infinity where it is infinite. */
export interface UnlimitedValues {
  /** Attacks per activation in the chain's phase (1 when one activation never ends). */
  readonly phases: number;
  /** Markers tracked (more are lost). */
  readonly limit: number;
  /** Value at node p * stride + idx: num / den[p] for finite nodes; undefined for infinite ones. */
  value(idx: number, p: number): Fraction | undefined;
  /** Same as a double (Infinity for infinite nodes), for the float side of policy improvement. */
  approx(idx: number, p: number): number;
  /** Did a transition the chain can reach from its start lose markers to the limit (or the cap)? */
  readonly limitReached: boolean;
}

/**
 * Expected number of attacks to Out of Action with unlimited attacks, under the stationary decisions
 * `decide(idx, p)` (p: attacks already made in the current activation), with at most `limit` markers
 * tracked. Nodes from which Out of Action is not certain have infinite value.
 */
export function solveUnlimited(
  model: SequenceModel,
  limit: number,
  decide: (idx: number, p: number) => Decision,
  precision: 'exact' | 'approx' = 'exact',
): UnlimitedValues {
  const phases = model.perActivation > 0 ? model.perActivation : 1;
  const wrapStands = model.perActivation > 0;
  const stride = (limit + 1) * 8;
  const nodes = stride * phases;
  const startIdx = unlimitedStart(model, limit);
  const tl0 = toughLeftOf(startIdx);
  const bl0 = blessingLeftOf(startIdx);
  const valid = (idx: number) => toughLeftOf(idx) <= tl0 && blessingLeftOf(idx) <= bl0;
  const cache = new TransitionCache(model, limit);
  const nextNode = (y: number, p: number): number =>
    p + 1 < phases ? (p + 1) * stride + y : wrapStands ? standUp(y) : y;

  // Transitions of every valid node, and the graph questions: which nodes reach Out of Action surely?
  const trans: (Transition | undefined)[] = new Array(nodes);
  let limitReached = false;
  let step = 1n;
  const preds: number[][] = Array.from({ length: nodes }, () => []);
  const absorbsDirectly = new Uint8Array(nodes);
  for (let p = 0; p < phases; p++) {
    for (let idx = 0; idx < stride; idx++) {
      if (!valid(idx)) continue;
      const node = p * stride + idx;
      const t = cache.get(idx, decide(idx, p));
      trans[node] = t;
      if (t.den > step) step = t.den;
      for (let e = 0; e < t.next.length; e++) {
        const y = t.next[e]!;
        if (y === ABSORBED) absorbsDirectly[node] = 1;
        else preds[nextNode(y, p)]!.push(node);
      }
    }
  }
  // Markers lost to the limit on a path the chain can take from its start?
  const seen = new Uint8Array(nodes);
  const walk = [startIdx];
  seen[startIdx] = 1;
  while (walk.length) {
    const v = walk.pop()!;
    const t = trans[v]!;
    if (t.capped) limitReached = true;
    const p = Math.floor(v / stride);
    for (const y of t.next) {
      if (y === ABSORBED) continue;
      const to = nextNode(y, p);
      if (!seen[to]) (seen[to] = 1), walk.push(to);
    }
  }
  // canAbsorb: some path to Out of Action. bad: some path to a node without one (infinite value).
  const canAbsorb = new Uint8Array(nodes);
  const queue: number[] = [];
  for (let v = 0; v < nodes; v++) if (trans[v] && absorbsDirectly[v]) (canAbsorb[v] = 1), queue.push(v);
  while (queue.length) for (const u of preds[queue.pop()!]!) if (!canAbsorb[u]) (canAbsorb[u] = 1), queue.push(u);
  const bad = new Uint8Array(nodes);
  for (let v = 0; v < nodes; v++) if (trans[v] && !canAbsorb[v]) (bad[v] = 1), queue.push(v);
  while (queue.length) for (const u of preds[queue.pop()!]!) if (!bad[u]) (bad[u] = 1), queue.push(u);

  if (precision === 'approx') return approxValues(model, limit, phases, stride, startIdx, trans, bad, nextNode, limitReached);

  const num: bigint[] = new Array(nodes).fill(0n);
  const denOf: bigint[][] = []; // per block, per phase
  const blockOf = (idx: number) => toughLeftOf(idx) * 2 + blessingLeftOf(idx);
  const gPow: bigint[] = [1n];
  for (let i = 1; i <= phases; i++) gPow.push(gPow[i - 1]! * step);
  // A common multiple of the denominators of every block solved so far.
  let universal = 1n;

  for (const block of [0, 1, 2, 3]) {
    const tl = block >> 1;
    const bl = block & 1;
    if (tl > tl0 || bl > bl0) continue;
    const lh = universal;
    // Values of lower blocks brought over lh, computed once per node.
    const lowerScaled = new Map<number, bigint>();
    const inBlock = (idx: number) => blockOf(idx) === block;
    // Symbols: the values of the states an activation can start in (after standing up), unknown.
    const symbol = new Map<number, number>();
    for (let idx = 0; idx < stride; idx++) {
      if (!inBlock(idx) || bad[idx] || !trans[idx]) continue;
      if (wrapStands && downOf(idx) === 1) continue;
      symbol.set(idx, symbol.size);
    }
    const ns = symbol.size;
    // Affine forms, walking the activation backwards: value(node at p) = (cnum / (G^(P-p) lh)) + sum_j coef_j sym_j / G^(P-p).
    const coef: (bigint[] | undefined)[] = new Array(nodes);
    const cnum: bigint[] = new Array(nodes);
    for (let p = phases - 1; p >= 0; p--) {
      for (let idx = 0; idx < stride; idx++) {
        const node = p * stride + idx;
        if (!inBlock(idx) || !trans[node] || bad[node]) continue;
        const t = trans[node]!;
        const c = new Array<bigint>(ns).fill(0n);
        let k = gPow[phases - p]! * lh;
        for (let e = 0; e < t.next.length; e++) {
          const y = t.next[e]!;
          if (y === ABSORBED) continue;
          const wgt = t.w[e]! * (step / t.den);
          const to = nextNode(y, p);
          const toIdx = to % stride;
          const toP = (to - toIdx) / stride;
          if (!inBlock(toIdx)) {
            let scaled = lowerScaled.get(to);
            if (scaled === undefined) {
              scaled = num[to]! * (lh / denOf[blockOf(toIdx)]![toP]!);
              lowerScaled.set(to, scaled);
            }
            k += wgt * gPow[phases - p - 1]! * scaled;
          } else if (p === phases - 1) {
            c[symbol.get(toIdx)!]! += wgt;
          } else {
            const cn = coef[to]!;
            for (let j = 0; j < ns; j++) if (cn[j] !== 0n) c[j]! += wgt * cn[j]!;
            k += wgt * cnum[to]!;
          }
        }
        coef[node] = c;
        cnum[node] = k;
      }
    }
    // sym_i = cnum_i / (G^P lh) + sum_j coef_ij sym_j / G^P, i.e. (G^P I - coef) (lh sym) = cnum.
    const a: bigint[][] = [];
    const b: bigint[] = [];
    for (const [idx, i] of symbol) {
      const row = coef[idx]!.map((v) => -v);
      row[i]! += gPow[phases]!;
      a.push(row);
      b.push(cnum[idx]!);
    }
    const sol = ns > 0 ? solveIntegerSystem(a, b) : { num: [], den: 1n };
    // value(node at p) = (cnum * xden + sum_j coef_j xnum_j) / (G^(P-p) xden lh).
    const dens: bigint[] = [];
    for (let p = 0; p < phases; p++) dens.push(gPow[phases - p]! * sol.den * lh);
    denOf[block] = dens;
    for (let p = 0; p < phases; p++) {
      for (let idx = 0; idx < stride; idx++) {
        const node = p * stride + idx;
        if (!inBlock(idx) || !trans[node] || bad[node]) continue;
        const c = coef[node]!;
        let v = cnum[node]! * sol.den;
        for (let j = 0; j < ns; j++) if (c[j] !== 0n) v += c[j]! * sol.num[j]!;
        num[node] = v;
      }
    }
    universal = lh * gPow[phases]! * sol.den;
  }

  const value = (idx: number, p: number): Fraction | undefined => {
    const node = p * stride + idx;
    if (!trans[node] || bad[node]) return undefined;
    return fraction(num[node]!, denOf[blockOf(idx)]![p]!);
  };
  const approxCache = new Float64Array(nodes).fill(Number.NaN);
  return {
    phases,
    limit,
    limitReached,
    value,
    approx(idx, p) {
      const node = p * stride + idx;
      let v = approxCache[node]!;
      if (Number.isNaN(v)) {
        v = !trans[node] || bad[node] ? Number.POSITIVE_INFINITY : toApprox(num[node]!, denOf[blockOf(idx)]![p]!);
        approxCache[node] = v;
      }
      return v;
    },
  };
}

/**
 * The same solution in doubles, for the policy search to explore with before it pays for exact
 * evaluations: the same block and phase elimination, Gaussian elimination with partial pivoting.
 */
function approxValues(
  model: SequenceModel,
  limit: number,
  phases: number,
  stride: number,
  startIdx: number,
  trans: (Transition | undefined)[],
  bad: Uint8Array,
  nextNode: (y: number, p: number) => number,
  limitReached: boolean,
): UnlimitedValues {
  const nodes = stride * phases;
  const wrapStands = model.perActivation > 0;
  const tl0 = toughLeftOf(startIdx);
  const bl0 = blessingLeftOf(startIdx);
  const blockOf = (idx: number) => toughLeftOf(idx) * 2 + blessingLeftOf(idx);
  const h = new Float64Array(nodes).fill(Number.POSITIVE_INFINITY);
  const probs = new Map<Transition, Float64Array>();
  const probOf = (t: Transition) => {
    let pr = probs.get(t);
    if (!pr) probs.set(t, (pr = Float64Array.from(t.w, (w) => toApprox(w, t.den))));
    return pr;
  };
  for (const block of [0, 1, 2, 3]) {
    if (block >> 1 > tl0 || (block & 1) > bl0) continue;
    const inBlock = (idx: number) => blockOf(idx) === block;
    const symbol = new Map<number, number>();
    for (let idx = 0; idx < stride; idx++) {
      if (!inBlock(idx) || bad[idx] || !trans[idx]) continue;
      if (wrapStands && downOf(idx) === 1) continue;
      symbol.set(idx, symbol.size);
    }
    const ns = symbol.size;
    const coef: (Float64Array | undefined)[] = new Array(nodes);
    const cst = new Float64Array(nodes);
    for (let p = phases - 1; p >= 0; p--) {
      for (let idx = 0; idx < stride; idx++) {
        const node = p * stride + idx;
        if (!inBlock(idx) || !trans[node] || bad[node]) continue;
        const t = trans[node]!;
        const pr = probOf(t);
        const c = new Float64Array(ns);
        let k = 1;
        for (let e = 0; e < t.next.length; e++) {
          const y = t.next[e]!;
          if (y === ABSORBED) continue;
          const to = nextNode(y, p);
          const toIdx = to % stride;
          if (!inBlock(toIdx)) k += pr[e]! * h[to]!;
          else if (p === phases - 1) c[symbol.get(toIdx)!]! += pr[e]!;
          else {
            const cn = coef[to]!;
            for (let j = 0; j < ns; j++) c[j]! += pr[e]! * cn[j]!;
            k += pr[e]! * cst[to]!;
          }
        }
        coef[node] = c;
        cst[node] = k;
      }
    }
    // (I - C) sym = k, by Gaussian elimination with partial pivoting.
    const a: Float64Array[] = [];
    const b: number[] = [];
    for (const [idx, i] of symbol) {
      const row = Float64Array.from(coef[idx]!, (v) => -v);
      row[i]! += 1;
      a.push(row);
      b.push(cst[idx]!);
    }
    for (let col = 0; col < ns; col++) {
      let piv = col;
      for (let r = col + 1; r < ns; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[piv]![col]!)) piv = r;
      [a[col], a[piv]] = [a[piv]!, a[col]!];
      [b[col], b[piv]] = [b[piv]!, b[col]!];
      for (let r = col + 1; r < ns; r++) {
        const f = a[r]![col]! / a[col]![col]!;
        if (f === 0) continue;
        for (let k = col; k < ns; k++) a[r]![k]! -= f * a[col]![k]!;
        b[r]! -= f * b[col]!;
      }
    }
    const sym = new Float64Array(ns);
    for (let i = ns - 1; i >= 0; i--) {
      let acc = b[i]!;
      for (let j = i + 1; j < ns; j++) acc -= a[i]![j]! * sym[j]!;
      sym[i] = acc / a[i]![i]!;
    }
    for (let node = 0; node < nodes; node++) {
      const idx = node % stride;
      if (!inBlock(idx) || !trans[node] || bad[node]) continue;
      let v = cst[node]!;
      const c = coef[node]!;
      for (let j = 0; j < ns; j++) v += c[j]! * sym[j]!;
      h[node] = v;
    }
  }
  return {
    phases,
    limit,
    limitReached,
    value: () => undefined,
    approx: (idx, p) => h[p * stride + idx]!,
  };
}

/** num / den as the nearest double or so, without a gcd: both are shifted down together in one step. */
export function toApprox(num: bigint, den: bigint): number {
  const bits = Math.max(bitLength(num), bitLength(den));
  if (bits > 1000) {
    const shift = BigInt(bits - 1000);
    num >>= shift;
    den >>= shift;
  }
  return Number(num) / Number(den);
}

function bitLength(x: bigint): number {
  if (x < 0n) x = -x;
  return x === 0n ? 0 : x.toString(16).length * 4;
}

/** The unlimited chain's first state: the sequence's start with at most `limit` markers. */
export function unlimitedStart(model: SequenceModel, limit: number): number {
  const idx = model.start;
  return stateIndex(Math.min(markersOf(idx), limit), downOf(idx), toughLeftOf(idx), blessingLeftOf(idx));
}
