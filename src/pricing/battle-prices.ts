/**
 * Fair prices from battles at equal ducats (issue 50, part 2), as BookOfWar prices a unit: each entry
 * of the field is fielded as a warband of copies, as many as the ducats buy at its price, and fights
 * every other entry's warband; an entry's fair price is the price at which its warband would win half
 * its battles against the field.
 *
 * - **The field**: the priced entries whose price buys 1 to `maxCount` copies at the ducats. An entry
 *   without a price (or one the ducats cannot field) plays no one's opponent, but still has its fair
 *   price searched against the field: what a designer asks of a new model.
 * - **A pair's share**: i's warband against j's, games / (field size) battles, side a always i; P(i wins) + P(draw)/2.
 *   The battle's sides differ in nothing but their letter (initiative goes to the side with fewer
 *   standing models, a roll-off on a tie: ruling B4; both deploy alike: B36), which the mirror tests hold.
 * - **Against the field**: S_e(k), the mean over every entry o of the field of e's share with k copies
 *   against o's warband at the ducats, e's own among them (at its own count: a mirror there). One field
 *   for every entry, so two entries alike but for their price have one fair price: the battles', not
 *   their prices' (against the field less itself, each twin would face the other and not itself, and
 *   the dearer twin, facing the cheaper's larger warband, would come out cheaper). S rises with k. The fair count k* is where S crosses 1/2: the
 *   search finds the whole counts lo and lo + 1 either side of it (few evaluations: the next count is
 *   guessed from logit S against ln k, then checked) and k* = lo + (1/2 - S(lo)) / (S(lo+1) - S(lo)),
 *   a straight line between whole counts, since a warband's count is whole and its price is not.
 *   The fair price is ducats / k*. One copy already winning half: the fair price is at least the
 *   ducats (a bound, said); `maxCount` copies still losing: at most ducats / maxCount.
 * - **Its interval**: the shares' own sampling (each battle 0, 1/2 or 1; the variance from the counts),
 *   S(lo) and S(lo+1) both moved by 1.96 standard errors, up and then down, and the crossing read again;
 *   the whole counts' rounding is no error of the estimate and is not in it.
 * - **Ratings**: a Bradley-Terry fit of the pairs' shares (./bradley-terry.ts): each warband's strength
 *   at equal ducats. No line of rating against price is fitted, as duels' prices are: at equal ducats a
 *   field priced right has every rating alike, whatever its prices, so the rating itself is the
 *   mispricing, and the fair prices say it in ducats. How far the prices explain the battles is r² of
 *   ln(fair price) against ln(price): 1 when every fair price is its price times one factor.
 *
 * Every battle is played by the caller's `play` (the CLI's worker threads, a test's thread): seeds are
 * derived from the run's seed and the match-up alone, so the answer is the same in any order and for any
 * number of threads. No I/O.
 */
import { sampleCorrelation } from 'simple-statistics';
import { fitBradleyTerry, type BradleyTerryFit } from './bradley-terry.js';
import { notAllowed, refusal } from '../messages.js';
import { UsageError, showValue } from '../errors.js';
import { Z95 } from '../stats/normal.js';

/** One entry: its name as a warband's entry is written ("MODEL with WEAPON"), its price where it has one. */
export interface BattlePriceEntry {
  readonly name: string;
  readonly price?: number;
}

/** What `games` battles of a match-up gave: side a's wins, b's, and draws. */
export interface MatchupCounts {
  readonly aWins: number;
  readonly bWins: number;
  readonly draws: number;
}

/** Plays `games` battles of `a` copies of entry a against `b` copies of entry b (side a, side b), from `seed`. */
export type PlayMatchup = (a: { readonly entry: number; readonly count: number }, b: { readonly entry: number; readonly count: number }, games: number, seed: number) => Promise<MatchupCounts>;

