import { notAllowed, refusal } from '../messages.js';
import { listAllowed, showValue } from '../errors.js';

/**
 * Bradley-Terry ratings from a round of pairwise duels (issue 40).
 *
 * The model: entry i has a strength s_i > 0 and beats entry j with probability s_i / (s_i + s_j), every
 * duel independent of the others. What a duel of i against j gives us is w_ij in [0, 1], i's share of
 * that duel (its chance to win, an undecided duel counting half), so w_ij + w_ji = 1. Each played pair
 * counts as one game of which i won the fraction w_ij; the fit maximises the (fractional) likelihood
 *
 *   L = sum over played pairs i < j of  w_ij ln p_ij + w_ji ln p_ji,   p_ij = s_i / (s_i + s_j).
 *
 * The fit is Hunter's minorisation-maximisation (Hunter 2004, "MM algorithms for generalized
 * Bradley-Terry models", Ann. Statist. 32, eq. 3): s_i <- W_i / sum_{j != i} n_ij / (s_i + s_j), where
 * W_i = sum_j w_ij is i's score and n_ij its games against j. Every step raises L, it needs no step size
 * and no matrix, and it is the textbook fit, so a reader can check it line by line. Only ratios of
 * strengths are identified: each step rescales s so that their geometric mean is 1, i.e. the ratings
 * (ln s_i) have mean 0.
 *
 * The MLE is finite only when the field is strongly connected (Ford 1957, "Solution of a ranking problem
 * from binary comparisons", condition (1)): however the field is split into two groups, each group won
 * something against the other. An entry that won every duel it played would have an infinite rating
 * (and one that lost them all minus infinity), and two groups that never met cannot be compared at all.
 * By default such a field is refused, with the entry or group named. Option `prior` instead adds that
 * many virtual games to every pair of the field, split evenly (a virtual tie): every group then has a
 * half-win against every other, so the ratings are finite, pulled towards each other by the prior.
 *
 * Pure arithmetic, no I/O: the web page bundles it too.
 */

export interface BradleyTerryOptions {
  /**
   * Virtual tied games added to every pair of the field (played or not), each counting half a win to
   * each side. Default 0: the data alone, and a field without a finite MLE is refused. 0.5 is a light
   * touch for a field with an unbeatable entry: its rating is then large but finite.
   */
  readonly prior?: number;
  /** The fit stops when no rating (ln s) moved more than this in one step. Default 1e-12; see DEFAULT_TOLERANCE. */
  readonly tolerance?: number;
  /** The fit stops after this many steps whatever the tolerance, and says it did not converge. Default 100,000. */
  readonly maxIterations?: number;
}

/**
 * The wins of a field: `wins[i][j]` is i's share w_ij of its duel against j, in [0, 1], with
 * `wins[j][i]` = 1 - w_ij. undefined or NaN where the pair did not play (both halves); the diagonal is
 * not read.
 */
export type WinMatrix = readonly (readonly (number | undefined)[])[];

export interface RatedEntry {
  readonly name: string;
  /** ln s_i, natural log, normalised so that the field's ratings have mean 0. A gap of d is odds e^d : 1. */
  readonly rating: number;
  /** The same rating on the Elo-like scale, 400 log10 s_i: a gap of 400 is odds 10 : 1. */
  readonly elo: number;
  /** Games played (pairs with a result; the prior's virtual games not counted). */
  readonly played: number;
  /** Wins W_i = sum_j w_ij over the played games (the prior's not counted). */
  readonly score: number;
}

/** One played pair: the observed share of `first` (the earlier entry of the field), the fit's, and their difference. */
export interface PairFit {
  readonly first: string;
  readonly second: string;
  /** w: first's observed share of the duel. */
  readonly observed: number;
  /** p: first's chance to beat second under the fitted ratings. */
  readonly fitted: number;
  /** observed - fitted: positive when first did better than its rating says. */
  readonly residual: number;
}

export interface BradleyTerryFit {
  /** In the order of the field given. */
  readonly entries: readonly RatedEntry[];
  /** Every played pair once, first before second in the field's order. */
  readonly pairs: readonly PairFit[];
  /** The same pairs, largest |residual| first (ties in the field's order): where the model fits worst. */
  readonly largestResiduals: readonly PairFit[];
  /** L above, over the played games only (the prior's virtual games are not data). At most 0. */
  readonly logLikelihood: number;
  readonly iterations: number;
  /** False when maxIterations ran out before the tolerance was met: the ratings are then the last step's. */
  readonly converged: boolean;
  /** The virtual ties per pair the fit used. */
  readonly prior: number;
}

/**
 * Why 1e-12: MM converges linearly, so the distance left to the optimum is the last step times
 * rate / (1 - rate), several times the step on a field with a wide spread of ratings. A step of 1e-12
 * keeps that well under 1e-9 (the ratings' stated accuracy), while ratings of order 1 still move by many
 * units of a double's rounding (2e-16), so the rule does stop. Each step costs one pass over the pairs.
 */
