/**
 * The exact `turns` chain: the target's (injury state, wounds left) from one attack action to the next.
 * Each turn's action is the `attack` kind's exact chain (../exact.ts, solveAttack) started from the
 * target as it is that turn; between turns it recovers (./rules.ts). Incapacitated is absorbing.
 *
 * With unlimited turns the expected number of turns to Incapacitated solves a linear system. Wounds
 * never come back, so the system is triangular by wounds left, and each level has at most four unknowns
 * (the injury states), solved in fractions.
 */
import { type Fraction, ONE, ZERO, add, formatFraction, mul, sub, toNumber } from '../../../exact/fraction.js';
import { solveFractionSystem } from '../../../exact/linear.js';
import type { ExactAnswer } from '../../../model/types.js';
import type { D20WarbandScenario } from '../fields.js';
import { attackOutcomeIndex, attackPlan, solveAttack } from '../exact.js';
import { ATTACK_OUTCOMES, INCAPACITATED, STAGGERED, type Severity } from '../tables.js';
import { turnsLayout, turnsMean } from './layout.js';
import { betweenAttacks } from './rules.js';

const key = (state: Severity, wounds: number) => state * 64 + wounds;
const stateOf = (k: number) => Math.floor(k / 64) as Severity;
const woundsOf = (k: number) => k % 64;

interface Action {
  /** (state, wounds) after the action, with probabilities. */
  readonly finals: ReadonlyMap<number, Fraction>;
  /** Expected attack checks in the action. */
  readonly attacks: Fraction;
}

function actions(s: D20WarbandScenario<'turns'>): (k: number) => Action {
  const plan = attackPlan(s);
  const cache = new Map<number, Action>();
  return (k) => {
    let a = cache.get(k);
    if (!a) {
      const state = stateOf(k);
      // Each turn's action starts afresh: Staggered's Defence disadvantage lasts the action it starts in.
      a = solveAttack({ ...plan, startState: state, startWounds: woundsOf(k), staggeredAllAction: s.staggerPersists !== false && state === STAGGERED });
      cache.set(k, a);
    }
    return a;
  };
}

export function turnsExact(s: D20WarbandScenario<'turns'>): ExactAnswer {
  const layout = turnsLayout(s);
  const turns = s.turns;
  const wounds = s.wounds;
  const mode = s.targetTurn;
  const action = actions(s);
  const startKey = key(attackPlan(s).startState, wounds);

  // dist: the target after each turn's attack; Incapacitated entries stay (with the wounds they had).
  let dist = new Map<number, Fraction>([[startKey, ONE]]);
  let attacksMade = ZERO;
  const incapAt: Fraction[] = [];
  const byTurn: Fraction[][] = [];
  for (let t = 1; t <= turns; t++) {
    const next = new Map<number, Fraction>();
    const put = (k: number, p: Fraction) => next.set(k, add(next.get(k) ?? ZERO, p));
    let newly = ZERO;
    for (const [k, p] of dist) {
      if (stateOf(k) === INCAPACITATED) {
        put(k, p);
        continue;
      }
      const at = t === 1 ? k : key(betweenAttacks(stateOf(k), mode), woundsOf(k));
      const a = action(at);
      attacksMade = add(attacksMade, mul(p, a.attacks));
      for (const [f, q] of a.finals) {
        const pq = mul(p, q);
        put(f, pq);
        if (stateOf(f) === INCAPACITATED) newly = add(newly, pq);
      }
    }
    dist = next;
    incapAt.push(newly);
    byTurn.push(outcomesOf(dist, wounds));
  }
  const lost: Fraction[] = new Array<Fraction>(wounds + 1).fill(ZERO);
  for (const [k, p] of dist) lost[wounds - woundsOf(k)] = add(lost[wounds - woundsOf(k)]!, p);
  const incapacitated = incapAt.reduce(add, ZERO);

  const unlimited = expectedTurns(s, startKey);
  const means = [attacksMade];
  const includesTurns = layout.means.some((m) => m.id === turnsMean.id);
  if (includesTurns) {
    if (!unlimited) throw new Error('internal: expected turns infinite where the layout promised them finite');
    means.push(unlimited);
  }
  const by: { turn: number; probability: number; exact: string }[] = [];
  let cumulative = ZERO;
  incapAt.forEach((p, i) => {
    cumulative = add(cumulative, p);
    by.push({ turn: i + 1, probability: toNumber(cumulative), exact: formatFraction(cumulative) });
  });
  const extra: Record<string, unknown> = { incapacitatedBy: by };
  if (!includesTurns) extra.expectedTurns = unlimited ? { value: toNumber(unlimited), exact: formatFraction(unlimited) } : { value: null, exact: 'infinite' };
  return {
    outcomes: byTurn[turns - 1]!,
    means,
    histograms: [[...incapAt, sub(ONE, incapacitated)], lost, ...byTurn],
    extra,
    notes: [
      `${turns} turns, one attack action per turn; between turns the target recovers (${
        mode === 'shared'
          ? 'end of turn: Staggered clears; next Upkeep: Stunned to Dazed, Dazed to Staggered'
          : "the target's whole turn: Stunned to Dazed, Dazed to uninjured, Staggered clears"
      }); wounds do not come back`,
      'States are reported after each turn\'s attack, before the target recovers',
    ],
  };
}

