/**
 * What a `turns` scenario reports: the target after the last turn's attack (the `attack` kind's
 * outcomes), the turn it was Incapacitated in, the wounds it lost, and its state after every turn's
 * attack. The exact chain and the simulator both fill this layout.
 */
import type { MeanSpec, ReportLayout } from '../../../model/types.js';
import type { D20WarbandScenario } from '../fields.js';
import { ATTACK_OUTCOMES, modifierValue } from '../tables.js';

export const attacksMadeMean: MeanSpec = {
  id: 'attacksMade',
  jsonKey: 'expectedAttacksMade',
  label: 'attack checks made over all turns (critical hits included)',
};
export const turnsMean: MeanSpec = {
  id: 'turnsToIncapacitated',
  jsonKey: 'expectedTurns',
  label: 'turns to Incapacitated with unlimited turns',
};

export const INCAPACITATED_AT = 'incapacitatedAt';
export const NEVER_BIN = 'not-incapacitated';
export const stateHistogramId = (turn: number) => `stateAfterTurn${turn}`;

/**
 * Is the target Incapacitated sooner or later for sure, from any state? It is when a natural 20 (which
 * always hits) plus the Injury modifier reaches 18: a natural 1-4 always fails the Defence check (or a
 * "-" Defence makes none), each hit that gets through costs a wound, wounds never return, and at none
 * left such a hit Incapacitates. Then the expected turns are finite and a simulated trial always ends.
 */
export function incapacitationCertain(s: D20WarbandScenario<'turns'>): boolean {
  const injuryAdd = modifierValue(s.injury) + (s.attackModifierToInjury === true ? s.modifier : 0);
  return 20 + injuryAdd >= 18;
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
    means: [attacksMadeMean, ...(incapacitationCertain(s) ? [turnsMean] : [])],
    histograms: [
      { id: INCAPACITATED_AT, label: 'turn the target was Incapacitated in', bins: at, cumulative: { jsonKey: 'incapacitatedBy', indexKey: 'turn' } },
      { id: 'woundsLost', label: 'wounds lost', bins: lost },
      ...byTurn,
    ],
  };
}
