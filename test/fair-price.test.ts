import { describe, expect, it } from 'vitest';
import { fairPrices, mostMispricedFirst, type FairPricing, type PricedEntry } from '../src/pricing/fair-price.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 40 part 1: fair prices from the line r = a + b ln c. Fields here are built on a chosen line, so
 * the fair prices are known before the code runs; where the line must be fitted to points off it, the
 * fit is checked through the least-squares normal equations (residuals summing to 0 and uncorrelated
 * with ln c), which the code never evaluates. Relative tolerance 1e-9: the arithmetic is a few logs and
 * exps of doubles, good to about 1e-15.
 */

const REL = 1e-9;
const closeTo = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(REL * Math.abs(expected));

/** Entries exactly on r = a + b ln c. */
const onCurve = (a: number, b: number, prices: readonly number[]): PricedEntry[] => prices.map((c) => ({ name: `at ${c}`, rating: a + b * Math.log(c), price: c }));

const byName = (pricing: FairPricing) => new Map(pricing.entries.map((e) => [e.name, e]));


/** Largest violation of the normal equations of r on ln c over the priced entries: sum e = 0 and sum e ln c = 0. */
function normalEquationsGap(field: readonly PricedEntry[], a: number, b: number): number {
  let sumResidual = 0;
  let sumResidualX = 0;
  for (const e of field) {
    if (e.price === undefined) continue;
    const x = Math.log(e.price);
    const residual = e.rating - (a + b * x);
    sumResidual += residual;
    sumResidualX += residual * x;
  }
  return Math.max(Math.abs(sumResidual), Math.abs(sumResidualX));
}

