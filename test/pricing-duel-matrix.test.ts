import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { duelMatrix, solveDuelMatrix, type DuelEntry } from '../src/pricing/duel-matrix.js';
import { type DuelChances, type ExactSolver, duelChancesOf, evaluateParsed, threadSolver } from '../src/exact-result.js';
import type { Scenario } from '../src/model/types.js';
import { exactThreads } from '../src/pool/exact.js';
import { fieldFromProfiles } from '../src/pricing/field.js';
import { fitBradleyTerry } from '../src/pricing/bradley-terry.js';
import { evaluateExact } from '../src/evaluate.js';
import { readProfilesFile } from '../src/input/read-files.js';
import { type Fraction, ONE, add, compare, fraction, formatFraction, mul, sub } from '../src/exact/fraction.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 40 part 2: the win matrix of exact duels. No value here is copied from the module's output:
 * each is a symmetry of the duel (identical sides, swapped sides), a duel written out by hand and run
 * through evaluateExact, an ordering known by construction (same body, strictly more dice), or the
 * profiles file's own costs added up. Rounds 2-3 and fields of 2-4 entries keep it to a few seconds.
 */

const HALF = fraction(1, 2);
const show = (f: Fraction) => formatFraction(f);

const plain: DuelEntry = { name: 'plain', side: {} };
const moreDice: DuelEntry = { name: '+3 injury dice', side: { injuryDice: 3 } };
const machine: DuelEntry = { name: 'machine + Tough', side: { armour: 'machine', tough: true } };

