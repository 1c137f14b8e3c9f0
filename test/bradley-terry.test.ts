import { describe, expect, it } from 'vitest';
import { fitBradleyTerry, type BradleyTerryFit, type WinMatrix } from '../src/pricing/bradley-terry.js';
import { Rng } from '../src/sim/rng.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 40 part 1: Bradley-Terry ratings by MM. The reference values are worked by hand below, and the
 * optimum of a field that is not exactly Bradley-Terry is checked through its stationarity equations
 * (the gradient of the log-likelihood is zero there), which the fit itself never evaluates.
 *
 * Tolerance 1e-9 on ratings: the fit stops when a step moves no rating by 1e-12, and MM's remaining
 * distance to the optimum is that step times a factor of a few on these small fields; 1e-9 is far above
 * that and far below any digit a report prints.
 */

const TOL = 1e-9;
const LN2 = Math.log(2);

/** The matrix with w[i][j] = s_i / (s_i + s_j): exactly what strengths s predict. */
function bradleyTerryMatrix(strengths: readonly number[]): number[][] {
  return strengths.map((si, i) => strengths.map((sj, j) => (i === j ? Number.NaN : si / (si + sj))));
}

/** A full round of random shares in [0.02, 0.98] from a fixed seed: strongly connected, not Bradley-Terry. */
function randomField(size: number, seed: number): number[][] {
  const rng = Rng.forChunk(seed, 0);
  const w = Array.from({ length: size }, () => new Array<number>(size).fill(Number.NaN));
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const share = 0.02 + (0.96 * rng.nextUint32()) / 2 ** 32;
      w[i]![j] = share;
      w[j]![i] = 1 - share;
    }
  }
  return w;
}

const ratingsByName = (fit: BradleyTerryFit) => new Map(fit.entries.map((e) => [e.name, e.rating]));

/**
 * The MLE's equations, evaluated here from the ratings alone: for every entry,
 *   W_i + prior (n - 1) / 2  =  sum_{j != i} n_ij s_i / (s_i + s_j),   n_ij = [played] + prior,
 * returns the largest |left - right|.
 */
function stationarityGap(w: WinMatrix, fit: BradleyTerryFit, prior = 0): number {
  const s = fit.entries.map((e) => Math.exp(e.rating));
  let gap = 0;
  for (let i = 0; i < s.length; i++) {
    let observed = 0;
    let expected = 0;
    for (let j = 0; j < s.length; j++) {
      if (i === j) continue;
      const share = w[i]![j];
      const played = share !== undefined && !Number.isNaN(share);
      observed += (played ? share : 0) + prior / 2;
      expected += ((played ? 1 : 0) + prior) * (s[i]! / (s[i]! + s[j]!));
    }
    gap = Math.max(gap, Math.abs(observed - expected));
  }
  return gap;
}

function permute<T>(values: readonly T[], order: readonly number[]): T[] {
  return order.map((k) => values[k]!);
}

function permuteMatrix(w: WinMatrix, order: readonly number[]): (number | undefined)[][] {
  return order.map((i) => order.map((j) => w[i]![j]));
}

/** Every ordering of 0..n-1. */
function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, k) => [...p.slice(0, k), n - 1, ...p.slice(k)]));
}