describe('a field on its price curve', () => {
  // r = -3 + 0.8 ln c: at 10 points the rating is -3 + 0.8 * 2.302585 = -1.157932, at 40 it is -0.048917.
  const field = onCurve(-3, 0.8, [10, 15, 25, 40]);

  it('every entry is fairly priced (fair = current to 1e-9), the curve is the one built on, r^2 = 1', () => {
    const pricing = fairPrices(field);
    expect(pricing.n).toBe(4);
    closeTo(pricing.curve.a, -3);
    closeTo(pricing.curve.b, 0.8);
    expect(pricing.curve.slopeFrom).toBe('field');
    expect(Math.abs(pricing.rSquared! - 1)).toBeLessThan(1e-12);
    for (const e of pricing.entries) {
      closeTo(e.fairPrice, e.price!);
      expect(e.verdict).toBe('fair');
    }
  });

  it('an unpriced entry gets the price the curve gives its rating, and the verdict unpriced', () => {
    // Rated as the curve rates 30 points: fair price exp((r + 3) / 0.8) = 30.
    const pricing = fairPrices([...field, { name: 'new', rating: -3 + 0.8 * Math.log(30), price: undefined }]);
    expect(pricing.n).toBe(4);
    const entry = byName(pricing).get('new')!;
    closeTo(entry.fairPrice, 30);
    expect(entry).toMatchObject({ verdict: 'unpriced', difference: undefined, percent: undefined });
    expect(mostMispricedFirst(pricing.entries).at(-1)!.name).toBe('new');
  });

  it('an entry much stronger than its price: under-priced and first in the list; an anchor on it pins its fair price exactly', () => {
    // "bargain" costs 10 but is rated as the curve rates 40. The line refitted with it is checked through
    // the normal equations; whatever its exact slope, bargain's fair price is far above 10.
    const bargain = { name: 'bargain', rating: -3 + 0.8 * Math.log(40), price: 10 };
    const withBargain = [...field, bargain];
    const pricing = fairPrices(withBargain, { line: 'least-squares' });
    expect(normalEquationsGap(withBargain, pricing.curve.a, pricing.curve.b)).toBeLessThan(1e-12);
    closeTo(byName(pricing).get('bargain')!.fairPrice, Math.exp((bargain.rating - pricing.curve.a) / pricing.curve.b));
    const sorted = mostMispricedFirst(pricing.entries);
    expect(sorted[0]).toMatchObject({ name: 'bargain', verdict: 'under-priced' });
    expect(sorted[0]!.percent).toBeGreaterThan(100);
    for (let k = 1; k < sorted.length; k++) expect(Math.abs(sorted[k - 1]!.percent!)).toBeGreaterThanOrEqual(Math.abs(sorted[k]!.percent!));

    // Anchored on bargain: same slope, line through (ln 10, r_bargain), so fair_i = 10 exp((r_i - r_bargain) / b).
    const anchored = fairPrices(withBargain, { anchor: 'bargain', line: 'least-squares' });
    expect(anchored.curve.b).toBe(pricing.curve.b);
    expect(anchored.curve.anchor).toBe('bargain');
    closeTo(anchored.curve.a, bargain.rating - pricing.curve.b * Math.log(10));
    const pinned = byName(anchored).get('bargain')!;
    expect(pinned).toMatchObject({ fairPrice: 10, difference: 0, percent: 0, verdict: 'fair' });
    for (const e of anchored.entries) closeTo(e.fairPrice, 10 * Math.exp((e.rating - bargain.rating) / pricing.curve.b));
    // Measured against the bargain, every other entry is dear: its rating buys less than its price.
    for (const e of anchored.entries) if (e.name !== 'bargain') expect(e.verdict).toBe('over-priced');
  });

  it('the robust line (the default) is not tilted by the bargain: the four on the curve stay exactly fair, the bargain is worth 40', () => {
    // Theil-Sen by hand. Slopes between two of the four on the curve: 6, each exactly 0.8. The bargain
    // (ln 10, r at 40) with "at 10" is at the same price: no slope; with the other three, 3 slopes
    // ((r40 - r_c) / (ln 10 - ln c): 0 with "at 40", the others negative). 9 slopes, 6 of them 0.8:
    // the median (the 5th) is 0.8. Intercepts r - 0.8 ln c: -3 four times and -3 + 0.8 ln 4 once: the
    // median is -3. So the line is the built one, and the bargain's fair price is exp((r40 + 3) / 0.8) = 40.
    const bargain = { name: 'bargain', rating: -3 + 0.8 * Math.log(40), price: 10 };
    const pricing = fairPrices([...field, bargain]);
    expect(pricing.curve.line).toBe('theil-sen');
    closeTo(pricing.curve.b, 0.8);
    closeTo(pricing.curve.a, -3);
    for (const e of pricing.entries) if (e.name !== 'bargain') expect(e).toMatchObject({ verdict: 'fair' });
    for (const e of pricing.entries) if (e.name !== 'bargain') closeTo(e.fairPrice, e.price!);
    closeTo(byName(pricing).get('bargain')!.fairPrice, 40);
    closeTo(byName(pricing).get('bargain')!.percent!, 300);
    // r^2 is 1 - SSres / SStot of that line: only the bargain is off it, by 0.8 ln 4.
    const ratings = [...field, bargain].map((e) => e.rating);
    const meanRating = ratings.reduce((x, y) => x + y) / ratings.length;
    const total = ratings.reduce((sum, r) => sum + (r - meanRating) ** 2, 0);
    closeTo(pricing.rSquared!, 1 - (0.8 * Math.log(4)) ** 2 / total);
  });

  it('the tolerance: 4% under fair is fair at the default 5%, under-priced at 3%; 6% either side is mispriced', () => {
    // A given slope and an anchor fix the line with nothing fitted: fair_i = 10 exp((r_i - r_A) / 0.8).
    // Each entry costs 20 and is rated so that its fair price is 20.8 (+4%), 21.2 (+6%) or 18.8 (-6%).
    const rA = 0;
    const rated = (fair: number) => rA + 0.8 * Math.log(fair / 10);
    const tolerance = [
      { name: 'A', rating: rA, price: 10 },
      { name: 'plus4', rating: rated(20.8), price: 20 },
      { name: 'plus6', rating: rated(21.2), price: 20 },
      { name: 'minus6', rating: rated(18.8), price: 20 },
    ];
    const at5 = byName(fairPrices(tolerance, { slope: 0.8, anchor: 'A' }));
    closeTo(at5.get('plus4')!.percent!, 4);
    closeTo(at5.get('plus4')!.difference!, 0.8);
    expect([...at5.values()].map((e) => e.verdict)).toEqual(['fair', 'fair', 'under-priced', 'over-priced']);
    const at3 = fairPrices(tolerance, { slope: 0.8, anchor: 'A', tolerancePercent: 3 });
    expect(at3.tolerancePercent).toBe(3);
    expect(at3.entries.map((e) => e.verdict)).toEqual(['fair', 'under-priced', 'under-priced', 'over-priced']);
  });
});

