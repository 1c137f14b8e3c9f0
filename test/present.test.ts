import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFormat } from '../src/cli/options.js';
import { UsageError } from '../src/errors.js';
import { evaluateExact } from '../src/evaluate.js';
import { parseScenario } from '../src/input/scenario.js';
import { checkPresenter } from '../src/present/tables/check.js';
import { comparePresenter } from '../src/present/tables/compare.js';
import { exactPresenter } from '../src/present/tables/exact.js';
import { FIXED_COLUMNS, meanColumns } from '../src/present/tables/csv.js';
import { FORMATS, formatsOf, type Format, type Presenter } from '../src/present/tables/presenter.js';
import { simulationPresenter } from '../src/present/tables/simulation.js';
import { sweepPresenter } from '../src/present/tables/sweep.js';
import { systemsPresenter } from '../src/present/tables/systems.js';
import { compareScenarios } from '../src/analysis/compare.js';
import { runSweep } from '../src/analysis/sweep.js';
import { systems } from '../src/rules/registry.js';
import { closePool, simulate } from '../src/pool/simulate.js';
import { crossCheck } from '../src/stats/index.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * The CLI runs below check what it prints, not how a process behaves, so they run src/cli/main.ts in this
 * process (`cliInProcess`: the same output and exit code as the built CLI, without starting Node each
 * time). test/cli.test.ts and test/cli-simulate.test.ts run these commands in real processes.
 */

type Row = Record<string, string>;

/** Prints `result` in every format `presenter` declares and checks each reads back as that format. */
function printsEveryFormat<R, F extends Format>(presenter: Presenter<R, F>, result: R): void {
  for (const format of formatsOf(presenter)) {
    const text = presenter[format](result);
    expect(text.endsWith('\n'), format).toBe(true);
    if (format === 'json') expect(() => JSON.parse(text)).not.toThrow();
    else if (format === 'csv') expect((parse(text, { columns: true }) as Row[]).length).toBeGreaterThan(0);
    else expect(text.trim().length).toBeGreaterThan(0);
  }
}

describe('presenters', () => {
  afterAll(() => closePool());

  it('print every format they declare', async () => {
    const scenario = parseScenario({ kind: 'attack', armour: 'standard' });
    const exact = evaluateExact(scenario);
    const run = await simulate(scenario, { trials: 20_000, seed: 3, workers: 1 });
    const sweep = await runSweep({ base: { kind: 'injury' }, vary: ['armour=none,standard'], sim: { trials: 4000, seed: 1, batches: 2, workers: 1 } });
    const comparison = await compareScenarios([
      { name: 'a', file: 'a.json', raw: { kind: 'injury' } },
      { name: 'b', file: 'b.json', raw: { kind: 'injury', armour: 'standard' } },
    ]);
    printsEveryFormat(exactPresenter, exact);
    printsEveryFormat(simulationPresenter, { run });
    printsEveryFormat(checkPresenter, { exact, run, report: crossCheck(exact.answer, run) });
    printsEveryFormat(sweepPresenter, { sweep });
    printsEveryFormat(sweepPresenter, { sweep, cumulative: true });
    printsEveryFormat(comparePresenter, comparison);
    printsEveryFormat(systemsPresenter, systems);
  }, 60_000);

  it('offer the formats of their keys, in FORMATS order', () => {
    const offered = [exactPresenter, simulationPresenter, checkPresenter, sweepPresenter, comparePresenter].map((p: Presenter<never>) => formatsOf(p));
    for (const formats of offered) expect(formats).toEqual([...FORMATS]);
    expect(formatsOf(systemsPresenter)).toEqual(['table', 'json']);
    // Declared out of order, listed in order.
    expect(formatsOf<number, Format>({ csv: String, table: String, json: String })).toEqual(['table', 'json', 'csv']);
  });

  it('must print every format they declare (a compile error otherwise)', () => {
    // @ts-expect-error: csv is declared by Presenter<number> and missing; `npm run typecheck` fails if this compiles.
    const incomplete: Presenter<number> = { table: String, json: String };
    expect(formatsOf(incomplete)).toEqual(['table', 'json']);
  });
});

