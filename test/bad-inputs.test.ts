import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { capWorkers, takeSimNotes } from '../src/cli/sim-options.js';
import { parseScenario } from '../src/input/scenario.js';
import { compareScenarios } from '../src/analysis/compare.js';
import { closePool, simulate } from '../src/pool/simulate.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Issue #10, "Wrong answers and silent acceptance": each input below used to print a wrong or empty answer.
 *
 * `cli` starts the built CLI in a process of its own; `cliInProcess` runs the same src/cli/main.ts in this
 * process (same refusal line, same exit code), which costs a fraction of the CPU. Each family of refusal
 * keeps one real process, end to end; its other variants, which differ only in wording, run in process.
 */

afterAll(() => closePool());

const dir = mkdtempSync(join(tmpdir(), 'injury-lab-bad-inputs-'));
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** Every refusal: exit 2, nothing on stdout, exactly one line on stderr (no stack trace). */
function expectRefused(r: { code: number | null; stdout: string; stderr: string }, message: RegExp | string): void {
  expect(r.stderr).toMatch(/^injury-lab: [^\n]*\n$/);
  if (typeof message === 'string') expect(r.stderr).toBe(`injury-lab: ${message}\n`);
  else expect(r.stderr).toMatch(message);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
}

const re = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('compare refuses scenarios that answer different questions (issue 25 part 2), unless --allow-mixed', () => {
  const tcInjury = file('tc-injury.json', { kind: 'injury' });
  const tcComprehensive = file('tc-comprehensive.json', { kind: 'injury', edition: 'comprehensive' });
  const tcAttack = file('tc-attack.json', { kind: 'attack' });
  const tcFall = file('tc-fall.json', { kind: 'fall', heightInches: 6 });
  const tcSequence = file('tc-sequence.json', { kind: 'sequence', attacks: 2 });
  const d20Attack = file('d20-attack.json', { system: 'd20-warband', kind: 'attack' });
  const d20Check = file('d20-check.json', { system: 'd20-warband', kind: 'check' });
  const d20Injury = file('d20-injury.json', { system: 'd20-warband', kind: 'injury-roll' });

  it('of different systems (the "or worse" rows said 0.00% against 27.76%)', async () => {
    const refusal = `compare: ${JSON.stringify(d20Attack)} is a d20-warband scenario and ${JSON.stringify(tcInjury)} a trench-crusade one; compare scenarios of one system, or add --allow-mixed`;
    expectRefused(await cliInProcess('compare', tcInjury, d20Attack), refusal);
    // End to end in a CLI process, and also when simulating with more workers than cores: the refusal is
    // still the only line (the --workers note is never printed).
    expectRefused(cli('compare', tcInjury, d20Attack, '--trials', '1e4', '--workers', '64'), refusal);
  });

  it('of other kinds, even one whose outcomes only add some (an attack\'s out of action is per attack, an injury roll\'s per roll)', async () => {
    expectRefused(
      await cliInProcess('compare', tcInjury, tcSequence),
      new RegExp(
        `^injury-lab: compare: ${re(JSON.stringify(tcSequence))} is kind "sequence" and ${re(JSON.stringify(tcInjury))} kind "injury": their outcomes answer different questions; compare scenarios of one kind \\(give --kind to every one\\), or add --allow-mixed`,
      ),
    );
    expectRefused(await cliInProcess('compare', d20Attack, d20Check), /compare: ".*d20-check\.json" is kind "check" and ".*d20-attack\.json" kind "attack"/);
    expectRefused(await cliInProcess('compare', tcFall, tcAttack), /compare: ".*tc-attack\.json" is kind "attack" and ".*tc-fall\.json" kind "fall"/);
  });

  it('still compares editions of one kind; --allow-mixed compares other kinds, an outcome one lacks counting as 0', async () => {
    const editions = await cliInProcess('compare', tcInjury, tcComprehensive);
    expect(editions.code).toBe(0);
    expect(editions.stderr).toBe('');
    const addsMiss = await cliInProcess('compare', tcFall, tcAttack, '--format', 'json', '--allow-mixed');
    expect(addsMiss.code).toBe(0);
    expect(JSON.parse(addsMiss.stdout).outcomes).toEqual(['miss', 'no-effect', 'minor-hit', 'down', 'out-of-action']);
    expect((await cliInProcess('compare', tcInjury, d20Injury, '--allow-mixed')).code).toBe(0);
  });

  it('in the library too, before anything is computed', async () => {
    const run = compareScenarios([
      { name: 'a', file: 'a.json', raw: { kind: 'injury' } },
      { name: 'b', file: 'b.json', raw: { system: 'd20-warband', kind: 'attack' } },
    ]);
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow('compare: "b.json" is a d20-warband scenario and "a.json" a trench-crusade one; compare scenarios of one system, or add --allow-mixed');
  });
});

