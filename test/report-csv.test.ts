import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateExact } from '../src/evaluate.js';
import { toolVersion } from '../src/version.js';
import { compareRows } from '../src/present/tables/compare.js';
import { FIXED_COLUMNS, csvText, meanColumns, tidyCsv } from '../src/present/tables/csv.js';
import { compareScenarios } from '../src/analysis/compare.js';
import { runSweep, type SweepResult } from '../src/analysis/sweep.js';
import { closePool } from '../src/pool/simulate.js';
import { sweepJson } from '../src/present/tables/sweep.js';
import { cliInProcess } from './helpers/cli-in-process.js';

type Row = Record<string, string>;


describe('tidy CSV round-trips through a CSV parser', () => {
  let sweep: SweepResult;
  let rows: Row[];

  beforeAll(async () => {
    sweep = await runSweep({
      base: { kind: 'attack', edition: 'core' },
      vary: ['armour,shield=none/false,standard/true,machine/false', 'injuryDice=-1..1'],
      sim: { trials: 20_000, seed: 7, batches: 4 },
    });
    rows = parse(tidyCsv([{ report: 'r', analysis: 'a', sweep }]), { columns: true }) as Row[];
  }, 60_000);
  afterAll(() => closePool());

  it('has the right columns: ids, every varied field, the other inputs, the fixed ones, then the means', () => {
    const varied = ['armour', 'shield', 'injuryDice'];
    const others = Object.keys(sweep.cells[0]!.scenario).filter((f) => !['system', 'edition', 'kind', 'rules', ...varied].includes(f));
    expect(Object.keys(rows[0]!)).toEqual(['report', 'analysis', ...varied, ...others, ...FIXED_COLUMNS, ...meanColumns('expectedBloodMarkers')]);
  });

  it('has one row per cell and outcome, in grid order', () => {
    expect(rows).toHaveLength(3 * 3 * 5);
    expect(rows.slice(0, 5).map((r) => r.outcome)).toEqual(['miss', 'no-effect', 'minor-hit', 'down', 'out-of-action']);
    expect(rows[0]).toMatchObject({ armour: 'none', shield: 'false', injuryDice: '-1', edition: 'core', kind: 'attack' });
    expect(rows[5]).toMatchObject({ armour: 'none', shield: 'false', injuryDice: '0' });
    expect(rows[15]).toMatchObject({ armour: 'standard', shield: 'true', injuryDice: '-1' });
  });

  it('holds numbers that match `exact` to the last digit, and exact fractions', () => {
    for (const r of rows) {
      const e = evaluateExact({ kind: 'attack', armour: r.armour, shield: r.shield === 'true', injuryDice: Number(r.injuryDice) });
      const o = e.outcomes.find((x) => x.outcome === r.outcome)!;
      expect(Number(r.probability)).toBe(o.probability);
      expect(r.exact).toBe(o.exact);
      expect(Number(r.or_worse)).toBe(o.orWorse);
      expect(r.or_worse_exact).toBe(o.orWorseExact);
      const [num, den] = o.exact.split('/');
      expect([r.exact_numerator, r.exact_denominator]).toEqual([num, den ?? '1']);
    }
  });

  it('holds the estimate, its interval, trials, seed and tool version of each simulated cell', () => {
    for (const r of rows) {
      const est = Number(r.estimate);
      expect(Number(r.ci_low)).toBeLessThanOrEqual(est);
      expect(Number(r.ci_high)).toBeGreaterThanOrEqual(est);
      expect(r).toMatchObject({ trials: '20000', seed: '7', batches: '4', tool_version: toolVersion });
    }
    // The estimates are counts over trials: they sum to 1 per cell (to rounding).
    const first = rows.slice(0, 5).reduce((s, r) => s + Number(r.estimate), 0);
    expect(first).toBeCloseTo(1, 12);
  });

  it('`sweep --format csv` prints the same kind of table, and parses back to `exact`', async () => {
    // In this process (main.ts, the same output): what is printed is the point here, not a process.
    const r = await cliInProcess('sweep', '--kind', 'fall', '--vary', 'heightInches=0..9:3', '--format', 'csv');
    expect(r.code).toBe(0);
    const parsed = parse(r.stdout, { columns: true }) as Row[];
    expect(parsed).toHaveLength(4 * 4);
    const nine = parsed.filter((x) => x.heightInches === '9');
    const e = evaluateExact({ kind: 'fall', heightInches: 9 });
    expect(nine.map((x) => x.exact)).toEqual(e.outcomes.map((o) => o.exact));
    expect(nine[0]!.estimate).toBe('');
  });
});

