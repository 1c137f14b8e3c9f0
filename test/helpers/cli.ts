import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/**
 * A CLI run that never ends is killed after this long, so a hang fails its test instead of stalling the
 * suite (a synchronous spawn cannot be interrupted by vitest's own timeout). It is a hang detector, far
 * above the slowest run on a loaded machine, not a speed requirement.
 */
const HANG_MS = 120_000;

/** Runs the built CLI (npm test builds first) the way a user would. */
export function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { encoding: 'utf8', timeout: HANG_MS });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface RunningCli {
  readonly child: ChildProcess;
  /** What it has printed so far. */
  out(): string;
  err(): string;
}

/**
 * CLI processes that run on beside a test (a queue's workers, a run waiting on them), their output
 * collected as it comes; killAll() ends any still running (an afterAll's job).
 */
export function cliChildren(): { start(args: readonly string[]): RunningCli; killAll(): void } {
  const children: ChildProcess[] = [];
  return {
    start(args) {
      const child = spawn(process.execPath, ['dist/src/cli/main.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      return { child, out: () => out, err: () => err };
    },
    killAll() {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    },
  };
}

/** The outcome counts of a `simulate --format json` run, as [outcome, count] pairs. */
export function outcomeCounts(stdout: string): [string, number][] {
  return (JSON.parse(stdout) as { outcomes: { outcome: string; count: number }[] }).outcomes.map((o) => [o.outcome, o.count]);
}
