import type { Argv } from 'yargs';
import { showValue } from '../errors.js';
import { notAllowed, refusal } from '../messages.js';
import { defaultWorkers } from '../pool/threads.js';
import { DEFAULT_MAX_TRIALS, DEFAULT_SEED, DEFAULT_TRIALS, MAX_SEED, MAX_TRIALS, parseDecimal, parseSeed, parseTrials, wholeNumber } from '../sim/run-limits.js';

/**
 * The simulation flags (--trials, --seed, --workers, --precision, --max-trials) and every message about
 * them, kept together so they can be read and tested as a set. yargs hands them over as strings and
 * they are checked here once (trials and seed by src/sim/run-limits.ts, which the web page shares).
 */

export { MAX_TRIALS, MAX_SEED, DEFAULT_TRIALS, DEFAULT_SEED, DEFAULT_MAX_TRIALS };
export const MAX_WORKERS = 64;

export interface SimFlags {
  readonly trials: number;
  readonly seed: number;
  readonly workers: number;
  /** Present when --precision was given: simulate in rounds until it is reached or maxTrials is. */
  readonly precision?: number;
  readonly maxTrials: number;
}

const GROUP = 'Simulation:';

export function addSimOptions<T>(y: Argv<T>, { precision }: { precision: boolean }): Argv<T> {
  let out = y
    // Defaults are applied in parseSimFlags, not by yargs, which would also substitute them for a bare
    // `--trials` with its value forgotten.
    .option('trials', {
      type: 'string',
      describe: 'Trials to simulate, a whole number up to 1e12 (1e7 notation is fine)',
      defaultDescription: '1e6',
      group: GROUP,
    })
    .option('seed', { type: 'string', describe: 'Seed: the same seed and trials give the same numbers on any machine', defaultDescription: '1', group: GROUP })
    .option('workers', { ...workersOptionDeclaration(), group: GROUP }) as Argv<T>;
  if (precision) {
    out = out
      .option('precision', {
        type: 'string',
        describe: "Simulate until every outcome's 95% interval is within +- this (e.g. 0.001); overrides --trials",
        group: GROUP,
      })
      .option('max-trials', { type: 'string', describe: 'Upper limit on trials for --precision', defaultDescription: '1e9', group: GROUP }) as Argv<T>;
  }
  return out;
}

/**
 * `--workers N` as the commands that run worker threads declare it (simulate's and price's): a function,
 * since its default is this machine's cores.
 */
export function workersOptionDeclaration() {
  return {
    type: 'string',
    describe: `Worker threads, 1 to ${MAX_WORKERS}; more than the cores are capped to them (default: the number of cores, ${defaultWorkers()})`,
  } as const;
}

/** --workers, checked: the cores when it is not given, capped to them (with a note) when it asks for more. */
export function workersOf(argv: Record<string, unknown>): number {
  return argv.workers === undefined ? defaultWorkers() : capWorkers(wholeNumber(single(argv, 'workers'), '--workers', 1, MAX_WORKERS, `a whole number from 1 to ${MAX_WORKERS}`));
}

/** Reads and checks the simulation flags; a bad value is a UsageError naming the flag, value and range. */
export function parseSimFlags(argv: Record<string, unknown>): SimFlags {
  const trials = argv.trials === undefined ? DEFAULT_TRIALS : parseTrials(single(argv, 'trials'), '--trials');
  const seed = argv.seed === undefined ? DEFAULT_SEED : parseSeed(single(argv, 'seed'), '--seed');
  const workers = workersOf(argv);
  const maxTrials =
    argv['max-trials'] === undefined ? DEFAULT_MAX_TRIALS : wholeNumber(single(argv, 'max-trials'), '--max-trials', 1, MAX_TRIALS, 'a whole number from 1 to 1e12 (such as 1e9)');
  if (argv.precision === undefined) return { trials, seed, workers, maxTrials };
  const text = single(argv, 'precision');
  const precision = parseDecimal(text);
  if (precision === undefined || !(precision > 0 && precision < 0.5)) {
    throw notAllowed('--precision', text, 'a number above 0 and below 0.5 (such as 0.001)');
  }
  return { trials, seed, workers, precision, maxTrials };
}

/**
 * Notes about flags that were given but adjusted, shown once a run starts (withRunControls takes
 * them), so a command refused for another reason still prints only its one error line.
 */
const pendingNotes = new Set<string>();

export function takeSimNotes(): string[] {
  const notes = [...pendingNotes];
  pendingNotes.clear();
  return notes;
}

/**
 * More threads than cores only costs time and memory (64 on 2 cores: 7x slower, 1.2 GB), and a seed's
 * numbers are the same on any worker count, so the CLI uses the cores and says so. The library
 * (simulate's `workers`) is not capped: it does what it is asked, and reports it.
 */
export function capWorkers(requested: number, cores: number = defaultWorkers()): number {
  if (requested <= cores) return requested;
  pendingNotes.add(`--workers ${requested} is more than this machine's ${cores} core${cores === 1 ? '' : 's'}; using ${cores}`);
  return cores;
}

function single(argv: Record<string, unknown>, flag: string): unknown {
  const value = argv[flag];
  if (Array.isArray(value)) throw refusal(`--${flag}`, `given more than once (${value.map(showValue).join(', ')})`, 'give it once');
  return value;
}