describe('an explicit null system, kind or edition is refused, not read as the default', () => {
  it('in a scenario file', async () => {
    const system = file('null-system.json', { system: null, kind: 'injury' });
    // End to end in a CLI process; the other nulls differ only in wording.
    expectRefused(cli('exact', system), `${system}: system: null is not allowed; allowed: trench-crusade, d20-warband (or leave system out for trench-crusade)`);
    const kind = file('null-kind.json', { kind: null });
    expectRefused(await cliInProcess('exact', kind), `${kind}: kind: null is not allowed; allowed: injury, attack, fall, sequence, duel, battle (or leave kind out for injury)`);
    const d20Kind = file('null-d20-kind.json', { system: 'd20-warband', kind: null });
    expectRefused(await cliInProcess('exact', d20Kind), /kind: null is not allowed; allowed: check, attack, injury-roll, fall, turns, duel \(or leave kind out for check\)/);
    const edition = file('null-edition.json', { kind: 'injury', edition: null });
    expectRefused(await cliInProcess('exact', edition), `${edition}: edition: null is not allowed; allowed: playtest, comprehensive, core (or leave edition out for core)`);
  });

  it('while a missing key still means the default', async () => {
    expect(parseScenario({})).toMatchObject({ system: 'trench-crusade', kind: 'injury', edition: 'core' });
    const r = await cliInProcess('exact', file('no-keys.json', {}), '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ system: 'trench-crusade', kind: 'injury', edition: 'core' });
  });

  it("in a report definition's scenario", async () => {
    const def = (name: string, scenario: Record<string, unknown>) =>
      file(name, { title: 'nulls', analyses: [{ id: 'a', title: 'a', scenario, vary: [{ field: 'armour', values: ['none', 'standard'] }] }] });
    expectRefused(await cliInProcess('report', def('report-null-system.json', { system: null, kind: 'injury' }), '--check-only'), /system: null is not allowed; allowed: trench-crusade, d20-warband/);
    expectRefused(await cliInProcess('report', def('report-null-kind.json', { kind: null }), '--check-only'), /kind: null is not allowed; allowed: injury, attack, fall, sequence/);
    const ok = await cliInProcess('report', def('report-ok.json', { kind: 'injury' }), '--check-only');
    expect(ok.code).toBe(0);
  });
});

describe('--no-exact with nothing to simulate', () => {
  it('is refused by compare', async () => {
    const a = file('no-exact-a.json', { kind: 'injury' });
    const b = file('no-exact-b.json', { kind: 'injury', armour: 'standard' });
    expectRefused(await cliInProcess('compare', a, b, '--no-exact'), '--no-exact needs --trials or --precision: compare would have nothing to compute');
  });

  // src/cli/commands/sweep.ts calls requireSomethingToCompute (see src/cli/run-plan.ts). End to end in a
  // CLI process: sweep used to print an empty table on stdout and exit 0.
  it('is refused by sweep (it printed an empty table)', () => {
    expectRefused(cli('sweep', '--kind', 'injury', '--vary', 'armour=none,standard', '--no-exact'), '--no-exact needs --trials or --precision: sweep would have nothing to compute');
  });
});

describe('a bad --format is one line naming the flag, the value and the formats', () => {
  const scenario = file('format.json', { kind: 'injury' });
  const commands: [string, string[], string][] = [
    ['systems', ['systems'], 'table, json'],
    ['exact', ['exact', scenario], 'table, json, csv'],
    ['simulate', ['simulate', scenario, '--trials', '1000'], 'table, json, csv'],
    ['check', ['check', scenario, '--trials', '1000'], 'table, json, csv'],
    ['sweep', ['sweep', scenario, '--vary', 'armour=none,standard'], 'table, json, csv'],
    ['compare', ['compare', scenario, scenario], 'table, json, csv'],
  ];
  // Each command's own refusal, in process: they differ only in the formats named.
  for (const [name, args, allowed] of commands) {
    it(name, async () => {
      expectRefused(await cliInProcess(...args, '--format', 'xml'), new RegExp(`^injury-lab: --format: "xml" is not a format[^\\n]*; allowed: ${allowed}\\n$`));
    });
  }

  it('systems says so for csv, which other commands print', async () => {
    // End to end in a CLI process.
    expectRefused(cli('systems', '--format', 'csv'), '--format: "csv" is not a format systems can print; allowed: table, json');
    expect(JSON.parse((await cliInProcess('systems', '--format', 'json')).stdout)[0].id).toBe('trench-crusade');
  });
});

describe('--workers above the cores', () => {
  const cores = availableParallelism();
  const note = (n: number) => (n > cores ? `injury-lab: --workers ${n} is more than this machine's ${cores} core${cores === 1 ? '' : 's'}; using ${cores}\n` : '');
  const outcomes = (stdout: string) => JSON.parse(stdout).outcomes;

  it('is capped to the cores with one note, and gives the numbers of one worker', async () => {
    const one = await cliInProcess('simulate', '--kind', 'injury', '--trials', '1e5', '--workers', '1', '--format', 'json');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).workers).toBe(1);
    // In CLI processes: the note is about what the process prints on stderr, Node's own warnings included.
    for (const n of [64, 5]) {
      const r = cli('simulate', '--kind', 'injury', '--trials', '1e5', '--workers', String(n), '--format', 'json');
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(note(n));
      expect(r.stderr).not.toMatch(/MaxListenersExceededWarning/);
      expect(JSON.parse(r.stdout).workers).toBe(Math.min(n, cores));
      expect(outcomes(r.stdout)).toEqual(outcomes(one.stdout));
    }
  });

  it('capWorkers leaves counts up to the cores alone and notes the rest once', () => {
    takeSimNotes();
    expect(capWorkers(2, 2)).toBe(2);
    expect(takeSimNotes()).toEqual([]);
    expect(capWorkers(64, 2)).toBe(2);
    expect(capWorkers(64, 2)).toBe(2);
    expect(capWorkers(3, 1)).toBe(1);
    expect(takeSimNotes()).toEqual(["--workers 64 is more than this machine's 2 cores; using 2", "--workers 3 is more than this machine's 1 core; using 1"]);
  });

  it('the library is not capped, and many workers on one abort signal print no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      // 8 workers keep 16 tasks in flight: with a listener each on the caller's signal, Node warned past 10.
      const run = await simulate(parseScenario({ kind: 'injury' }), { trials: 2e6, seed: 1, workers: 8, signal: controller.signal });
      expect(run.workers).toBe(8);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
  });
});
