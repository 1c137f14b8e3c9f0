import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type MatchupCounts, type PlayMatchup, matchupSeed, nextCount, priceByBattles, shareOf } from '../src/pricing/battle-prices.js';

/**
 * The search and the pricing of src/pricing/battle-prices.ts against a made-up game whose answer is
 * known by hand: a warband of k copies of an entry of strength s fights with k s, and beats another
 * with chance k s / (k s + k' s') (the played counts are that chance times the games, exactly, so
 * nothing is sampled and every figure below is arithmetic).
 */
const GAMES = 1000;

function lanchesterLike(strengths: readonly number[]): PlayMatchup {
  return async (a, b, games) => {
    const x = a.count * strengths[a.entry]!;
    const y = b.count * strengths[b.entry]!;
    const p = x / (x + y);
    return { aWins: games * p, bWins: games * (1 - p), draws: 0 };
  };
}

/** The mean share of entry e with k copies against every entry of the field at its own count, e's own too, as the module's comment defines it. */
function meanShare(e: number, k: number, strengths: readonly number[], counts: readonly number[]): number {
  let sum = 0;
  for (let o = 0; o < counts.length; o++) sum += (k * strengths[e]!) / (k * strengths[e]! + counts[o]! * strengths[o]!);
  return sum / counts.length;
}

