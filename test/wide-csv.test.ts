import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { closeExactPool } from '../src/pool/exact.js';
import { closePool } from '../src/pool/simulate.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51 item 5: `--format csv --wide` writes the grid as a matrix a spreadsheet user pastes (rows the
 * first varied field, columns the second, one outcome's probability in the cells; one varied field: a
 * column per outcome). Every cell is checked against the same run's tidy CSV (its `probability`,
 * `or_worse` or `estimate` column) or JSON answer, as text: both write the number with every digit, so
 * they must be equal character for character, not merely close.
 */

afterAll(async () => {
  await closePool();
  await closeExactPool();
});

type Row = Record<string, string>;
const rowsOf = (csv: string) => parse(csv, { columns: true }) as Row[];
const cellsOf = (csv: string) => parse(csv, { relax_column_count: true, skip_empty_lines: false }) as string[][];

async function ok(...args: string[]) {
  const r = await cliInProcess(...args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** The tidy CSV's `column` for the row of `outcome` where every `where` field has its value. */
function tidyValue(rows: readonly Row[], where: Record<string, string>, outcome: string, column: string): string {
  const found = rows.filter((r) => r.outcome === outcome && Object.entries(where).every(([k, v]) => r[k] === v));
  expect(found, `${JSON.stringify(where)} ${outcome}`).toHaveLength(1);
  return found[0]![column]!;
}

function expectRefused(r: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr.trim()).toMatch(message);
  expect(r.code).toBe(2);
}

const GRID = ['sweep', '--kind', 'attack', '--vary', 'armour=none,standard', '--vary', 'injuryDice=0..2'];

describe('sweep --format csv --wide: two varied fields', () => {
  it('is a 2x3 matrix: rows armour, columns injuryDice, each cell the tidy CSV\'s out-of-action probability (the default: the most severe)', async () => {
    const tidy = rowsOf((await ok(...GRID, '--format', 'csv')).stdout);
    const r = await ok(...GRID, '--format', 'csv', '--wide');
    const m = cellsOf(r.stdout);
    expect(m[0]).toEqual(['armour \\ injuryDice', '0', '1', '2']);
    expect(m.map((row) => row[0])).toEqual(['armour \\ injuryDice', 'none', 'standard']);
    expect(m.every((row) => row.length === 4)).toBe(true);
    for (const [i, armour] of ['none', 'standard'].entries()) {
      for (const [j, dice] of ['0', '1', '2'].entries()) {
        const cell = m[i + 1]![j + 1]!;
        expect(cell).toBe(tidyValue(tidy, { armour, injuryDice: dice }, 'out-of-action', 'probability'));
        expect(Number(cell)).toBeGreaterThan(0);
      }
    }
    // Full precision: 17 significant digits, as the tidy CSV writes them (none: 65/972... at 0 dice is 0.16885...).
    expect(m[1]![1]).toBe('0.1688528806584362');
    expect(r.stderr).toContain('wide CSV: rows armour; columns injuryDice; cells out-of-action (the default, --outcome for another), the exact probability');
  });

  it('--outcome down --cumulative: the tidy CSV\'s or_worse of down, cell by cell', async () => {
    const tidy = rowsOf((await ok(...GRID, '--format', 'csv')).stdout);
    const m = cellsOf((await ok(...GRID, '--format', 'csv', '--wide', '--outcome', 'down', '--cumulative')).stdout);
    expect(m[0]![0]).toBe('armour \\ injuryDice');
    for (const [i, armour] of ['none', 'standard'].entries()) {
      for (const [j, dice] of ['0', '1', '2'].entries()) {
        expect(m[i + 1]![j + 1]).toBe(tidyValue(tidy, { armour, injuryDice: dice }, 'down', 'or_worse'));
        // "Or worse" is more than down alone: the cell is not the outcome's own probability.
        expect(Number(m[i + 1]![j + 1])).toBeGreaterThan(Number(tidyValue(tidy, { armour, injuryDice: dice }, 'down', 'probability')));
      }
    }
  });

  it('several --outcome ids: one block per outcome, a blank line between, each corner naming its outcome', async () => {
    const tidy = rowsOf((await ok(...GRID, '--format', 'csv')).stdout);
    const r = await ok(...GRID, '--wide', '--format', 'csv', '--outcome', 'out-of-action,minor-hit');
    const m = cellsOf(r.stdout);
    // In the kind's order (mildest first), whatever the order given.
    expect(m.map((row) => row[0])).toEqual(['minor-hit: armour \\ injuryDice', 'none', 'standard', '', 'out-of-action: armour \\ injuryDice', 'none', 'standard']);
    expect(m[1]![3]).toBe(tidyValue(tidy, { armour: 'none', injuryDice: '2' }, 'minor-hit', 'probability'));
    expect(m[6]![3]).toBe(tidyValue(tidy, { armour: 'standard', injuryDice: '2' }, 'out-of-action', 'probability'));
    expect(r.stderr).toContain('one block per outcome (minor-hit, out-of-action)');
  });

  it('a duel\'s outcomes are not ranked: the default is the first, a wins, equal to the JSON answer', async () => {
    const args = ['sweep', '--kind', 'duel', '--vary', 'a.policy=none,injury', '--vary', 'b.armour=none,machine'];
    const json = JSON.parse((await ok(...args, '--format', 'json')).stdout) as { cells: { values: Record<string, string>; outcomes: { outcome: string; probability: number }[] }[] };
    const m = cellsOf((await ok(...args, '--wide')).stdout);
    expect(m[0]).toEqual(['a.policy \\ b.armour', 'none', 'machine']);
    for (const c of json.cells) {
      const i = ['none', 'injury'].indexOf(c.values['a.policy']!) + 1;
      const j = ['none', 'machine'].indexOf(c.values['b.armour']!) + 1;
      expect(Number(m[i]![j])).toBe(c.outcomes.find((o) => o.outcome === 'a-wins')!.probability);
    }
  });

  it('simulated only (--no-exact): each cell is the tidy CSV\'s estimate, and stderr says so', async () => {
    const sim = [...GRID, '--no-exact', '--trials', '2000', '--seed', '5', '--format', 'csv'];
    const tidy = rowsOf((await ok(...sim)).stdout);
    const r = await ok(...sim, '--wide');
    const m = cellsOf(r.stdout);
    for (const [i, armour] of ['none', 'standard'].entries()) {
      for (const [j, dice] of ['0', '1', '2'].entries()) expect(m[i + 1]![j + 1]).toBe(tidyValue(tidy, { armour, injuryDice: dice }, 'out-of-action', 'estimate'));
    }
    expect(r.stderr).toContain("the simulated estimate (the tidy CSV's estimate column)");
  });
});

describe('sweep --wide: one field, three fields, cells the rules forbid', () => {
  it('one varied field: a row per value, a column per outcome (every one), each the tidy CSV\'s probability', async () => {
    const args = ['sweep', '--kind', 'attack', '--vary', 'armour=none,standard,reinforced', '--format', 'csv'];
    const tidy = rowsOf((await ok(...args)).stdout);
    const m = cellsOf((await ok(...args, '--wide')).stdout);
    const outcomes = ['miss', 'no-effect', 'minor-hit', 'down', 'out-of-action'];
    expect(m[0]).toEqual(['armour \\ outcome', ...outcomes]);
    expect(m.slice(1).map((row) => row[0])).toEqual(['none', 'standard', 'reinforced']);
    for (const [i, armour] of ['none', 'standard', 'reinforced'].entries()) {
      for (const [j, o] of outcomes.entries()) expect(m[i + 1]![j + 1]).toBe(tidyValue(tidy, { armour }, o, 'probability'));
    }
  });

  it('one varied field with --cumulative: every outcome but the mildest (always 1), each its or_worse', async () => {
    const args = ['sweep', '--kind', 'fall', '--vary', 'heightInches=3,6,9', '--format', 'csv'];
    const tidy = rowsOf((await ok(...args)).stdout);
    const m = cellsOf((await ok(...args, '--wide', '--cumulative')).stdout);
    expect(m[0]).toEqual(['heightInches \\ outcome or worse', 'minor-hit', 'down', 'out-of-action']);
    for (const [i, h] of ['3', '6', '9'].entries()) {
      for (const [j, o] of ['minor-hit', 'down', 'out-of-action'].entries()) expect(m[i + 1]![j + 1]).toBe(tidyValue(tidy, { heightInches: h }, o, 'or_worse'));
    }
  });

  it('three fields: columns the second, rows every combination of the first and third (the first slowest), one leading column each', async () => {
    const args = [...GRID, '--vary', 'shield=false,true', '--format', 'csv'];
    const tidy = rowsOf((await ok(...args)).stdout);
    const r = await ok(...args, '--wide');
    const m = cellsOf(r.stdout);
    expect(m[0]).toEqual(['armour', 'shield \\ injuryDice', '0', '1', '2']);
    expect(m.slice(1).map((row) => row.slice(0, 2))).toEqual([['none', 'false'], ['none', 'true'], ['standard', 'false'], ['standard', 'true']]);
    for (const row of m.slice(1)) {
      for (const [j, dice] of ['0', '1', '2'].entries()) expect(row[j + 2]).toBe(tidyValue(tidy, { armour: row[0]!, shield: row[1]!, injuryDice: dice }, 'out-of-action', 'probability'));
    }
    expect(r.stderr).toContain('rows armour, shield (every combination); columns injuryDice');
  });

  it('a cell the rules forbid is empty, the others filled', async () => {
    const r = await ok('sweep', '--kind', 'fall', '--height-inches', '9', '--vary', 'edition=playtest,core', '--vary', 'bloodMarkersSpent=0,1', '--wide');
    const m = cellsOf(r.stdout);
    expect(m[1]).toEqual(['playtest', '', '']);
    expect(m[2]![0]).toBe('core');
    expect(Number(m[2]![1])).toBeGreaterThan(0);
    expect(r.stderr).toContain('a cell the rules forbid is empty');
  });
});

describe('--wide: the format, --out, compare', () => {
  it('--wide alone implies --format csv: the same bytes', async () => {
    const alone = await ok(...GRID, '--wide');
    const withCsv = await ok(...GRID, '--wide', '--format', 'csv');
    expect(alone.stdout).toBe(withCsv.stdout);
    expect(alone.stdout.startsWith('armour \\ injuryDice,0,1,2\n')).toBe(true);
  });

  it('--out writes the matrix whole, and says so', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'injury-lab-wide-')), 'grid.csv');
    const printed = await ok(...GRID, '--wide');
    const r = await ok(...GRID, '--wide', '--out', file);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`wrote ${file} (6 cells)`);
    expect(readFileSync(file, 'utf8')).toBe(printed.stdout);
  });

  it('compare --wide: a row per scenario, a column per outcome, each the compare CSV\'s probability', async () => {
    const args = ['compare', 'armour=none', 'armour=machine', '--kind', 'attack', '--injury-dice', '1', '--format', 'csv'];
    const tidy = rowsOf((await ok(...args)).stdout).filter((r) => r.view === 'outcome');
    const m = cellsOf((await ok(...args, '--wide')).stdout);
    const outcomes = ['miss', 'no-effect', 'minor-hit', 'down', 'out-of-action'];
    expect(m[0]).toEqual(['scenario \\ outcome', ...outcomes]);
    expect(m.slice(1).map((row) => row[0])).toEqual(['armour=none', 'armour=machine']);
    for (const [i, name] of ['armour=none', 'armour=machine'].entries()) {
      for (const [j, o] of outcomes.entries()) expect(m[i + 1]![j + 1]).toBe(tidyValue(tidy, { name }, o, 'probability'));
    }
  });
});

