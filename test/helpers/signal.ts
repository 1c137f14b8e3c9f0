import { spawn } from 'node:child_process';

/**
 * Runs the CLI in a real process and sends it `signal` the moment it listens for Ctrl-C (the preload
 * announces that on stderr): the test waits for an event, never a guessed delay a loaded machine outlasts.
 */
export function runAndSignal(args: readonly string[], signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', './test/helpers/announce-sigint.mjs', 'dist/src/cli/main.js', ...args], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    if (stderr.includes('test: listening for SIGINT') && !child.killed) child.kill(signal);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}
