import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { runSweep } from '../src/analysis/sweep.js';
import { UsageError } from '../src/errors.js';
import { parseScenario } from '../src/input/scenario.js';
import { closePool } from '../src/pool/simulate.js';
import { loadReportDef } from '../src/present/report/definition.js';
import { runReport } from '../src/present/report/run.js';
import { writeReport } from '../src/present/write/report.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue 25 part 4: a sweep or report grid with a cell the rules forbid (a fall in the playtest edition,
 * Machine Armour with a shield) leaves that cell out as "not allowed", says which and why once, and
 * runs the rest; --strict refuses it as before. A user's mistake still ends the run. Simulations use the
 * pool, which loads dist/: npm test builds first.
 */

afterAll(() => closePool());

const FALLS = ['sweep', '--kind', 'fall', '--height-inches', '9', '--vary', 'edition=playtest,comprehensive,core'];
const FALL_REASON = /kind: "fall" is not a rule of the playtest edition \(002_a737ac1d047c7862\.txt has no falling rule; rule fall\.available is false\); allowed in editions: comprehensive, core/;

function expectRefused(r: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(message);
  expect(r.code).toBe(2);
}

interface JsonCell {
  index: number;
  values: Record<string, unknown>;
  allowed?: boolean;
  reason?: string;
  outcomes?: { outcome: string; exact: string }[];
}

