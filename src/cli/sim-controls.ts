import { closeExactPool } from '../pool/exact.js';
import { compact } from '../text.js';
import { closePool } from '../pool/simulate.js';
import { takeSimNotes } from './sim-options.js';

/** What a command hands to simulate(): Ctrl-C as an abort signal, and a progress callback if wanted. */
export interface RunControls {
  readonly signal: AbortSignal;
  readonly onProgress: ((doneTrials: number, totalTrials: number) => void) | undefined;
}

/** Exit status after Ctrl-C, as shells report a process ended by SIGINT (128 + 2). */
export const INTERRUPTED_EXIT = 130;
/** Exit status after SIGTERM (128 + 15). */
export const TERMINATED_EXIT = 143;

/** Both pools' threads stopped, a running solve or chunk abandoned: the process can exit. */
async function closePools(): Promise<void> {
  await Promise.all([closePool(), closeExactPool()]);
}

/**
 * Runs a simulation or a grid of exact solves the way the CLI wants it run: Ctrl-C aborts it, stops
 * the worker threads and exits 130 (SIGTERM: 143) before anything was printed (output is written only once a run is complete, so nothing partial
 * reaches stdout or a file it is redirected to); a progress bar shows on stderr when that is a terminal
 * and the run is long enough to wonder about. The pool is closed at the end so the process can exit.
 * Notes about adjusted flags (see capWorkers) are printed first, once everything has been checked.
 */
export async function withRunControls<T>(run: (controls: RunControls) => Promise<T>): Promise<T> {
  for (const note of takeSimNotes()) process.stderr.write(`injury-lab: ${note}\n`);
  const controller = new AbortController();
  const bar = progressBar(process.stderr);
  let exitCode = INTERRUPTED_EXIT;
  const onSigint = (): void => controller.abort(new Error('interrupted'));
  const onSigterm = (): void => {
    exitCode = TERMINATED_EXIT;
    controller.abort(new Error('terminated'));
  };
  process.once('SIGTERM', onSigterm);
  process.once('SIGINT', onSigint);
  try {
    return await run({ signal: controller.signal, onProgress: bar?.update });
  } catch (err) {
    if (controller.signal.aborted) {
      bar?.clear();
      await closePools();
      // process.exit runs the exit hooks: locks and half-written folders are removed there.
      process.exit(exitCode);
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    bar?.clear();
    // Both pools are kept (their idle threads are unref'd, so neither holds the process open): a
    // process that runs several commands (the tests, a library user) starts its threads once, and a
    // run asking for another number of workers replaces the simulation pool (acquirePool).
  }
}

/** Below this a run is quick enough that a bar would only flicker. */
const SHOW_AFTER_MS = 1000;
const REDRAW_EVERY_MS = 100;

export interface ProgressBar {
  update(doneTrials: number, totalTrials: number): void;
  clear(): void;
}

/** A one-line bar redrawn in place with \r; undefined when the stream is not a terminal. */
export function progressBar(stream: NodeJS.WriteStream, showAfterMs = SHOW_AFTER_MS): ProgressBar | undefined {
  if (!stream.isTTY) return undefined;
  const started = performance.now();
  let lastDraw = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (now - started < showAfterMs || now - lastDraw < REDRAW_EVERY_MS) return;
      lastDraw = now;
      drawn = true;
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 45));
      const filled = Math.round((width * done) / total);
      const rate = done / ((now - started) / 1000);
      stream.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${((100 * done) / total).toFixed(0).padStart(3)}%  ${compact(done)} / ${compact(total)} trials  ${compact(rate)}/s\x1b[K`,
      );
    },
    clear() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