describe('parseFormat', () => {
  const refusal = (value: unknown, presenter: Presenter<never, Format> | Presenter<never, 'table' | 'json'>, command: string): string => {
    try {
      parseFormat(value, presenter, command);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
    throw new Error(`${String(value)} was accepted`);
  };

  it('accepts a format the presenter declares', () => {
    expect(parseFormat('json', systemsPresenter, 'systems')).toBe('json');
    expect(parseFormat('csv', exactPresenter, 'exact')).toBe('csv');
  });

  it('refuses one it does not declare, in one line naming the command and the formats it has', () => {
    expect(refusal('csv', systemsPresenter, 'systems')).toBe('--format: "csv" is not a format systems can print; allowed: table, json');
  });

  it('refuses an unknown format, or one given twice, in one line', () => {
    expect(refusal('xml', exactPresenter, 'exact')).toBe('--format: "xml" is not a format; allowed: table, json, csv');
    expect(refusal(['json', 'csv'], exactPresenter, 'exact')).not.toMatch(/\n/);
    expect(refusal(undefined, systemsPresenter, 'systems')).toMatch(/^--format: .* is not a format; allowed: table, json$/);
  });
});

/** `exact --format csv` and `--format json` of one scenario: the CSV rows and the JSON document. */
async function exactBoth(args: string[]): Promise<{ rows: Row[]; header: string[]; doc: Record<string, any> }> {
  const csv = await cliInProcess('exact', ...args, '--format', 'csv');
  expect(csv.code).toBe(0);
  const doc = JSON.parse((await cliInProcess('exact', ...args, '--format', 'json')).stdout);
  return { rows: parse(csv.stdout, { columns: true }) as Row[], header: csv.stdout.split('\n')[0]!.split(','), doc };
}

describe('exact --format csv', () => {
  const scenarios: [string, string[], string[]][] = [
    ['a Trench Crusade attack', ['--kind', 'attack', '--armour', 'reinforced', '--injury-dice', '1', '--shield'], ['expectedBloodMarkers']],
    ['a d20 turns scenario, with two means', ['--system', 'd20-warband', '--kind', 'turns', '--stat', '8', '--wounds', '2'], ['expectedAttacksMade', 'expectedTurns']],
  ];
  for (const [name, args, means] of scenarios) {
    it(`holds the inputs, outcomes and means of ${name}, as the JSON has them`, async () => {
      const { rows, header, doc } = await exactBoth(args);
      const inputs = Object.keys(doc.scenario).filter((k) => !['system', 'edition', 'kind'].includes(k));
      expect(header).toEqual([...inputs, ...FIXED_COLUMNS, ...means.flatMap(meanColumns)]);
      expect(rows.map((r) => r.outcome)).toEqual(doc.outcomes.map((o: { outcome: string }) => o.outcome));
      rows.forEach((r, i) => {
        // Every input of the scenario, on every row (CSV cells are text).
        for (const k of inputs) expect(r[k], k).toBe(String(doc.scenario[k]));
        expect(r).toMatchObject({ system: doc.system, kind: doc.kind, edition: doc.edition, tool_version: doc.manifest.version });
        const o = doc.outcomes[i];
        expect(r.exact).toBe(o.exact);
        expect(Number(r.probability)).toBe(o.probability);
        expect(r.or_worse_exact).toBe(o.orWorseExact);
        expect(Number(r.or_worse)).toBe(o.orWorse);
        for (const m of means) {
          expect(r[`${m}_exact`]).toBe(doc[m].exact);
          expect(Number(r[m])).toBe(doc[m].value);
          expect(r[`${m}_estimate`]).toBe('');
        }
        for (const k of ['count', 'estimate', 'ci_low', 'ci_high', 'z', 'trials', 'seed', 'batches']) expect(r[k], k).toBe('');
      });
    });
  }

  it('is `sweep --format csv` of one cell', async () => {
    const { rows } = await exactBoth(['--kind', 'attack', '--injury-dice', '1']);
    const sweep = await cliInProcess('sweep', '--kind', 'attack', '--vary', 'armour=none', '--injury-dice', '1', '--format', 'csv');
    expect(sweep.code).toBe(0);
    // The same columns and values; the sweep lists its varied field first.
    expect(parse(sweep.stdout, { columns: true })).toEqual(rows);
  });
});

describe('simulate and check --format csv', () => {
  let check: { rows: Row[]; doc: Record<string, any> };
  let simulated: { rows: Row[]; doc: Record<string, any> };
  const args = ['--kind', 'attack', '--armour', 'machine', '--trials', '2e4', '--seed', '5'];
  beforeAll(async () => {
    // One run at a time: cliInProcess captures this process's output while it runs.
    const run = async (command: string) => ({
      rows: parse((await cliInProcess(command, ...args, '--format', 'csv')).stdout, { columns: true }) as Row[],
      doc: JSON.parse((await cliInProcess(command, ...args, '--format', 'json')).stdout),
    });
    check = await run('check');
    simulated = await run('simulate');
  });

  it('simulate: the estimates, counts, intervals and mean of the JSON, one run as one batch', () => {
    const { rows, doc } = simulated;
    rows.forEach((r, i) => {
      const o = doc.outcomes[i];
      expect(r).toMatchObject({ outcome: o.outcome, armour: 'machine', exact: '', probability: '', trials: '20000', seed: '5', batches: '1' });
      expect([Number(r.count), Number(r.estimate), Number(r.ci_low), Number(r.ci_high)]).toEqual([o.count, o.probability, o.ciLow, o.ciHigh]);
      expect(Number(r.expectedBloodMarkers_estimate)).toBe(doc.expectedBloodMarkers.value);
      expect(Number(r.expectedBloodMarkers_ci_low)).toBe(doc.expectedBloodMarkers.ciLow);
    });
    // "Or worse" of the first (mildest) outcome is every trial.
    expect(Number(rows[0]!.or_worse_estimate)).toBe(1);
  });

  it('check: both answers and the z-score of each outcome, as the JSON has them', () => {
    const { rows, doc } = check;
    const mean = doc.means.find((m: { jsonKey: string }) => m.jsonKey === 'expectedBloodMarkers');
    rows.forEach((r, i) => {
      const o = doc.outcomes[i];
      expect(r).toMatchObject({ outcome: o.outcome, exact: o.exact, trials: '20000', seed: '5', batches: '1' });
      expect([Number(r.probability), Number(r.count), Number(r.estimate), Number(r.z)]).toEqual([o.exactProbability, o.count, o.probability, o.z]);
      expect([r.expectedBloodMarkers_exact, Number(r.expectedBloodMarkers), Number(r.expectedBloodMarkers_estimate)]).toEqual([mean.exact, mean.exactValue, mean.value]);
    });
    // The same seed and trials: check's estimates are simulate's.
    expect(rows.map((r) => r.estimate)).toEqual(simulated.rows.map((r) => r.estimate));
  });
});
