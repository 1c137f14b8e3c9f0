import { spawnSync } from 'node:child_process';

/** Runs the built CLI (npm test builds first) the way a user would. */
export function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