/** The `attack` kind's outcomes for a distribution of (state, wounds). */
function outcomesOf(dist: ReadonlyMap<number, Fraction>, startWounds: number): Fraction[] {
  const out: Fraction[] = new Array<Fraction>(ATTACK_OUTCOMES.length).fill(ZERO);
  for (const [k, p] of dist) {
    const i = attackOutcomeIndex(stateOf(k), startWounds - woundsOf(k));
    out[i] = add(out[i]!, p);
  }
  return out;
}

/**
 * Expected turns to Incapacitated with unlimited turns, from the target as it is at the first attack;
 * undefined when that is infinite (some reachable state can never be Incapacitated).
 */
export function expectedTurns(s: D20WarbandScenario<'turns'>, startKey: number): Fraction | undefined {
  const mode = s.targetTurn;
  const action = actions(s);
  // Nodes: the target at the start of an attack action. Explore what the start can reach.
  const succ = new Map<number, { next: number; p: Fraction }[]>();
  const incapDirect = new Set<number>();
  const todo = [startKey];
  succ.set(startKey, []);
  while (todo.length) {
    const k = todo.pop()!;
    const edges: { next: number; p: Fraction }[] = [];
    for (const [f, q] of action(k).finals) {
      if (stateOf(f) === INCAPACITATED) {
        incapDirect.add(k);
        continue;
      }
      const n = key(betweenAttacks(stateOf(f), mode), woundsOf(f));
      edges.push({ next: n, p: q });
      if (!succ.has(n)) {
        succ.set(n, []);
        todo.push(n);
      }
    }
    succ.set(k, edges);
  }
  // A node whose every path avoids Incapacitated, or that can reach such a node, has infinite value.
  const canEnd = new Set(incapDirect);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [k, edges] of succ) if (!canEnd.has(k) && edges.some((e) => canEnd.has(e.next))) canEnd.add(k), (changed = true);
  }
  const bad = new Set([...succ.keys()].filter((k) => !canEnd.has(k)));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [k, edges] of succ) if (!bad.has(k) && edges.some((e) => bad.has(e.next))) bad.add(k), (changed = true);
  }
  if (bad.has(startKey)) return undefined;

  const h = new Map<number, Fraction>();
  const levels = [...new Set([...succ.keys()].map(woundsOf))].sort((a, b) => a - b);
  for (const w of levels) {
    const unknowns = [...succ.keys()].filter((k) => woundsOf(k) === w && !bad.has(k)).sort((a, b) => a - b);
    const index = new Map(unknowns.map((k, i) => [k, i]));
    // h(k) - sum_same p h(next) = 1 + sum_lower p h(next)
    const a: Fraction[][] = unknowns.map((_, i) => unknowns.map((__, j) => (i === j ? ONE : ZERO)));
    const b: Fraction[] = unknowns.map(() => ONE);
    unknowns.forEach((k, i) => {
      for (const e of succ.get(k)!) {
        const j = index.get(e.next);
        if (j !== undefined) a[i]![j] = sub(a[i]![j]!, e.p);
        else b[i] = add(b[i]!, mul(e.p, h.get(e.next)!));
      }
    });
    const x = solveFractionSystem(a, b);
    unknowns.forEach((k, i) => h.set(k, x[i]!));
  }
  return h.get(startKey);
}