describe('identical entries at different prices (the issue\'s test)', () => {
  const copies: PricedEntry[] = [10, 20, 30, 40].map((c) => ({ name: `copy at ${c}`, rating: 0.25, price: c }));

  it('alone, they carry no slope: refused, unless a slope is given', () => {
    expect(refusal(() => fairPrices(copies))).toMatch(/^ratings: every priced entry is rated alike \(within 1e-9\), so they carry no slope; allowed: .*slope given/);
  });

  it('with a given slope and the cheapest as anchor: all but the cheapest over-priced, the dearer the more, whatever the slope', () => {
    // Every copy has the anchor's rating, so its fair price is the anchor's: 10. Percent = 100 (10 / c - 1):
    // 0, -50, -66.67, -75. No slope enters that sum, so 0.3 and 3 give the same.
    for (const slope of [0.3, 1, 3]) {
      const pricing = fairPrices(copies, { slope, anchor: 'copy at 10' });
      expect(pricing.curve).toMatchObject({ b: slope, slopeFrom: 'given', anchor: 'copy at 10' });
      expect(pricing.rSquared).toBeUndefined();
      for (const e of pricing.entries) closeTo(e.fairPrice, 10);
      [0, -50, -200 / 3, -75].forEach((p, k) => expect(Math.abs(pricing.entries[k]!.percent! - p)).toBeLessThan(1e-9));
      expect(pricing.entries.map((e) => e.verdict)).toEqual(['fair', 'over-priced', 'over-priced', 'over-priced']);
      expect(mostMispricedFirst(pricing.entries).map((e) => e.price)).toEqual([40, 30, 20, 10]);
    }
  });

  it('with a given slope and no anchor, least squares: the line goes through the mean, so each is worth the geometric mean of the prices', () => {
    // (10 * 20 * 30 * 40)^(1/4) = 240000^(1/4) = 22.1336...: the two cheap copies under-priced, the dear ones over.
    const pricing = fairPrices(copies, { slope: 1, line: 'least-squares' });
    for (const e of pricing.entries) closeTo(e.fairPrice, 240000 ** 0.25);
    expect(pricing.entries.map((e) => e.verdict)).toEqual(['under-priced', 'under-priced', 'over-priced', 'over-priced']);
  });

  it('with a given slope and no anchor, Theil-Sen: the median intercept, so each is worth the median price (in logs)', () => {
    // Intercepts 0.25 - ln c; their median is 0.25 - (ln 20 + ln 30) / 2, so the fair price of the
    // rating 0.25 is exp((ln 20 + ln 30) / 2) = sqrt(600) = 24.4949...: 10 and 20 under-priced, 30 and 40 over.
    const pricing = fairPrices(copies, { slope: 1 });
    for (const e of pricing.entries) closeTo(e.fairPrice, Math.sqrt(600));
    expect(pricing.entries.map((e) => e.verdict)).toEqual(['under-priced', 'under-priced', 'over-priced', 'over-priced']);
  });

  it('inside a larger field that gives a slope: every copy dearer than the curve\'s price for its rating is over-priced, the dearer the more', () => {
    // A field on r = -2 + ln c at 10 ... 320, and three more copies of the entry at 40 priced 60, 90 and
    // 135. The copies join the fit (they are priced entries like any other), which tilts the line; it is
    // checked through the normal equations, and the curve's price for the copies' rating is
    // F = exp((r - a) / b), one price for all four.
    const base = onCurve(-2, 1, [10, 20, 40, 80, 160, 320]);
    const rating = -2 + Math.log(40);
    const extra = [60, 90, 135].map((c) => ({ name: `copy at ${c}`, rating, price: c }));
    const field = [...base, ...extra];
    const pricing = fairPrices(field, { line: 'least-squares' });
    expect(normalEquationsGap(field, pricing.curve.a, pricing.curve.b)).toBeLessThan(1e-12);
    const F = Math.exp((rating - pricing.curve.a) / pricing.curve.b);
    const copiesPriced = pricing.entries.filter((e) => e.rating === rating);
    expect(copiesPriced.map((e) => e.price)).toEqual([40, 60, 90, 135]);
    for (const e of copiesPriced) closeTo(e.fairPrice, F);
    for (const e of copiesPriced) if (e.price! > F * 1.05) expect(e.verdict).toBe('over-priced');
    // Not vacuous: the tilted line (b = 0.88) puts F near 50.8, so the copy at 40 is under it and three are
    // over. (The tilt is what least squares does with four points at one rating: the base field, exact on
    // its own line, now reads under-priced, 5% at 10 points to 68% at 320.)
    expect(copiesPriced.filter((e) => e.verdict === 'over-priced').map((e) => e.price)).toEqual([60, 90, 135]);
    // Percent = 100 (F / c - 1) falls as c rises: dearer, more over-priced; and so they are listed.
    for (let k = 1; k < copiesPriced.length; k++) expect(copiesPriced[k]!.percent!).toBeLessThan(copiesPriced[k - 1]!.percent!);
    const listed = mostMispricedFirst(pricing.entries).filter((e) => e.verdict === 'over-priced' && e.rating === rating);
    expect(listed.map((e) => e.price)).toEqual([135, 90, 60]);
  });

  it('the same field on the robust line: the base field stays exactly fair, and the copies are worth 40 each', () => {
    // Theil-Sen by hand over the 36 pairs of the 9 entries. 15 base pairs: slope exactly 1. Below 1: the
    // 6 pairs of a copy with another copy or with the base entry at 40 (same rating: 0), the 6 of a copy
    // with the base at 10 or 20 ((ln 40 - ln b) / (ln c - ln b) < 1 for c > 40 > b), and the copies at 90
    // and 135 with the base at 80 (a dearer copy rated below it: negative): 14. The 7 others are above 1.
    // The median of 36 (the mean of the 18th and 19th) falls among the fifteen 1s: b = 1. Intercepts
    // r - ln c: -2 six times, below -2 for the three copies: the median (5th of 9) is -2.
    const base = onCurve(-2, 1, [10, 20, 40, 80, 160, 320]);
    const rating = -2 + Math.log(40);
    const extra = [60, 90, 135].map((c) => ({ name: `copy at ${c}`, rating, price: c }));
    const pricing = fairPrices([...base, ...extra]);
    closeTo(pricing.curve.b, 1);
    closeTo(pricing.curve.a, -2);
    for (const e of pricing.entries) closeTo(e.fairPrice, e.rating === rating ? 40 : e.price!);
    expect(pricing.entries.map((e) => e.verdict)).toEqual(['fair', 'fair', 'fair', 'fair', 'fair', 'fair', 'over-priced', 'over-priced', 'over-priced']);
    [60, 90, 135].forEach((c) => closeTo(byName(pricing).get(`copy at ${c}`)!.percent!, 100 * (40 / c - 1)));
  });
});

