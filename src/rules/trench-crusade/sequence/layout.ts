/**
 * What a sequence reports: outcomes at the end of the N attacks, means, and the histograms of the attack
 * that took the target Out of Action and of the markers left on it. The exact chain and the simulator
 * both fill this layout.
 */
import type { MeanSpec, ReportLayout } from '../../../model/types.js';
import { planInjuryRoll } from '../exact.js';
import { sequenceInjuryInput, type SequenceScenario } from './model.js';
import { extraMarkersPerRoll } from '../tables.js';
import { markerCapOf, mostMarkersPlaced } from './rules.js';

export const SEQUENCE_OUTCOMES = ['standing', 'down', 'out-of-action'] as const;

export const attacksMadeMean: MeanSpec = { id: 'attacksMade', jsonKey: 'expectedAttacksMade', label: 'attacks made, at most the attacks given: fewer when Out of Action comes first', favours: 'target' };
export const spentMean: MeanSpec = { id: 'bloodMarkersSpent', jsonKey: 'expectedBloodMarkersSpent', label: 'blood markers the attacker spent' };
export const toughSavedMean: MeanSpec = { id: 'toughSaved', jsonKey: 'toughSavedChance', label: 'chance that Tough saved it at least once', favours: 'target' };
/** The same chance where the save is the first Out of Action's No Effect (firstOutOfActionNoEffect): the same key, its own words. */
export const noEffectSavedMean: MeanSpec = { ...toughSavedMean, label: 'chance that its first Out of Action was a No Effect' };
export const unlimitedMean: MeanSpec = {
  id: 'attacksToOutOfAction',
  jsonKey: 'expectedAttacks',
  label: 'attacks to Out of Action with unlimited attacks',
  favours: 'target',
};

/** Histogram ids; the first gives P(Out of Action within n attacks) by summing its bins. */
export const OUT_AT_HISTOGRAM = 'outOfActionAt';
export const FINAL_MARKERS_HISTOGRAM = 'finalBloodMarkers';
export const SURVIVED_BIN = 'survived';
export const OUT_BIN = 'out-of-action';

/**
 * Is Out of Action certain with unlimited attacks, whatever the state? It is when an attack can hit and
 * an injury roll with no markers spent can reach 9: more dice, a Bloodbath and a Down target only widen
 * the pool, and the keep-lowest pool still rolls all sixes sometimes. Then the expected attacks are
 * finite and the simulator can play each trial to the end. (The exact answer reports the expectation
 * in any case, infinite or not.)
 */
export function unlimitedIsCertain(s: SequenceScenario): boolean {
  // A GOLEM goes out of action only to a Bloodbath, which the markers may never pay for: not certain.
  if (s.golem) return false;
  const roll = s.rules.successRoll;
  const hits = s.autoHit || 6 * roll.dice + s.attackModifier >= roll.hit;
  const plan = planInjuryRoll(sequenceInjuryInput(s, { bloodbath: false, targetDown: false, toughSaves: (s.tough || s.firstOutOfActionNoEffect) && !s.toughUsed }), false);
  return hits && 6 * plan.baseDice + plan.modifier >= s.rules.injuryTable.outOfAction;
}

/** Most markers the finite chain (and the final-markers histogram) can show. */
export function maxFinalMarkers(s: SequenceScenario): number {
  return Math.min(markerCapOf(s.markerCap), s.bloodMarkers + mostMarkersPlaced(s.rules, extraMarkersPerRoll(s), s.bloodMarkersMultiplier) * s.attacks);
}

export function sequenceLayout(s: SequenceScenario): ReportLayout {
  const n = s.attacks;
  const outBins: string[] = [];
  for (let j = 1; j <= n; j++) outBins.push(String(j));
  outBins.push(SURVIVED_BIN);
  const markerBins = [OUT_BIN];
  for (let m = 0; m <= maxFinalMarkers(s); m++) markerBins.push(String(m));
  return {
    outcomes: SEQUENCE_OUTCOMES,
    // A chart's bar is the state at the end of all N attacks, not one roll's outcome.
    trial: 'sequence',
    means: [attacksMadeMean, spentMean, s.firstOutOfActionNoEffect ? noEffectSavedMean : toughSavedMean, ...(unlimitedIsCertain(s) ? [unlimitedMean] : [])],
    histograms: [
      { id: OUT_AT_HISTOGRAM, label: 'attack that took it Out of Action', bins: outBins, cumulative: { jsonKey: 'outOfActionWithin', indexKey: 'attacks' } },
      { id: FINAL_MARKERS_HISTOGRAM, label: 'blood markers on the target at the end', bins: markerBins },
    ],
  };
}