describe('duelMatrix', () => {
  it('identical entries: every share is exactly 1/2, and each order is the mirror of the other', () => {
    // Two identical sides: the duel with a first is the duel with b first seen from the other side, so
    // P(a wins | a first) = P(b wins | b first), and the undecided chance is the same; averaged over
    // the orders, a's share is (P(a wins | a first) + P(b wins | a first) + P(undecided)) / 2 = 1/2.
    const side = { armour: 'standard', injuryDice: 1 };
    const m = duelMatrix(
      ['one', 'two', 'three'].map((name) => ({ name, side })),
      { rounds: 3 },
    );
    expect(m.pairs).toHaveLength(3);
    for (const p of m.pairs) {
      expect(show(p.share)).toBe('1/2');
      expect(show(p.aFirst.aWins)).toBe(show(p.bFirst.bWins));
      expect(show(p.aFirst.undecided)).toBe(show(p.bFirst.undecided));
      expect(m.wins[p.i]![p.j]).toBe(0.5);
      expect(m.wins[p.j]![p.i]).toBe(0.5);
    }
    expect(m.wins[1]![1]).toBeUndefined();
  });

  it('swapping the two entries gives the complement exactly: w_ij + w_ji = 1', () => {
    // Evaluated independently with the sides swapped (j as a): the same two duels mirrored.
    const field = [plain, moreDice, machine];
    const forward = duelMatrix(field, { rounds: 2 });
    const backward = duelMatrix([...field].reverse(), { rounds: 2 });
    const n = field.length;
    for (const p of forward.pairs) {
      const q = backward.pairs.find((b) => b.i === n - 1 - p.j && b.j === n - 1 - p.i)!;
      expect(show(add(p.share, q.share))).toBe('1');
      expect(forward.wins[p.i]![p.j]! + forward.wins[p.j]![p.i]!).toBeCloseTo(1, 15);
      expect(forward.wins[p.j]![p.i]).toBe(backward.wins[q.i]![q.j]);
    }
  });

  it('one pair equals the duel written out by hand, both orders averaged, undecided half', () => {
    const m = duelMatrix([machine, moreDice], { rounds: 3 });
    const byHand = (first: 'a' | 'b') => {
      const r = evaluateExact({
        system: 'trench-crusade',
        kind: 'duel',
        rounds: 3,
        first,
        a: { armour: 'machine', tough: true, policy: 'none' },
        b: { injuryDice: 3, policy: 'none' },
      });
      const [aWins, , undecided] = r.answer.outcomes;
      expect(r.layout.outcomes).toEqual(['a-wins', 'b-wins', 'undecided']);
      return add(aWins!, mul(undecided!, HALF));
    };
    const expected = mul(add(byHand('a'), byHand('b')), HALF);
    expect(show(m.pairs[0]!.share)).toBe(show(expected));
    expect(m.scenario).toMatchObject({ system: 'trench-crusade', edition: 'core', kind: 'duel', rounds: 3 });
    expect(m.defaultPolicy).toBe('none');
  });

  it('dominance by construction: more injury dice on the same body, and a harder body with the same weapon, each win more than half', () => {
    // +3 injury dice vs +0: the same body and the same hit chances, every injury roll of the first
    // strictly better. Machine armour + Tough vs nothing: the same weapon on both sides, the first
    // strictly harder to take Out of Action.
    const m = duelMatrix([plain, moreDice, machine], { rounds: 2 });
    const share = (i: number, j: number) => m.pairs.find((p) => p.i === i && p.j === j)!.share;
    expect(compare(sub(ONE, share(0, 1)), HALF)).toBe(1);
    expect(compare(sub(ONE, share(0, 2)), HALF)).toBe(1);
    expect(m.wins[1]![0]!).toBeGreaterThan(0.5);
    expect(m.wins[2]![0]!).toBeGreaterThan(0.5);
  });

  it('the matrix feeds fitBradleyTerry, which rates both dominant entries above the plain one', () => {
    const m = duelMatrix([plain, moreDice, machine], { rounds: 2 });
    const fit = fitBradleyTerry(m.names, m.wins);
    const rating = (name: string) => fit.entries.find((e) => e.name === name)!.rating;
    expect(rating('+3 injury dice')).toBeGreaterThan(rating('plain'));
    expect(rating('machine + Tough')).toBeGreaterThan(rating('plain'));
    expect(fit.entries.reduce((s, e) => s + e.rating, 0)).toBeCloseTo(0, 9);
  });

  it('reports progress once per duel, two per pair', () => {
    const seen: [number, number][] = [];
    duelMatrix([plain, moreDice, machine], { rounds: 2, onProgress: (done, total) => seen.push([done, total]) });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6].map((d) => [d, 6]));
  });

  it('a side policy given as an option reaches both sides; a side of its own keeps its own', () => {
    const m = duelMatrix([plain, { name: 'spender', side: { policy: 'injury' } }], { rounds: 2, policy: 'hinder' });
    expect(m.defaultPolicy).toBe('hinder');
    // Same bodies and weapons, so only the policies can make the share differ from 1/2; the exact
    // duel by hand with those two policies is the oracle.
    const byHand = (first: 'a' | 'b') => {
      const [aWins, , undecided] = evaluateExact({ kind: 'duel', rounds: 2, first, a: { policy: 'hinder' }, b: { policy: 'injury' } }).answer.outcomes;
      return add(aWins!, mul(undecided!, HALF));
    };
    expect(show(m.pairs[0]!.share)).toBe(show(mul(add(byHand('a'), byHand('b')), HALF)));
  });

  it('refuses a field with a name twice, and a bad side naming its entry', () => {
    expect(refusal(() => duelMatrix([plain, plain]))).toMatch(/"plain" is named twice/);
    expect(refusal(() => duelMatrix([plain, { name: 'odd', side: { armour: 'paper' } }], { rounds: 2 }))).toMatch(/^entry "odd": .*armour/);
    expect(refusal(() => duelMatrix([plain, moreDice], { rounds: 0 }))).toMatch(/rounds/);
  });
});