/** What parseScenario refuses `raw` with. */
function refusalOf(raw: Record<string, unknown>): UsageError {
  try {
    parseScenario(raw);
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('a refusal of the rules is told from a mistake', () => {
  it('marks what the combination check refuses with its reason, its line unchanged; nothing else', () => {
    const shield = refusalOf({ kind: 'injury', armour: 'machine', shield: true });
    expect(shield.message).toMatch(/^shield: true cannot be combined with armour "machine" in the core edition/);
    expect(shield.ruleForbidden).toBe(shield.message);
    expect(refusalOf({ kind: 'duel', edition: 'playtest', a: { ledgeInches: 3 }, b: {} }).ruleForbidden).toMatch(/^a\.ledgeInches: 3 is not allowed with these rules/);
    expect(refusalOf({ kind: 'injury', armour: 'plate' }).ruleForbidden).toBeUndefined();
    expect(refusalOf({ kind: 'injury', armor: 'none' }).ruleForbidden).toBeUndefined();
  });
});

describe('a sweep with a cell the rules forbid', () => {
  it('shows a fall in the playtest as not allowed, once on stderr, and the other editions as one-off runs give them', async () => {
    const r = await cliInProcess(...FALLS, '--format', 'json');
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^injury-lab: skipped 1 of 3 cells: edition playtest: kind: "fall" is not a rule/);
    expect(lines[0]).toMatch(FALL_REASON);
    const cells = JSON.parse(r.stdout).cells as JsonCell[];
    expect(cells.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(cells[0]).toEqual({ index: 0, values: { edition: 'playtest' }, labels: ['playtest'], allowed: false, reason: expect.stringMatching(FALL_REASON) });
    for (const [i, edition] of [[1, 'comprehensive'], [2, 'core']] as const) {
      const one = await cliInProcess('exact', '--kind', 'fall', '--height-inches', '9', '--edition', edition, '--format', 'json');
      expect(one.code).toBe(0);
      const alone = JSON.parse(one.stdout).outcomes.map((o: { exact: string }) => o.exact);
      expect(cells[i]!.allowed).toBeUndefined();
      expect(cells[i]!.outcomes!.map((o) => o.exact)).toEqual(alone);
    }
  });

  it('says "not allowed" in its table and CSV rows', async () => {
    const table = await cliInProcess(...FALLS);
    expect(table.code).toBe(0);
    const playtest = table.stdout.split('\n').find((l) => l.startsWith('playtest'))!;
    expect(playtest.match(/not allowed/g)).toHaveLength(5);
    expect(table.stdout).toMatch(/3 cells \(edition x3\), 1 not allowed by the rules/);
    const csv = await cliInProcess(...FALLS, '--format', 'csv');
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    const forbidden = rows.filter((row) => row.not_allowed !== '');
    expect(forbidden).toHaveLength(1);
    expect(forbidden[0]).toMatchObject({ edition: 'playtest', kind: 'fall', outcome: '', exact: '', probability: '' });
    expect(forbidden[0]!.not_allowed).toMatch(FALL_REASON);
    // One row per outcome of each allowed cell, the playtest's one row first, in grid order.
    expect(rows.map((row) => row.edition)).toEqual(['playtest', ...Array(4).fill('comprehensive'), ...Array(4).fill('core')]);
  });

  it('leaves machine armour with a shield out of a joint armour,shield dimension, one line for both cells', async () => {
    const r = await cliInProcess('sweep', '--kind', 'injury', '--vary', 'armour,shield=none/true,machine/true,machine/false', '--vary', 'injuryDice=0..1', '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^injury-lab: skipped 2 of 6 cells: armour\+shield machine \+ shield: shield: true cannot be combined with armour "machine" in the core edition/),
    ]);
    const cells = JSON.parse(r.stdout).cells as JsonCell[];
    expect(cells.filter((c) => c.allowed === false).map((c) => c.values)).toEqual([
      { armour: 'machine', shield: true, injuryDice: 0 },
      { armour: 'machine', shield: true, injuryDice: 1 },
    ]);
    expect(cells.filter((c) => c.allowed === false).every((c) => c.outcomes === undefined)).toBe(true);
    expect(cells.filter((c) => c.outcomes)).toHaveLength(4);
  });

  it('--strict refuses it as before: the cell and the rules\' line, exit 2', async () => {
    expectRefused(await cliInProcess(...FALLS, '--strict'), /^injury-lab: cell edition="playtest": kind: "fall" is not a rule of the playtest edition/);
    expectRefused(await cliInProcess(...FALLS, '--strict=maybe'), /^injury-lab: --strict: "maybe" is not allowed; allowed: true, false/);
    const off = await cliInProcess(...FALLS, '--strict=false');
    expect(off.code).toBe(0);
  });

  it('still refuses a user\'s mistake in one line, a forbidden cell or not', async () => {
    expectRefused(
      await cliInProcess('sweep', '--kind', 'injury', '--shield', '--vary', 'armour=machine,plate'),
      /^injury-lab: cell armour="plate": armour: "plate" is not allowed; allowed: none, standard, reinforced, machine$/m,
    );
    // The playtest's cell is checked field by field before its rules are: a bad height there is the user's.
    expectRefused(
      await cliInProcess('sweep', '--kind', 'fall', '--vary', 'edition=playtest,core', '--vary', 'heightInches=3..x'),
      /^injury-lab: cell edition="playtest", heightInches="3\.\.x": heightInches: "3\.\.x" is not allowed/,
    );
    expectRefused(await cliInProcess('sweep', '--kind', 'fall', '--vary', 'edition=playtest,core', '--vary', 'heigthInches=3'), /^injury-lab: vary: "heigthInches" is not a field of trench-crusade kind "fall"/);
  });

  it('refuses a grid the rules forbid whole: nothing to show', async () => {
    expectRefused(
      await cliInProcess('sweep', '--kind', 'fall', '--vary', 'edition=playtest'),
      /^injury-lab: vary: the rules forbid every cell of the grid \(1 of 1\), e\.g\. edition playtest: kind: "fall" is not a rule.*; nothing to show; vary values the rules allow together$/m,
    );
  });

  it('lists --strict in the help of sweep and report', async () => {
    expect((await cliInProcess('sweep', '--help')).stdout).toMatch(/--strict +Refuse a grid with a cell the rules forbid/);
    expect((await cliInProcess('report', '--help')).stdout).toMatch(/--strict +Refuse a definition with a cell the rules forbid/);
  });
});

describe('simulated cells next to a forbidden one', () => {
  const plan = { trials: 2000, seed: 7, batches: 2, workers: 1 };
  const base = { kind: 'fall', heightInches: 6 };

  it('simulate each allowed cell as a grid without the forbidden value does: the same seeds, the same counts', async () => {
    const withIt = await runSweep({ base, vary: ['edition=playtest,comprehensive,core'], sim: plan });
    const without = await runSweep({ base, vary: ['edition=comprehensive,core'], sim: plan });
    expect(withIt.notAllowed.map((c) => c.index)).toEqual([0]);
    expect(withIt.cells.map((c) => c.sim!.seed)).toEqual(without.cells.map((c) => c.sim!.seed));
    expect(withIt.cells.map((c) => [...c.sim!.tally])).toEqual(without.cells.map((c) => [...c.sim!.tally]));
    expect(withIt.manifest.simulation!.trialsPerCell).toEqual([2000]);
  });

  it('with independent seeds, seeds a cell by its place in the whole grid, the forbidden one counted', async () => {
    const s = await runSweep({ base, vary: ['edition=playtest,comprehensive,core'], sim: { ...plan, independentSeeds: true } });
    expect(s.cells.map((c) => c.sim!.seed)).toEqual([7 + 1 * 2, 7 + 2 * 2]);
  });
});

describe('a report with a cell the rules forbid', () => {
  const definition = {
    title: 'Falls by edition',
    analyses: [
      {
        id: 'falls',
        title: 'Falls',
        scenario: { kind: 'fall' },
        vary: ['edition=playtest,comprehensive,core', 'heightInches=3..9:3'],
        charts: [
          { type: 'heatmap', x: 'heightInches', y: 'edition', outcome: 'out-of-action' },
          { type: 'lines', x: 'heightInches', series: 'edition', outcomes: ['out-of-action'] },
          { type: 'stacked-bars', y: 'edition', facet: 'heightInches' },
        ],
      },
    ],
  };
  const file = () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-forbidden-'));
    const f = join(dir, 'falls.json');
    writeFileSync(f, JSON.stringify(definition));
    return { dir, f };
  };

  it('writes its page, results.json and results.csv with the cells marked, and says so under each chart', async () => {
    const { dir, f } = file();
    const run = await runReport(loadReportDef(f), { png: false });
    const out = join(dir, 'out');
    await writeReport(run, out);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    const cells = results.analyses[0].cells as JsonCell[];
    expect(cells).toHaveLength(9);
    expect(cells.filter((c) => c.allowed === false).map((c) => c.values)).toEqual([3, 6, 9].map((h) => ({ edition: 'playtest', heightInches: h })));
    expect(results.manifest.analyses[0]).toMatchObject({ cells: 9, notAllowed: 3 });
    for (const chart of results.analyses[0].charts) {
      expect(chart.notes).toEqual([expect.stringMatching(/^Not allowed by the rules, so left empty: 3 of 9 cells: edition playtest: kind: "fall" is not a rule/)]);
    }
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toMatch(/9 cells \(3 not allowed by the rules\)/);
    expect(html).toMatch(/<tr class="not-allowed"><td class="dim">playtest<\/td><td class="dim">3<\/td><td title="kind: &quot;fall&quot; is not a rule/);
    expect(html.match(/chart-note">Not allowed by the rules/g)).toHaveLength(3);
    const csv = parse(readFileSync(join(out, 'results.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(csv.filter((row) => row.not_allowed !== '').map((row) => [row.edition, row.heightInches])).toEqual([['playtest', '3'], ['playtest', '6'], ['playtest', '9']]);
    // The heat map keeps the playtest's row, empty.
    const heatmap = run.analyses[0]!.charts[0]!.spec as { encoding?: unknown; layer: { encoding: { y: { scale?: { domain: string[] } } } }[] };
    expect(heatmap.layer[0]!.encoding.y.scale!.domain).toEqual(['playtest', 'comprehensive', 'core']);
  });

  it('says which cells it skips when checked, and refuses them under --strict or the analysis\'s "strict"', async () => {
    const { dir, f } = file();
    const checked = await cliInProcess('report', f, '--check-only');
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/: ok \(1 analyses, 9 cells\)/);
    expect(checked.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^falls falls: skipped 3 of 9 cells: edition playtest: kind: "fall" is not a rule/)]);
    expectRefused(await cliInProcess('report', f, '--check-only', '--strict'), /falls\.json: analysis "falls" \(analyses\[0\]\): cell edition="playtest", heightInches=3: kind: "fall" is not a rule/);
    const strict = join(dir, 'strict.json');
    writeFileSync(strict, JSON.stringify({ ...definition, analyses: [{ ...definition.analyses[0], strict: true }] }));
    expectRefused(await cliInProcess('report', strict, '--check-only'), /strict\.json: analysis "falls" \(analyses\[0\]\): cell edition="playtest", heightInches=3: kind: "fall"/);
  });
});
