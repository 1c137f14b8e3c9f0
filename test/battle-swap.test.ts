import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { sideShareOf, swapWorth } from '../src/pricing/swap-worth.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 50, part 2: what an entry is worth in a real warband, `battle --swap "NEW for OLD"`. The worth's
 * arithmetic by hand (src/pricing/swap-worth.ts); the command's three battles are the battles the
 * command plays when asked for them directly, seed for seed.
 */
afterAll(() => closePool());

const swapRead = { incoming: { text: 'New', count: 1, cost: 50 }, outgoing: { text: 'Old', count: 1, cost: 40 } };
/** Side a's share from wins and losses alone (no draws): share = wins / games. */
const share = (wins: number, games = 10_000) => sideShareOf({ aWins: wins, bWins: games - wins, draws: 0 });

describe("an entry's worth in a warband, by hand", () => {
  it('is OLD\'s ducats times (swapped - without) / (asked - without)', () => {
    // As asked 50%, without Old 30%, with New for Old 60%: Old's 40 ducats buy 20 points, New gives 30: 60 ducats.
    const w = swapWorth(swapRead, share(5000), share(6000), share(3000));
    expect(w.outgoingGain.value).toBeCloseTo(0.2, 12);
    expect(w.swapGain.value).toBeCloseTo(0.1, 12);
    expect(w.worth!.value).toBeCloseTo(60, 9);
    expect(w.difference).toBeCloseTo(10, 9);
    // The delta method: with u = 0.3, v = 0.2 and each share's variance p(1 - p) / 10,000,
    // var = 40² (0.0024/0.2² + 0.25 x 0.3²/0.2⁴ + 0.0021 x 0.1²/0.2⁴) / 10,000.
    const variance = (1600 * (0.24 / 0.04 + (0.25 * 0.09) / 0.0016 + (0.21 * 0.01) / 0.0016)) / 10_000;
    expect(w.worth!.high - w.worth!.value).toBeCloseTo(1.959963984540054 * Math.sqrt(variance), 9);
  });

  it('a draw counts half, and its variance is a score of 0, 1/2 or 1', () => {
    const s = sideShareOf({ aWins: 6, bWins: 2, draws: 2 });
    expect(s.share).toBeCloseTo(0.7, 12);
    expect(s.standardError).toBeCloseTo(Math.sqrt(0.16 / 10), 12);
  });

  it('gives no worth where OLD buys nothing to measure by, and says why', () => {
    expect(swapWorth(swapRead, share(5000), share(6000), share(6000)).why).toMatch(/^side a does better without Old here \(-10\.0 points; fewer standing models take the initiative, ruling B4\)/);
    expect(swapWorth(swapRead, share(5000), share(6000), share(4990)).why).toMatch(/^what Old adds to side a's share here cannot be told from nothing/);
    expect(swapWorth({ ...swapRead, outgoing: { ...swapRead.outgoing, cost: undefined } }, share(5000), share(6000), share(3000)).why).toBe('Old has no cost: its ducats are the yardstick');
  });
});

interface SwapJson {
  readonly asked: { readonly share: number };
  readonly swapped: { readonly share: number };
  readonly without: { readonly share: number };
  readonly worth?: { readonly value: number };
  readonly why?: string;
}

const PROFILES = ['--profiles', 'examples/profiles.json'];
const A = 'Unarmoured Trooper with Bolt-action Rifle x4, Shield Bearer with Trench Club x2';
const B = 'Reinforced Veteran with Great Hammer x3, Unarmoured Trooper with Bolt-action Rifle x3';
const GAMES = ['--trials', '4000', '--seed', '5'];

async function shareOf(a: string): Promise<number> {
  const r = await cliInProcess('battle', ...PROFILES, '--a', a, '--b', B, ...GAMES, '--format', 'json');
  expect(r.code).toBe(0);
  const outcomes = new Map((JSON.parse(r.stdout) as { outcomes: { outcome: string; probability: number }[] }).outcomes.map((o) => [o.outcome, o.probability]));
  return outcomes.get('a-wins')! + outcomes.get('draw')! / 2;
}

describe('battle --swap', () => {
  it('plays side a as asked, with NEW for OLD (OLD fewer, NEW last) and without OLD, each as the battle asked directly', async () => {
    const r = await cliInProcess('battle', ...PROFILES, '--a', A, '--b', B, '--swap', 'Machine Brute with Great Hammer for Unarmoured Trooper with Bolt-action Rifle x2', ...GAMES, '--format', 'json');
    expect(r.stderr).toBe('');
    const swap = JSON.parse(r.stdout) as SwapJson;
    expect(swap.asked.share).toBeCloseTo(await shareOf(A), 12);
    expect(swap.swapped.share).toBeCloseTo(await shareOf('Unarmoured Trooper with Bolt-action Rifle x2, Shield Bearer with Trench Club x2, Machine Brute with Great Hammer'), 12);
    expect(swap.without.share).toBeCloseTo(await shareOf('Unarmoured Trooper with Bolt-action Rifle x2, Shield Bearer with Trench Club x2'), 12);
    expect(swap.worth !== undefined || swap.why !== undefined).toBe(true);
  });

  it.each([
    ['an OLD side a does not hold', 'Machine Brute with Great Hammer for Machine Brute', /^--swap: OLD: "Machine Brute" is not an entry of side a's warband; allowed: Unarmoured Trooper with Bolt-action Rifle, Shield Bearer with Trench Club$/],
    ['more of OLD than side a holds', 'Machine Brute with Great Hammer for Shield Bearer with Trench Club x3', /^--swap: OLD: count: 3 is not allowed; allowed: 1 to the 2 of "Shield Bearer with Trench Club" side a holds$/],
    ['no " for "', 'Machine Brute with Great Hammer', /^--swap: "Machine Brute with Great Hammer" is not allowed; allowed: "NEW for OLD"/],
    ['an unknown NEW', 'Machine Brut with Great Hammer for Shield Bearer', /^--swap: NEW: "Machine Brut with Great Hammer": .*\(did you mean "Machine Brute with Great Hammer"\?\)/],
  ])('refuses %s in one line', async (_what, swap, message) => {
    const r = await cliInProcess('battle', ...PROFILES, '--a', A, '--b', B, '--swap', swap, '--trials', '100');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim().replace(/^injury-lab: /, '')).toMatch(message);
  });
});
