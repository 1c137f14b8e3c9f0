/**
 * The Trench Crusade `sequence` kind's exact answer: up to N attacks by one attacker on one target whose
 * state carries over (issue 6). ./chain.ts solves the chain, ./optimal-finite.ts and ./optimal-unlimited.ts
 * find the optimal policy, ./check.ts refuses what a sequence cannot have, ./simulate.ts is the
 * independent simulator.
 */
import { type Fraction, ONE, ZERO, add, compare, formatFraction, fraction, sub, toNumber } from '../../../exact/fraction.js';
import type { ExactAnswer } from '../../../model/types.js';
import { describePlan, describeRangedCase, planInjuryRoll } from '../exact.js';
import { extraMarkersPerRoll } from '../tables.js';
import { runFinite, solveUnlimited, unlimitedStart, type FiniteResult } from './chain.js';
import { buildModel, downOf, fixedDecision, markersOf, sequenceInjuryInput, toughLeftOf, type SequenceModel, type SequenceScenario } from './model.js';
import { optimalFinite } from './optimal-finite.js';
import { optimalUnlimited } from './optimal-unlimited.js';
import { describeFinite, describeUnlimited, type PolicyRule } from './describe.js';
import { NO_CAP, attacksPerActivationOf, unlimitedMarkerLimit, type Policy } from './rules.js';
import { maxFinalMarkers, sequenceLayout, unlimitedMean } from './layout.js';

interface PolicyResult {
  readonly finite: FiniteResult;
  /** Expected attacks with unlimited attacks; undefined when infinite. */
  readonly unlimited: Fraction | undefined;
  /** The hoarding limit of the unlimited chain removed markers. */
  readonly limitNote?: string;
  readonly notes: string[];
  readonly rules?: { readonly finite: PolicyRule[]; readonly unlimited: PolicyRule[] };
}

/** The chance of Out of Action within the N attacks. */
const outWithinN = (f: FiniteResult): Fraction => f.outAt.reduce(add, ZERO);

function evaluatePolicy(model: SequenceModel, policy: Policy): PolicyResult {
  const m = policy === model.policy ? model : { ...model, policy };
  const { limit, hoarding } = unlimitedMarkerLimit(m.rules, policy, m.startMarkers, m.attackRollMarkers, m.cap, extraMarkersPerRoll(m.scenario), m.scenario.bloodMarkersMultiplier);
  if (policy === 'optimal') {
    const fin = optimalFinite(m);
    const unl = optimalUnlimited(m, limit);
    const finText = describeFinite(m, fin);
    const unlText = describeUnlimited(m, unl);
    return {
      finite: runFinite(m, fin.decide),
      unlimited: unl.values.value(unlimitedStart(m, limit), 0),
      limitNote: hoarding && unl.values.limitReached ? hoardNote(limit) : undefined,
      notes: [...finText.lines, ...unlText.lines, ...unl.notes],
      rules: { finite: finText.rules, unlimited: unlText.rules },
    };
  }
  const values = solveUnlimited(m, limit, (idx) => fixedDecision(m, idx));
  return {
    finite: runFinite(m, (_k, idx) => fixedDecision(m, idx)),
    unlimited: values.value(unlimitedStart(m, limit), 0),
    limitNote: hoarding && values.limitReached ? hoardNote(limit) : undefined,
    notes: [],
  };
}

function hoardNote(limit: number): string {
  return `Unlimited attacks: the target carries at most ${limit} blood markers in this chain (the edition names no cap; more are lost), and this sequence reaches that limit`;
}

const jsonValue = (f: Fraction) => ({ value: toNumber(f), exact: formatFraction(f) });

