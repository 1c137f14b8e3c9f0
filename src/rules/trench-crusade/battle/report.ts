/**
 * What a battle reports (issue 50): who won, or a draw; how the game was decided; the turn it ended in;
 * turns played and models taken Out of Action on each side.
 */
import { histogramOffset, meanOffset, tallyOffsets } from '../../../model/tally.js';
import type { MeanSpec, ReportLayout } from '../../../model/types.js';

export const BATTLE_OUTCOMES = ['a-wins', 'b-wins', 'draw'] as const;
export const A_WINS = 0;
export const B_WINS = 1;
export const DRAW = 2;

/** How a game was decided (ruling B1, B33, B35): the order of `DECIDED_BY`'s bins. */
export const DECIDED_BY = ['wiped-out', 'morale', 'victory-points', 'draw'] as const;
export const BY_WIPE_OUT = 0;
export const BY_MORALE = 1;
export const BY_VICTORY_POINTS = 2;
export const BY_DRAW = 3;

const turnsMean: MeanSpec = { id: 'turns', jsonKey: 'expectedTurns', label: 'turns played' };
const aLostMean: MeanSpec = { id: 'aOutOfAction', jsonKey: 'expectedAOutOfAction', label: "a's models taken Out of Action" };
const bLostMean: MeanSpec = { id: 'bOutOfAction', jsonKey: 'expectedBOutOfAction', label: "b's models taken Out of Action" };
const ENDED_IN = 'endedInTurn';
const DECIDED = 'decidedBy';

/** Each entry of each side, as a layout names its means: the side's key and the entry's name. */
export interface BattleEntryNames {
  readonly a: readonly string[];
  readonly b: readonly string[];
}

const entryMeans = (side: 'a' | 'b', names: readonly string[]): MeanSpec[] =>
  names.flatMap((name, e) => [
    { id: `${side}.${e}.standing`, jsonKey: `${side}.${e}.standing`, label: `${side}: ${name}: models standing at the end (not Out of Action)` },
    { id: `${side}.${e}.takenOut`, jsonKey: `${side}.${e}.takenOut`, label: `${side}: ${name}: enemy models it took Out of Action` },
  ]);

/** What a battle of `turns` turns reports, with two means per entry (models standing at the end, enemies taken Out of Action) when `entries` are named. */
export function battleLayout(turns: number, entries: BattleEntryNames = { a: [], b: [] }): ReportLayout {
  const bins: string[] = [];
  for (let t = 1; t <= turns; t++) bins.push(String(t));
  return {
    outcomes: BATTLE_OUTCOMES,
    unranked: true,
    trial: 'battle',
    means: [turnsMean, aLostMean, bLostMean, ...entryMeans('a', entries.a), ...entryMeans('b', entries.b)],
    histograms: [
      { id: ENDED_IN, label: 'turn the game ended in', bins },
      { id: DECIDED, label: 'how the game was decided', bins: DECIDED_BY },
    ],
  };
}

/**
 * How the simulator counts one game into its tally: the winner (A_WINS, B_WINS, DRAW), how it was
 * decided (BY_...), the turns played (the turn it ended in), each side's models taken Out of Action, and
 * per entry (side a's entries, then side b's) its models standing at the end and the enemies it took out.
 */
export function battleTallyCounter(
  turns: number,
  entries: BattleEntryNames,
): (tally: Float64Array, winner: number, decidedBy: number, turnsPlayed: number, aLost: number, bLost: number, standing: Float64Array, takenOut: Float64Array) => void {
  const layout = battleLayout(turns, entries);
  const outcomesAt = tallyOffsets(layout).outcomes;
  const turnsAt = meanOffset(layout, turnsMean.id);
  const aLostAt = meanOffset(layout, aLostMean.id);
  const bLostAt = meanOffset(layout, bLostMean.id);
  const endedAt = histogramOffset(layout, ENDED_IN);
  const decidedAt = histogramOffset(layout, DECIDED);
  // Each entry's two means, side a's entries first: where each one's sum is (its sum of squares follows).
  const ids = [...entries.a.map((_, e) => `a.${e}`), ...entries.b.map((_, e) => `b.${e}`)];
  const count = ids.length;
  const standingAt = Int32Array.from(ids, (id) => meanOffset(layout, `${id}.standing`));
  const takenOutAt = Int32Array.from(ids, (id) => meanOffset(layout, `${id}.takenOut`));
  return (tally, winner, decidedBy, turnsPlayed, aLost, bLost, standing, takenOut) => {
    tally[outcomesAt + winner]! += 1;
    tally[turnsAt]! += turnsPlayed;
    tally[turnsAt + 1]! += turnsPlayed * turnsPlayed;
    tally[aLostAt]! += aLost;
    tally[aLostAt + 1]! += aLost * aLost;
    tally[bLostAt]! += bLost;
    tally[bLostAt + 1]! += bLost * bLost;
    for (let e = 0; e < count; e++) {
      const st = standing[e]!;
      const out = takenOut[e]!;
      tally[standingAt[e]!]! += st;
      tally[standingAt[e]! + 1]! += st * st;
      tally[takenOutAt[e]!]! += out;
      tally[takenOutAt[e]! + 1]! += out * out;
    }
    tally[endedAt + turnsPlayed - 1]! += 1;
    tally[decidedAt + decidedBy]! += 1;
  };
}