describe('prices from battles (made-up game, answers by hand)', () => {
  it('a field priced by its strength: every entry wins half at its own price, and is fair to the ducat', async () => {
    // Strength per copy is its price: at 100 ducats every warband fields 100 strength, so each pair is 1/2.
    const prices = [10, 20, 50, 25];
    const progress: [number, number][] = [];
    const result = await priceByBattles(prices.map((price, i) => ({ name: `e${i}`, price })), { ducats: 100, games: GAMES, seed: 1, maxCount: 50, play: lanchesterLike(prices), onProgress: (done, expected) => progress.push([done, expected]) });
    // Every match-up said once, in order, never past the total expected; the last is the run's last.
    expect(progress.map(([done]) => done)).toEqual(progress.map((_, k) => k + 1));
    for (const [done, expected] of progress) expect(expected).toBeGreaterThanOrEqual(done);
    expect(progress.at(-1)![0]).toBe(result.battles / result.gamesPerMatchup);
    for (const e of result.entries) {
      expect(e.shareAtPrice).toBeCloseTo(0.5, 12);
      expect(e.fairPrice).toBeCloseTo(e.price!, 9);
      expect(e.verdict).toBe('fair');
    }
    expect(result.field.map((f) => f.count)).toEqual([10, 5, 2, 4]);
    // Every fair price its price: ln(fair) on ln(price) explains all; every warband alike at equal ducats.
    expect(result.fairPriceRSquared).toBeCloseTo(1, 9);
    for (const r of result.fit!.entries) expect(Math.abs(r.rating)).toBeLessThan(1e-9);
  });

  it('an under-priced entry: its fair count where its share crosses 1/2, found as a scan of every count finds it', async () => {
    // e3 costs 25 but fights as a 50-ducat model: 4 copies field 200 against everyone's 100.
    const prices = [10, 20, 50, 25];
    const strengths = [10, 20, 50, 50];
    const counts = [10, 5, 2, 4];
    const result = await priceByBattles(prices.map((price, i) => ({ name: `e${i}`, price })), { ducats: 100, games: GAMES, seed: 1, maxCount: 50, play: lanchesterLike(strengths) });
    const byName = new Map(result.entries.map((e) => [e.name, e]));
    // e3 with k copies against the three others (each 100) and its own 4 (200): (3 x 50k / (50k + 100) + 50k / (50k + 200)) / 4,
    // 0.4583 at k = 2 and 0.5571 at k = 3: 2.422 copies, 41.29 ducats.
    const e3 = (k: number) => ((3 * 50 * k) / (50 * k + 100) + (50 * k) / (50 * k + 200)) / 4;
    expect(byName.get('e3')!.fairCount).toBeCloseTo(2 + (0.5 - e3(2)) / (e3(3) - e3(2)), 12);
    expect(byName.get('e3')!.fairPrice).toBeCloseTo(41.29, 2);
    expect(byName.get('e3')!.verdict).toBe('under-priced');
    // Every entry: the first count whose share reaches 1/2 by a scan of 1..50, and the line between it and the count below.
    for (let e = 0; e < 4; e++) {
      let hi = 1;
      while (meanShare(e, hi, strengths, counts) < 0.5) hi++;
      const lo = hi - 1;
      const sLo = meanShare(e, lo, strengths, counts);
      const sHi = meanShare(e, hi, strengths, counts);
      const fairCount = lo + (0.5 - sLo) / (sHi - sLo);
      expect(byName.get(`e${e}`)!.fairCount).toBeCloseTo(fairCount, 9);
      expect(byName.get(`e${e}`)!.fairPrice).toBeCloseTo(100 / fairCount, 9);
    }
    // e0 by hand, against e0, e1, e2 (100 each) and e3 (200): at 11 copies (110/210 x3 + 110/310) / 4 = 0.48157,
    // at 12 (120/220 x3 + 120/320) / 4 = 0.50284: 11.867 copies, 8.43 ducats.
    const s11 = ((3 * 110) / 210 + 110 / 310) / 4;
    const s12 = ((3 * 120) / 220 + 120 / 320) / 4;
    expect(byName.get('e0')!.fairCount).toBeCloseTo(11 + (0.5 - s11) / (s12 - s11), 12);
    expect(byName.get('e0')!.fairPrice).toBeCloseTo(8.427, 3);
    // The most mispriced first: e3 at +65%.
    expect(result.entries[0]!.name).toBe('e3');
    expect(result.entries[0]!.percent).toBeCloseTo(65.17, 2);
  });

  it('bounds where the counts run out, and an entry without a price searched against the field', async () => {
    // e2 (strength 500 at 50 ducats) wins half with one copy: at least the ducats. e3 (strength 0.1 at 1.9 ducats:
    // 52 copies, more than a warband may hold) still loses with 50: at most 100 / 50.
    const result = await priceByBattles(
      [{ name: 'e0', price: 10 }, { name: 'e1', price: 20 }, { name: 'e2', price: 50 }, { name: 'e3', price: 1.9 }, { name: 'new' }],
      { ducats: 100, games: GAMES, seed: 1, maxCount: 50, play: lanchesterLike([10, 20, 500, 0.1, 25]) },
    );
    const byName = new Map(result.entries.map((e) => [e.name, e]));
    expect(byName.get('e2')).toMatchObject({ bound: 'at-least', fairPrice: 100 });
    expect(byName.get('e3')).toMatchObject({ outOfField: expect.stringContaining('more than 50 copies'), bound: 'at-most', fairPrice: 2 });
    expect(byName.get('new')).toMatchObject({ outOfField: expect.stringContaining('no price'), verdict: 'unpriced', count: undefined });
    // The unpriced entry's search is the same scan: its share with k copies of strength 25 against e0, e1, e2.
    const counts = [10, 5, 2];
    const strengths = [10, 20, 500, 0.1, 25];
    // Not in the field, it faces the field's three: no warband of its own among them.
    const share = (k: number) => counts.reduce((s, c, o) => s + (k * 25) / (k * 25 + c * strengths[o]!), 0) / 3;
    let hi = 1;
    while (share(hi) < 0.5) hi++;
    expect(byName.get('new')!.fairCount).toBeCloseTo(hi - 1 + (0.5 - share(hi - 1)) / (share(hi) - share(hi - 1)), 9);
    // The field is the three the ducats can field; no one fights e3 or the new entry.
    expect(result.field.map((f) => f.name)).toEqual(['e0', 'e1', 'e2']);
  });

  it('the same prices however many match-ups are in play at once: seeds come from the match-up alone', async () => {
    // A sampled game: each battle a coin with the Lanchester-like chance, from a generator seeded by the match-up's seed.
    const sampled: PlayMatchup = async (a, b, games, seed) => {
      let state = seed % 2147483647 || 1;
      const p = (a.count * (a.entry + 1)) / (a.count * (a.entry + 1) + b.count * (b.entry + 1));
      const c = { aWins: 0, bWins: 0, draws: 0 };
      for (let g = 0; g < games; g++) {
        state = (state * 48271) % 2147483647;
        const u = state / 2147483647;
        if (u < p * 0.9) c.aWins++;
        else if (u < p * 0.9 + 0.1) c.draws++;
        else c.bWins++;
      }
      await new Promise((r) => setTimeout(r, (seed % 3)));
      return c;
    };
    const entries = [10, 20, 30, 40].map((price, i) => ({ name: `e${i}`, price }));
    const one = await priceByBattles(entries, { ducats: 120, games: 200, seed: 7, maxCount: 50, play: sampled, atOnce: 1 });
    const many = await priceByBattles(entries, { ducats: 120, games: 200, seed: 7, maxCount: 50, play: sampled, atOnce: 7 });
    expect(many.entries).toEqual(one.entries);
    const other = await priceByBattles(entries, { ducats: 120, games: 200, seed: 8, maxCount: 50, play: sampled });
    expect(other.entries).not.toEqual(one.entries);
  });

  it('refuses a field the ducats cannot field', async () => {
    await expect(priceByBattles([{ name: 'a', price: 500 }, { name: 'b', price: 10 }], { ducats: 100, games: 10, seed: 1, maxCount: 50, play: lanchesterLike([1, 1]) })).rejects.toThrow(
      /^field: 1 entry the ducats can field \(each priced, buying 1 to 50 copies at 100 ducats\); allowed: 2 or more, or other --ducats$/,
    );
  });
});

