/**
 * What a `turns` scenario reports: the target after the last turn's attack (the `attack` kind's
 * outcomes), the turn it was Incapacitated in, the wounds it lost, and its state after every turn's
 * attack. The exact chain and the simulator both fill this layout.
 */
import type { MeanSpec, ReportLayout } from '../../../model/types.js';
import type { D20WarbandScenario } from '../fields.js';
import { ATTACK_OUTCOMES, DIE_SIDES, modifierValue, statValue } from '../tables.js';

export const attacksMadeMean: MeanSpec = {
  id: 'attacksMade',
  jsonKey: 'expectedAttacksMade',
  label: 'attack checks made over all turns (critical hits included)',
};
export const turnsMean: MeanSpec = {
  id: 'turnsToIncapacitated',
  jsonKey: 'expectedTurns',
  label: 'turns to Incapacitated with unlimited turns',
  favours: 'target',
};

export const INCAPACITATED_AT = 'incapacitatedAt';
export const NEVER_BIN = 'not-incapacitated';
export const stateHistogramId = (turn: number) => `stateAfterTurn${turn}`;

/**
 * Is the target Incapacitated sooner or later for sure, from any state? It is when, in the rule table,
 * a natural 20 hits, the Defence check can fail, and a natural 20 plus the Injury modifier reaches the
 * Injury Check's Incapacitated band: each hit that gets through costs a wound, wounds never return, and
 * at none left such a hit Incapacitates. Then the expected turns are finite and a simulated trial always
 * ends. In the rules (v1) the first two always hold - a natural 20 always passes (and is a Critical Hit)
 * and a natural 1-4 always fails the Defence check (or a "-" Defence makes none) - so it is 20 + Injury
 * >= 18. A variant can break them (e.g. naturalFailMax 0 against Defence 1 never lets a hit through);
 * then this says no, which is safe: the expectation is reported as extra, finite or infinite.
 */
export function incapacitationCertain(s: D20WarbandScenario<'turns'>): boolean {
  const rules = s.rules;
  const injuryAdd = modifierValue(s.injury) + (s.attackModifierToInjury === true ? s.modifier : 0);
  // The attack stat is a number (checkCombination refuses "-"). A natural 20 hits when it is a Critical
  // Hit, always succeeds, or reaches the stat (naturalFailMax is below 20).
  const attackNeed = (statValue(s.stat) ?? DIE_SIDES + 1) - s.modifier;
  const topHits = DIE_SIDES >= rules.criticalHitMin || DIE_SIDES >= rules.naturalSuccessMin || DIE_SIDES >= attackNeed;
  // A natural 1 fails the Defence check when it always fails or is below the need; an unimproved "-"
  // makes no roll. (A natural 1 never always succeeds: naturalSuccessMin is at least 2.)
  const defence = statValue(s.defence);
  const improvement = s.defenceModifier - modifierValue(s.pierce);
  const defenceNeed = defence === null ? rules.dashFirstImproved - (improvement - 1) : defence - improvement;
  const defenceCanFail = (defence === null && improvement <= 0) || rules.naturalFailMax >= 1 || defenceNeed > 1;
  return topHits && defenceCanFail && DIE_SIDES + injuryAdd >= rules.injuryCheckTable.incapacitated;
}

export function turnsLayout(s: D20WarbandScenario<'turns'>): ReportLayout {
  const turns = s.turns;
  const at: string[] = [];
  for (let t = 1; t <= turns; t++) at.push(String(t));
  at.push(NEVER_BIN);
  const lost: string[] = [];
  for (let w = 0; w <= s.wounds; w++) lost.push(String(w));
  const byTurn = [];
  for (let t = 1; t <= turns; t++) byTurn.push({ id: stateHistogramId(t), label: `target after turn ${t}'s attack`, bins: ATTACK_OUTCOMES });
  return {
    outcomes: ATTACK_OUTCOMES,
    // A chart's bar is the target's state after all the turns, not one roll's outcome.
    trial: 'sequence',
    means: [attacksMadeMean, ...(incapacitationCertain(s) ? [turnsMean] : [])],
    histograms: [
      { id: INCAPACITATED_AT, label: 'turn the target was Incapacitated in', bins: at, cumulative: { jsonKey: 'incapacitatedBy', indexKey: 'turn' } },
      { id: 'woundsLost', label: 'wounds lost', bins: lost },
      ...byTurn,
    ],
  };
}
