import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSweep } from '../src/analysis/sweep.js';
import { asOften, findingOf } from '../src/present/tables/findings.js';
import { loadReportDef } from '../src/present/report/definition.js';
import { closePool } from '../src/pool/simulate.js';

afterAll(() => closePool());

describe('asOften words a ratio only as closely as the numbers carry it', () => {
  it('says "exactly" only of exact values whose ratio is that number', () => {
    expect(asOften(5 / 18, 1 / 36, true)).toBe('exactly a tenth as often');
    expect(asOften(5 / 18, 1 / 36, false)).toBe('about a tenth as often');
    expect(asOften(0.1, 0.2, true)).toBe('exactly twice as often');
    expect(asOften(0.2, 0.2, true)).toBe('exactly as often');
  });

  it('rounds to a whole number only within 5%, and gives the rest as a ratio or a share', () => {
    expect(asOften(0.356, 0.074, true)).toBe('about a fifth as often'); // 4.81: within 5% of 5
    expect(asOften(0.356, 0.08, true)).toBe('about 22% as often'); // 4.45: not
    expect(asOften(0.1, 0.16, true)).toBe('about 1.6 times as often');
    expect(asOften(0.8059, 0.0046, true)).toBe('about 1/180 as often'); // 175.2: two significant figures
    expect(asOften(0.0101, 0.26, true)).toBe('about 26 times as often'); // 25.7
    expect(asOften(0.01, 0.26, true)).toBe('exactly 26 times as often');
  });
});

describe('findingOf', () => {
  it('names the highest and lowest cells of an injury roll by armour: none 5/18 against machine 1/36', async () => {
    const sweep = await runSweep({ base: { kind: 'injury', edition: 'core' }, vary: ['armour=none,machine'] });
    // By hand: unarmoured, Out of Action is 9+ on 2D6, 10/36 = 5/18; machine armour leaves only a double six, 1/36.
    const out = (i: number) => sweep.cells[i]!.outcomes.find((o) => o.outcome === 'out-of-action')!.exact;
    expect([out(0), out(1)]).toEqual(['5/18', '1/36']);
    expect(findingOf(sweep)).toBe('Out of action is most likely with none (27.78%) and least likely with machine (2.78%): exactly a tenth as often.');
  });

  it('reads one numeric dimension from its first value to its last', async () => {
    const sweep = await runSweep({ base: { kind: 'injury', edition: 'core' }, vary: ['injuryDice=0..1'] });
    const [from, to] = sweep.cells.map((c) => c.outcomes.find((o) => o.outcome === 'out-of-action')!.probability!);
    expect(findingOf(sweep)).toMatch(new RegExp(`^Out of action rises steadily from ${(from! * 100).toFixed(2)}% at injury dice 0 to ${(to! * 100).toFixed(2)}% at injury dice \\+1: about `));
  });

  it('reads a duel as side a winning, and says when a simulation cannot tell two cells apart', async () => {
    const sweep = await runSweep({
      base: { kind: 'duel', edition: 'core', rounds: 3, a: {}, b: {} },
      vary: ['first=a,b'],
      exact: false,
      sim: { trials: 2_000, seed: 1, batches: 2 },
    });
    expect(findingOf(sweep)).toMatch(/^Side a wins most often with .* \(\d+\.\d+% ±\d+\.\d+\) and least often with .*: (the simulation cannot tell them apart|about .* as often)\.$/);
  }, 60_000);

  it('gives every analysis of every shipped report a finding', async () => {
    const analyses = readdirSync('reports')
      .filter((f) => f.endsWith('.json'))
      .flatMap((file) => loadReportDef(join('reports', file)).analyses.map((a) => ({ file, a })));
    // All at once, so that the exact threads are never waiting for this one to read an answer.
    // Exact only: the finding reads exact values where there are some; a battle, simulated only, plays a few games a cell.
    const sweeps = await Promise.all(
      analyses.map(({ a }) => runSweep({ base: a.base, vary: a.vary, exact: a.exact, ...(a.exact ? {} : { sim: { ...a.sim!, trials: 2000, batches: 2 } }), planned: { dimensions: a.dimensions, cells: a.planned, notAllowed: a.notAllowed } })),
    );
    for (const [i, { file, a }] of analyses.entries()) expect(findingOf(sweeps[i]!), `${file} ${a.id}`).toMatch(/^[A-Z].*\.$/);
  }, 120_000);
});

describe('findingOf with nothing to compare', () => {
  it('says the one value of a grid whose cells all read the same', async () => {
    // A grid of two cells, the second given the first's answer: hand-built, as no two values of one field read the same.
    const sweep = await runSweep({ base: { kind: 'injury', edition: 'core' }, vary: ['armour=none,machine'] });
    const [none] = sweep.cells;
    expect(findingOf({ ...sweep, cells: [none!, { ...none!, index: 1, point: [1], labels: ['machine'] }] })).toBe('Out of action: 27.78% in every cell.');
  });
});
