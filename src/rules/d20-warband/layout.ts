import type { MeanSpec, ReportLayout } from '../../model/types.js';
import type { D20WarbandScenario } from './fields.js';
import type { D20WarbandRules } from './rule-spec.js';
import { ATTACK_OUTCOMES, CHECK_OUTCOMES, DIE_SIDES, INJURY_ROLL_OUTCOMES } from './tables.js';

/** What each one-action kind reports (its tally laid out as src/model/tally.ts says): the system's kinds and its simulator read it here. */

/**
 * How often the kept die is a natural that always succeeds (naturalSuccessMin or more: a natural 20 in the
 * rules). The id and JSON key keep the rules' name under a variant; the label says the table's naturals.
 */
export function naturalTwentyMean(rules: D20WarbandRules): MeanSpec {
  const n = rules.naturalSuccessMin;
  const label = n === DIE_SIDES ? 'natural 20 rolled' : n > DIE_SIDES ? 'natural that always succeeds rolled (none here)' : `natural ${n}-${DIE_SIDES} rolled`;
  return { id: 'natural20', jsonKey: 'naturalTwentyProbability', label };
}

export const attacksMadeMean: MeanSpec = {
  id: 'attacksMade',
  jsonKey: 'expectedAttacks',
  label: 'attacks made (critical hits included)',
  favours: 'attacker',
};

export const checkLayout = (s: D20WarbandScenario<'check'>): ReportLayout => ({ outcomes: CHECK_OUTCOMES, means: [naturalTwentyMean(s.rules)], histograms: [] });
export const injuryRollLayout: ReportLayout = { outcomes: INJURY_ROLL_OUTCOMES, means: [], histograms: [] };

/** The wounds-lost histogram has one bin per wound the target can lose, so it depends on the scenario. */
export function attackLayout(s: D20WarbandScenario<'attack'>): ReportLayout {
  const wounds = s.wounds;
  const bins: string[] = [];
  for (let i = 0; i <= wounds; i++) bins.push(String(i));
  return {
    outcomes: ATTACK_OUTCOMES,
    means: [attacksMadeMean],
    histograms: [{ id: 'woundsLost', label: 'wounds lost', bins }],
  };
}