describe('solveDuelMatrix: the same duels through a solver', () => {
  const file = 'examples/profiles.json';
  // Hand-written sides and profile sides (read through the base scenario's file) in one field.
  const field = (): DuelEntry[] => [plain, machine, ...fieldFromProfiles(readProfilesFile(file)).slice(0, 2)];
  const options = { rounds: 2, base: { profiles: file } };

  it("the worker threads' matrix is the in-thread one, fraction for fraction, whether one or every duel is handed over at a time", async () => {
    // The workers are handed parsed scenarios and send back answers by structured clone: nothing may
    // be lost or reordered on the way (the in-thread duelMatrix is the oracle, evaluateParsed itself).
    const inThread = duelMatrix(field(), options);
    for (const atOnce of [1, 2, undefined]) {
      let inWorkers = 0;
      const threads: ExactSolver = {
        solve(scenario, signal) {
          inWorkers += 1;
          return exactThreads.solve(scenario, signal);
        },
      };
      const pooled = await solveDuelMatrix(field(), { ...options, solver: threads, ...(atOnce ? { atOnce } : {}) });
      expect(inWorkers).toBe(4 * 3);
      expect(pooled).toEqual(inThread);
      expect(pooled.pairs.map((p) => show(p.share))).toEqual(inThread.pairs.map((p) => show(p.share)));
    }
    expect(await solveDuelMatrix(field(), options)).toEqual(inThread);
  });

  it('counts every duel solved once, to n(n-1)', async () => {
    const seen: [number, number][] = [];
    await solveDuelMatrix([plain, moreDice, machine], { rounds: 2, solver: exactThreads, onProgress: (done, total) => seen.push([done, total]) });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6].map((d) => [d, 6]));
  });

  /** The calling thread as a solver, counting the duels it is handed and doing `then` after each. */
  const counting = (then: (handed: number) => void = () => undefined) => {
    const solver: ExactSolver & { handed: number } = {
      handed: 0,
      async solve(scenario, signal) {
        solver.handed += 1;
        const answer = await threadSolver.solve(scenario, signal);
        then(solver.handed);
        return answer;
      },
    };
    return solver;
  };

  it('an abort stops the handing over of duels and rejects with its reason', async () => {
    const controller = new AbortController();
    const solver = counting((handed) => handed === 2 && controller.abort(new Error('stop here')));
    await expect(solveDuelMatrix([plain, moreDice, machine], { rounds: 2, solver, atOnce: 1, signal: controller.signal })).rejects.toThrow('stop here');
    expect(solver.handed).toBe(2);
    const early = counting();
    await expect(solveDuelMatrix([plain, moreDice], { rounds: 2, solver: early, signal: AbortSignal.abort(new Error('before')) })).rejects.toThrow('before');
    expect(early.handed).toBe(0);
  });

  it("a duel the solver fails ends the run with that failure, and no further duel is handed over", async () => {
    let handed = 0;
    const failing: ExactSolver = {
      async solve(scenario, signal) {
        handed += 1;
        if (handed === 3) throw new Error('host lost');
        return threadSolver.solve(scenario, signal);
      },
    };
    await expect(solveDuelMatrix([plain, moreDice, machine], { rounds: 2, solver: failing, atOnce: 1 })).rejects.toThrow('host lost');
    expect(handed).toBe(3);
  });

  it('refuses a bad field before handing any duel over, as duelMatrix does', async () => {
    const solver = counting();
    await expect(solveDuelMatrix([plain, { name: 'odd', side: { armour: 'paper' } }], { rounds: 2, solver })).rejects.toThrow(/^entry "odd": .*armour/);
    await expect(solveDuelMatrix([plain, moreDice], { rounds: 2, solver, atOnce: 0 })).rejects.toThrow(/atOnce/);
    expect(solver.handed).toBe(0);
  });
});

