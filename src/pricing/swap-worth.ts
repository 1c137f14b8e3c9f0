/**
 * What an entry is worth in a real warband (issue 50, part 2): `injury-lab battle --swap "NEW for OLD"`
 * plays side a's warband three ways against side b, as asked (A), with NEW in place of OLD (S) and
 * without OLD (W), each a share of side a (wins, draws half). OLD's ducats buy A - W points of share
 * here: that is this warband's rate of ducats to share, read where it is spent. NEW in OLD's place
 * gives S - W; at OLD's rate it is worth
 *
 *   worth = OLD's ducats x (S - W) / (A - W),
 *
 * a straight line through "without" and "as asked" (a warband's share is not linear in its ducats far
 * from there: the worth of a NEW much stronger or weaker than OLD is an extrapolation, and said so by
 * its interval). Where side a does better without OLD (fewer standing models take the initiative, B4),
 * or OLD's A - W cannot be told from 0, there is no rate and no worth: said, with why. The interval is the delta method over the three runs' sampling, taken as independent
 * (they share a seed, which only makes their differences steadier: the interval errs wide). No I/O.
 */
import type { SwapRead } from '../input/battle-core.js';
import { type MatchupCounts, shareOf } from './battle-prices.js';
import { Z95 } from '../stats/normal.js';


/** Side a's share of one battle's games: wins, draws counting half, with its standard error. */
export interface SideShare {
  readonly games: number;
  readonly aWins: number;
  readonly draws: number;
  readonly share: number;
  readonly standardError: number;
}

export function sideShareOf(c: MatchupCounts): SideShare {
  const { share, variance, games } = shareOf(c);
  return { games, aWins: c.aWins, draws: c.draws, share, standardError: Math.sqrt(variance / games) };
}

/** A difference of shares, in points of share (0.05 is 5 points), with its 95% interval. */
export interface ShareGain {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

export interface SwapWorth {
  readonly swap: SwapRead;
  readonly asked: SideShare;
  readonly swapped: SideShare;
  readonly without: SideShare;
  /** A - W: what OLD adds to side a's share here. */
  readonly outgoingGain: ShareGain;
  /** S - A: what the swap changes. */
  readonly swapGain: ShareGain;
  /** OLD's ducats (its count times its cost); undefined where it has no cost. */
  readonly outgoingDucats: number | undefined;
  /** NEW's worth in ducats here, with its 95% interval; undefined with `why` where there is none. */
  readonly worth?: { readonly value: number; readonly low: number; readonly high: number };
  readonly why?: string;
  /** NEW's price (its count times its cost), and worth - price. */
  readonly incomingDucats: number | undefined;
  readonly difference: number | undefined;
}

function gain(x: SideShare, y: SideShare): ShareGain {
  const value = x.share - y.share;
  const se = Math.hypot(x.standardError, y.standardError);
  return { value, low: value - Z95 * se, high: value + Z95 * se };
}

export function swapWorth(swap: SwapRead, asked: SideShare, swapped: SideShare, without: SideShare): SwapWorth {
  const outgoingGain = gain(asked, without);
  const swapGain = gain(swapped, asked);
  const ducatsOf = (x: SwapRead['incoming']) => (x.cost === undefined ? undefined : x.cost * x.count);
  const outgoingDucats = ducatsOf(swap.outgoing);
  const incomingDucats = ducatsOf(swap.incoming);
  const base = { swap, asked, swapped, without, outgoingGain, swapGain, outgoingDucats, incomingDucats };
  if (outgoingDucats === undefined) return { ...base, why: `${swap.outgoing.text} has no cost: its ducats are the yardstick`, difference: undefined };
  if (outgoingGain.high < 0) {
    return { ...base, why: `side a does better without ${swap.outgoing.text} here (${points(outgoingGain.value)} points; fewer standing models take the initiative, ruling B4): its ducats buy nothing to measure by; swap out another entry`, difference: undefined };
  }
  if (outgoingGain.low <= 0) {
    return { ...base, why: `what ${swap.outgoing.text} adds to side a's share here cannot be told from nothing (95%: ${points(outgoingGain.low)} to ${points(outgoingGain.high)} points): no rate of ducats to share; play more games, or swap out another entry`, difference: undefined };
  }
  const u = swapped.share - without.share;
  const v = asked.share - without.share;
  const value = (outgoingDucats * u) / v;
  // The delta method: f = C u / v with u = S - W, v = A - W.
  const c = outgoingDucats;
  const variance = c * c * ((swapped.standardError / v) ** 2 + (asked.standardError * u) ** 2 / v ** 4 + (without.standardError * (u - v)) ** 2 / v ** 4);
  const half = Z95 * Math.sqrt(variance);
  const worth = { value, low: value - half, high: value + half };
  return { ...base, worth, difference: incomingDucats === undefined ? undefined : value - incomingDucats };
}

/** A share's difference in points, signed, one decimal. */
export function points(x: number): string {
  const p = 100 * x;
  return `${p > 0 ? '+' : ''}${p.toFixed(1)}`;
}
