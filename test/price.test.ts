import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { priceField } from '../src/pricing/price.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { runAndSignal } from './helpers/signal.js';

/**
 * `injury-lab price` on fields whose answer is known by construction (issue 40): a copy of a model at
 * a higher price, and a model that is the strongest of the field at its lowest price.
 *
 * The runs are in this process (`cliInProcess`: the same src/cli/main.ts, the same output and exit code);
 * a CLI process of its own is kept for one refusal of each kind, end to end, and for Ctrl-C.
 */
const dir = mkdtempSync(join(tmpdir(), 'price-'));
const file = join(dir, 'field.json');
writeFileSync(
  file,
  JSON.stringify({
    system: 'trench-crusade',
    models: {
      Unarmoured: { armour: 'none', cost: 20 },
      Armoured: { armour: 'standard', cost: 40 },
      Reinforced: { armour: 'reinforced', cost: 60, description: 'not modelled: "Stubborn" (ability: not a keyword of the rule table)' },
      Brute: { armour: 'machine', tough: true, cost: 100 },
      // The same body as Armoured, at twice its price: identical in every duel, so over-priced against it.
      'Dear Armoured': { armour: 'standard', cost: 80 },
      // Brute's body at the field's lowest price: as strong as the strongest, as cheap as the cheapest.
      'Bargain Brute': { armour: 'machine', tough: true, cost: 20 },
    },
    weapons: { Club: { attackType: 'melee', cost: 1 }, Rifle: { attackType: 'ranged', cost: 5 } },
  }),
);

/** `price --profiles FILE ...args` in this process, or (end to end) in a CLI process of its own. */
const inProcess = (...args: string[]) => cliInProcess('price', '--profiles', file, ...args);
const inItsOwnProcess = async (...args: string[]) => cli('price', '--profiles', file, ...args);

interface Entry {
  name: string;
  price: number;
  fairPrice: number;
  percent: number;
  verdict: string;
  rating: number;
}

const priced = await inProcess('--rounds', '3', '--format', 'json');

