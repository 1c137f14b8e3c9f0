/**
 * The exact absorbing Markov chain of a sequence of attacks. Out of Action is the absorbing state; every
 * other state is (markers, Down, Tough left, blessing left) as packed in ./model.ts.
 *
 * Finite sequences are run forward attack by attack with whole-number weights over one denominator per
 * attack (every probability here is a count over a power of 6), so the only gcds are taken once at the
 * end. The unlimited chain (expected attacks to Out of Action) is solved as a linear system, block by
 * block: Tough and blessing markers can only be used up, never regained, so the chain is
 * block-triangular in (Tough left, blessing left), and within a block the activation phase is
 * eliminated by walking one activation backwards, leaving a system over the states an activation can
 * start in. One elimination (eliminateBlocks) runs in whole numbers for the exact answer and in doubles
 * for the policy search of ./optimal-unlimited.ts. Which states have infinite value is the question
 * every sequence of activations asks (src/exact/absorbing-chain.ts, infiniteNodes).
 */
import { type Fraction, approxRatio, fraction } from '../../../exact/fraction.js';
import { infiniteNodes } from '../../../exact/absorbing-chain.js';
import { solveFloatSystem, solveIntegerSystem } from '../../../exact/linear.js';
import {
  ABSORBED,
  type Decision,
  type SequenceModel,
  type Transition,
  blessingLeftOf,
  markersOf,
  stateIndex,
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
  // RISKY strings: the states whose string a miss ended, waiting (over den) for the next activation.
  let waiting = new Map<number, bigint>();
  let den = 1n;
  const outNum: bigint[] = [];
  const dens: bigint[] = [];
  const spentNum: bigint[] = [];
  // Attack j is made by the trials still in play whose string goes on: their weight over the den before it.
  const madeNum: bigint[] = [];
  const madeDen: bigint[] = [];
  const addInto = (into: Map<number, bigint>, from: Map<number, bigint>, scale: bigint) => {
    for (const [idx, w] of from) into.set(idx, (into.get(idx) ?? 0n) + w * scale);
  };
  for (let j = 1; j <= n; j++) {
    const stand = standsUpBefore(model, j);
    if (stand && waiting.size > 0) {
      addInto(dist, waiting, 1n);
      waiting = new Map();
    }
    let inPlay = 0n;
    for (const w of dist.values()) inPlay += w;
    madeNum.push(inPlay);
    madeDen.push(den);
    const steps: { w: bigint; t: Transition }[] = [];
    let step = 1n;
    for (const [idx, w] of dist) {
      const at = stand ? model.activationStart(idx) : idx;
      const t = cache.get(at, decide(n - j + 1, at));
      steps.push({ w, t });
      if (t.den > step) step = t.den;
    }
    const next = new Map<number, bigint>();
    const nextWaiting = new Map<number, bigint>();
    addInto(nextWaiting, waiting, step);
    let out = 0n;
    let spent = 0n;
    for (const { w, t } of steps) {
      const scale = w * (step / t.den);
      spent += scale * t.spent;
      if (t.miss) nextWaiting.set(t.miss.next, (nextWaiting.get(t.miss.next) ?? 0n) + scale * t.miss.w);
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
    waiting = nextWaiting;
  }
  addInto(dist, waiting, 1n);
  // Everything over the last denominator: whole-number sums, one gcd per answer.
  let spentTotal = 0n;
  let made = 0n;
  const outAt: Fraction[] = [];
  for (let j = 0; j < n; j++) {
    const up = den / dens[j]!;
    made += madeNum[j]! * (den / madeDen[j]!);
    outAt.push(fraction(outNum[j]!, dens[j]!));
    spentTotal += spentNum[j]! * up;
  }
  return { outAt, final: dist, finalDen: den, attacksMade: fraction(made, den), spent: fraction(spentTotal, den) };
}

/** Expected attacks to Out of Action from every state (idx, phase p) of the unlimited chain. */
export interface UnlimitedValues {
  /** Attacks per activation in the chain's phase (1 when one activation never ends). */
  readonly phases: number;
  /** Markers tracked (more are lost). */
  readonly limit: number;
  /** The exact value; undefined for infinite nodes, and for every node of a solve in doubles. */
  value(idx: number, p: number): Fraction | undefined;
  /** The value as a double (Infinity for infinite nodes), for the float side of policy improvement. */
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
    p + 1 < phases ? (p + 1) * stride + y : wrapStands ? model.activationStart(y) : y;
  // A RISKY miss ends the activation: the next attack starts the next one, the target standing up.
  const missNode = (y: number): number => (wrapStands ? model.activationStart(y) : y);

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
      if (t.miss) preds[missNode(t.miss.next)]!.push(node);
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
    const targets = t.next.filter((y) => y !== ABSORBED).map((y) => nextNode(y, p));
    if (t.miss) targets.push(missNode(t.miss.next));
    for (const to of targets) if (!seen[to]) (seen[to] = 1), walk.push(to);
  }
  // bad: no path to Out of Action, or a path to a node without one (infinite value).
  const bad = infiniteNodes(nodes, (v) => trans[v] !== undefined, (v) => absorbsDirectly[v] === 1, preds);

  const graph: ChainGraph = { phases, stride, trans, bad, nextNode, missNode, wrapStands, tl0, bl0, step };
  if (precision === 'approx') {
    // In doubles every denominator is 1: a node's numerator is its value.
    const { num } = eliminateBlocks(DOUBLES, graph);
    const approx = (idx: number, p: number): number => {
      const node = p * stride + idx;
      return !trans[node] || bad[node] ? Number.POSITIVE_INFINITY : num[node]!;
    };
    return { phases, limit, limitReached, value: () => undefined, approx };
  }
  const { num, den } = eliminateBlocks(WHOLE_NUMBERS, graph);
  const value = (idx: number, p: number): Fraction | undefined => {
    const node = p * stride + idx;
    if (!trans[node] || bad[node]) return undefined;
    return fraction(num[node]!, den[node]!);
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
        v = !trans[node] || bad[node] ? Number.POSITIVE_INFINITY : approxRatio(num[node]!, den[node]!);
        approxCache[node] = v;
      }
      return v;
    },
  };
}

