import { spawnSync } from 'node:child_process';

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
