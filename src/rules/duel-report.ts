/**
 * What a duel reports, whatever the rule system (issue 24): who won, or neither within the rounds; the
 * activations made; and the round each side won in (whose running sums are `decidedWithin`). Each
 * system's exact chain fills it from a DuelResult (duelResultAnswer), and its simulator from the dice.
 */
import { type Fraction, ONE, ZERO, formatFraction, sub, toNumber } from '../exact/fraction.js';
import { histogramOffset, meanOffset, tallyOffsets } from '../model/tally.js';
import type { ExactAnswer, MeanSpec, ReportLayout } from '../model/types.js';

/** Every system's duel: its kind id, its two sides, and its rounds (each system declares its fields from these). */
export const DUEL_KIND = 'duel';
export const DUEL_SIDES = ['a', 'b'] as const;
export type DuelSideKey = (typeof DUEL_SIDES)[number];
export const MAX_ROUNDS = 50;
export const DEFAULT_ROUNDS = 10;

export const DUEL_OUTCOMES = ['a-wins', 'b-wins', 'undecided'] as const;
/** The outcome of a duel in which this side wins (a value chart by a side measures it), or undefined for a key that is no side. */
export function sideWinsOutcome(side: string): string | undefined {
  const i = (DUEL_SIDES as readonly string[]).indexOf(side);
  return i < 0 ? undefined : DUEL_OUTCOMES[i];
}
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
    trial: 'duel',
    means: [activationsMean],
    histograms: [
      { id: A_WON_IN, label: 'round a won in', bins, cumulative: { jsonKey: 'aWinsWithin', indexKey: 'round' } },
      { id: B_WON_IN, label: 'round b won in', bins, cumulative: { jsonKey: 'bWinsWithin', indexKey: 'round' } },
    ],
  };
}

/**
 * How a duel simulator counts one duel into its tally (laid out by src/model/tally.ts from duelLayout):
 * the winner (A_WINS, B_WINS, UNDECIDED), the round it was won in (1-based; read only for a winner) and
 * the activations made.
 */
export function duelTallyCounter(rounds: number): (tally: Float64Array, winner: number, round: number, activations: number) => void {
  const layout = duelLayout(rounds);
  const outcomesAt = tallyOffsets(layout).outcomes;
  const activationsAt = meanOffset(layout, activationsMean.id);
  const aWonAt = histogramOffset(layout, A_WON_IN);
  const bWonAt = histogramOffset(layout, B_WON_IN);
  return (tally, winner, round, activations) => {
    tally[outcomesAt + winner]! += 1;
    tally[activationsAt]! += activations;
    tally[activationsAt + 1]! += activations * activations;
    tally[aWonAt + (winner === A_WINS ? round - 1 : rounds)]! += 1;
    tally[bWonAt + (winner === B_WINS ? round - 1 : rounds)]! += 1;
  };
}

/** A duel's exact result, as each system's chain finds it. */
export interface DuelResult {
  readonly aWins: Fraction;
  readonly bWins: Fraction;
  readonly undecided: Fraction;
  /** After each round r (index r - 1): the chance each side has won by then. */
  readonly decidedWithin: readonly { readonly round: number; readonly aWins: Fraction; readonly bWins: Fraction }[];
  /** Activations made (one is made when the duel is still on at its start), over all the rounds. */
  readonly expectedActivations: Fraction;
}

/** A duel's exact answer over duelLayout, from its result; `notes` as the system words them. */
export function duelResultAnswer(r: DuelResult, notes?: readonly string[]): ExactAnswer {
  // The round each side won in: the differences of the running sums, then "not won".
  const wonIn = (cumulative: readonly Fraction[], total: Fraction): Fraction[] => {
    const bins: Fraction[] = [];
    let before = ZERO;
    for (const c of cumulative) {
      bins.push(sub(c, before));
      before = c;
    }
    bins.push(sub(ONE, total));
    return bins;
  };
  const shown = (f: Fraction) => ({ probability: toNumber(f), exact: formatFraction(f) });
  return {
    outcomes: [r.aWins, r.bWins, r.undecided],
    means: [r.expectedActivations],
    histograms: [wonIn(r.decidedWithin.map((d) => d.aWins), r.aWins), wonIn(r.decidedWithin.map((d) => d.bWins), r.bWins)],
    extra: { decidedWithin: r.decidedWithin.map((d) => ({ round: d.round, aWins: shown(d.aWins), bWins: shown(d.bWins) })) },
    ...(notes ? { notes: [...notes] } : {}),
  };
}