/** The unlimited chain under fixed decisions, as the block elimination reads it. */
interface ChainGraph {
  readonly phases: number;
  readonly stride: number;
  /** Transition of every node the chain can be in (undefined: not a state of this chain). */
  readonly trans: readonly (Transition | undefined)[];
  /** Nodes of infinite value. */
  readonly bad: Uint8Array;
  readonly nextNode: (y: number, p: number) => number;
  /** Where a RISKY miss goes: the start of the next activation (phase 0). */
  readonly missNode: (y: number) => number;
  readonly wrapStands: boolean;
  readonly tl0: number;
  readonly bl0: number;
  /** The largest transition denominator, a multiple of every other (all are powers of 6). */
  readonly step: bigint;
}

/**
 * What the block elimination computes with. Each value is a numerator over a denominator the
 * elimination builds as it goes, from the common step denominator G and the denominators of the blocks
 * solved before; exactly, in BigInt, that keeps every number whole and no gcd is ever taken. In doubles
 * every denominator is 1 (G included) and edge weights are probabilities, which turns the same formulas
 * into the plain ones, operation for operation.
 */
interface ElimNumbers<N> {
  readonly zero: N;
  readonly one: N;
  /** A fresh row of `size` numbers, all `fill` (doubles in a Float64Array, so nothing is boxed). */
  row(size: number, fill: N): Row<N>;
  add(a: N, b: N): N;
  mul(a: N, b: N): N;
  neg(a: N): N;
  /** a / b, where b divides a (exactly, for whole numbers). */
  divide(a: N, b: N): N;
  isZero(a: N): boolean;
  /** G, the denominator every transition's weights are brought to. */
  stepDenominator(step: bigint): N;
  /** The weights of a transition over G, a RISKY miss's (Transition.miss) last. */
  edgeWeights(t: Transition, step: bigint): Row<N>;
  /** A whole number of attacks, as N. */
  count(n: number): N;
  /** x with a x = b, as x_i = num[i] / den. */
  solve(a: readonly Row<N>[], b: Row<N>): { readonly num: ArrayLike<N>; readonly den: N };
}