describe('Bradley-Terry fit, solved by hand', () => {
  it('three entries with strengths 1, 2, 4: the data are exactly the model, so the fit returns them', () => {
    // w_AB = 1/(1+2) = 1/3, w_AC = 1/(1+4) = 1/5, w_BC = 2/(2+4) = 1/3. With p_ij = w_ij for every pair the
    // stationarity equations W_i = sum_j p_ij hold term by term, and the log-likelihood is strictly concave
    // in the ratings (up to the common shift), so these strengths are the MLE.
    // ln s = (0, ln 2, 2 ln 2), mean ln 2: normalised ratings (-ln 2, 0, ln 2) = (-0.693..., 0, 0.693...).
    // Elo-like: 400 log10 2 = 120.41 points between neighbours.
    const fit = fitBradleyTerry(['A', 'B', 'C'], bradleyTerryMatrix([1, 2, 4]));
    expect(fit.converged).toBe(true);
    const expected = [-LN2, 0, LN2];
    fit.entries.forEach((e, i) => expect(Math.abs(e.rating - expected[i]!)).toBeLessThan(TOL));
    fit.entries.forEach((e, i) => expect(Math.abs(e.elo - (400 * Math.log10(2)) * (i - 1))).toBeLessThan(1e-6));
    // Scores W: A 1/3 + 1/5 = 8/15, B 2/3 + 1/3 = 1, C 4/5 + 2/3 = 22/15 (sum 3, the number of games).
    expect(fit.entries.map((e) => e.score).map((x, i) => Math.abs(x - [8 / 15, 1, 22 / 15][i]!) < 1e-15)).toEqual([true, true, true]);
    expect(fit.entries.map((e) => e.played)).toEqual([2, 2, 2]);
    // Every residual 0; L = 2 (1/3 ln 1/3 + 2/3 ln 2/3) + (1/5 ln 1/5 + 4/5 ln 4/5).
    for (const pair of fit.pairs) expect(Math.abs(pair.residual)).toBeLessThan(TOL);
    const L = 2 * ((1 / 3) * Math.log(1 / 3) + (2 / 3) * Math.log(2 / 3)) + ((1 / 5) * Math.log(1 / 5) + (4 / 5) * Math.log(4 / 5));
    expect(Math.abs(fit.logLikelihood - L)).toBeLessThan(TOL);
  });

  it('a chain A-B-C with A-C not played: each played pair alone fixes its ratio, the same ratings again', () => {
    // A plays only B: A's equation is w_AB = p_AB, so 1/3 = s_A / (s_A + s_B), s_B = 2 s_A. C plays only B:
    // 2/3 = s_C / (s_B + s_C), s_C = 2 s_B. Strengths 1 : 2 : 4, ratings (-ln 2, 0, ln 2) as above.
    const w = [
      [Number.NaN, 1 / 3, undefined],
      [2 / 3, Number.NaN, 1 / 3],
      [undefined, 2 / 3, Number.NaN],
    ];
    const fit = fitBradleyTerry(['A', 'B', 'C'], w);
    [-LN2, 0, LN2].forEach((r, i) => expect(Math.abs(fit.entries[i]!.rating - r)).toBeLessThan(TOL));
    expect(fit.entries.map((e) => e.played)).toEqual([1, 2, 1]);
    expect(fit.pairs.map((p) => `${p.first}-${p.second}`)).toEqual(['A-B', 'B-C']);
  });

  it('a cycle (A beats B, B beats C, C beats A, each 0.7) rates all three alike, and its residuals say the model misses the cycle', () => {
    // Each entry scores 0.7 + 0.3 = 1 of 2 games; equal strengths predict 1/2 + 1/2 = 1: stationary, and
    // the optimum is unique, so every rating is 0. Residuals: A-B 0.7 - 0.5, A-C 0.3 - 0.5, B-C 0.7 - 0.5.
    const w = [
      [Number.NaN, 0.7, 0.3],
      [0.3, Number.NaN, 0.7],
      [0.7, 0.3, Number.NaN],
    ];
    const fit = fitBradleyTerry(['A', 'B', 'C'], w);
    for (const e of fit.entries) expect(Math.abs(e.rating)).toBeLessThan(TOL);
    expect(fit.pairs.map((p) => Math.round(p.residual * 1e9) / 1e9)).toEqual([0.2, -0.2, 0.2]);
    // L = 3 (0.7 ln 0.5 + 0.3 ln 0.5) = 3 ln 0.5.
    expect(Math.abs(fit.logLikelihood - 3 * Math.log(0.5))).toBeLessThan(TOL);
  });

  it('identical entries (every pair 0.5) are all rated 0', () => {
    const n = 5;
    const w = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => (i === j ? Number.NaN : 0.5)));
    const fit = fitBradleyTerry(['a', 'b', 'c', 'd', 'e'], w);
    expect(fit.converged).toBe(true);
    for (const e of fit.entries) expect(Math.abs(e.rating)).toBeLessThan(1e-12);
  });
});

