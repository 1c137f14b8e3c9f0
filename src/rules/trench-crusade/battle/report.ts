/**
 * What a battle reports (issue 50): who won, or a draw; how the game was decided; the turn it ended in;
 * turns played and models taken Out of Action on each side.
 */
import { histogramOffset, meanOffset, tallyOffsets } from '../../../model/tally.js';
import type { MeanSpec, ReportLayout } from '../../../model/types.js';
import type { BattlePlan } from './plan.js';

export const BATTLE_OUTCOMES = ['a-wins', 'b-wins', 'draw'] as const;
export const A_WINS = 0;
export const B_WINS = 1;
export const DRAW = 2;

/**
 * How a game was decided (rulings B1, B33, B35): a side wiped out, a morale loss, won when the game
 * ended (on victory points, or models standing with victory 'models'), or a draw; the order of the bins.
 */
export const DECIDED_BY = ['wiped-out', 'morale', 'at-the-end', 'draw'] as const;
export const BY_WIPE_OUT = 0;
export const BY_MORALE = 1;
export const BY_LAST_TURN = 2;
export const BY_DRAW = 3;

const turnsMean: MeanSpec = { id: 'turns', jsonKey: 'expectedTurns', label: 'turns played' };
const lostMean = (side: 'a' | 'b'): MeanSpec => ({ id: `${side}OutOfAction`, jsonKey: `expected${side.toUpperCase()}OutOfAction`, label: `${side}'s models taken Out of Action` });
const spentMean = (side: 'a' | 'b'): MeanSpec => ({ id: `${side}MarkersSpent`, jsonKey: `expected${side.toUpperCase()}MarkersSpent`, label: `blood markers ${side} spent (on its injury rolls and against its enemies' success rolls)` });
const ENDED_IN = 'endedInTurn';
const DECIDED = 'decidedBy';

/** Each entry of each side, as a layout names its means: the side's key and the entry's name. */
export interface BattleEntryNames {
  readonly a: readonly string[];
  readonly b: readonly string[];
}

/** What one entry's means measure, each per game: its models standing at the end, enemies it took out, attacks it made. */
export const ENTRY_MEASURES = ['standing', 'takenOut', 'attacks'] as const;
const ENTRY_LABELS: Readonly<Record<(typeof ENTRY_MEASURES)[number], string>> = {
  standing: 'models standing at the end (not Out of Action)',
  takenOut: 'enemy models it took Out of Action',
  attacks: 'attacks it made (each a success roll, or an automatic hit)',
};

const entryMeans = (side: 'a' | 'b', names: readonly string[]): MeanSpec[] =>
  names.flatMap((name, e) => ENTRY_MEASURES.map((m) => ({ id: `${side}.${e}.${m}`, jsonKey: `${side}.${e}.${m}`, label: `${side}: ${name}: ${ENTRY_LABELS[m]}` })));

/** The entries of a plan's sides by name, as its layout names their means. */
export const battleEntryNames = (plan: Pick<BattlePlan, 'a' | 'b'>): BattleEntryNames => ({ a: plan.a.entries.map((e) => e.name), b: plan.b.entries.map((e) => e.name) });

/** What a battle of this plan reports. */
export const battleLayoutOf = (plan: Pick<BattlePlan, 'a' | 'b' | 'turns'>): ReportLayout => battleLayout(plan.turns, battleEntryNames(plan));

/** What a battle of `turns` turns reports, with a mean per entry and measure (ENTRY_MEASURES) when `entries` are named. */
export function battleLayout(turns: number, entries: BattleEntryNames = { a: [], b: [] }): ReportLayout {
  const bins: string[] = [];
  for (let t = 1; t <= turns; t++) bins.push(String(t));
  return {
    outcomes: BATTLE_OUTCOMES,
    unranked: true,
    trial: 'battle',
    means: [turnsMean, lostMean('a'), lostMean('b'), spentMean('a'), spentMean('b'), ...entryMeans('a', entries.a), ...entryMeans('b', entries.b)],
    histograms: [
      { id: ENDED_IN, label: 'turn the game ended in', bins },
      { id: DECIDED, label: 'how the game was decided', bins: DECIDED_BY },
    ],
  };
}

/**
 * One game as the simulator counts it, one object reused from game to game: the winner (A_WINS, B_WINS,
 * DRAW), how it was decided (BY_...), the turns played (the turn it ended in); per side (a, b) its models
 * taken Out of Action and the blood markers it spent; per entry (side a's, then side b's) its models
 * standing at the end, the enemies it took out and the attacks it made.
 */
export interface BattleGame {
  winner: number;
  decidedBy: number;
  turns: number;
  readonly lost: Float64Array;
  readonly spent: Float64Array;
  readonly standing: Float64Array;
  readonly takenOut: Float64Array;
  readonly attacks: Float64Array;
}

export function battleGame(entries: number): BattleGame {
  return { winner: 0, decidedBy: 0, turns: 0, lost: new Float64Array(2), spent: new Float64Array(2), standing: new Float64Array(entries), takenOut: new Float64Array(entries), attacks: new Float64Array(entries) };
}

/** How the simulator adds one game into its tally. */
export function battleTallyCounter(turns: number, entries: BattleEntryNames): (tally: Float64Array, game: BattleGame) => void {
  const layout = battleLayout(turns, entries);
  const outcomesAt = tallyOffsets(layout).outcomes;
  const turnsAt = meanOffset(layout, turnsMean.id);
  const lostAt = Int32Array.from(['a', 'b'] as const, (side) => meanOffset(layout, lostMean(side).id));
  const spentAt = Int32Array.from(['a', 'b'] as const, (side) => meanOffset(layout, spentMean(side).id));
  const endedAt = histogramOffset(layout, ENDED_IN);
  const decidedAt = histogramOffset(layout, DECIDED);
  // Each entry's means, side a's entries first: where each one's sum is (its sum of squares follows).
  const ids = [...entries.a.map((_, e) => `a.${e}`), ...entries.b.map((_, e) => `b.${e}`)];
  const count = ids.length;
  const standingAt = Int32Array.from(ids, (id) => meanOffset(layout, `${id}.standing`));
  const takenOutAt = Int32Array.from(ids, (id) => meanOffset(layout, `${id}.takenOut`));
  const attacksAt = Int32Array.from(ids, (id) => meanOffset(layout, `${id}.attacks`));
  const add = (tally: Float64Array, at: number, v: number) => {
    tally[at]! += v;
    tally[at + 1]! += v * v;
  };
  return (tally, game) => {
    tally[outcomesAt + game.winner]! += 1;
    add(tally, turnsAt, game.turns);
    for (let s = 0; s < 2; s++) {
      add(tally, lostAt[s]!, game.lost[s]!);
      add(tally, spentAt[s]!, game.spent[s]!);
    }
    for (let e = 0; e < count; e++) {
      add(tally, standingAt[e]!, game.standing[e]!);
      add(tally, takenOutAt[e]!, game.takenOut[e]!);
      add(tally, attacksAt[e]!, game.attacks[e]!);
    }
    tally[endedAt + game.turns - 1]! += 1;
    tally[decidedAt + game.decidedBy]! += 1;
  };
}