describe('compare --wide reads compare\'s own answer', () => {
  it('an outcome a kind cannot have (an injury roll\'s miss, --allow-mixed) is 0, as compare counts it; --cumulative is its or-worse rows', async () => {
    const args = ['compare', 'kind=injury', 'kind=attack', '--allow-mixed', '--format', 'csv'];
    const rows = rowsOf((await ok(...args)).stdout);
    const one = cellsOf((await ok(...args, '--wide')).stdout);
    expect(one[1]!.slice(0, 2)).toEqual(['kind=injury', '0']);
    const worse = await ok(...args, '--wide', '--cumulative');
    const m = cellsOf(worse.stdout);
    expect(m[0]).toEqual(['scenario \\ outcome or worse', 'no-effect', 'minor-hit', 'down', 'out-of-action']);
    for (const [i, name] of ['kind=injury', 'kind=attack'].entries()) {
      for (const [j, o] of ['no-effect', 'minor-hit', 'down', 'out-of-action'].entries()) {
        expect(m[i + 1]![j + 1]).toBe(tidyValue(rows.filter((r) => r.view === 'or-worse'), { name }, o, 'probability'));
      }
    }
    expect(worse.stderr).toContain("the exact probability (the CSV's probability column of its view or-worse rows)");
  });
});

describe('--wide refuses in one line, exit 2, nothing written', () => {
  it('with another --format given: one of the two flags would be ignored', async () => {
    expectRefused(await cliInProcess(...GRID, '--wide', '--format', 'json'), /^injury-lab: --wide: writes a CSV; --format json asks for another format; allowed: --wide with --format csv, or --wide alone \(it implies csv\)$/);
    expectRefused(await cliInProcess('compare', 'armour=none', 'armour=machine', '--kind', 'attack', '--format=table', '--wide'), /^injury-lab: --wide: writes a CSV; --format table asks/);
  });

  it('--wide=VALUE other than true or false', async () => {
    expectRefused(await cliInProcess(...GRID, '--wide=maybe'), /^injury-lab: --wide: "maybe" is not allowed; allowed: true, false/);
  });

  it('--cumulative where the outcomes are not ranked (a duel): no cell would answer a question', async () => {
    expectRefused(
      await cliInProcess('sweep', '--kind', 'duel', '--vary', 'a.policy=none,injury', '--wide', '--cumulative'),
      /^injury-lab: --cumulative: the outcomes of this kind are not ranked from mildest to most severe, so none is "or worse"; leave it out, or leave out --wide$/,
    );
  });
});
