import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool } from '../src/pool/simulate.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * `cli` starts the built CLI in a process of its own (run `npm run build` first); `cliInProcess` runs the
 * same src/cli/main.ts inside this process at a fraction of the CPU. Simulations run there too: they use
 * the same piscina pool of worker threads (the compiled dist/workers/simulate.js), which the CLI's
 * withRunControls closes after every run, as it does before a real process exits. Real processes are
 * kept for one simulation end to end (the process must also end by itself once the pool is closed),
 * for Ctrl-C, and for one refused flag.
 */

// Should a run fail half-way, no worker threads are left behind for the next file.
afterAll(() => closePool());

describe('injury-lab simulate', () => {
  it('prints one JSON document with the run, every outcome with its interval, the means and a manifest', () => {
    // A real process: exit 0 and nothing on stderr from a process that ran worker threads, and that ends
    // by itself once they are done (a pool left open would hold it until cli() kills it: code null).
    const r = cli('simulate', '--kind', 'injury', '--injury-dice', '2', '--trials', '2e5', '--seed', '42', '--workers', '2', '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ system: 'trench-crusade', edition: 'core', kind: 'injury', trials: 200000, seed: 42, workers: 2 });
    expect(doc.seconds).toBeGreaterThan(0);
    expect(doc.trialsPerSecond).toBeGreaterThan(0);
    expect(doc.outcomes.map((o: { outcome: string }) => o.outcome)).toEqual(['no-effect', 'minor-hit', 'down', 'out-of-action']);
    for (const o of doc.outcomes) expect(o.ciLow).toBeLessThanOrEqual(o.probability);
    expect(Object.keys(doc.expectedBloodMarkers)).toEqual(['value', 'ciLow', 'ciHigh']);
    expect(doc.manifest).toMatchObject({ tool: 'injury-lab', system: 'trench-crusade', edition: 'core', seed: 42, trials: 200000, generator: 'xoshiro128**', chunkSize: 65536 });
    expect(doc.manifest.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('gives the same numbers for a seed on 1 and 3 workers', async () => {
    const counts = async (workers: string) =>
      JSON.parse((await cliInProcess('simulate', '--kind', 'attack', '--trials', '300001', '--workers', workers, '--format', 'json')).stdout).outcomes;
    expect(await counts('3')).toEqual(await counts('1'));
  });

  it('prints a table by default and CSV on request', async () => {
    const table = await cliInProcess('simulate', '--kind', 'attack', '--trials', '1e5');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/95% interval/);
    expect(table.stdout).toMatch(/100,000 trials, seed 1/);
    // The tidy columns of `exact --format csv` (and of a sweep), the estimates filled in.
    const lines = (await cliInProcess('simulate', '--kind', 'attack', '--trials', '1e5', '--format', 'csv')).stdout.trim().split('\n');
    expect(lines[0]).toBe((await cliInProcess('exact', '--kind', 'attack', '--format', 'csv')).stdout.split('\n')[0]);
    expect(lines).toHaveLength(6);
  });

  it('--precision simulates until every interval is narrow enough, and says how many trials it took', async () => {
    const doc = JSON.parse((await cliInProcess('simulate', '--kind', 'injury', '--precision', '0.002', '--format', 'json')).stdout);
    expect(doc.reachedPrecision).toBe(true);
    for (const o of doc.outcomes) expect((o.ciHigh - o.ciLow) / 2).toBeLessThanOrEqual(0.002);
    const capped = await cliInProcess('simulate', '--kind', 'injury', '--precision', '0.0001', '--max-trials', '1e5');
    expect(capped.code).toBe(0);
    expect(capped.stdout).toMatch(/NOT reached: stopped at --max-trials 100,000/);
  });

  it('stops on Ctrl-C with exit 130 and prints nothing', async () => {
    // A real process: a signal, the exit status it leads to, and a run that would hang were it missed.
    // The preload announces on stderr when the CLI starts listening for SIGINT; Ctrl-C is sent then, so
    // the test waits for an event, not for a guessed delay that a loaded machine could outlast.
    const child = spawn(process.execPath, ['--import', './test/helpers/announce-sigint.mjs', 'dist/src/cli/main.js', 'simulate', '--kind', 'injury', '--trials', '1e11'], {
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.includes('test: listening for SIGINT') && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(child.killed).toBe(true);
    expect(code).toBe(130);
    expect(stdout).toBe('');
    expect(stderr).toBe('test: listening for SIGINT\n');
  });
});

describe('injury-lab check', () => {
  it('agrees with the exact answer for a fixed seed and exits 0', async () => {
    const r = await cliInProcess('check', '--kind', 'attack', '--injury-dice', '1', '--trials', '5e5');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/chi-square over outcomes: [\d.]+ on 3 degrees of freedom, p = /);
    expect(r.stdout).toMatch(/^AGREES/m);
  });

  it('prints exact, estimate, interval and z per outcome as JSON', async () => {
    const doc = JSON.parse((await cliInProcess('check', '--kind', 'injury', '--trials', '2e5', '--format', 'json')).stdout);
    expect(doc.passed).toBe(true);
    expect(doc.outcomes[3]).toMatchObject({ outcome: 'out-of-action', exact: '5/18' });
    expect(Object.keys(doc.outcomes[3])).toEqual(['outcome', 'exact', 'exactProbability', 'count', 'probability', 'ciLow', 'ciHigh', 'z']);
    expect(doc.chiSquare.df).toBe(2);
    expect(doc.manifest.generator).toBe('xoshiro128**');
  });
});

describe('bad simulation flags: one line on stderr, exit 2, nothing on stdout', () => {
  const bad: [string[], RegExp][] = [
    [['simulate', '--trials', '0'], /--trials: "0" is not allowed/],
    [['simulate', '--trials', '-5'], /--trials: "-5" is not allowed/],
    [['simulate', '--trials', 'many'], /--trials: "many" is not allowed/],
    [['simulate', '--workers', '0'], /--workers: "0" is not allowed; allowed: a whole number from 1 to 64/],
    [['simulate', '--precision', '2'], /--precision: "2" is not allowed; allowed: a number above 0 and below 0.5/],
    [['simulate', '--seed', 'abc'], /--seed: "abc" is not allowed/],
    [['check', '--trials', '1e13'], /--trials: "1e13" is not allowed/],
    [['check', '--precision', '0.01'], /Unknown argument: precision/],
  ];
  for (const [args, message] of bad) {
    it(args.join(' '), async () => {
      // The first refusal runs in a real process, end to end (exit 2 of a process); the rest in process.
      const r = args === bad[0]![0] ? cli(...args) : await cliInProcess(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  }
});
