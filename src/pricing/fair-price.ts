import { linearRegression, linearRegressionLine, rSquared } from 'simple-statistics';
import { notAllowed, notOneOf, refusal } from '../messages.js';
import { showValue } from '../errors.js';

/**
 * Fair prices from ratings (issue 40): what a field's own prices say an entry of a given strength
 * should cost.
 *
 * The model: an entry's rating r (a Bradley-Terry log-strength, src/pricing/bradley-terry.ts) rises
 * with the logarithm of its price c along one straight line,
 *
 *   r = a + b ln c,   b > 0,
 *
 * i.e. strength is a power of price (s = e^a c^b): doubling the price multiplies the odds against any
 * opponent by 2^b, whatever the price. The line is fitted by ordinary least squares of r on ln c over
 * the priced entries, so it is the field's prices as a whole that set the going rate, and an entry's
 * fair price is where its rating meets the line: exp((r - a) / b).
 *
 * Choices, each an option:
 * - `anchor`: the entry whose price is taken as right. The slope stays the field's; the line is moved
 *   through the anchor, so every fair price is quoted relative to it.
 * - `slope`: b given by the caller (from a reference field) instead of fitted. A field of equals (every
 *   rating alike) carries no slope of its own, yet its pricing is plain: with an anchor each copy is
 *   worth the anchor's price, whatever b, since every copy has the anchor's rating. `slope` is how such a
 *   field is priced; without it the field is refused rather than given a made-up slope.
 * - `tolerancePercent`: how far a price may be from fair before it is called under- or over-priced.
 *
 * Pure arithmetic, no I/O: the web page bundles it too.
 */

export interface PricedEntry {
  readonly name: string;
  /** Log-strength, natural log (any fixed origin: only differences matter). */
  readonly rating: number;
  /** The current price, above 0; undefined for an entry not priced yet (it still gets a fair price). */
  readonly price: number | undefined;
}

export interface FairPriceOptions {
  /** The name of a priced entry whose current price is fair by definition; the line goes through it. */
  readonly anchor?: string;
  /** The slope b (rating per unit of ln price), above 0, instead of the field's own. */
  readonly slope?: number;
  /** Default 5: a price within 5% of fair (of the current price) is fair. */
  readonly tolerancePercent?: number;
}

export type Verdict = 'under-priced' | 'over-priced' | 'fair' | 'unpriced';

export interface FairPrice {
  readonly name: string;
  readonly rating: number;
  readonly price: number | undefined;
  readonly fairPrice: number;
  /** fairPrice - price, in the price's units: positive when the entry is worth more than it costs. undefined when unpriced. */
  readonly difference: number | undefined;
  /** difference as a percentage of the current price. undefined when unpriced. */
  readonly percent: number | undefined;
  /** under-priced when percent > tolerance, over-priced when percent < -tolerance, else fair. */
  readonly verdict: Verdict;
}

export interface PriceCurve {
  /** r = a + b ln c. */
  readonly a: number;
  readonly b: number;
  /** Where b came from: fitted to the priced entries, or given (option `slope`). */
  readonly slopeFrom: 'field' | 'given';
  /** The entry the line was moved through (option `anchor`), if any. */
  readonly anchor?: string;
}

export interface FairPricing {
  /** In the order of the field given. */
  readonly entries: readonly FairPrice[];
  readonly curve: PriceCurve;
  /**
   * r^2 of the least-squares line over the priced entries: the share of the ratings' variance that
   * price explains. undefined when the slope was given: r^2 describes a fitted line, not one chosen
   * elsewhere (and a field of equals has no variance to explain).
   */
  readonly rSquared: number | undefined;
  /** The number of priced entries (those the line was fitted over). */
  readonly n: number;
  readonly tolerancePercent: number;
}

const DEFAULT_TOLERANCE_PERCENT = 5;
/**
 * Ratings this close are the same rating: the Bradley-Terry fit stops at steps of 1e-12 and is accurate
 * to about 1e-9, so identical entries come out equal only to that. Fitting a slope through such noise
 * would give a slope of about 0 and fair prices as far off as exp(1 / slope).
 */
const RATING_RESOLUTION = 1e-9;

/**
 * Fair prices of a field. Refuses (UsageError, one line) what cannot be priced: a price that is not a
 * number above 0, a repeated name, a bad option, and, when the slope is to be fitted, fewer than 2
 * priced entries, prices all equal, ratings all alike, or a slope of 0 or below (dearer entries rated
 * weaker: no rising price curve fits).
 */
