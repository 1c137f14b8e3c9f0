/**
 * A sequence of activations, whatever the rule system, is an absorbing Markov chain: a state (the
 * target's markers, Down, wounds, Tough left...) moves to the next with whole-number probabilities until
 * it reaches an absorbing one (Out of Action, Incapacitated). This module answers the two questions
 * every such sequence asks, once for all of them:
 *
 * - where the chain stands after each of N steps (runForward), and
 * - how many steps absorption takes on average with no limit (expectedStepsToAbsorption), which is
 *   infinite from any state that can reach a state absorption can never follow (infiniteNodes).
 *
 * The d20 `turns` chain uses all three; the Trench Crusade `sequence` chain, which keeps its weights in
 * whole numbers over one denominator and eliminates an activation's phases itself (its ./chain.ts),
 * uses infiniteNodes.
 */
import { type Fraction, ONE, ZERO, add, mul, sub } from './fraction.js';
import { solveFractionSystem } from './linear.js';

/**
 * The nodes 0..n-1 of infinite expected time to absorption: those from which no path reaches
 * absorption, and those that can reach one of them. `predecessors[v]` lists the nodes with an edge to v;
 * `exists(v)` says whether v is a state of the chain at all.
 */
export function infiniteNodes(
  nodeCount: number,
  exists: (v: number) => boolean,
  absorbsDirectly: (v: number) => boolean,
  predecessors: readonly (readonly number[])[],
): Uint8Array {
  const canAbsorb = new Uint8Array(nodeCount);
  const queue: number[] = [];
  for (let v = 0; v < nodeCount; v++) if (exists(v) && absorbsDirectly(v)) (canAbsorb[v] = 1), queue.push(v);
  while (queue.length) for (const u of predecessors[queue.pop()!]!) if (!canAbsorb[u]) (canAbsorb[u] = 1), queue.push(u);
  const infinite = new Uint8Array(nodeCount);
  for (let v = 0; v < nodeCount; v++) if (exists(v) && !canAbsorb[v]) (infinite[v] = 1), queue.push(v);
  while (queue.length) for (const u of predecessors[queue.pop()!]!) if (!infinite[u]) (infinite[u] = 1), queue.push(u);
  return infinite;
}

/** One step of a transient state: where it goes (absorbing states included), and what the step counts. */
export interface ChainMove {
  readonly next: ReadonlyMap<number, Fraction>;
  /** Expected amount of something the step makes (attack checks, markers): summed over the run. */
  readonly reward?: Fraction;
}

export interface ForwardRun {
  /** The distribution after each step (index step - 1); absorbed mass stays in its absorbing state. */
  readonly after: readonly ReadonlyMap<number, Fraction>[];
  /** The mass absorbed at each step (index step - 1). */
  readonly absorbedAt: readonly Fraction[];
  /** The expected total reward of the steps made. */
  readonly reward: Fraction;
}

/** Runs `steps` steps from `start`; `move(state, step)` is a transient state's step (step from 1). */
export function runForward(
  start: number,
  steps: number,
  move: (state: number, step: number) => ChainMove,
  isAbsorbing: (state: number) => boolean,
): ForwardRun {
  let dist = new Map<number, Fraction>([[start, ONE]]);
  let reward = ZERO;
  const after: Map<number, Fraction>[] = [];
  const absorbedAt: Fraction[] = [];
  for (let t = 1; t <= steps; t++) {
    const next = new Map<number, Fraction>();
    const put = (k: number, p: Fraction) => next.set(k, add(next.get(k) ?? ZERO, p));
    let absorbed = ZERO;
    for (const [k, p] of dist) {
      if (isAbsorbing(k)) {
        put(k, p);
        continue;
      }
      const m = move(k, t);
      if (m.reward) reward = add(reward, mul(p, m.reward));
      for (const [f, q] of m.next) {
        const pq = mul(p, q);
        put(f, pq);
        if (isAbsorbing(f)) absorbed = add(absorbed, pq);
      }
    }
    dist = next;
    after.push(dist);
    absorbedAt.push(absorbed);
  }
  return { after, absorbedAt, reward };
}

/**
 * Expected steps to absorption from `start` with no limit on steps, exactly; undefined when infinite.
 * `move(state)` is a transient state's step. `level(state)` orders the states so that no step climbs
 * (wounds never come back, Tough once used stays used): levels are solved from the lowest up, each a
 * small system reading the values of the levels below.
 */
export function expectedStepsToAbsorption(
  start: number,
  move: (state: number) => ReadonlyMap<number, Fraction>,
  isAbsorbing: (state: number) => boolean,
  level: (state: number) => number,
): Fraction | undefined {
  // The transient states start can reach, numbered in the order found.
  const states: number[] = [start];
  const index = new Map<number, number>([[start, 0]]);
  const edges: { to: number; p: Fraction }[][] = [];
  const absorbs: boolean[] = [];
  for (let i = 0; i < states.length; i++) {
    const from = states[i]!;
    const out: { to: number; p: Fraction }[] = [];
    let direct = false;
    for (const [to, p] of move(from)) {
      if (isAbsorbing(to)) {
        direct = true;
        continue;
      }
      if (level(to) > level(from)) throw new Error(`internal: a step climbs from level ${level(from)} to ${level(to)}`);
      let j = index.get(to);
      if (j === undefined) index.set(to, (j = states.push(to) - 1));
      out.push({ to: j, p });
    }
    edges.push(out);
    absorbs.push(direct);
  }
  const n = states.length;
  const predecessors: number[][] = Array.from({ length: n }, () => []);
  edges.forEach((out, i) => out.forEach((e) => predecessors[e.to]!.push(i)));
  const infinite = infiniteNodes(n, () => true, (v) => absorbs[v]!, predecessors);
  if (infinite[0]) return undefined;

  const value: (Fraction | undefined)[] = new Array(n);
  const levels = [...new Set(states.map(level))].sort((a, b) => a - b);
  for (const l of levels) {
    const unknowns = states.map((_, i) => i).filter((i) => level(states[i]!) === l && !infinite[i]);
    const at = new Map(unknowns.map((i, r) => [i, r]));
    // h(i) - sum over same-level j of p h(j) = 1 + sum over lower-level j of p h(j)
    const a: Fraction[][] = unknowns.map((_, r) => unknowns.map((__, c) => (r === c ? ONE : ZERO)));
    const b: Fraction[] = unknowns.map(() => ONE);
    unknowns.forEach((i, r) => {
      for (const e of edges[i]!) {
        const c = at.get(e.to);
        if (c !== undefined) a[r]![c] = sub(a[r]![c]!, e.p);
        else b[r] = add(b[r]!, mul(e.p, value[e.to]!));
      }
    });
    const x = solveFractionSystem(a, b);
    unknowns.forEach((i, r) => (value[i] = x[r]!));
  }
  return value[0];
}
