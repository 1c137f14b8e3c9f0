/**
 * The exact `turns` chain: the target's (injury state, wounds left) from one attack action to the next.
 * Each turn's action is the `attack` kind's exact chain (../exact.ts, solveAttack) started from the
 * target as it is that turn; between turns it recovers (./rules.ts). Incapacitated is absorbing.
 *
 * A sequence of activations like any other (src/exact/absorbing-chain.ts): run forward turn by turn, and
 * with unlimited turns the expected number of turns to Incapacitated solves a linear system. Wounds never
 * come back, so the system is triangular by wounds left, and each level has at most four unknowns (the
 * injury states), solved in fractions.
 */
import { type ChainMove, expectedStepsToAbsorption, runForward } from '../../../exact/absorbing-chain.js';
import { type Fraction, ONE, ZERO, add, formatFraction, sub, toNumber } from '../../../exact/fraction.js';
import type { ExactAnswer } from '../../../model/types.js';
import type { D20WarbandScenario } from '../fields.js';
import { attackOutcomeIndex, attackPlan, solveAttack } from '../exact.js';
import { ATTACK_OUTCOMES, INCAPACITATED, STAGGERED, type Severity } from '../tables.js';
import { turnsLayout, turnsMean } from './layout.js';
import { type TargetTurn, betweenAttacks } from './rules.js';

const key = (state: Severity, wounds: number) => state * 64 + wounds;
const stateOf = (k: number) => Math.floor(k / 64) as Severity;
const woundsOf = (k: number) => k % 64;
const incapacitated = (k: number) => stateOf(k) === INCAPACITATED;
/** The target at the next attack, from the target after this one. */
const recovered = (k: number, mode: TargetTurn) => key(betweenAttacks(stateOf(k), mode), woundsOf(k));

/** One attack action from (state, wounds): where the target ends (next) and the attack checks it makes (reward). */
function actions(s: D20WarbandScenario<'turns'>): (k: number) => ChainMove {
  const plan = attackPlan(s);
  const cache = new Map<number, ChainMove>();
  return (k) => {
    let a = cache.get(k);
    if (!a) {
      const state = stateOf(k);
      // Each turn's action starts afresh: Staggered's Defence disadvantage lasts the action it starts in.
      const solved = solveAttack({ ...plan, startState: state, startWounds: woundsOf(k), staggeredAllAction: s.staggerPersists !== false && state === STAGGERED });
      a = { next: solved.finals, reward: solved.attacks };
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

  // The target after each turn's attack; Incapacitated entries stay (with the wounds they had).
  const run = runForward(startKey, turns, (k, t) => action(t === 1 ? k : recovered(k, mode)), incapacitated);
  const dist = run.after[turns - 1]!;
  const incapAt = run.absorbedAt;
  const attacksMade = run.reward;
  const byTurn = run.after.map((d) => outcomesOf(d, wounds));
  const lost: Fraction[] = new Array<Fraction>(wounds + 1).fill(ZERO);
  for (const [k, p] of dist) lost[wounds - woundsOf(k)] = add(lost[wounds - woundsOf(k)]!, p);
  const incapacitatedWithin = incapAt.reduce(add, ZERO);

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
    histograms: [[...incapAt, sub(ONE, incapacitatedWithin)], lost, ...byTurn],
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
 * undefined when that is infinite (some reachable state can never be Incapacitated). A state of this
 * chain is the target at the start of an attack action; wounds never come back, so the chain is solved
 * one wounds level at a time.
 */
export function expectedTurns(s: D20WarbandScenario<'turns'>, startKey: number): Fraction | undefined {
  const mode = s.targetTurn;
  const action = actions(s);
  const move = (k: number) => {
    const next = new Map<number, Fraction>();
    for (const [f, q] of action(k).next) {
      const to = incapacitated(f) ? f : recovered(f, mode);
      next.set(to, add(next.get(to) ?? ZERO, q));
    }
    return next;
  };
  return expectedStepsToAbsorption(startKey, move, incapacitated, woundsOf);
}
