import { type Fraction, formatFraction, toNumber } from '../exact/fraction.js';
import type { ExactAnswer, TalliedTrials } from '../model/types.js';
import { chiSquareGoodnessOfFit, type GoodnessOfFit } from './chi-square.js';
import { meanInterval, wilson } from './interval.js';
import { normalTwoSided, Z95 } from './normal.js';
import { tallyOffsets } from '../model/tally.js';

/**
 * The chance that `check` reports a disagreement for a correct engine, over all its tests together.
 * At 1e-6 a correct engine essentially never fails CI, while a real rules mistake, which moves some
 * probability by a percent or more, still fails by hundreds of standard errors at a million trials.
 */
export const FAMILY_ALPHA = 1e-6;

export interface OutcomeCheck {
  readonly outcome: string;
  readonly exact: Fraction;
  readonly exactProbability: number;
  readonly count: number;
  readonly estimate: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** (count - n p) / sqrt(n p (1 - p)); for p of 0 or 1, 0 if the count matches and +-Infinity if not. */
  readonly z: number;
}

export interface MeanCheck {
  readonly id: string;
  readonly jsonKey: string;
  readonly label: string;
  readonly exact: Fraction;
  readonly exactValue: number;
  readonly estimate: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** (estimate - exact) / (s / sqrt(n)) with s the sample standard deviation. */
  readonly z: number;
  readonly pValue: number;
}

export interface BinCheck {
  readonly bin: string;
  readonly exact: Fraction;
  readonly exactProbability: number;
  readonly count: number;
  readonly estimate: number;
  readonly ciLow: number;
  readonly ciHigh: number;
}

export interface HistogramCheck {
  readonly id: string;
  readonly label: string;
  readonly bins: readonly BinCheck[];
  readonly fit: GoodnessOfFit;
}

export interface CrossCheckReport {
  readonly trials: number;
  readonly familyAlpha: number;
  /** Tests in the family: the outcome fit, one per mean, one per histogram. */
  readonly tests: number;
  /** Bonferroni: each test must reach this p-value for the family to hold at familyAlpha. */
  readonly testAlpha: number;
  readonly outcomes: readonly OutcomeCheck[];
  readonly outcomeFit: GoodnessOfFit;
  readonly means: readonly MeanCheck[];
  readonly histograms: readonly HistogramCheck[];
  /** One line per failed test, empty when the simulation agrees. */
  readonly failures: readonly string[];
  readonly passed: boolean;
}

/**
 * Does the simulation agree with the exact answer? Chi-square goodness of fit over the outcomes and over
 * each histogram, a z-test per mean, Bonferroni over the lot at FAMILY_ALPHA. A count in a cell of exact
 * probability 0 fails at once. The per-outcome z-scores are shown to point at the culprit; the
 * chi-square test already covers them, so they are not separate members of the family.
 */
export function crossCheck(exact: ExactAnswer, run: TalliedTrials): CrossCheckReport {
  const { layout, trials: n, tally } = run;
  const at = tallyOffsets(layout);
  const tests = 1 + layout.means.length + layout.histograms.length;
  const testAlpha = FAMILY_ALPHA / tests;
  const failures: string[] = [];

  const outcomes = layout.outcomes.map((outcome, i): OutcomeCheck => {
    const p = toNumber(exact.outcomes[i]!);
    const count = tally[i]!;
    const { low, high } = wilson(count, n, Z95);
    return { outcome, exact: exact.outcomes[i]!, exactProbability: p, count, estimate: count / n, ciLow: low, ciHigh: high, z: proportionZ(count, n, p) };
  });
  const outcomeFit = chiSquareGoodnessOfFit(
    outcomes.map((o) => o.count),
    outcomes.map((o) => o.exactProbability),
  );
  judgeFit(`outcomes`, outcomeFit, layout.outcomes, outcomes, n, testAlpha, failures);

  const means = layout.means.map((m, j): MeanCheck => {
    const exactValue = toNumber(exact.means[j]!);
    const est = meanInterval(tally[at.means + 2 * j]!, tally[at.means + 2 * j + 1]!, n, Z95);
    const se = Math.sqrt(est.variance / n);
    // Every trial gave the same value: the mean is then exact, and must equal the exact mean.
    const z = se > 0 ? (est.mean - exactValue) / se : est.mean === exactValue ? 0 : Math.sign(est.mean - exactValue) * Number.POSITIVE_INFINITY;
    const pValue = normalTwoSided(z);
    if (!(pValue >= testAlpha)) {
      failures.push(
        `${m.label}: mean ${est.mean} against exact ${formatFraction(exact.means[j]!)} (${exactValue}), z = ${z.toFixed(2)}, p = ${pValue.toExponential(2)} < ${testAlpha.toExponential(2)}`,
      );
    }
    return { id: m.id, jsonKey: m.jsonKey, label: m.label, exact: exact.means[j]!, exactValue, estimate: est.mean, ciLow: est.low, ciHigh: est.high, z, pValue };
  });

  const histograms = layout.histograms.map((h, k): HistogramCheck => {
    const bins = h.bins.map((bin, b): BinCheck => {
      const count = tally[at.histograms[k]! + b]!;
      const { low, high } = wilson(count, n, Z95);
      const f = exact.histograms[k]![b]!;
      return { bin, exact: f, exactProbability: toNumber(f), count, estimate: count / n, ciLow: low, ciHigh: high };
    });
    const fit = chiSquareGoodnessOfFit(
      bins.map((b) => b.count),
      bins.map((b) => b.exactProbability),
    );
    judgeFit(h.label, fit, h.bins, bins, n, testAlpha, failures);
    return { id: h.id, label: h.label, bins, fit };
  });

  return { trials: n, familyAlpha: FAMILY_ALPHA, tests, testAlpha, outcomes, outcomeFit, means, histograms, failures, passed: failures.length === 0 };
}

function proportionZ(count: number, n: number, p: number): number {
  const expected = n * p;
  const sd = Math.sqrt(n * p * (1 - p));
  if (sd > 0) return (count - expected) / sd;
  return count === expected ? 0 : Math.sign(count - expected) * Number.POSITIVE_INFINITY;
}

function judgeFit(
  what: string,
  fit: GoodnessOfFit,
  names: readonly string[],
  cells: readonly { count: number }[],
  n: number,
  testAlpha: number,
  failures: string[],
): void {
  for (const i of fit.impossible) {
    failures.push(`${what}: "${names[i]}" has exact probability 0 but came up ${cells[i]!.count} times in ${n} trials`);
  }
  if (fit.impossible.length === 0 && !(fit.pValue >= testAlpha)) {
    failures.push(
      `${what}: chi-square ${fit.statistic.toFixed(2)} on ${fit.df} degrees of freedom, p = ${fit.pValue.toExponential(2)} < ${testAlpha.toExponential(2)}`,
    );
  }
}

/** Largest |z| over the outcomes: the one figure that says how close a passing check came to failing. */
export function worstZ(c: CrossCheckReport): number {
  let m = 0;
  for (const o of c.outcomes) m = Math.max(m, Math.abs(o.z));
  return m;
}