export interface BattlePriceOptions {
  /** The ducats each warband is bought with. */
  readonly ducats: number;
  /**
   * Battles per entry at each count it is tried, shared evenly among its opponents (at least one each):
   * an entry's share against the field pools them all, so its precision is the same in a field of 5 or
   * of 250, and the work grows as the field's size, not its square, per count tried.
   */
  readonly games: number;
  readonly seed: number;
  /** Copies a warband may hold: the engine's limit of one entry. */
  readonly maxCount: number;
  readonly play: PlayMatchup;
  /** Match-ups played at once (default 4): the threads are kept busy while the next is read. */
  readonly atOnce?: number;
  /**
   * After each match-up: those played, and those the run is expected to play in all: the ones asked for
   * so far and a guess at the search's rest (two more counts for each entry before the search starts,
   * then one more for each entry still searching): a total that grows as the search goes.
   */
  readonly onProgress?: (done: number, expected: number) => void;
  readonly signal?: AbortSignal;
  readonly prior?: number;
  readonly tolerancePercent?: number;
}

/** One match-up's share, with what its sampling error is read from. */
export interface Share {
  /** P(win) + P(draw) / 2 of the entry the share belongs to. */
  readonly share: number;
  /** The variance of one battle's score (0, 1/2 or 1) about the share. */
  readonly variance: number;
  readonly games: number;
}

/** A whole count of an entry tried against the field, and its mean share there. */
export interface CountTried {
  readonly count: number;
  readonly share: number;
  /** The standard error of the mean share. */
  readonly standardError: number;
}

export type FairBound = 'exact' | 'at-least' | 'at-most';

export interface BattlePricedEntry {
  readonly name: string;
  readonly price: number | undefined;
  /** Copies the ducats buy at its price; undefined when it is not in the field. */
  readonly count: number | undefined;
  /** Why it plays no one's opponent, when it does not. */
  readonly outOfField?: string;
  /** Its mean share against the field at its own count (undefined out of the field). */
  readonly shareAtPrice: number | undefined;
  /** The counts the search tried, in count order. */
  readonly tried: readonly CountTried[];
  /** k*: where its mean share crosses 1/2 (a bound where `bound` says so). */
  readonly fairCount: number;
  readonly fairPrice: number;
  /** `at-least`: one copy already wins half (fair price at least the ducats); `at-most`: the most copies still lose. */
  readonly bound: FairBound;
  /** 95% interval of the fair price from the shares' sampling. */
  readonly fairPriceLow: number;
  readonly fairPriceHigh: number;
  /** fairPrice - price, and as a percentage of the price; undefined when unpriced. */
  readonly difference: number | undefined;
  readonly percent: number | undefined;
  readonly verdict: 'under-priced' | 'over-priced' | 'fair' | 'unpriced';
  /** Its Bradley-Terry rating on the Elo-like scale; undefined out of the field. */
  readonly elo: number | undefined;
}

export interface BattlePriceResult {
  readonly ducats: number;
  readonly games: number;
  /** Battles each match-up was played: games / (the field's size), rounded up. */
  readonly gamesPerMatchup: number;
  readonly seed: number;
  /** The field's entries, in order, with their counts: the matrix's rows. */
  readonly field: readonly { readonly name: string; readonly price: number; readonly count: number }[];
  /** shares[i][j]: field entry i's share against j (undefined on the diagonal). */
  readonly shares: readonly (readonly (number | undefined)[])[];
  /** The Bradley-Terry fit of the field's shares; undefined where it has none (an entry that wins every battle), and why. */
  readonly fit: BradleyTerryFit | undefined;
  readonly ratingsRefused?: string;
  /** r² of ln(fair price) on ln(price) over the priced entries with a fair price not a bound: how much of the battles' prices the catalogue's explain. */
  readonly fairPriceRSquared: number | undefined;
  /** Every entry, most mispriced first (unpriced last). */
  readonly entries: readonly BattlePricedEntry[];
  /** Battles played in all. */
  readonly battles: number;
  readonly tolerancePercent: number;
}

const HALF = 0.5;
const DEFAULT_AT_ONCE = 4;
const DEFAULT_TOLERANCE = 5;

