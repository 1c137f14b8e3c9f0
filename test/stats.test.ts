import { sampleVariance } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { chiSquareGoodnessOfFit } from '../src/stats/chi-square.js';
import { meanInterval, wilson } from '../src/stats/interval.js';
import { chiSquareUpperTail, normalQuantile, normalTwoSided, Z95 } from '../src/stats/normal.js';

/**
 * Reference values. Tolerances are relative 1e-9 unless stated: far below anything printed, far above
 * the rounding of a double, so they pin the formula without pinning the last bit.
 */
const close = (actual: number, expected: number, rel = 1e-9) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));

describe('normal quantile', () => {
  it('matches scipy.stats.norm.ppf (scipy 1.17.1)', () => {
    close(Z95, 1.959963984540054); // norm.ppf(0.975)
    // Z95 is written out (no CDF loaded at start): it is the quantile this module computes, to the last digits.
    expect(Math.abs(normalQuantile(0.975) - Z95)).toBeLessThan(1e-13);
    close(normalQuantile(0.995), 2.5758293035489004); // norm.ppf(0.995)
    close(normalQuantile(1e-6), -4.753424308822899); // norm.ppf(1e-6)
    expect(normalQuantile(0.5)).toBeCloseTo(0, 12);
  });

  it('two-sided tails match 2 * scipy.stats.norm.sf(|z|)', () => {
    close(normalTwoSided(3), 0.0026997960632601866);
    close(normalTwoSided(-5), 5.733031437583866e-7, 1e-6);
    expect(normalTwoSided(0)).toBe(1);
  });
});

describe('chi-square upper tail', () => {
  it('matches the 5% critical values of every printed table and scipy.stats.chi2.sf', () => {
    close(chiSquareUpperTail(3.841458820694124, 1), 0.05, 1e-8); // chi2.isf(0.05, 1)
    close(chiSquareUpperTail(11.070497693516351, 5), 0.05, 1e-8); // chi2.isf(0.05, 5)
    close(chiSquareUpperTail(30, 19), 0.05179845889302389); // chi2.sf(30, 19)
    close(chiSquareUpperTail(50, 10), 2.669083424904495e-7, 1e-6); // chi2.sf(50, 10)
    expect(chiSquareUpperTail(0, 3)).toBe(1);
  });
});

describe('wilson', () => {
  it("matches Newcombe (1998), 'Two-sided confidence intervals for the single proportion', table II", () => {
    // Newcombe prints 4 decimals; the full values are the formula evaluated by scipy, z = norm.ppf(0.975).
    const a = wilson(81, 263, Z95);
    close(a.low, 0.2552885198782742); // Newcombe: 0.2553
    close(a.high, 0.36620957698280004); // Newcombe: 0.3662
    const b = wilson(15, 148, Z95);
    close(b.low, 0.0623863995307363); // Newcombe: 0.0624
    close(b.high, 0.16048724172330803); // Newcombe: 0.1605
  });

  it('is never empty at 0 or n: 0 of 10 gives [0, 0.2775] (the rule of three, sharpened)', () => {
    const zero = wilson(0, 10, Z95);
    expect(zero.low).toBe(0);
    close(zero.high, 0.2775327998628892);
    const all = wilson(10, 10, Z95);
    close(all.low, 0.7224672001371107);
    expect(all.high).toBeCloseTo(1, 12);
  });
});

describe('mean interval from a sum and a sum of squares', () => {
  it('worked by hand: values 0, 1, 2, 1', () => {
    // sum 4, sum of squares 6, n 4: mean 1, variance (6 - 4 * 1) / 3 = 2/3,
    // half-width norm.ppf(0.975) * sqrt((2/3) / 4) = 0.8001519460592184 (scipy).
    const m = meanInterval(4, 6, 4, Z95);
    expect(m.mean).toBe(1);
    close(m.variance, 2 / 3, 1e-12);
    close(m.variance, sampleVariance([0, 1, 2, 1]), 1e-12); // simple-statistics as an independent oracle
    close(m.high - m.mean, Z95 * Math.sqrt(2 / 3 / 4));
    close(m.mean - m.low, 0.8001519460592184);
  });

  it('keeps its variance at a billion trials, where sumSq - sum^2 / n cancels most digits', () => {
    // 10^9 trials of a Bernoulli(0.3): sum 3e8, sumSq 3e8, variance n/(n-1) * 0.21.
    const m = meanInterval(3e8, 3e8, 1e9, Z95);
    close(m.variance, (0.21 * 1e9) / (1e9 - 1), 1e-9);
  });
});

describe('chi-square goodness of fit', () => {
  it('matches scipy.stats.chisquare([5, 8, 9, 8, 10, 20]) against a fair die', () => {
    // By hand: (25 + 4 + 1 + 4 + 0 + 100) / 10 = 13.4 on 5 degrees of freedom.
    const fit = chiSquareGoodnessOfFit([5, 8, 9, 8, 10, 20], new Array(6).fill(1 / 6));
    close(fit.statistic, 13.4);
    expect(fit.df).toBe(5);
    close(fit.pValue, 0.01990522033477438);
  });

  it('matches scipy.stats.chisquare([10, 20, 30], [15, 15, 30])', () => {
    const fit = chiSquareGoodnessOfFit([10, 20, 30], [0.25, 0.25, 0.5]);
    close(fit.statistic, 10 / 3);
    close(fit.pValue, 0.1888756028375618);
  });

  it('fails outright when an impossible cell is observed, and skips impossible cells otherwise', () => {
    const bad = chiSquareGoodnessOfFit([50, 49, 1], [0.5, 0.5, 0]);
    expect(bad.impossible).toEqual([2]);
    expect(bad.pValue).toBe(0);
    const good = chiSquareGoodnessOfFit([50, 50, 0], [0.5, 0.5, 0]);
    expect(good.impossible).toEqual([]);
    expect(good.df).toBe(1);
    expect(good.statistic).toBe(0);
  });

  it('pools cells expected fewer than 5 times, so one rare hit does not read as a disaster', () => {
    // 1000 trials, a 1-in-10,000 cell seen once: alone it would add (1 - 0.1)^2 / 0.1 = 8.1.
    const fit = chiSquareGoodnessOfFit([500, 499, 1], [0.5, 0.4999, 0.0001]);
    expect(fit.cells).toBe(2);
    expect(fit.df).toBe(1);
    expect(fit.pValue).toBeGreaterThan(0.9);
  });

  it('has nothing to test when only one outcome is possible', () => {
    const fit = chiSquareGoodnessOfFit([0, 1000], [0, 1]);
    expect(fit).toMatchObject({ df: 0, pValue: 1, statistic: 0 });
  });
});