/** A writable row of numbers: a BigInt array, or a Float64Array. */
interface Row<N> {
  [j: number]: N;
  readonly length: number;
}

const WHOLE_NUMBERS: ElimNumbers<bigint> = {
  zero: 0n,
  one: 1n,
  row: (size, fill) => new Array<bigint>(size).fill(fill),
  add: (a, b) => a + b,
  mul: (a, b) => a * b,
  neg: (a) => -a,
  divide: (a, b) => a / b,
  isZero: (a) => a === 0n,
  stepDenominator: (step) => step,
  edgeWeights: (t, step) => [...t.w, ...(t.miss ? [t.miss.w] : [])].map((w) => w * (step / t.den)),
  count: (n) => BigInt(n),
  solve: solveIntegerSystem,
};

const DOUBLES: ElimNumbers<number> = {
  zero: 0,
  one: 1,
  row: (size, fill) => new Float64Array(size).fill(fill),
  add: (a, b) => a + b,
  mul: (a, b) => a * b,
  neg: (a) => -a,
  divide: (a, b) => a / b,
  isZero: (a) => a === 0,
  stepDenominator: () => 1,
  edgeWeights: (t) => Float64Array.from([...t.w, ...(t.miss ? [t.miss.w] : [])], (w) => approxRatio(w, t.den)),
  count: (n) => n,
  solve: (a, b) => ({ num: solveFloatSystem(a, b), den: 1 }),
};

/**
 * Values of every finite node, as num[node] / den[node], by block and phase elimination. Tough and
 * blessing markers can only be used up, so blocks (Tough left, blessing left) are solved from the one
 * with neither left upwards, each reading the values of the blocks below. Within a block, walking one
 * activation backwards writes every node's value as an affine form in the values of the states an
 * activation can start in (the symbols); those satisfy a square system, solved, and read back.
 *
 * With G the step denominator, P the phases and L a common multiple of the lower blocks' denominators,
 * a node at phase p is kept as cnum / (G^(P-p) L) + sum_j coef_j sym_j / G^(P-p): the attack itself adds
 * G^(P-p) L to cnum, and an edge of weight w (over G) to a node at phase p + 1 adds w times that node's
 * cnum and coef. So everything stays whole, and the symbols solve (G^P I - coef) (L sym) = cnum.
 */
