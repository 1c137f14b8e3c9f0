import { linearRegression, median } from 'simple-statistics';
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
 * opponent by 2^b, whatever the price. The line is fitted to r against ln c over the priced entries, so
 * it is the field's prices as a whole that set the going rate, and an entry's fair price is where its
 * rating meets the line: exp((r - a) / b).
 *
 * How the line is fitted (`line`):
 * - `theil-sen` (the default): the slope is the median of the slopes between every two priced entries
 *   at different prices, the intercept the median of r - b ln c (Theil 1950, Sen 1968). The entries being
 *   judged are the points the line is fitted to, and the ones a designer looks for, the badly mispriced,
 *   are outliers by definition: least squares lets each of them tilt the line and so move every other
 *   entry's fair price (one bargain in a field of five on its curve makes the other four read
 *   under-priced). The median ignores a minority: with up to about 29% of the field off the curve, the
 *   entries on it stay fair and the outliers carry their whole mispricing.
 * - `least-squares`: ordinary least squares of r on ln c, the line through the means: every entry
 *   weighs alike, outliers included.
 *
 * Other choices, each an option:
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

/** How the line of rating against ln price is fitted to the priced entries (see above). */
export const PRICE_LINES = ['theil-sen', 'least-squares'] as const;
export type PriceLine = (typeof PRICE_LINES)[number];
export const DEFAULT_PRICE_LINE: PriceLine = 'theil-sen';

export interface FairPriceOptions {
  /** How the line is fitted: `theil-sen` (medians; the default) or `least-squares`. */
  readonly line?: PriceLine;
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
  /** How the line (its slope when fitted, its intercept unless anchored) was fitted. */
  readonly line: PriceLine;
  /** The entry the line was moved through (option `anchor`), if any. */
  readonly anchor?: string;
}

export interface FairPricing {
  /** In the order of the field given. */
  readonly entries: readonly FairPrice[];
  readonly curve: PriceCurve;
  /**
   * r^2 of the fitted line over the priced entries, 1 - (sum of squared residuals) / (sum of squared
   * deviations from the mean rating): the share of the ratings' variance the line explains. For least
   * squares that is the usual r^2; a Theil-Sen line, which does not minimise the squares, explains less
   * of it (and may explain less than none: r^2 below 0). undefined when the slope was given: r^2
   * describes a fitted line, not one chosen elsewhere (and a field of equals has no variance to explain).
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
  const lineKind = options.line ?? DEFAULT_PRICE_LINE;
  if (!(PRICE_LINES as readonly unknown[]).includes(lineKind)) throw notOneOf('line', lineKind, 'a way to fit the price line', PRICE_LINES);
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
    b = lineKind === 'least-squares' ? linearRegression(points).m : theilSenSlope(xs, ratings);
    if (!(b > 0)) throw refusal('prices', `the fitted slope is ${Number(b.toPrecision(3))}: dearer entries are rated weaker, so no rising price curve fits this field`, 'allowed: a field where dearer entries are stronger on the whole, or a slope given');
    [x0, r0] = pointOnLine(lineKind, xs, ratings, b);
    rSquaredOfFit = explainedShare(xs, ratings, b, r0 - b * x0);
  } else {
    b = options.slope;
    if (priced.length < 1) throw refusal('prices', 'no priced entry', 'allowed: 1 or more priced entries to place the price curve');
    // With b fixed, each way of fitting places the line as it would a fitted slope.
    [x0, r0] = pointOnLine(lineKind, priced.map((e) => Math.log(e.price)), priced.map((e) => e.rating), b);
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
  const curve: PriceCurve = { a, b: slope, slopeFrom: options.slope === undefined ? 'field' : 'given', line: lineKind, ...(anchor ? { anchor: anchor.name } : {}) };
  return { entries, curve, rSquared: rSquaredOfFit, n: priced.length, tolerancePercent };
}

/** The entries most mispriced first (largest |percent|, ties by name), the unpriced after them in the field's order. */
export function mostMispricedFirst(entries: readonly FairPrice[]): FairPrice[] {
  const priced = entries.filter((e) => e.percent !== undefined);
  priced.sort((x, y) => Math.abs(y.percent!) - Math.abs(x.percent!) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return [...priced, ...entries.filter((e) => e.percent === undefined)];
}

/**
 * The anchor named, which must be a priced entry of the field. Needs no rating: priceField checks it
 * before any duel is solved, so a name not in the field costs nothing.
 */
export function findAnchor<E extends { readonly name: string; readonly price: number | undefined }>(field: readonly E[], name: string): E & { price: number } {
  const entry = field.find((e) => e.name === name);
  if (entry === undefined) throw notOneOf('anchor', name, 'an entry of the field', field.map((e) => e.name));
  if (entry.price === undefined) {
    throw notOneOf('anchor', name, 'priced (a fair price is pinned to a current one)', field.filter((e) => e.price !== undefined).map((e) => e.name));
  }
  return { ...entry, price: entry.price };
}

/** The median of the slopes between every two points at different x (Theil 1950, Sen 1968). The caller has made sure two x differ. */
function theilSenSlope(xs: readonly number[], ys: readonly number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) if (xs[j] !== xs[i]) slopes.push((ys[j]! - ys[i]!) / (xs[j]! - xs[i]!));
  }
  return median(slopes);
}

/**
 * A point the line of slope b goes through, as each way of fitting places it: least squares through
 * the means; Theil-Sen with the median of the intercepts y - b x, given at the median x (any point of
 * the line would do; one inside the field keeps exp() of it in range).
 */
function pointOnLine(lineKind: PriceLine, xs: readonly number[], ys: readonly number[], b: number): [number, number] {
  if (lineKind === 'least-squares') return [mean(xs), mean(ys)];
  const x0 = median(xs as number[]);
  return [x0, median(xs.map((x, k) => ys[k]! - b * x)) + b * x0];
}

/** 1 - SSres / SStot of the line y = a + b x: the share of the ys' variance about their mean that it explains. */
function explainedShare(xs: readonly number[], ys: readonly number[], b: number, a: number): number {
  const yMean = mean(ys);
  let residual = 0;
  let total = 0;
  for (let k = 0; k < xs.length; k++) {
    residual += (ys[k]! - (a + b * xs[k]!)) ** 2;
    total += (ys[k]! - yMean) ** 2;
  }
  return 1 - residual / total;
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