describe('what cannot be priced', () => {
  it('fewer than 2 priced entries, all at one price, or dearer rated weaker: one-line refusals', () => {
    expect(refusal(() => fairPrices([{ name: 'A', rating: 0, price: 10 }, { name: 'B', rating: 1, price: undefined }]))).toBe(
      'prices: 1 priced entry; allowed: 2 or more to fit a price curve, or a slope given',
    );
    expect(refusal(() => fairPrices([{ name: 'A', rating: 0, price: 10 }, { name: 'B', rating: 1, price: 10 }]))).toMatch(/^prices: every priced entry costs 10, so price cannot explain rating; /);
    // r = 5 - ln c: the slope comes out -1.
    expect(refusal(() => fairPrices(onCurve(5, -1, [10, 20, 40])))).toMatch(/^prices: the fitted slope is -1: dearer entries are rated weaker, so no rising price curve fits this field; /);
  });

  it('an unknown or unpriced anchor is refused, naming it', () => {
    const field = [...onCurve(0, 1, [10, 20]), { name: 'new', rating: 3, price: undefined }];
    expect(refusal(() => fairPrices(field, { anchor: 'ghost' }))).toBe('anchor: "ghost" is not an entry of the field; allowed: at 10, at 20, new');
    expect(refusal(() => fairPrices(field, { anchor: 'new' }))).toBe('anchor: "new" is not priced (a fair price is pinned to a current one); allowed: at 10, at 20');
  });

  it('a fair price beyond a double\'s range is refused, naming the entry, not given as Infinity', () => {
    // Slope 0.001 and a rating 1 above the anchor's: fair = 10 exp(1000), past the largest double (about e^709.8).
    const field = [
      { name: 'A', rating: 0, price: 10 },
      { name: 'giant', rating: 1, price: 20 },
    ];
    expect(refusal(() => fairPrices(field, { slope: 0.001, anchor: 'A' }))).toMatch(/^fair price of "giant": exp\(1000\) is beyond a number's range at slope 0.001; /);
  });

  it('bad prices and options name the entry or option', () => {
    expect(refusal(() => fairPrices([{ name: 'A', rating: 0, price: 0 }]))).toBe('price of "A": 0 is not allowed; allowed: a number above 0, or none (not priced)');
    expect(refusal(() => fairPrices(onCurve(0, 1, [10, 20]), { slope: 0 }))).toBe('slope: 0 is not allowed; allowed: a number above 0 (rating per unit of ln price)');
    expect(refusal(() => fairPrices(onCurve(0, 1, [10, 20]), { tolerancePercent: -5 }))).toBe('tolerancePercent: -5 is not allowed; allowed: a percentage, 0 or more');
    expect(refusal(() => fairPrices([...onCurve(0, 1, [10]), ...onCurve(0, 1, [10])]))).toBe('field: "at 10" is named twice; allowed: one entry per name');
     expect(refusal(() => fairPrices(onCurve(0, 1, [10, 20]), { line: 'median' as never }))).toMatch(/^line: "median" is not/);
    expect(refusal(() => fairPrices(onCurve(0, 1, [10, 20]), { line: 'median' as never }))).toMatch(/theil-sen, least-squares/);
  });
});