function eliminateBlocks<N>(numbers: ElimNumbers<N>, graph: ChainGraph): { num: Row<N>; den: Row<N> } {
  const { phases, stride, trans, bad, nextNode, missNode, wrapStands, tl0, bl0 } = graph;
  const { zero, add, mul } = numbers;
  const nodes = stride * phases;
  const num = numbers.row(nodes, zero);
  const den = numbers.row(nodes, numbers.one);
  const blockOf = (idx: number) => toughLeftOf(idx) * 2 + blessingLeftOf(idx);
  const g = numbers.stepDenominator(graph.step);
  const gPow: N[] = [numbers.one];
  for (let i = 1; i <= phases; i++) gPow.push(mul(gPow[i - 1]!, g));
  const weights = new Map<Transition, Row<N>>();
  const weightsOf = (t: Transition) => {
    let w = weights.get(t);
    if (!w) weights.set(t, (w = numbers.edgeWeights(t, graph.step)));
    return w;
  };
  // L: a common multiple of the denominators of every block solved so far.
  let lowerDen = numbers.one;

  for (const block of [0, 1, 2, 3]) {
    if (block >> 1 > tl0 || (block & 1) > bl0) continue;
    // Values of lower blocks brought over L, computed once per node.
    const lowerScaled: (N | undefined)[] = new Array(nodes);
    const inBlock = (idx: number) => blockOf(idx) === block;
    // Symbols: the values of the states an activation can start in (after standing up), unknown.
    const symbol = new Map<number, number>();
    for (let idx = 0; idx < stride; idx++) {
      if (!inBlock(idx) || bad[idx] || !trans[idx]) continue;
      if (wrapStands && downOf(idx) === 1) continue;
      symbol.set(idx, symbol.size);
    }
    const ns = symbol.size;
    // Affine forms, walking the activation backwards: value(node at p) = cnum / (G^(P-p) L) + sum_j coef_j sym_j / G^(P-p).
    const coef: (Row<N> | undefined)[] = new Array(nodes);
    const cnum = numbers.row(nodes, zero);
    for (let p = phases - 1; p >= 0; p--) {
      for (let idx = 0; idx < stride; idx++) {
        const node = p * stride + idx;
        if (!inBlock(idx) || !trans[node] || bad[node]) continue;
        const t = trans[node]!;
        const w = weightsOf(t);
        const c = numbers.row(ns, zero);
        let k = mul(gPow[phases - p]!, lowerDen);
        for (let e = 0; e < t.next.length; e++) {
          const y = t.next[e]!;
          if (y === ABSORBED) continue;
          const to = nextNode(y, p);
          const toIdx = to % stride;
          if (!inBlock(toIdx)) {
            let scaled = lowerScaled[to];
            if (scaled === undefined) scaled = lowerScaled[to] = mul(num[to]!, numbers.divide(lowerDen, den[to]!));
            k = add(k, mul(mul(w[e]!, gPow[phases - p - 1]!), scaled));
          } else if (p === phases - 1) {
            const j = symbol.get(toIdx)!;
            c[j] = add(c[j]!, w[e]!);
          } else {
            const cn = coef[to]!;
            for (let j = 0; j < ns; j++) if (!numbers.isZero(cn[j]!)) c[j] = add(c[j]!, mul(w[e]!, cn[j]!));
            k = add(k, mul(w[e]!, cnum[to]!));
          }
        }
        if (t.miss) {
          // A RISKY miss skips the activation's other attacks (counted as spent, s of them) and lands on
          // the symbol of the next activation's start: (w / G)(s + sym) in the node's terms.
          const wm = w[t.next.length]!;
          const j = symbol.get(missNode(t.miss.next))!;
          const skipped = phases - 1 - p;
          c[j] = add(c[j]!, mul(wm, gPow[phases - p - 1]!));
          if (skipped > 0) k = add(k, mul(mul(wm, numbers.count(skipped)), mul(gPow[phases - p - 1]!, lowerDen)));
        }
        coef[node] = c;
        cnum[node] = k;
      }
    }
    // sym_i = cnum_i / (G^P L) + sum_j coef_ij sym_j / G^P, i.e. (G^P I - coef) (L sym) = cnum.
    const a: Row<N>[] = [];
    const b = numbers.row(ns, zero);
    for (const [idx, i] of symbol) {
      const c = coef[idx]!;
      const row = numbers.row(ns, zero);
      for (let j = 0; j < ns; j++) row[j] = numbers.neg(c[j]!);
      row[i] = add(row[i]!, gPow[phases]!);
      a.push(row);
      b[i] = cnum[idx]!;
    }
    const sol = numbers.solve(a, b);
    // value(node at p) = (cnum * xden + sum_j coef_j xnum_j) / (G^(P-p) xden L).
    const dens: N[] = [];
    for (let p = 0; p < phases; p++) dens.push(mul(mul(gPow[phases - p]!, sol.den), lowerDen));
    for (let p = 0; p < phases; p++) {
      for (let idx = 0; idx < stride; idx++) {
        const node = p * stride + idx;
        if (!inBlock(idx) || !trans[node] || bad[node]) continue;
        const c = coef[node]!;
        let v = mul(cnum[node]!, sol.den);
        for (let j = 0; j < ns; j++) if (!numbers.isZero(c[j]!)) v = add(v, mul(c[j]!, sol.num[j]!));
        num[node] = v;
        den[node] = dens[p]!;
      }
    }
    lowerDen = mul(mul(lowerDen, gPow[phases]!), sol.den);
  }
  return { num, den };
}

/** The unlimited chain's first state: the sequence's start with at most `limit` markers. */
export function unlimitedStart(model: SequenceModel, limit: number): number {
  const idx = model.start;
  return stateIndex(Math.min(markersOf(idx), limit), downOf(idx), toughLeftOf(idx), blessingLeftOf(idx));
}