describe('solveDuelMatrix: duels handed over in batches (a solver with duelBatches, as the queue is)', () => {
  const file = 'examples/profiles.json';
  // 5 entries, 20 duels: batches of 3 leave a last one of 2, so the answers' assembly crosses batches unevenly.
  const field = (): DuelEntry[] => [plain, moreDice, machine, ...fieldFromProfiles(readProfilesFile(file)).slice(0, 2)];
  const options = { rounds: 2, base: { profiles: file } };

  /** This thread solving each batch it is handed, reversed and put back (as a host may solve them in any order), doing `then` after each. */
  const batching = (then: (batches: number) => void = () => undefined, fail?: (batch: readonly Scenario[]) => Error | undefined) => {
    const handed: number[] = [];
    const solver: ExactSolver = {
      solve: () => Promise.reject(new Error('a batching solver is handed no duel alone')),
      duelBatches: {
        perBatch: 3,
        async solve(scenarios, signal) {
          signal?.throwIfAborted();
          handed.push(scenarios.length);
          const bad = fail?.(scenarios);
          if (bad) throw bad;
          const chances: DuelChances[] = [...scenarios].reverse().map((s) => duelChancesOf(evaluateParsed(s)));
          then(handed.length);
          return chances.reverse();
        },
      },
    };
    return { solver, handed };
  };

  it("gives the in-thread matrix, fraction for fraction, in the plan's order, and counts duels, not batches", async () => {
    const inThread = duelMatrix(field(), options);
    for (const atOnce of [1, 4, undefined]) {
      const { solver, handed } = batching();
      const seen: number[] = [];
      const batched = await solveDuelMatrix(field(), { ...options, solver, ...(atOnce ? { atOnce } : {}), onProgress: (done, total) => (expect(total).toBe(20), seen.push(done)) });
      expect(batched).toEqual(inThread);
      expect(handed.reduce((a, b) => a + b, 0)).toBe(20);
      expect([...handed].sort()).toEqual([2, 3, 3, 3, 3, 3, 3]);
      expect(seen.at(-1)).toBe(20);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    }
  });

  it('an abort stops the handing over of batches; a failed batch ends the run with its failure', async () => {
    const controller = new AbortController();
    const stopped = batching((batches) => batches === 2 && controller.abort(new Error('stop here')));
    await expect(solveDuelMatrix(field(), { ...options, solver: stopped.solver, atOnce: 1, signal: controller.signal })).rejects.toThrow('stop here');
    expect(stopped.handed).toEqual([3, 3]);
    const failing = batching(undefined, () => (failing.handed.length === 2 ? new Error('duel 2 of the 3 in the batch: too deep') : undefined));
    await expect(solveDuelMatrix(field(), { ...options, solver: failing.solver, atOnce: 1 })).rejects.toThrow('duel 2 of the 3 in the batch: too deep');
    expect(failing.handed).toEqual([3, 3]);
  });
});

describe('fieldFromProfiles', () => {
  const file = 'examples/profiles.json';
  const raw = JSON.parse(readFileSync(file, 'utf8')) as {
    models: Record<string, { cost: number }>;
    weapons: Record<string, { cost: number; attackType?: string }>;
  };

  it('every model with every melee weapon, "MODEL with WEAPON", priced model cost + weapon cost', () => {
    const field = fieldFromProfiles(readProfilesFile(file));
    const models = Object.keys(raw.models);
    const melee = Object.keys(raw.weapons).filter((w) => (raw.weapons[w]!.attackType ?? 'melee') === 'melee');
    expect(field).toHaveLength(models.length * melee.length);
    expect(field.map((e) => e.name)).toEqual(models.flatMap((m) => melee.map((w) => `${m} with ${w}`)));
    for (const e of field) {
      const [model, weapon] = e.name.split(' with ') as [string, string];
      expect(e.price).toBe(raw.models[model]!.cost + raw.weapons[weapon]!.cost);
      expect(e.side).toEqual({ model, weapon });
    }
    const ranged = fieldFromProfiles(readProfilesFile(file), { attackType: 'ranged' });
    expect(ranged.map((e) => e.name)).toEqual(models.map((m) => `${m} with Bolt-action Rifle`));
  });

  it('its sides resolve through a base scenario naming the file: a profile side is the same duel as its fields written out', () => {
    // Machine Brute (machine armour, Tough) with the Great Hammer (+1 injury dice) against the same
    // body and weapon written out by hand: identical sides, so exactly 1/2.
    const brute = fieldFromProfiles(readProfilesFile(file)).find((e) => e.name === 'Machine Brute with Great Hammer')!;
    const m = duelMatrix([brute, { name: 'by hand', side: { armour: 'machine', tough: true, injuryDice: 1 } }], { rounds: 2, base: { profiles: file } });
    expect(show(m.pairs[0]!.share)).toBe('1/2');
    expect(m.prices).toEqual([raw.models['Machine Brute']!.cost + raw.weapons['Great Hammer']!.cost, undefined]);
    expect(m.scenario).toMatchObject({ profiles: file, system: 'trench-crusade' });
  });
});