/** A match-up's seed from the run's and the match-up alone (splitmix-style mixing), below 2^53. */
export function matchupSeed(seed: number, a: number, aCount: number, b: number, bCount: number): number {
  let h = BigInt(seed) & 0xffffffffffffffffn;
  for (const part of [a, aCount, b, bCount]) {
    h = (h ^ BigInt(part + 1)) & 0xffffffffffffffffn;
    h = (h * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    h ^= h >> 31n;
  }
  return Number(h >> 11n);
}

/** The share of side a, and its variance, from a match-up's counts. */
export function shareOf(c: MatchupCounts): Share {
  const games = c.aWins + c.bWins + c.draws;
  const share = (c.aWins + c.draws / 2) / games;
  const square = (c.aWins + c.draws / 4) / games;
  return { share, variance: Math.max(0, square - share * share), games };
}

const logit = (p: number, games: number) => {
  const clamped = Math.min(1 - 0.5 / games, Math.max(0.5 / games, p));
  return Math.log(clamped / (1 - clamped));
};

/**
 * The fair count's whole-count bracket: given the evaluations so far, the next count to try, or
 * undefined when the bracket is found (or a bound reached). Counts below 1 or above `max` are never tried.
 */
export function nextCount(tried: ReadonlyMap<number, number>, max: number, games: number): number | undefined {
  const counts = [...tried.keys()].sort((x, y) => x - y);
  const below = counts.filter((k) => tried.get(k)! < HALF);
  const above = counts.filter((k) => tried.get(k)! >= HALF);
  const lo = below.length ? below[below.length - 1]! : undefined;
  const hi = above.length ? above[0]! : undefined;
  if (lo !== undefined && hi !== undefined && hi - lo <= 1) return undefined;
  if (hi === 1 || (hi === undefined && lo === max)) return undefined;
  // Two points to guess from: the nearest on each side where both are known, else the two nearest the half.
  const pts = lo !== undefined && hi !== undefined ? [lo, hi] : [...counts].sort((x, y) => Math.abs(tried.get(x)! - HALF) - Math.abs(tried.get(y)! - HALF)).slice(0, 2);
  let guess: number | undefined;
  if (pts.length === 2) {
    const [k1, k2] = pts as [number, number];
    const y1 = logit(tried.get(k1)!, games);
    const y2 = logit(tried.get(k2)!, games);
    if (y1 !== y2) guess = Math.round(Math.exp(Math.log(k1) + ((0 - y1) * (Math.log(k2) - Math.log(k1))) / (y2 - y1)));
  }
  const from = lo !== undefined ? lo + 1 : 1;
  const to = hi !== undefined ? hi - 1 : max;
  if (guess === undefined || !Number.isFinite(guess)) guess = lo !== undefined && hi === undefined ? lo + 1 : hi !== undefined && lo === undefined ? hi - 1 : Math.floor((from + to) / 2);
  // Never a step of more than doubling outside a bracket: a poor guess costs one evaluation, not a wild one.
  if (hi === undefined) guess = Math.min(guess, 2 * lo!);
  if (lo === undefined) guess = Math.max(guess, Math.ceil(hi! / 2));
  return Math.min(to, Math.max(from, guess));
}

/** The crossing of 1/2 on the straight line through (lo, sLo) and (lo + 1, sHi), kept within a count of the bracket. */
function crossing(lo: number, sLo: number, sHi: number): number {
  const k = sHi === sLo ? lo + HALF : lo + (HALF - sLo) / (sHi - sLo);
  return Math.min(lo + 2, Math.max(Math.max(lo - 1, 1e-9), k));
}

/** Prices every entry by battles at equal ducats (see the module's comment). */
export async function priceByBattles(entries: readonly BattlePriceEntry[], o: BattlePriceOptions): Promise<BattlePriceResult> {
  if (!(Number.isInteger(o.games) && o.games >= 1)) throw notAllowed('games', o.games, 'a whole number from 1');
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.name)) throw refusal('field', `${showValue(e.name)} is named twice`, 'allowed: one entry per name');
    seen.add(e.name);
  }
  const countAt = (price: number) => Math.floor(o.ducats / price);
  const outOfField = (e: BattlePriceEntry): string | undefined =>
    e.price === undefined || !(e.price > 0)
      ? 'no price: plays no one, its fair price searched against the field'
      : countAt(e.price) < 1
        ? `costs more than ${o.ducats} ducats: plays no one, its fair price searched against the field`
        : countAt(e.price) > o.maxCount
          ? `${o.ducats} ducats buy ${countAt(e.price)}, more than ${o.maxCount} copies: plays no one, its fair price searched against the field`
          : undefined;
  const fieldIndex = entries.map((e, i) => i).filter((i) => outOfField(entries[i]!) === undefined);
  if (fieldIndex.length < 2) {
    throw refusal('field', `${fieldIndex.length} ${fieldIndex.length === 1 ? 'entry' : 'entries'} the ducats can field (each priced, buying 1 to ${o.maxCount} copies at ${o.ducats} ducats)`, 'allowed: 2 or more, or other --ducats');
  }
  const countOf = (i: number) => countAt(entries[i]!.price!);
  const perMatchup = Math.ceil(o.games / fieldIndex.length);

  // Match-ups, each played once and kept: (entry, count, opponent) -> share of the entry.
  const played = new Map<string, Share>();
  let battles = 0;
  let planned = 0;
  let done = 0;
  // The search's match-ups not asked for yet, guessed: the own count's mirror and two counts an entry.
  let ahead = entries.length * (1 + 2 * fieldIndex.length);
  const keyOf = (e: number, k: number, opp: number) => `${e}:${k}:${opp}`;
  const atOnce = o.atOnce ?? DEFAULT_AT_ONCE;
  /** Plays every match-up asked for not yet played, `atOnce` at a time. */
  const playAll = async (asked: readonly (readonly [number, number, number])[]) => {
    const todo = asked.filter(([e, k, opp]) => !played.has(keyOf(e, k, opp)));
    planned += todo.length;
    let next = 0;
    const lane = async () => {
      while (next < todo.length) {
        o.signal?.throwIfAborted();
        const [e, k, opp] = todo[next++]!;
        const oppCount = countOf(opp);
        const counts = await o.play({ entry: e, count: k }, { entry: opp, count: oppCount }, perMatchup, matchupSeed(o.seed, e, k, opp, oppCount));
        played.set(keyOf(e, k, opp), shareOf(counts));
        battles += perMatchup;
        o.onProgress?.(++done, planned + ahead);
      }
    };
    await Promise.all(Array.from({ length: Math.min(atOnce, todo.length) }, lane));
  };

  // The matrix: every pair of the field once, the earlier entry as side a.
  const pairs: [number, number, number][] = [];
  for (let x = 0; x < fieldIndex.length; x++) for (let y = x + 1; y < fieldIndex.length; y++) pairs.push([fieldIndex[x]!, countOf(fieldIndex[x]!), fieldIndex[y]!]);
  await playAll(pairs);
  /** e's share against opponent opp, e with k copies: played so, or the other way round at both sides' own counts. */
  const shareAgainst = (e: number, k: number, opp: number): Share | undefined => {
    const direct = played.get(keyOf(e, k, opp));
    if (direct) return direct;
    const reverse = outOfField(entries[e]!) === undefined && k === countOf(e) ? played.get(keyOf(opp, countOf(opp), e)) : undefined;
    return reverse && { ...reverse, share: 1 - reverse.share };
  };
  const shares = fieldIndex.map((i) => fieldIndex.map((j) => (i === j ? undefined : shareAgainst(i, countOf(i), j)!.share)));
  const names = fieldIndex.map((i) => entries[i]!.name);
  // The ratings are a second reading, beside the fair prices: a field they cannot rate is said, not refused.
  let fit: BradleyTerryFit | undefined;
  let ratingsRefused: string | undefined;
  try {
    fit = fitBradleyTerry(names, shares, o.prior !== undefined ? { prior: o.prior } : {});
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    ratingsRefused = err.message;
  }

  // Against the field at a count: every entry of the field, itself too (one field for all).
  const opponentsOf = (_e: number) => fieldIndex;
  const meanAt = (e: number, k: number): CountTried => {
    const all = opponentsOf(e).map((opp) => shareAgainst(e, k, opp)!);
    const m = all.length;
    const share = all.reduce((s, x) => s + x.share, 0) / m;
    const variance = all.reduce((s, x) => s + x.variance / x.games, 0) / (m * m);
    return { count: k, share, standardError: Math.sqrt(variance) };
  };
  const fieldCounts = fieldIndex.map(countOf).sort((x, y) => x - y);
  const medianCount = fieldCounts[Math.floor(fieldCounts.length / 2)]!;
  // Each entry's search, step by step, all entries at once so the threads stay busy.
  const tried = entries.map(() => new Map<number, CountTried>());
  let asking = entries.map((e, i) => (outOfField(e) === undefined ? countOf(i) : Math.min(o.maxCount, medianCount)) as number | undefined);
  while (asking.some((k) => k !== undefined)) {
    // After this step, one more count for each entry searching now, as a guess.
    ahead = asking.filter((k) => k !== undefined).length * fieldIndex.length;
    await playAll(asking.flatMap((k, e) => (k === undefined ? [] : opponentsOf(e).map((opp) => [e, k, opp] as const))));
    asking = asking.map((k, e) => {
      if (k === undefined) return undefined;
      tried[e]!.set(k, meanAt(e, k));
      return nextCount(new Map([...tried[e]!].map(([c, t]) => [c, t.share])), o.maxCount, perMatchup);
    });
  }

  const tolerancePercent = o.tolerancePercent ?? DEFAULT_TOLERANCE;
  const eloOf = new Map((fit?.entries ?? []).map((r) => [r.name, r.elo]));
  const priced = entries.map((e, i): BattlePricedEntry => {
    const t = [...tried[i]!.values()].sort((x, y) => x.count - y.count);
    const below = t.filter((x) => x.share < HALF);
    const lo = below[below.length - 1];
    const hi = t.find((x) => x.share >= HALF);
    let fairCount: number;
    let low: number;
    let high: number;
    let bound: FairBound = 'exact';
    if (lo === undefined) {
      bound = 'at-least';
      fairCount = low = high = 1;
    } else if (hi === undefined) {
      bound = 'at-most';
      fairCount = low = high = o.maxCount;
    } else {
      fairCount = crossing(lo.count, lo.share, hi.share);
      low = crossing(lo.count, lo.share + Z95 * lo.standardError, hi.share + Z95 * hi.standardError);
      high = crossing(lo.count, lo.share - Z95 * lo.standardError, hi.share - Z95 * hi.standardError);
    }
    const fairPrice = o.ducats / fairCount;
    const price = e.price !== undefined && e.price > 0 ? e.price : undefined;
    const difference = price === undefined ? undefined : fairPrice - price;
    const percent = price === undefined ? undefined : (100 * difference!) / price;
    const verdict = percent === undefined ? 'unpriced' : percent > tolerancePercent ? 'under-priced' : percent < -tolerancePercent ? 'over-priced' : 'fair';
    const why = outOfField(e);
    const own = why === undefined ? tried[i]!.get(countOf(i)) : undefined;
    return {
      name: e.name,
      price,
      count: why === undefined ? countOf(i) : undefined,
      ...(why !== undefined ? { outOfField: why } : {}),
      shareAtPrice: own?.share,
      tried: t,
      fairCount,
      fairPrice,
      bound,
      fairPriceLow: o.ducats / high,
      fairPriceHigh: o.ducats / low,
      difference,
      percent,
      verdict,
      elo: eloOf.get(e.name),
    };
  });
  const exact = priced.filter((p) => p.price !== undefined && p.bound === 'exact');
  const fairPriceRSquared = exact.length >= 3 ? sampleCorrelation(exact.map((p) => Math.log(p.price!)), exact.map((p) => Math.log(p.fairPrice))) ** 2 : undefined;
  const ordered = [...priced.filter((p) => p.percent !== undefined).sort((x, y) => Math.abs(y.percent!) - Math.abs(x.percent!) || x.name.localeCompare(y.name)), ...priced.filter((p) => p.percent === undefined)];
  return {
    ducats: o.ducats,
    games: o.games,
    gamesPerMatchup: perMatchup,
    seed: o.seed,
    field: fieldIndex.map((i) => ({ name: entries[i]!.name, price: entries[i]!.price!, count: countOf(i) })),
    shares,
    fit,
    ...(ratingsRefused !== undefined ? { ratingsRefused } : {}),
    fairPriceRSquared: fairPriceRSquared !== undefined && Number.isFinite(fairPriceRSquared) ? fairPriceRSquared : undefined,
    entries: ordered,
    battles,
    tolerancePercent,
  };
}