const DEFAULT_TOLERANCE = 1e-12;
const DEFAULT_MAX_ITERATIONS = 100_000;
/** How far w_ij + w_ji may stray from 1: a duel's shares come from sums of exact probabilities as doubles. */
const SHARES_SUM_SLACK = 1e-9;

/**
 * Fits Bradley-Terry ratings to a field's duels. `names[i]` names row and column i of `wins`. Refuses
 * (UsageError, one line) a field of fewer than 2, a repeated name, a bad option, and without a prior a
 * field with no finite MLE, naming the entry or group. A malformed matrix (wrong shape, a share outside
 * [0, 1], halves that do not sum to 1) is the caller's bug: a RangeError.
 */
export function fitBradleyTerry(names: readonly string[], wins: WinMatrix, options: BradleyTerryOptions = {}): BradleyTerryFit {
  const prior = options.prior ?? 0;
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!(Number.isFinite(prior) && prior >= 0)) throw notAllowed('prior', prior, 'a number of virtual tied games per pair, 0 or more');
  if (!(Number.isFinite(tolerance) && tolerance > 0)) throw notAllowed('tolerance', tolerance, 'a number above 0');
  if (!(Number.isInteger(maxIterations) && maxIterations >= 1)) throw notAllowed('maxIterations', maxIterations, 'a whole number, 1 or more');

  const n = names.length;
  if (n < 2) throw refusal('field', `${n} ${n === 1 ? 'entry' : 'entries'}`, 'allowed: 2 or more (a rating compares entries)');
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw refusal('field', `${showValue(name)} is named twice`, 'allowed: one entry per name');
    seen.add(name);
  }
  const share = readShares(names, wins);

  if (prior === 0) refuseWithoutFiniteOptimum(names, share);

  // The data and the prior as one set of games: n_ij games between i and j, of which i won W_ij.
  const games = new Float64Array(n * n);
  const score = new Float64Array(n);
  const played = new Int32Array(n);
  const dataScore = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const w = share[i * n + j]!;
      const isPlayed = !Number.isNaN(w);
      games[i * n + j] = (isPlayed ? 1 : 0) + prior;
      score[i] = score[i]! + (isPlayed ? w : 0) + prior / 2;
      if (isPlayed) {
        played[i] = played[i]! + 1;
        dataScore[i] = dataScore[i]! + w;
      }
    }
  }

  // MM, every entry updated from the previous step's strengths (not one after another), so that a step
  // does not depend on the order of the field.
  let strength = new Float64Array(n).fill(1);
  let next = new Float64Array(n);
  const rating = new Float64Array(n);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    iterations++;
    let logSum = 0;
    for (let i = 0; i < n; i++) {
      const si = strength[i]!;
      let denominator = 0;
      for (let j = 0; j < n; j++) {
        const nij = games[i * n + j]!;
        if (j !== i && nij > 0) denominator += nij / (si + strength[j]!);
      }
      next[i] = score[i]! / denominator;
      logSum += Math.log(next[i]!);
    }
    const meanLog = logSum / n;
    let largestMove = 0;
    for (let i = 0; i < n; i++) {
      const r = Math.log(next[i]!) - meanLog;
      largestMove = Math.max(largestMove, Math.abs(r - rating[i]!));
      rating[i] = r;
      next[i] = Math.exp(r);
    }
    [strength, next] = [next, strength];
    if (largestMove < tolerance) {
      converged = true;
      break;
    }
  }

  const entries: RatedEntry[] = names.map((name, i) => ({
    name,
    rating: rating[i]!,
    elo: (400 / Math.LN10) * rating[i]!,
    played: played[i]!,
    score: dataScore[i]!,
  }));
  const pairs: PairFit[] = [];
  let logLikelihood = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = share[i * n + j]!;
      if (Number.isNaN(w)) continue;
      const gap = rating[i]! - rating[j]!;
      const fitted = 1 / (1 + Math.exp(-gap));
      pairs.push({ first: names[i]!, second: names[j]!, observed: w, fitted, residual: w - fitted });
      // ln p_ij = -softplus(-gap), with a zero share adding nothing (not 0 * -Infinity when p underflows).
      if (w > 0) logLikelihood -= w * softplus(-gap);
      if (w < 1) logLikelihood -= (1 - w) * softplus(gap);
    }
  }
  const largestResiduals = pairs
    .map((pair, order) => ({ pair, order }))
    .sort((a, b) => Math.abs(b.pair.residual) - Math.abs(a.pair.residual) || a.order - b.order)
    .map((x) => x.pair);

  return { entries, pairs, largestResiduals, logLikelihood, iterations, converged, prior };
}

