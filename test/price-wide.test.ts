import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { ONE, fraction, sub, toNumber } from '../src/exact/fraction.js';
import { closeExactPool } from '../src/pool/exact.js';
import { closePool } from '../src/pool/simulate.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 51 item 5: `price --wide` writes the pairwise matrix the ratings are fitted to as the matrix a
 * spreadsheet user pastes: a row and a column per entry in the price table's order, each cell the row
 * entry's share against the column entry, the diagonal empty. Every cell is checked against the same
 * run's JSON answer: by duels its duels.pairs (a's share as a number; b's, 1 minus a's exact fraction,
 * as the matrix and the chart convert it), by battles its `shares`. Both write a number with every
 * digit, so a cell must equal it character for character, not merely be close.
 */

afterAll(async () => {
  await closePool();
  await closeExactPool();
});

const cellsOf = (csv: string) => parse(csv, { relax_column_count: true }) as string[][];

async function ok(...args: string[]) {
  const r = await cliInProcess(...args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

function expectRefused(r: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr.trim()).toMatch(message);
  expect(r.code).toBe(2);
}

// Two models with two melee weapons of examples/profiles.json: four entries, six pairs, twelve exact duels.
const FIELD = ['price', '--profiles', 'examples/profiles.json', '--models', 'Shield Bearer,Machine Brute', '--weapons', 'Trench Club,Great Hammer'];
// By battles at 100 ducats: both Machine Brutes (112 and 122 ducats) cost more, so they are out of the field and play no one.
const BATTLES = [...FIELD, '--by', 'battles', '--games', '300', '--ducats', '100'];

interface DuelsJson {
  readonly duels: { readonly pairs: readonly { readonly a: string; readonly b: string; readonly share: { readonly probability: number; readonly exact: string } }[] };
  readonly entries: readonly { readonly name: string }[];
}

interface BattlesJson {
  readonly field: readonly { readonly name: string }[];
  readonly shares: readonly { readonly entry: string; readonly against: Readonly<Record<string, number>> }[];
  readonly entries: readonly { readonly name: string }[];
}

/** `1 - n/d` as the nearest double, computed exactly first (as duel-matrix.ts computes w_ji). */
function oneMinus(exact: string): number {
  const [n, d] = exact.split('/');
  return toNumber(sub(ONE, fraction(BigInt(n!), BigInt(d ?? '1'))));
}

describe('price --wide by duels', () => {
  it("is a 4x4 matrix in the table's order, each cell the JSON answer's share for the pair, the diagonal empty", async () => {
    const json = JSON.parse((await ok(...FIELD, '--format', 'json')).stdout) as DuelsJson;
    const names = json.entries.map((e) => e.name);
    expect(names).toHaveLength(4);
    const r = await ok(...FIELD, '--wide');
    const m = cellsOf(r.stdout);
    expect(m[0]).toEqual(['entry \\ against', ...names]);
    expect(m.map((row) => row[0])).toEqual(['entry \\ against', ...names]);
    expect(m.every((row) => row.length === 5)).toBe(true);
    const at = (row: string, column: string) => m[names.indexOf(row) + 1]![names.indexOf(column) + 1]!;
    for (const name of names) expect(at(name, name)).toBe('');
    expect(json.duels.pairs).toHaveLength(6);
    for (const p of json.duels.pairs) {
      expect(at(p.a, p.b)).toBe(String(p.share.probability));
      expect(at(p.b, p.a)).toBe(String(oneMinus(p.share.exact)));
    }
    expect(r.stderr).toBe(
      "injury-lab: wide CSV: rows and columns the entries, in the table's order; cells the row entry's share of its exact duels against the column entry, the mean over the two orders of who goes first of P(row wins) + P(undecided)/2 (the JSON's duels.pairs share, 1 minus it where the row is the pair's b; the chart's heat map); the diagonal empty\n",
    );
  });

  it('--wide alone and --wide --format csv write the same bytes', async () => {
    const alone = await ok(...FIELD, '--wide');
    const withCsv = await ok(...FIELD, '--format', 'csv', '--wide');
    expect(withCsv.stdout).toBe(alone.stdout);
    expect(alone.stdout.startsWith('entry \\ against,')).toBe(true);
  });
});

describe('price --wide by battles', () => {
  it("each cell the JSON's share for the pair; the diagonal and an entry out of the field (it plays no one) empty", async () => {
    const json = JSON.parse((await ok(...BATTLES, '--format', 'json')).stdout) as BattlesJson;
    const names = json.entries.map((e) => e.name);
    const inField = new Set(json.field.map((f) => f.name));
    expect(names).toHaveLength(4);
    expect(inField.size).toBe(2);
    const r = await ok(...BATTLES, '--wide');
    const m = cellsOf(r.stdout);
    expect(m[0]).toEqual(['entry \\ against', ...names]);
    expect(m.map((row) => row[0])).toEqual(['entry \\ against', ...names]);
    const against = new Map(json.shares.map((s) => [s.entry, s.against]));
    let filled = 0;
    for (const [i, row] of names.entries()) {
      for (const [j, column] of names.entries()) {
        const cell = m[i + 1]![j + 1]!;
        if (row === column || !inField.has(row) || !inField.has(column)) {
          expect(cell, `${row} against ${column}`).toBe('');
        } else {
          expect(cell, `${row} against ${column}`).toBe(String(against.get(row)![column]));
          filled++;
        }
      }
    }
    expect(filled).toBe(2);
    expect(r.stderr).toContain("cells the row entry's share of its battles against the column entry, each side the copies 100 ducats buy, P(row wins) + P(draw)/2");
    expect(r.stderr).toContain('the row and column of each entry out of the field (2: it plays no one)');
  });
});

describe('price --wide refuses in one line, exit 2, nothing written', () => {
  it('with another --format given, by duels and by battles: one of the two flags would be ignored', async () => {
    expectRefused(await cliInProcess(...FIELD, '--wide', '--format', 'json'), /^injury-lab: --wide: writes a CSV; --format json asks for another format; allowed: --wide with --format csv, or --wide alone \(it implies csv\)$/);
    expectRefused(await cliInProcess(...BATTLES, '--format=table', '--wide'), /^injury-lab: --wide: writes a CSV; --format table asks for another format/);
  });

  it('--wide=VALUE other than true or false', async () => {
    expectRefused(await cliInProcess(...FIELD, '--wide=maybe'), /^injury-lab: --wide: "maybe" is not allowed; allowed: true, false/);
  });
});