export function sequenceExact(s: SequenceScenario): ExactAnswer {
  const layout = sequenceLayout(s);
  const model = buildModel(s);
  const main = evaluatePolicy(model, model.policy);
  const fin = main.finite;
  const n = model.attacks;

  // Sums of whole-number weights over the final denominator, reduced once each.
  let standingW = 0n;
  let downW = 0n;
  let toughUsedW = 0n;
  const markerW = new Array<bigint>(maxFinalMarkers(s) + 1).fill(0n);
  for (const [idx, w] of fin.final) {
    if (downOf(idx) === 1) downW += w;
    else standingW += w;
    if (toughLeftOf(idx) === 0) toughUsedW += w;
    markerW[markersOf(idx)]! += w;
  }
  const standing = fraction(standingW, fin.finalDen);
  const down = fraction(downW, fin.finalDen);
  const byMarkers = markerW.map((w) => fraction(w, fin.finalDen));
  const out = outWithinN(fin);
  const toughCouldSave = toughLeftOf(model.start) === 1;
  // A Tough model that can still be saved only goes Out of Action after Tough has saved it.
  const toughSaved = toughCouldSave ? add(out, fraction(toughUsedW, fin.finalDen)) : ZERO;

  const means: Fraction[] = [fin.attacksMade, fin.spent, toughSaved];
  const includesUnlimited = layout.means.some((m) => m.id === unlimitedMean.id);
  if (includesUnlimited) {
    if (!main.unlimited) throw new Error('internal: unlimited expectation infinite where the layout promised it finite');
    means.push(main.unlimited);
  }

  const within: { attacks: number; probability: number; exact: string }[] = [];
  let cumulative = ZERO;
  fin.outAt.forEach((p, j) => {
    cumulative = add(cumulative, p);
    within.push({ attacks: j + 1, probability: toNumber(cumulative), exact: formatFraction(cumulative) });
  });

  const extra: Record<string, unknown> = { outOfActionWithin: within };
  if (!includesUnlimited) extra.expectedAttacks = main.unlimited ? jsonValue(main.unlimited) : { value: null, exact: 'infinite' };

  const notes = [...describeSequence(s, model)];
  if (main.limitNote) notes.push(main.limitNote);
  if (model.policy === 'optimal') {
    const others: Policy[] = ['all', 'none', ...(model.rules.bloodbath.available ? (['bloodbath'] as Policy[]) : [])];
    const gains: Record<string, unknown> = {};
    const lines: string[] = [];
    for (const other of others) {
      const r = evaluatePolicy(model, other);
      const theirs = outWithinN(r.finite);
      const gain = sub(out, theirs);
      if (compare(gain, ZERO) < 0) throw new Error(`internal: optimal is worse than ${other}`);
      gains[other] = { outOfActionWithin: jsonValue(theirs), gain: jsonValue(gain) };
      lines.push(`${other} ${pct(theirs)} (optimal gains ${pctPoints(gain)})`);
    }
    extra.optimal = { outOfActionWithin: jsonValue(out), versus: gains, policy: main.rules };
    notes.push(`Optimal spending reaches ${pct(out)} Out of Action within ${n} attacks; ${lines.join('; ')} (exact gains in the JSON output)`);
    notes.push(...main.notes);
  }
  return {
    outcomes: [standing, down, out],
    means,
    histograms: [
      [...fin.outAt, sub(ONE, out)],
      [out, ...byMarkers],
    ],
    extra,
    notes,
  };
}

const pct = (f: Fraction) => `${(toNumber(f) * 100).toFixed(4)}%`;
const pctPoints = (f: Fraction) => `${(toNumber(f) * 100).toFixed(4)} percentage points`;

function describeSequence(s: SequenceScenario, model: SequenceModel): string[] {
  const per = attacksPerActivationOf(s.attacksPerActivation);
  const cap = s.markerCap === NO_CAP ? 'no cap on blood markers' : `at most ${s.markerCap} blood markers per model`;
  const lines = [
    `${model.attacks} attacks${per > 0 ? `, ${per} per activation (a Down target stands up between activations)` : ' in one activation'}; policy ${model.policy}${
      model.attackRollMarkers > 0 ? `, up to ${model.attackRollMarkers} markers on each attack roll` : ''
    }; blessing policy ${model.blessingPolicy}; ${cap}`,
    `Injury roll on a hit, no markers spent: ${describePlan(planInjuryRoll(sequenceInjuryInput(s, { bloodbath: false, targetDown: s.targetDown, toughSaves: (s.tough || s.firstOutOfActionNoEffect) && !s.toughUsed }), false))}`,
  ];
  const ranged = describeRangedCase(s);
  if (ranged) lines.splice(1, 0, ranged);
  return lines;
}
