import { probit } from 'simple-statistics';

type ChiSquareCdf = (x: number, df: number) => number;

let given: ChiSquareCdf | undefined;

/**
 * Gives the chi-square CDF to use, for a bundle that has no Node require (src/web/engine.ts imports
 * stdlib's and hands it here). The CLI never calls this: it loads stdlib's on first use (chiSquareCdf).
 */
export function useChiSquareCdf(cdf: ChiSquareCdf): void {
  given = cdf;
}

/**
 * stdlib's chi-square CDF, loaded on first use rather than at start: it is some fifty CommonJS packages
 * (its incomplete gamma and what that needs), about 100-200 ms of every start of the CLI, and only a
 * simulation's cross-check or a goodness of fit calls it. Reached through process.getBuiltinModule, as
 * ajv is (model/ajv.ts), so the module bundles for a browser, where useChiSquareCdf gives it.
 */
function chiSquareCdf(x: number, df: number): number {
  given ??= process.getBuiltinModule('node:module').createRequire(import.meta.url)('@stdlib/stats-base-dists-chisquare-cdf') as ChiSquareCdf;
  return given(x, df);
}

/**
 * Upper tail of the chi-square distribution, P(X >= x) for `df` degrees of freedom. stdlib's CDF is a
 * port of Boost's regularised incomplete gamma; taking 1 - CDF costs accuracy only below about 1e-15,
 * far under any threshold this tool compares against (the smallest is 1e-6 split over a few tests).
 */
export function chiSquareUpperTail(x: number, df: number): number {
  if (!(x > 0)) return 1;
  return Math.max(0, 1 - chiSquareCdf(x, df));
}

/** Standard normal CDF, exact to double precision through Z^2 ~ chi-square with 1 degree of freedom. */
export function normalCdf(z: number): number {
  const half = chiSquareCdf(z * z, 1) / 2;
  return z >= 0 ? 0.5 + half : 0.5 - half;
}

/** Two-sided p-value of a z-score: P(|Z| >= |z|) = P(chi-square_1 >= z^2). */
export function normalTwoSided(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  return chiSquareUpperTail(z * z, 1);
}

/**
 * The normal quantile. simple-statistics' probit uses Winitzki's closed-form inverse error function,
 * which is off by about 0.15% (1.9572 for 0.975 where the true value is 1.95996); three Newton steps on
 * the exact CDF above bring it to within 1e-11 (Newton doubles the correct digits: 3, 6, 12), so
 * intervals have their stated coverage.
 */
export function normalQuantile(p: number): number {
  if (p <= 0) return Number.NEGATIVE_INFINITY;
  if (p >= 1) return Number.POSITIVE_INFINITY;
  let z = probit(p);
  for (let step = 0; step < 3; step++) {
    const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
    z -= (normalCdf(z) - p) / density;
  }
  return z;
}

/**
 * z for a two-sided 95% interval: normalQuantile(0.975), written out so that a start of the CLI does not
 * load the CDF to compute it (test/stats.test.ts holds the two equal, and both to scipy's norm.ppf).
 */
export const Z95 = 1.959963984540054;