/** ln(1 + e^x) without overflow for large x or loss of digits for very negative x. */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/**
 * The shares as one flat n x n array, NaN where not played. Of the two halves the fit reads both (they
 * are each side's score), so they must agree: both given and summing to 1, or both missing.
 */
function readShares(names: readonly string[], wins: WinMatrix): Float64Array {
  const n = names.length;
  if (wins.length !== n) throw new RangeError(`wins: ${wins.length} rows for ${n} entries`);
  const share = new Float64Array(n * n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    const row = wins[i]!;
    if (row.length !== n) throw new RangeError(`wins: row ${i} (${names[i]}) has ${row.length} columns for ${n} entries`);
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const w = row[j];
      if (w === undefined || Number.isNaN(w)) continue;
      if (!(w >= 0 && w <= 1)) throw new RangeError(`wins: ${names[i]} against ${names[j]} is ${w}, outside [0, 1]`);
      share[i * n + j] = w;
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const [a, b] = [share[i * n + j]!, share[j * n + i]!];
      if (Number.isNaN(a) !== Number.isNaN(b)) throw new RangeError(`wins: ${names[i]} against ${names[j]} has one half of its result, not both`);
      if (!Number.isNaN(a) && Math.abs(a + b - 1) > SHARES_SUM_SLACK) throw new RangeError(`wins: ${names[i]} against ${names[j]} shares ${a} and ${b}, which do not sum to 1`);
    }
  }
  return share;
}

const FORD_REMEDY = 'allowed: a field in which every group of entries won something against the rest (Ford 1957), or a prior above 0 (virtual tied games per pair)';

/**
 * Refuses a field whose MLE is not finite, naming the most concrete cause found: an entry that played
 * no one, two groups that never met, a single entry that won (or lost) every duel it played, else a group
 * that did. The test for the whole condition: "i won something against j" as an arrow i -> j, the field
 * is strongly connected exactly when every entry can be reached from the first entry and reach it.
 */
function refuseWithoutFiniteOptimum(names: readonly string[], share: Float64Array): void {
  const n = names.length;
  const wonSomething = (i: number, j: number) => i !== j && share[i * n + j]! > 0;
  const met = (i: number, j: number) => i !== j && !Number.isNaN(share[i * n + j]!);

  const idle = names.filter((_, i) => !names.some((__, j) => met(i, j)));
  if (idle.length > 0) throw refusal('field', `${listAllowed(idle.map(showValue))} played no duel, so ${idle.length === 1 ? 'its rating is' : 'their ratings are'} unknown`, FORD_REMEDY);

  const linked = reachable(n, 0, met);
  const apart = linked.indexOf(false);
  if (apart >= 0) throw refusal('field', `no chain of duels links ${showValue(names[0])} to ${showValue(names[apart])}, so their ratings cannot be compared`, FORD_REMEDY);

  const unbeaten = names.filter((_, i) => !names.some((__, j) => wonSomething(j, i)));
  if (unbeaten.length > 0) throw refusal('field', `${listAllowed(unbeaten.map(showValue))} won every duel ${unbeaten.length === 1 ? 'it' : 'they'} played, so ${unbeaten.length === 1 ? 'its rating would be' : 'their ratings would be'} infinite`, FORD_REMEDY);
  const winless = names.filter((_, i) => !names.some((__, j) => wonSomething(i, j)));
  if (winless.length > 0) throw refusal('field', `${listAllowed(winless.map(showValue))} lost every duel ${winless.length === 1 ? 'it' : 'they'} played, so ${winless.length === 1 ? 'its rating would be' : 'their ratings would be'} minus infinity`, FORD_REMEDY);

  // Entries the first cannot reach by a chain of wins: nobody it reaches won anything against them.
  const fromFirst = reachable(n, 0, wonSomething);
  const above = names.filter((_, i) => !fromFirst[i]);
  if (above.length > 0) throw refusal('field', `${listAllowed(above.map(showValue))} won every duel they played against the rest of the field, so their ratings would be infinitely above it`, FORD_REMEDY);
  // Entries that cannot reach the first: they won nothing against those who can.
  const toFirst = reachable(n, 0, (i, j) => wonSomething(j, i));
  const below = names.filter((_, i) => !toFirst[i]);
  if (below.length > 0) throw refusal('field', `${listAllowed(below.map(showValue))} lost every duel they played against the rest of the field, so their ratings would be infinitely below it`, FORD_REMEDY);
}

/** Which entries a walk along `arrow` reaches from `start` (start included). */
function reachable(n: number, start: number, arrow: (from: number, to: number) => boolean): boolean[] {
  const reached = new Array<boolean>(n).fill(false);
  reached[start] = true;
  const stack = [start];
  for (let from = stack.pop(); from !== undefined; from = stack.pop()) {
    for (let to = 0; to < n; to++) {
      if (!reached[to] && arrow(from, to)) {
        reached[to] = true;
        stack.push(to);
      }
    }
  }
  return reached;
}