describe('the search for the fair count', () => {
  it('finds the bracket a scan finds, for any rising share, never trying a count outside 1..max', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 60, maxLength: 60 }), fc.integer({ min: 1, max: 60 }), (max, raw, start) => {
        // A rising share over counts 1..max (sorted draws).
        const share = [...raw].sort((x, y) => x - y);
        const at = (k: number) => share[k - 1]!;
        const tried = new Map<number, number>();
        let k: number | undefined = Math.min(start, max);
        let steps = 0;
        while (k !== undefined) {
          expect(k).toBeGreaterThanOrEqual(1);
          expect(k).toBeLessThanOrEqual(max);
          expect(tried.has(k)).toBe(false);
          tried.set(k, at(k));
          k = nextCount(tried, max, GAMES);
          steps++;
        }
        let hi = 1;
        while (hi <= max && at(hi) < 0.5) hi++;
        if (hi === 1) expect(tried.has(1) && at(1) >= 0.5).toBe(true);
        else if (hi > max) expect(tried.get(max)).toBeLessThan(0.5);
        else expect([tried.get(hi - 1)! < 0.5, tried.get(hi)! >= 0.5]).toEqual([true, true]);
        expect(steps).toBeLessThanOrEqual(max);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a match-up read', () => {
  it("a share counts draws half, and its variance is one battle's score's", () => {
    const counts: MatchupCounts = { aWins: 6, bWins: 2, draws: 2 };
    // Scores 1 x6, 0 x2, 1/2 x2: mean 0.7; mean square (6 + 2/4) / 10 = 0.65; variance 0.65 - 0.49 = 0.16.
    const s = shareOf(counts);
    expect(s.share).toBeCloseTo(0.7, 12);
    expect(s.variance).toBeCloseTo(0.16, 12);
  });

  it('seeds differ between match-ups and stay within a safe integer', () => {
    const seeds = new Set<number>();
    for (let a = 0; a < 20; a++) for (let k = 1; k <= 5; k++) for (let b = 0; b < 20; b++) seeds.add(matchupSeed(1, a, k, b, 3));
    expect(seeds.size).toBe(20 * 5 * 20);
    for (const s of seeds) expect(Number.isSafeInteger(s) && s >= 0).toBe(true);
  });
});
