import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { matchupSeed } from '../src/pricing/battle-prices.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 50, part 2: `injury-lab price --by battles` reads its field as duels do, fields each entry at
 * equal ducats, and plays every match-up as `injury-lab battle` would (the same battle, seed for seed);
 * the same prices on any number of threads; a setting the chosen way of pricing does not read is refused.
 * The search and the pricing themselves are checked by hand in test/battle-prices.test.ts.
 */
afterAll(() => closePool());

const ROSTER = 'examples/roster-example.ros';
const GAMES = '1000';

interface PricedJson {
  readonly by: string;
  readonly ducats: number;
  readonly games: number;
  readonly gamesPerMatchup: number;
  readonly field: readonly { readonly name: string; readonly price: number; readonly count: number }[];
  readonly shares: readonly { readonly entry: string; readonly against: Readonly<Record<string, number>> }[];
  readonly notes: readonly string[];
  readonly entries: readonly { readonly name: string; readonly count: number; readonly fairPrice: number; readonly fairPriceLow: number; readonly fairPriceHigh: number; readonly verdict: string }[];
}

async function priced(...args: string[]): Promise<PricedJson> {
  const r = await cliInProcess('price', '--roster', ROSTER, '--by', 'battles', '--games', GAMES, ...args, '--format', 'json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as PricedJson;
}

describe('price --by battles', () => {
  it("fields each entry at equal ducats, and a pair's share is the battle command's, seed for seed", async () => {
    const one = await priced('--workers', '1', '--ducats', '300');
    // The roster's six entries; an Ash Acolyte costs 39: 300 buy 7.
    expect(one.field.map((f) => [f.name, f.count])).toContainEqual(['Ash Acolyte with Censer Flail', 7]);
    for (const f of one.field) expect(f.count).toBe(Math.floor(300 / f.price));
    expect(one.notes.some((n) => /Brazier Cannon: no melee weapon named: it fights unarmed/.test(n))).toBe(true);
    // The first pair played as `battle` plays it: entry 0 as side a, entry 1 as side b, from the match-up's seed.
    const [first, second] = one.field;
    const seed = matchupSeed(1, 0, first!.count, 1, second!.count);
    const b = await cliInProcess('battle', '--roster', ROSTER, '--a', `${first!.name} x${first!.count}`, '--b', `${second!.name} x${second!.count}`, '--trials', String(one.gamesPerMatchup), '--seed', String(seed), '--format', 'json');
    expect(b.code).toBe(0);
    const outcomes = new Map((JSON.parse(b.stdout) as { outcomes: { outcome: string; count: number }[] }).outcomes.map((o) => [o.outcome, o.count]));
    expect(one.shares[0]!.against[second!.name]).toBe((outcomes.get('a-wins')! + outcomes.get('draw')! / 2) / one.gamesPerMatchup);
    // 1000 battles an entry, shared among the six of the field (its own warband too): 167 each, rounded up.
    expect(one.gamesPerMatchup).toBe(167);
    // Every fair price within its interval.
    for (const e of one.entries) expect(e.fairPriceLow <= e.fairPrice && e.fairPrice <= e.fairPriceHigh).toBe(true);
    // The same prices on two threads.
    const two = await priced('--workers', '2', '--ducats', '300');
    expect(two.entries).toEqual(one.entries);
  });

  it.each([
    ['a duel setting', ['--rounds', '3'], /^--rounds: is read only when pricing by duels, not by battles; allowed: --by duels, or no --rounds$/],
    ['a bad ducats', ['--ducats', '0'], /^--ducats: 0 is not allowed; allowed: a number from 1 to 100000$/],
    ['no games', ['--games', '0'], /^--games: 0 is not allowed; allowed: a whole number from 1 to 10000000$/],
    ['an unknown tactic', ['--tactic', 'flank'], /^--tactic: "flank" is not a known tactic; allowed: advance, hold, charge, charge-weakest, skirmish$/],
    ['an anchor', ['--anchor', 'Ash Acolyte with Censer Flail'], /^--anchor: is read only when pricing by duels, not by battles; allowed: --by duels, or no --anchor$/],
    ['a price line', ['--line', 'least-squares'], /^--line: is read only when pricing by duels, not by battles; allowed: --by duels, or no --line$/],
  ])('refuses %s in one line', async (_what, args, message) => {
    const r = await cliInProcess('price', '--roster', ROSTER, '--by', 'battles', ...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().replace(/^injury-lab: /, '')).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('draws fair against current price with each interval, and every pair of the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-price-battles-'));
    const file = join(dir, 'prices.vl.json');
    const r = await cliInProcess('price', '--roster', ROSTER, '--by', 'battles', '--games', '300', '--ducats', '300', '--chart', file, '--format', 'json');
    expect(r.code).toBe(0);
    const priced = JSON.parse(r.stdout) as PricedJson;
    const spec = JSON.parse(readFileSync(file, 'utf8')) as { vconcat: { layer: { data?: { values: Record<string, unknown>[] }; mark: { type: string } }[] }[] };
    const [prices, shares] = spec.vconcat;
    // A bar per fair price that is no bound, from its interval's low to high.
    const bars = prices!.layer.find((l) => l.mark.type === 'rule' && l.data?.values.some((v) => 'low' in v))!.data!.values;
    const exact = priced.entries.filter((e) => (e as { bound?: string }).bound === 'exact');
    expect(exact.length).toBeGreaterThan(2);
    expect(bars.map((b) => [b.name, b.low, b.high])).toEqual(expect.arrayContaining(exact.map((e) => [e.name, e.fairPriceLow, e.fairPriceHigh])));
    // Every ordered pair of the field a cell.
    const n = priced.field.length;
    expect((shares as unknown as { data: { values: unknown[] } }).data.values).toHaveLength(n * (n - 1));
  });

  it("gives two entries alike but for their price the same fair price: it is the battles', not the price's", async () => {
    // Twins of one body and weapon at 30 and 45 ducats: 300 ducats field 10 and 6 of them, so their own
    // counts differ, yet the count where each wins half against the field is one count. Were a fair price
    // read from the entry's own price anywhere but its count, the two would stand 1.5 times apart.
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-price-twins-'));
    const file = join(dir, 'twins.json');
    const models = { 'Cheap Twin': { armour: 'none', cost: 30 }, 'Dear Twin': { armour: 'none', cost: 45 }, Veteran: { armour: 'reinforced', cost: 65 }, Brute: { armour: 'machine', tough: true, cost: 110 } };
    writeFileSync(file, JSON.stringify({ system: 'trench-crusade', models, weapons: { Club: { attackType: 'melee', cost: 0 } } }));
    // Won on models left: on victory points (B35) a model's cost is its worth to the enemy, and the dearer twin's would be more.
    const r = await cliInProcess('price', '--profiles', file, '--by', 'battles', '--ducats', '300', '--games', '6000', '--victory', 'models', '--format', 'json');
    expect(r.code).toBe(0);
    const byName = new Map((JSON.parse(r.stdout) as PricedJson).entries.map((e) => [e.name, e]));
    const cheap = byName.get('Cheap Twin with Club')!;
    const dear = byName.get('Dear Twin with Club')!;
    expect([cheap.count, dear.count]).toEqual([10, 6]);
    // Their intervals overlap, and the fair prices are within a tenth of each other (1.5 apart were it wrong).
    expect(cheap.fairPriceLow <= dear.fairPriceHigh && dear.fairPriceLow <= cheap.fairPriceHigh).toBe(true);
    expect(Math.abs(Math.log(cheap.fairPrice / dear.fairPrice))).toBeLessThan(0.1);
  });

  it('leaves out of the field an entry the rules refuse, with why, and prices the rest', async () => {
    // Machine armour with a shield is no body the core edition allows: every attack on it is refused. The
    // entry is left out, not each entry that would have struck it.
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-price-refused-'));
    const file = join(dir, 'refused.json');
    const models = { Trooper: { armour: 'none', cost: 30 }, 'Shielded Machine': { armour: 'machine', shield: true, cost: 90 }, Veteran: { armour: 'reinforced', cost: 65 } };
    writeFileSync(file, JSON.stringify({ system: 'trench-crusade', models, weapons: { Club: { attackType: 'melee', cost: 0 } } }));
    const r = await cliInProcess('price', '--profiles', file, '--by', 'battles', '--ducats', '300', '--games', '300', '--format', 'json');
    expect(r.code).toBe(0);
    const priced = JSON.parse(r.stdout) as PricedJson & { leftOut: { name: string; note: string }[] };
    expect(priced.entries.map((e) => e.name).sort()).toEqual(['Trooper with Club', 'Veteran with Club']);
    expect(priced.leftOut).toEqual([{ name: 'Shielded Machine with Club', note: expect.stringMatching(/^left out of the field: entry: "Shielded Machine with Club x1": .*shield: true cannot be combined with armour "machine"/) }]);
  });

  it('prices whole kits named as a warband names them (--entries), each at its model\'s and weapons\' ducats', async () => {
    const kits = ['Unarmoured Trooper with Bolt-action Rifle + Trench Club', 'Machine Brute with Great Hammer', 'Shield Bearer with Executioner\'s Axe'];
    const r = await cliInProcess('price', '--profiles', 'examples/profiles.json', '--by', 'battles', '--games', '600', '--ducats', '300', '--entries', kits.join(','), '--format', 'json');
    expect(r.code).toBe(0);
    const priced = JSON.parse(r.stdout) as PricedJson;
    // examples/profiles.json: a trooper 30 + rifle 10 + club 2; a brute 110 + hammer 12; a shield bearer 50 + axe 18.
    expect(new Map(priced.field.map((f) => [f.name, [f.price, f.count]]))).toEqual(new Map([[kits[0], [42, 7]], [kits[1], [122, 2]], [kits[2], [68, 4]]]));
  });

  it.each([
    ['entries when pricing by duels', ['--entries', 'Machine Brute with Great Hammer'], /^--entries: is read only when pricing by battles, not by duels; allowed: --by battles, or no --entries$/],
    ['entries with --models', ['--by', 'battles', '--entries', 'Machine Brute with Great Hammer', '--models', 'Machine Brute'], /^--entries, --models: both name the field; give one: the entries, or models and weapons$/],
    ['an entry with a count', ['--by', 'battles', '--entries', 'Machine Brute with Great Hammer x2'], /^--entries: "Machine Brute with Great Hammer x2": holds a count; allowed: "MODEL with WEAPON \+ WEAPON", its count bought by the ducats$/],
    ['a weapon the model has not', ['--by', 'battles', '--entries', 'Machine Brute with Great Hamer'], /^--entries: "Machine Brute with Great Hamer": /],
  ])('refuses %s in one line', async (_what, args, message) => {
    const r = await cliInProcess('price', '--profiles', 'examples/profiles.json', ...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim().replace(/^injury-lab: /, '')).toMatch(message);
  });

  it('refuses a battle setting when pricing by duels', async () => {
    const r = await cliInProcess('price', '--roster', ROSTER, '--ducats', '500');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('injury-lab: --ducats: is read only when pricing by battles, not by duels; allowed: --by battles, or no --ducats');
  });
});