describe('price: fair prices from exact duels, on a field built to be mispriced', () => {
  const json = JSON.parse(priced.stdout) as { entries: Entry[]; duels: { pairs: { a: string; b: string; share: { exact: string } }[] } };
  const byName = new Map(json.entries.map((e) => [e.name.replace(' with Club', ''), e]));

  it('every model with every melee weapon fights every other once each way round: 6 entries, 15 pairs', () => {
    expect(priced.code).toBe(0);
    expect(json.entries).toHaveLength(6);
    expect(json.duels.pairs).toHaveLength(15);
    // Prices are the model's plus the weapon's (the Rifle is ranged: not in a melee field).
    expect(byName.get('Brute')!.price).toBe(101);
  });

  it('the bargain is the most under-priced, first in the list', () => {
    expect(json.entries[0]!.name).toBe('Bargain Brute with Club');
    expect(json.entries[0]!.verdict).toBe('under-priced');
  });

  it('identical bodies get one rating; the dearer copy is the over-priced one, the difference its price', () => {
    const cheap = byName.get('Armoured')!;
    const dear = byName.get('Dear Armoured')!;
    // Two identical sides share every duel exactly half and half.
    const pair = json.duels.pairs.find((p) => [p.a, p.b].sort().join() === ['Armoured with Club', 'Dear Armoured with Club'].join())!;
    expect(pair.share.exact).toBe('1/2');
    expect(dear.rating).toBeCloseTo(cheap.rating, 9);
    expect(dear.fairPrice).toBeCloseTo(cheap.fairPrice, 6);
    expect(dear.verdict).toBe('over-priced');
    expect(dear.percent).toBeLessThan(cheap.percent);
    // Bargain Brute and Brute likewise: one rating, the cheaper far more under-priced.
    expect(byName.get('Bargain Brute')!.rating).toBeCloseTo(byName.get('Brute')!.rating, 9);
  });

  it('the table names what the verdicts rest on, within 100 columns', async () => {
    const table = await inProcess('--rounds', '3');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/every model with every\s+melee\s+weapon\s+of/);
    expect(table.stdout).toMatch(/Duels: every pair, 3 rounds, each order of who goes first once and averaged/);
    // This field's prices explain little of its strengths (the bargain and the dear copy are built in): said so.
    const r2 = Number(/\(r² (-?\d+\.\d\d)\)/.exec(table.stdout)![1]);
    expect(r2).toBeLessThan(0.5);
    expect(table.stdout).toMatch(r2 < 0.2 ? /WARNING: price explains almost none of these ratings \(r² -?\d\.\d\d < 0\.2\)/ : /Note: price explains little of these ratings/);
    expect(table.stdout).toMatch(/^Bargain Brute with Club +21\.0 /m);
    for (const line of table.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    // What the profiles could not model is said, by the model it belongs to.
    expect(table.stdout).toMatch(/Left out of every duel, as the profiles file says \(1 of the field's models and weapons\):\n  Reinforced: not modelled: "Stubborn"/);
  });

  it('--models and --weapons narrow the field; a name the file lacks is refused with the names it has', async () => {
    const two = JSON.parse((await inProcess('--rounds', '2', '--models', 'Brute,Unarmoured', '--format', 'json')).stdout) as { entries: Entry[] };
    expect(two.entries.map((e) => e.name).sort()).toEqual(['Brute with Club', 'Unarmoured with Club']);
    const unknown = await inProcess('--models', 'Brute,Knight');
    expect(unknown.stderr).toMatch(/--models: "Knight" is not a model of the profiles file; allowed: Unarmoured, Armoured, Reinforced, Brute, Dear Armoured, Bargain Brute/);
  });

  it('refuses in one line: an unknown attack type, rounds 0, an anchor not in the field, no profiles', async () => {
    for (const [args, message, run] of [
      // End to end in a CLI process once; the others differ only in the words.
      [['--attack-type', 'thrown'], /--attack-type: "thrown" is not a known attack type; allowed: melee, ranged/, inItsOwnProcess],
      [['--policy', 'greedy'], /--policy: "greedy" is not a known policy; allowed: none, injury, hinder, optimal/, inProcess],
      [['--tolerance', 'x'], /--tolerance: "x" is not allowed; allowed: a number from 0 to 1000/, inProcess],
      [['--rounds', '0'], /--rounds: 0 is not allowed; allowed: a whole number from 1 to 50/, inProcess],
      [['--anchor', 'Nobody'], /anchor/, inProcess],
    ] as const) {
      const r = await run(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await cliInProcess('price')).stderr).toMatch(/profiles/);
  });

  it('refuses an anchor not in the field before any duel is solved', async () => {
    const field = [
      { name: 'Plain', side: {}, price: 10 },
      { name: 'Armoured', side: { armour: 'standard' }, price: 20 },
    ];
    const solver = {
      solve: () => {
        throw new Error('a duel was solved');
      },
    };
    await expect(priceField(field, { anchor: 'Nobody', solver })).rejects.toThrow('anchor: "Nobody" is not an entry of the field; allowed: Plain, Armoured');
  });
});

describe('price on the worker threads: --workers, and Ctrl-C', () => {
  it('--workers 1 and 2 give the same duels, fraction for fraction, as the default', async () => {
    const args = ['--rounds', '2', '--format', 'json'];
    const all = await inProcess(...args);
    expect(all.code).toBe(0);
    for (const workers of ['1', '2']) {
      const r = await inProcess(...args, '--workers', workers);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(all.stdout);
    }
  });

  it('refuses a bad --workers, --workers with --queue, and a bad --queue, in one line before any duel', async () => {
    for (const [args, message, run] of [
      [['--workers', '0'], /^injury-lab: --workers: "0" is not allowed; allowed: a whole number from 1 to 64$/, inProcess],
      // End to end in a CLI process once, with a queue's address: a connection left open would keep the
      // process from ending, which no run in this process can show. The others differ only in the words.
      [['--workers', '2', '--queue', 'redis://127.0.0.1:1'], /^injury-lab: --workers: does not go with --queue/, inItsOwnProcess],
      [['--queue', 'http://somewhere'], /^injury-lab: --queue: /, inProcess],
    ] as const) {
      const r = await run(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
    }
  });

  it('Ctrl-C stops a run at once as it stops a sweep: exit 130, nothing on stdout, nothing more on stderr', async () => {
    // Both sides optimal over 16 rounds: 30 duels, some 2.4 s on a quiet machine (over 10 rounds, 1.2 s,
    // a loaded machine once finished them before the signal came), and the signal goes the moment the
    // CLI listens for it (the preload says when), so it falls mid-run. A run that went on would exit 0
    // with a table on stdout.
    const r = await runAndSignal(['price', '--profiles', file, '--policy', 'optimal', '--rounds', '16'], 'SIGINT');
    expect(r).toEqual({ code: 130, stdout: '', stderr: 'test: listening for SIGINT\n' });
  }, 60_000);

  it('Ctrl-C stops a price from battles as it stops one from duels', async () => {
    // Ten million battles an entry and count: hours of battles, stopped at once.
    const r = await runAndSignal(['price', '--profiles', file, '--by', 'battles', '--ducats', '200', '--games', '10000000'], 'SIGINT');
    expect(r).toEqual({ code: 130, stdout: '', stderr: 'test: listening for SIGINT\n' });
  }, 60_000);
});
