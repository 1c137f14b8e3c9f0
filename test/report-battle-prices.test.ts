import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { parseReportDef } from '../src/present/report/definition.js';
import { runReport } from '../src/present/report/run.js';
import { writeReport } from '../src/present/write/report.js';
import { closePool } from '../src/pool/simulate.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 50, part 2: a report's `price` analysis priced from battles (`"by": "battles"`), as `price --by
 * battles` prices it: the same prices, its section on the page, its JSON, battle-prices.csv and its chart.
 */
afterAll(() => closePool());

// Read relative to the report file, as a report's files are.
const SETTINGS = { roster: '../examples/roster-example.ros', by: 'battles', games: 600, ducats: 300 };

describe('a report prices from battles', () => {
  it('gives the prices `price --by battles` gives, and writes them to the page, results.json and battle-prices.csv', async () => {
    const def = parseReportDef({ title: 'Battle prices', analyses: [{ id: 'by-battles', price: SETTINGS }] }, 'reports/battle-prices.json');
    expect(def.prices[0]!.title).toBe('Fair prices from battles at 300 ducats of every model with each weapon of the roster ../examples/roster-example.ros');
    const run = await runReport(def, { png: false, workers: 1 });
    const out = mkdtempSync(join(tmpdir(), 'injury-lab-report-battles-'));
    await writeReport(run, join(out, 'report'));
    const cli = await cliInProcess('price', '--roster', 'examples/roster-example.ros', '--by', 'battles', '--games', '600', '--ducats', '300', '--format', 'json');
    const fromCli = JSON.parse(cli.stdout) as { entries: unknown[] };
    const results = JSON.parse(readFileSync(join(out, 'report', 'results.json'), 'utf8')) as { prices: { by: string; entries: unknown[] }[] };
    expect(results.prices[0]!.by).toBe('battles');
    expect(results.prices[0]!.entries).toEqual(fromCli.entries);
    const csv = parse(readFileSync(join(out, 'report', 'battle-prices.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => r.entry)).toEqual((fromCli.entries as { name: string }[]).map((e) => e.name));
    const html = readFileSync(join(out, 'report', 'index.html'), 'utf8');
    expect(html).toContain('fair prices from battles at 300 ducats');
    expect(html).toContain('href="battle-prices.csv"');
    expect(html).not.toContain('href="prices.csv"');
    expect(html).toMatch(/price by battles, edition core, 6 entries, [\d,]+ battles \(600 an entry and count, 300 ducats\), seed 1/);
    expect(readFileSync(join(out, 'report', 'charts', 'by-battles-prices.vl.json'), 'utf8')).toContain('Fair prices from battles at 300 ducats');
  });

  it('refuses a duel setting in a price from battles, naming it', () => {
    expect(() => parseReportDef({ title: 'x', analyses: [{ price: { ...SETTINGS, rounds: 3 } }] }, 'reports/x.json')).toThrow(
      /^reports\/x\.json: analyses\[0\]: price\.rounds: is read only when pricing by duels, not by battles; allowed: price\.by duels, or no price\.rounds$/,
    );
  });
});