describe('Bradley-Terry fit, checked through the MLE equations', () => {
  it('a field that is not Bradley-Terry: the ratings solve W_i = sum_j s_i / (s_i + s_j) to 1e-9, and have mean 0', () => {
    const w = randomField(6, 40);
    const fit = fitBradleyTerry(['A', 'B', 'C', 'D', 'E', 'F'], w);
    expect(fit.converged).toBe(true);
    expect(stationarityGap(w, fit)).toBeLessThan(TOL);
    expect(Math.abs(fit.entries.reduce((sum, e) => sum + e.rating, 0))).toBeLessThan(1e-12);
    // Residuals are observed minus sigma(r_i - r_j), worked here from the ratings; sorted by |residual|.
    const r = ratingsByName(fit);
    for (const pair of fit.pairs) {
      const p = 1 / (1 + Math.exp(r.get(pair.second)! - r.get(pair.first)!));
      expect(Math.abs(pair.fitted - p)).toBeLessThan(1e-12);
      expect(pair.residual).toBe(pair.observed - pair.fitted);
    }
    expect(fit.pairs).toHaveLength(15);
    expect(new Set(fit.largestResiduals)).toEqual(new Set(fit.pairs));
    for (let k = 1; k < fit.largestResiduals.length; k++) {
      expect(Math.abs(fit.largestResiduals[k - 1]!.residual)).toBeGreaterThanOrEqual(Math.abs(fit.largestResiduals[k]!.residual));
    }
  });

  it('the log-likelihood is the sum over pairs of w ln p + (1 - w) ln (1 - p), and moving any rating lowers it', () => {
    const w = randomField(5, 7);
    const names = ['A', 'B', 'C', 'D', 'E'];
    const fit = fitBradleyTerry(names, w);
    const logLikelihood = (ratings: readonly number[]) => {
      let L = 0;
      for (let i = 0; i < ratings.length; i++) {
        for (let j = i + 1; j < ratings.length; j++) {
          const p = Math.exp(ratings[i]!) / (Math.exp(ratings[i]!) + Math.exp(ratings[j]!));
          L += w[i]![j]! * Math.log(p) + w[j]![i]! * Math.log(1 - p);
        }
      }
      return L;
    };
    const ratings = fit.entries.map((e) => e.rating);
    expect(Math.abs(fit.logLikelihood - logLikelihood(ratings))).toBeLessThan(1e-12);
    for (let i = 0; i < ratings.length; i++) {
      for (const step of [-1e-3, 1e-3]) {
        const moved = ratings.map((r, k) => (k === i ? r + step : r));
        expect(logLikelihood(moved)).toBeLessThan(fit.logLikelihood);
      }
    }
  });

  it('does not depend on the order of the field: all 6 orders of 3 entries, 10 random orders of 6, the same rating per name to 1e-9', () => {
    const names3 = ['A', 'B', 'C'];
    const w3 = [
      [Number.NaN, 0.8, 0.35],
      [0.2, Number.NaN, 0.55],
      [0.65, 0.45, Number.NaN],
    ];
    const reference3 = ratingsByName(fitBradleyTerry(names3, w3));
    for (const order of permutations(3)) {
      const fit = fitBradleyTerry(permute(names3, order), permuteMatrix(w3, order));
      for (const e of fit.entries) expect(Math.abs(e.rating - reference3.get(e.name)!)).toBeLessThan(TOL);
    }

    const names6 = ['A', 'B', 'C', 'D', 'E', 'F'];
    const w6 = randomField(6, 2024);
    const reference6 = ratingsByName(fitBradleyTerry(names6, w6));
    const rng = Rng.forChunk(6, 0);
    for (let trial = 0; trial < 10; trial++) {
      const order = [0, 1, 2, 3, 4, 5];
      for (let k = order.length - 1; k > 0; k--) {
        const pick = rng.nextUint32() % (k + 1); // Fisher-Yates; the modulo bias of 2^32 over 6 does not matter here
        [order[k], order[pick]] = [order[pick]!, order[k]!];
      }
      const fit = fitBradleyTerry(permute(names6, order), permuteMatrix(w6, order));
      for (const e of fit.entries) expect(Math.abs(e.rating - reference6.get(e.name)!)).toBeLessThan(TOL);
    }
  });

  it('says when it stopped before the tolerance', () => {
    const fit = fitBradleyTerry(['A', 'B', 'C', 'D'], randomField(4, 3), { maxIterations: 2 });
    expect(fit.iterations).toBe(2);
    expect(fit.converged).toBe(false);
    for (const e of fit.entries) expect(Number.isFinite(e.rating)).toBe(true);
  });
});