export function fairPrices(field: readonly PricedEntry[], options: FairPriceOptions = {}): FairPricing {
  const tolerancePercent = options.tolerancePercent ?? DEFAULT_TOLERANCE_PERCENT;
  if (!(Number.isFinite(tolerancePercent) && tolerancePercent >= 0)) throw notAllowed('tolerancePercent', tolerancePercent, 'a percentage, 0 or more');
  if (options.slope !== undefined && !(Number.isFinite(options.slope) && options.slope > 0)) {
    throw notAllowed('slope', options.slope, 'a number above 0 (rating per unit of ln price)');
  }
  const seen = new Set<string>();
  for (const e of field) {
    if (seen.has(e.name)) throw refusal('field', `${showValue(e.name)} is named twice`, 'allowed: one entry per name');
    seen.add(e.name);
    if (!Number.isFinite(e.rating)) throw notAllowed(`rating of ${showValue(e.name)}`, e.rating, 'a finite number');
    if (e.price !== undefined && !(Number.isFinite(e.price) && e.price > 0)) throw notAllowed(`price of ${showValue(e.name)}`, e.price, 'a number above 0, or none (not priced)');
  }
  const priced = field.filter((e): e is PricedEntry & { price: number } => e.price !== undefined);
  const anchor = options.anchor === undefined ? undefined : findAnchor(field, options.anchor);

  // The line is kept as a point it goes through (rating r0 at ln price x0) and its slope: fair prices are
  // then exp(x0 + (r - r0) / b), which at the anchor is exp(x0) with no rounding on the way.
  let b: number;
  let rSquaredOfFit: number | undefined;
  let r0: number;
  let x0: number;
  if (options.slope === undefined) {
    const points = priced.map((e) => [Math.log(e.price), e.rating]);
    if (priced.length < 2) throw refusal('prices', `${priced.length} priced ${priced.length === 1 ? 'entry' : 'entries'}`, 'allowed: 2 or more to fit a price curve, or a slope given');
    const xs = points.map((p) => p[0]!);
    if (Math.max(...xs) === Math.min(...xs)) throw refusal('prices', `every priced entry costs ${priced[0]!.price}, so price cannot explain rating`, 'allowed: entries at 2 or more prices, or a slope given');
    const ratings = points.map((p) => p[1]!);
    const spread = Math.max(...ratings) - Math.min(...ratings);
    if (spread <= RATING_RESOLUTION) throw refusal('ratings', `every priced entry is rated alike (within ${RATING_RESOLUTION}), so they carry no slope`, 'allowed: a field whose ratings differ, or a slope given (from a reference field) with an anchor');
    const line = linearRegression(points);
    if (!(line.m > 0)) throw refusal('prices', `the fitted slope is ${Number(line.m.toPrecision(3))}: dearer entries are rated weaker, so no rising price curve fits this field`, 'allowed: a field where dearer entries are stronger on the whole, or a slope given');
    b = line.m;
    rSquaredOfFit = rSquared(points, linearRegressionLine(line));
    // A least-squares line goes through the means.
    x0 = mean(xs);
    r0 = line.b + b * x0;
  } else {
    b = options.slope;
    if (priced.length < 1) throw refusal('prices', 'no priced entry', 'allowed: 1 or more priced entries to place the price curve');
    // With b fixed, least squares puts the line through the means as well.
    x0 = mean(priced.map((e) => Math.log(e.price)));
    r0 = mean(priced.map((e) => e.rating));
  }
  if (anchor !== undefined) {
    x0 = Math.log(anchor.price);
    r0 = anchor.rating;
  }
  const slope = b;
  const a = r0 - slope * x0;

  const entries = field.map((e): FairPrice => {
    const fairPrice = e.name === anchor?.name ? anchor.price : Math.exp(x0 + (e.rating - r0) / slope);
    // A shallow curve turns small rating gaps into vast price ratios; past a double's range say so, not Infinity or 0.
    if (!(fairPrice > 0 && fairPrice < Number.POSITIVE_INFINITY)) {
      throw refusal(`fair price of ${showValue(e.name)}`, `exp(${Number((x0 + (e.rating - r0) / slope).toPrecision(3))}) is beyond a number's range at slope ${Number(slope.toPrecision(3))}`, 'allowed: a steeper price curve (slope), or ratings nearer the field\'s');
    }
    if (e.price === undefined) return { name: e.name, rating: e.rating, price: undefined, fairPrice, difference: undefined, percent: undefined, verdict: 'unpriced' };
    const difference = fairPrice - e.price;
    const percent = (100 * difference) / e.price;
    const verdict: Verdict = percent > tolerancePercent ? 'under-priced' : percent < -tolerancePercent ? 'over-priced' : 'fair';
    return { name: e.name, rating: e.rating, price: e.price, fairPrice, difference, percent, verdict };
  });
  const curve: PriceCurve = { a, b: slope, slopeFrom: options.slope === undefined ? 'field' : 'given', ...(anchor ? { anchor: anchor.name } : {}) };
  return { entries, curve, rSquared: rSquaredOfFit, n: priced.length, tolerancePercent };
}

/** The entries most mispriced first (largest |percent|, ties by name), the unpriced after them in the field's order. */
export function mostMispricedFirst(entries: readonly FairPrice[]): FairPrice[] {
  const priced = entries.filter((e) => e.percent !== undefined);
  priced.sort((x, y) => Math.abs(y.percent!) - Math.abs(x.percent!) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return [...priced, ...entries.filter((e) => e.percent === undefined)];
}

function findAnchor(field: readonly PricedEntry[], name: string): PricedEntry & { price: number } {
  const entry = field.find((e) => e.name === name);
  if (entry === undefined) throw notOneOf('anchor', name, 'an entry of the field', field.map((e) => e.name));
  if (entry.price === undefined) {
    throw notOneOf('anchor', name, 'priced (a fair price is pinned to a current one)', field.filter((e) => e.price !== undefined).map((e) => e.name));
  }
  return { ...entry, price: entry.price };
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