describe('every mean a kind has, in its own columns', () => {
  // The kinds with more than one mean, or a mean only some of their cells have (the unlimited
  // attacks or turns, when Out of Action or Incapacitated is certain), exact and simulated.
  const grids: { name: string; base: Record<string, unknown>; vary: string[]; means: string[] }[] = [
    { name: 'a Trench Crusade sequence', base: { kind: 'sequence', edition: 'core', attacks: 3, tough: true }, vary: ['armour=none,machine', 'golem=false,true'], means: ['expectedAttacksMade', 'expectedBloodMarkersSpent', 'toughSavedChance', 'expectedAttacks'] },
    { name: 'a Trench Crusade duel', base: { kind: 'duel', edition: 'core', rounds: 3, a: {}, b: {} }, vary: ['first=a,b'], means: ['expectedActivations'] },
    { name: 'd20 turns', base: { system: 'd20-warband', kind: 'turns', attackType: 'melee', defence: 10, turns: 3 }, vary: ['wounds=1,2'], means: ['expectedAttacksMade', 'expectedTurns'] },
  ];
  for (const grid of grids) {
    it(`${grid.name}: a column group per mean of its layouts, the values the sweep JSON gives`, async () => {
      const sweep = await runSweep({ base: grid.base, vary: grid.vary, sim: { trials: 2_000, seed: 3, batches: 2 } });
      const rows = parse(tidyCsv([{ sweep }]), { columns: true }) as Row[];
      const keys = [...new Set(sweep.cells.flatMap((c) => c.layout.means.map((m) => m.jsonKey)))];
      expect(keys).toEqual(grid.means);
      expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(keys.flatMap(meanColumns)));
      const json = JSON.parse(JSON.stringify(sweepJson(sweep))) as { cells: { means: { jsonKey: string; exact?: string; value?: number; estimate?: number; ciLow?: number; ciHigh?: number }[] }[] };
      const outcomes = sweep.outcomes.length;
      json.cells.forEach((cell, i) => {
        const row = rows[i * outcomes]!;
        for (const key of keys) {
          const m = cell.means.find((x) => x.jsonKey === key);
          const text = (v: string | number | undefined) => (v === undefined ? '' : String(v));
          expect([row[`${key}_exact`], row[key], row[`${key}_estimate`], row[`${key}_ci_low`], row[`${key}_ci_high`]], `${grid.name} cell ${i} ${key}`).toEqual([
            text(m?.exact),
            text(m?.value),
            text(m?.estimate),
            text(m?.ciLow),
            text(m?.ciHigh),
          ]);
        }
      });
    }, 60_000);
  }
});

describe('CSV quoting (RFC 4180)', () => {
  it('keeps a name with commas, quotes and a line break in one field', async () => {
    const name = 'Bob\'s "best", armour\nline two';
    const result = await compareScenarios([
      { name, file: 'a.json', raw: { kind: 'injury' } },
      { name: 'b', file: 'b.json', raw: { kind: 'injury', armour: 'standard' } },
    ]);
    const text = csvText(compareRows(result));
    const parsed = parse(text, { columns: true }) as Row[];
    expect(parsed[0]!.name).toBe(name);
    expect(parsed.filter((r) => r.name === 'b' && r.view === 'outcome' && r.outcome === 'out-of-action')[0]).toMatchObject({
      // A text cell led by '-' is formula-escaped (see csvText); the numeric `difference` is not.
      difference_exact: "'-1/9",
      exact: '1/6',
    });
  });
});
