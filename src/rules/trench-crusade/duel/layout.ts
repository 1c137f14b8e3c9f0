/**
 * What a duel reports: who won, or neither within the rounds; the activations made; and the round each
 * side won in (whose running sums are `decidedWithin`). The exact chain and the simulator both fill it.
 */
import type { MeanSpec, ReportLayout } from '../../../model/types.js';

export const DUEL_OUTCOMES = ['a-wins', 'b-wins', 'undecided'] as const;
export const A_WINS = 0;
export const B_WINS = 1;
export const UNDECIDED = 2;

export const activationsMean: MeanSpec = { id: 'activations', jsonKey: 'expectedActivations', label: 'activations made (both sides, at most 2 per round)' };

export const A_WON_IN = 'aWonInRound';
export const B_WON_IN = 'bWonInRound';
/** The bin of a side that did not win within the rounds. */
export const NOT_WON_BIN = 'not-won';

export function duelLayout(rounds: number): ReportLayout {
  const bins: string[] = [];
  for (let r = 1; r <= rounds; r++) bins.push(String(r));
  bins.push(NOT_WON_BIN);
  return {
    outcomes: DUEL_OUTCOMES,
    unranked: true,
    means: [activationsMean],
    histograms: [
      { id: A_WON_IN, label: 'round a won in', bins, cumulative: { jsonKey: 'aWinsWithin', indexKey: 'round' } },
      { id: B_WON_IN, label: 'round b won in', bins, cumulative: { jsonKey: 'bWinsWithin', indexKey: 'round' } },
    ],
  };
}