describe('a field without a finite MLE (Ford 1957)', () => {
  // A won both its duels outright; B and C split theirs 0.6 / 0.4.
  const unbeatable = [
    [Number.NaN, 1, 1],
    [0, Number.NaN, 0.6],
    [0, 0.4, Number.NaN],
  ];

  it('an unbeatable entry is refused by default, naming it', () => {
    expect(refusal(() => fitBradleyTerry(['Knight', 'Pikeman', 'Archer'], unbeatable))).toMatch(/^field: "Knight" won every duel it played, so its rating would be infinite; allowed: .*prior above 0/);
  });

  it('with a prior of 0.5 virtual ties per pair it is finite, rated first, and the ratings solve the equations with the prior', () => {
    const fit = fitBradleyTerry(['Knight', 'Pikeman', 'Archer'], unbeatable, { prior: 0.5 });
    expect(fit.converged).toBe(true);
    expect(fit.prior).toBe(0.5);
    for (const e of fit.entries) expect(Number.isFinite(e.rating)).toBe(true);
    const [knight, pikeman, archer] = fit.entries.map((e) => e.rating);
    expect(knight).toBeGreaterThan(pikeman!);
    expect(pikeman).toBeGreaterThan(archer!);
    expect(stationarityGap(unbeatable, fit, 0.5)).toBeLessThan(TOL);
    // The prior's games are not data: scores and the pairs are the duels only.
    expect(fit.entries.map((e) => e.score)).toEqual([2, 0.6, 0.4]);
    expect(fit.pairs.map((p) => p.observed)).toEqual([1, 1, 0.6]);
  });

  it('a prior changes a field that already has a finite MLE: ratings pulled towards each other', () => {
    const w = bradleyTerryMatrix([1, 2, 4]);
    const plain = fitBradleyTerry(['A', 'B', 'C'], w);
    const shrunk = fitBradleyTerry(['A', 'B', 'C'], w, { prior: 0.5 });
    expect(Math.abs(shrunk.entries[2]!.rating)).toBeLessThan(Math.abs(plain.entries[2]!.rating));
    expect(stationarityGap(w, shrunk, 0.5)).toBeLessThan(TOL);
  });

  it('a winless entry is refused, naming it', () => {
    const w = [
      [Number.NaN, 0.5, 1],
      [0.5, Number.NaN, 1],
      [0, 0, Number.NaN],
    ];
    expect(refusal(() => fitBradleyTerry(['A', 'B', 'Goblin'], w))).toMatch(/^field: "Goblin" lost every duel it played, so its rating would be minus infinity; /);
  });

  it('a group that won every duel against the rest is refused, naming the group (either way round the field)', () => {
    // A and B beat C and D outright; inside each group the duels are even. No single entry is unbeaten.
    const w = [
      [Number.NaN, 0.5, 1, 1],
      [0.5, Number.NaN, 1, 1],
      [0, 0, Number.NaN, 0.5],
      [0, 0, 0.5, Number.NaN],
    ];
    expect(refusal(() => fitBradleyTerry(['A', 'B', 'C', 'D'], w))).toMatch(/^field: "C", "D" lost every duel they played against the rest of the field/);
    const order = [2, 3, 0, 1];
    expect(refusal(() => fitBradleyTerry(permute(['A', 'B', 'C', 'D'], order), permuteMatrix(w, order)))).toMatch(
      /^field: "A", "B" won every duel they played against the rest of the field/,
    );
    const fit = fitBradleyTerry(['A', 'B', 'C', 'D'], w, { prior: 0.5 });
    expect(fit.entries.every((e) => Number.isFinite(e.rating))).toBe(true);
  });

  it('two groups that never met, and an entry that played no one, are refused; a prior joins them', () => {
    const split = [
      [Number.NaN, 0.6, undefined, undefined],
      [0.4, Number.NaN, undefined, undefined],
      [undefined, undefined, Number.NaN, 0.3],
      [undefined, undefined, 0.7, Number.NaN],
    ];
    expect(refusal(() => fitBradleyTerry(['A', 'B', 'C', 'D'], split))).toMatch(/^field: no chain of duels links "A" to "C", so their ratings cannot be compared; /);
    const joined = fitBradleyTerry(['A', 'B', 'C', 'D'], split, { prior: 0.5 });
    expect(stationarityGap(split, joined, 0.5)).toBeLessThan(TOL);

    const idle = [
      [Number.NaN, 0.6, undefined],
      [0.4, Number.NaN, undefined],
      [undefined, undefined, Number.NaN],
    ];
    expect(refusal(() => fitBradleyTerry(['A', 'B', 'Reserve'], idle))).toMatch(/^field: "Reserve" played no duel, so its rating is unknown; /);
  });
});

describe('what the fit refuses to read', () => {
  it('options, names and field size: one-line refusals naming the field', () => {
    const w = bradleyTerryMatrix([1, 2]);
    expect(refusal(() => fitBradleyTerry(['A', 'B'], w, { prior: -1 }))).toBe('prior: -1 is not allowed; allowed: a number of virtual tied games per pair, 0 or more');
    expect(refusal(() => fitBradleyTerry(['A', 'A'], w))).toBe('field: "A" is named twice; allowed: one entry per name');
    expect(refusal(() => fitBradleyTerry(['A'], [[Number.NaN]]))).toBe('field: 1 entry; allowed: 2 or more (a rating compares entries)');
  });

  it('a malformed matrix is the caller\'s bug: a RangeError', () => {
    expect(() => fitBradleyTerry(['A', 'B'], [[Number.NaN, 0.5]])).toThrow(RangeError);
    expect(() => fitBradleyTerry(['A', 'B'], [[Number.NaN, 1.5], [-0.5, Number.NaN]])).toThrow(/outside \[0, 1\]/);
    expect(() => fitBradleyTerry(['A', 'B'], [[Number.NaN, 0.6], [0.6, Number.NaN]])).toThrow(/do not sum to 1/);
    expect(() => fitBradleyTerry(['A', 'B'], [[Number.NaN, 0.6], [undefined, Number.NaN]])).toThrow(/one half/);
  });
});
