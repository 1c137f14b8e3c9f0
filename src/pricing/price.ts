/**
 * `injury-lab price`: the answer to "which entries of this field are priced too high or too low, by
 * how much, and why?" (issue 40). Three steps, each its own module: every pair of the field fights an
 * exact duel both ways round (./duel-matrix.ts), a Bradley-Terry model rates the field from those
 * results (./bradley-terry.ts), and a rating-against-log-price line gives each entry its fair price
 * (./fair-price.ts). This module joins them and says, per entry, what its verdict rests on: the
 * opponents it beats more (or less) often than its rating alone says.
 */
import { type BradleyTerryFit, type PairFit, fitBradleyTerry } from './bradley-terry.js';
import { type DuelEntry, type DuelMatrix, type SolveDuelMatrixOptions, solveDuelMatrix } from './duel-matrix.js';
import { type FairPrice, type FairPriceOptions, type FairPricing, fairPrices, findAnchor, mostMispricedFirst } from './fair-price.js';

export interface PriceOptions extends SolveDuelMatrixOptions, FairPriceOptions {
  /** Virtual tied games per pair for the fit (bradley-terry.ts `prior`); default 0. */
  readonly prior?: number;
}

/** An opponent an entry did better or worse against than the ratings say: the fit's residual for the pair. */
export interface Reason {
  readonly opponent: string;
  /** The entry's share of their duels (undecided half), as the duels gave it and as the ratings predict it. */
  readonly observed: number;
  readonly fitted: number;
}

export interface PricedResult extends FairPrice {
  /** 400 log10 s: a gap of 400 is odds of 10 to 1. */
  readonly elo: number;
  /** The entry's mean share over the field (its duels won, undecided half, per duel). */
  readonly meanShare: number;
  /** Its largest residuals, most telling first: where it over- or under-performs its rating. */
  readonly reasons: readonly Reason[];
}

export interface PriceResult {
  readonly matrix: DuelMatrix;
  readonly fit: BradleyTerryFit;
  readonly pricing: FairPricing;
  /** Every entry, most mispriced first (unpriced last). */
  readonly entries: readonly PricedResult[];
}

/** How many opponents an entry's reasons name. */
const REASONS = 2;

function reasonsOf(name: string, pairs: readonly PairFit[]): Reason[] {
  const own = pairs
    .filter((p) => p.first === name || p.second === name)
    .map((p) => (p.first === name ? { opponent: p.second, observed: p.observed, fitted: p.fitted } : { opponent: p.first, observed: 1 - p.observed, fitted: 1 - p.fitted }));
  return own.sort((x, y) => Math.abs(y.observed - y.fitted) - Math.abs(x.observed - x.fitted) || x.opponent.localeCompare(y.opponent)).slice(0, REASONS);
}

/** The field's duels solved by `options.solver` (default this thread), rated and priced. */
export async function priceField(entries: readonly DuelEntry[], options: PriceOptions = {}): Promise<PriceResult> {
  // Refused before the duels, not after them: the anchor is a name and a price, no rating needed.
  if (options.anchor !== undefined) findAnchor(entries.map((e) => ({ name: e.name, price: e.price })), options.anchor);
  const matrix = await solveDuelMatrix(entries, options);
  const fit = fitBradleyTerry(matrix.names, matrix.wins, options.prior !== undefined ? { prior: options.prior } : {});
  const pricing = fairPrices(
    fit.entries.map((e, i) => ({ name: e.name, rating: e.rating, price: matrix.prices[i] })),
    { ...(options.line !== undefined ? { line: options.line } : {}), ...(options.anchor !== undefined ? { anchor: options.anchor } : {}), ...(options.slope !== undefined ? { slope: options.slope } : {}), ...(options.tolerancePercent !== undefined ? { tolerancePercent: options.tolerancePercent } : {}) },
  );
  const byName = new Map(fit.entries.map((e) => [e.name, e]));
  const ordered = mostMispricedFirst(pricing.entries).map((p): PricedResult => {
    const rated = byName.get(p.name)!;
    return { ...p, elo: rated.elo, meanShare: rated.played > 0 ? rated.score / rated.played : 0.5, reasons: reasonsOf(p.name, fit.pairs) };
  });
  return { matrix, fit, pricing, entries: ordered };
}
