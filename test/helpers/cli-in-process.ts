import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { takeSimNotes } from '../../src/cli/sim-options.js';

/**
 * The CLI's own entry point, src/cli/main.ts, run inside the test process: the same yargs set-up, the
 * same commands and the same one line on stderr for a refusal (main.ts's failUsage), with the exit code
 * it asks for, but without the 0.3-0.7 s of CPU that starting a Node process and loading the CLI costs
 * each time. Each call evaluates main.ts afresh (its own yargs instance and "did you mean" state); the
 * modules it loads are shared with the test, as they would be within one CLI run.
 *
 * What is caught here: process.exit (failUsage's exit 2, yargs' exit 0 after --help), process.exitCode,
 * everything written to process.stdout/stderr, and console.log/error (yargs prints help with console.log).
 * Anything else thrown (a bug: the real CLI would print a stack trace) is thrown on to the test. What is
 * given as `stdin` is process.stdin for the run, as if piped in (`report -`).
 *
 * What needs a real process and stays with `cli()` (test/helpers/cli.ts): a run that might hang (a FIFO,
 * /dev/zero: nothing can stop a synchronous read in this process), Ctrl-C, two runs at once, Node's own
 * warnings on stderr, exit hooks, and one end-to-end refusal per family, which also checks that this
 * harness still says what the built CLI says.
 *
 * Use it for refusals and quick exact runs; a report that renders charts would load vega into the test.
 */

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** What process.exit threw, to end main.ts where the real process would have ended. */
class Exit {
  constructor(readonly code: number) {}
}

let runs = 0;
let running = false;

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  /** The current folder during the run (process.chdir, undone after), for relative paths such as --out "..". */
  readonly cwd?: string;
  /**
   * What the run reads on standard input, as from a pipe that holds it (not a terminal); without it, the
   * test process's own stdin. It arrives in one chunk: a real pipe's chunking needs a spawned run.
   */
  readonly stdin?: string | Buffer;
}

/** `injury-lab ...args` in this process: like cli(), resolves to its exit code, stdout and stderr. */
export function cliInProcess(...args: string[]): Promise<CliRun> {
  return cliInProcessWith({}, ...args);
}

export async function cliInProcessWith(options: InProcessOptions, ...args: string[]): Promise<CliRun> {
  // Output is caught by replacing process-wide functions: two runs at once would mix theirs.
  if (running) throw new Error('cliInProcess: one run at a time (await each before starting the next)');
  running = true;
  let stdout = '';
  let stderr = '';
  // The real process ends at its first process.exit. Here the throw that stands in for it can be caught
  // on the way out (yargs hands an async handler's error to main.ts's fail, which exits, and then rejects
  // with the same error, which main.ts would report again), so the first exit's code counts, and nothing
  // written after it does.
  let exitedWith: number | undefined;
  const text = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
  const catcher =
    (add: (s: string) => void) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      if (exitedWith === undefined) add(text(chunk));
      const done = rest.find((r): r is () => void => typeof r === 'function');
      done?.();
      return true;
    };
  const saved = {
    argv: process.argv,
    exit: process.exit,
    exitCode: process.exitCode,
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    log: console.log,
    error: console.error,
    cwd: process.cwd(),
    columns: Object.getOwnPropertyDescriptor(process.stdout, 'columns'),
    stdin: Object.getOwnPropertyDescriptor(process, 'stdin')!,
  };
  let code: number;
  try {
    // main.ts reads its arguments as the built CLI does: hideBin(process.argv).
    process.argv = [process.execPath, 'dist/src/cli/main.js', ...args];
    process.exitCode = undefined;
    process.exit = ((c?: number | string | null) => {
      exitedWith ??= Number(c ?? 0);
      throw new Exit(exitedWith);
    }) as typeof process.exit;
    process.stdout.write = catcher((s) => (stdout += s)) as typeof process.stdout.write;
    process.stderr.write = catcher((s) => (stderr += s)) as typeof process.stderr.write;
    console.log = (...a: unknown[]) => void (exitedWith === undefined && (stdout += `${format(...a)}\n`));
    console.error = (...a: unknown[]) => void (exitedWith === undefined && (stderr += `${format(...a)}\n`));
    // Help is as wide as a terminal (helpWidth); the spawned CLI writes into a pipe, which has no width.
    Object.defineProperty(process.stdout, 'columns', { value: undefined, configurable: true, writable: true });
    if (options.cwd !== undefined) process.chdir(options.cwd);
    if (options.stdin !== undefined) {
      const bytes = Buffer.from(options.stdin);
      // Empty: a pipe closed at once, with no chunk at all.
      Object.defineProperty(process, 'stdin', { value: Readable.from(bytes.length > 0 ? [bytes] : []), configurable: true, enumerable: true });
    }
    try {
      // A new query string is a new module instance: main() runs again, top-level await and all.
      await import(/* @vite-ignore */ `${MAIN}?run=${++runs}`);
      code = exitedWith ?? Number(process.exitCode ?? 0);
    } catch (e) {
      if (exitedWith === undefined) throw e;
      code = exitedWith;
    }
  } finally {
    process.chdir(saved.cwd);
    if (options.stdin !== undefined) Object.defineProperty(process, 'stdin', saved.stdin);
    process.argv = saved.argv;
    process.exit = saved.exit;
    process.exitCode = saved.exitCode;
    process.stdout.write = saved.stdoutWrite;
    process.stderr.write = saved.stderrWrite;
    console.log = saved.log;
    console.error = saved.error;
    if (saved.columns) Object.defineProperty(process.stdout, 'columns', saved.columns);
    else delete (process.stdout as { columns?: number }).columns;
    // A refused run can leave a --workers note pending (it is printed once a run starts); a new process
    // starts with none, so neither does the next run here.
    takeSimNotes();
    running = false;
  }
  return { code, stdout, stderr };
}
