import type { Argv } from 'yargs';
import { showValue } from '../errors.js';
import { notAllowed, refusal } from '../messages.js';
import { DEFAULT_BATCHES, MAX_BATCHES, type SimPlan } from '../analysis/sweep.js';
import { SIMULATED_ONLY_TRIALS } from '../analysis/cells.js';
import type { Dimension } from '../analysis/dimensions.js';
import { coerceFlagValue, kebab, scenarioSystemAndKind } from '../input/scenario.js';
import { sideFromText } from '../input/sides.js';
import { sidePath } from '../analysis/dimension-core.js';
import { parseSimFlags } from './sim-options.js';
import type { KindSpec } from '../model/types.js';
import { addQueueOption } from './queue-option.js';

/**
 * Flags shared by `sweep` and `compare`: simulation (only when --trials or --precision is given, since
 * the exact answer needs none), the batches behind the intervals of differences, and --out.
 */
const GROUP = 'Simulation (optional):';

export function addSweepSimOptions<T>(y: Argv<T>): Argv<T> {
  return addQueueOption(y, GROUP)
    .option('trials', { type: 'string', describe: 'Also simulate, with this many trials per scenario (1e5 notation is fine)', group: GROUP })
    .option('precision', { type: 'string', describe: "Also simulate, until every outcome's 95% interval is within +- this (e.g. 0.002)", group: GROUP })
    .option('max-trials', { type: 'string', describe: 'Upper limit on trials per scenario for --precision', default: '1e8', group: GROUP })
    .option('seed', { type: 'string', describe: 'Seed; every scenario uses the same seeds (common random numbers)', default: '1', group: GROUP })
    .option('workers', { type: 'string', describe: 'Worker threads (default: the number of cores)', group: GROUP })
    .option('batches', {
      type: 'string',
      describe: `Split each scenario's trials into this many runs (seeds seed..seed+batches-1), 1 to ${MAX_BATCHES}; paired batches give the intervals of differences between scenarios`,
      default: String(DEFAULT_BATCHES),
      group: GROUP,
    }) as Argv<T>;
}

/** `--out FILE` and `--force`, as `sweep` and `compare` write a file: whole or not at all, never over a file unasked. */
export function addFileOutOptions<T>(y: Argv<T>): Argv<T> {
  return y
    .option('out', { type: 'string', describe: 'Write to this file instead of stdout (whole or not at all); an existing file is refused unless --force' })
    .option('force', { type: 'boolean', describe: 'Replace an existing --out file (a link is written through, never replaced)', default: false }) as Argv<T>;
}

/** The simulation plan the flags ask for, or undefined when they ask for exact answers only. */
export function simPlanFromArgv(argv: Record<string, unknown>): SimPlan | undefined {
  const wanted = argv.trials !== undefined || argv.precision !== undefined;
  const flags = parseSimFlags({ ...argv, trials: argv.trials ?? '1' });
  const batchesText = argv.batches;
  const batches = Number(batchesText);
  if (typeof batchesText !== 'string' || !/^\s*\d+\s*$/.test(batchesText) || batches < 1 || batches > MAX_BATCHES) {
    throw notAllowed('--batches', batchesText, `a whole number from 1 to ${MAX_BATCHES}`);
  }
  if (!wanted) return undefined;
  if (flags.precision === undefined && flags.trials < batches) {
    throw refusal('--trials', `${showValue(argv.trials)} is fewer than --batches ${batches}`, 'allowed: at least one trial per batch');
  }
  return {
    ...(flags.precision !== undefined ? { precision: flags.precision, maxTrials: flags.maxTrials } : { trials: flags.trials }),
    seed: flags.seed,
    batches,
    workers: flags.workers,
  };
}

/**
 * Refuses a field given as a flag and varied too (`--defence 5 --vary defence=1..20`): the flag would be
 * silently ignored. The same words as `sweep`'s own check.
 */
export function refuseVariedFieldFlags(argv: Readonly<Record<string, unknown>>, base: Readonly<Record<string, unknown>>, dims: readonly Dimension[]): void {
  const { system, kind } = scenarioSystemAndKind(base);
  const sides = system.kinds.find((k) => k.id === kind)?.sides;
  for (const d of dims) {
    for (const f of d.fields) {
      if (argv[f] !== undefined) throw refusal(`--${kebab(f)} ${String(base[f])}`, `the field is also varied (--vary ${d.id})`, 'give it one way');
      // A side's field given in its side's flag (--a policy=injury) and varied too (a.policy).
      const path = sides && d.side === undefined ? sidePath(f, sides.keys) : undefined;
      for (const side of path?.sides ?? []) {
        const flag = argv[side];
        if (typeof flag !== 'string' || sideFromText(flag, sides!.fields, `--${side}`, coerceFlagValue)[path!.field] === undefined) continue;
        throw refusal(`--${side} ${path!.field}=${String((base[side] as Record<string, unknown>)[path!.field])}`, `the field is also varied (--vary ${d.id})`, 'give it one way');
      }
    }
  }
}

/**
 * What a sweep or comparison computes for scenarios of `kind`: as asked, or for a kind with no exact
 * answer (a battle), the simulation alone, SIMULATED_ONLY_TRIALS a scenario where none was asked, said on
 * stderr. Refuses nothing: a battle swept as a duel would be is a question it answers.
 */
export function computedFor(kind: KindSpec, argv: Record<string, unknown>, exact: boolean, sim: SimPlan | undefined): { readonly exact: boolean; readonly sim: SimPlan | undefined } {
  if (kind.exact) return { exact, sim };
  if (sim) return { exact: false, sim };
  const planned = simPlanFromArgv({ ...argv, trials: String(SIMULATED_ONLY_TRIALS) });
  process.stderr.write(`injury-lab: a ${kind.id} has no exact answer: each scenario is simulated, ${SIMULATED_ONLY_TRIALS.toLocaleString('en-US')} trials (--trials or --precision for another number)\n`);
  return { exact: false, sim: planned };
}

/** The kind a raw scenario is of (its system's default kind where it names none). */
export function kindSpecOf(raw: Readonly<Record<string, unknown>>, origin = ''): KindSpec {
  const { system, kind } = scenarioSystemAndKind(raw, origin);
  return system.kinds.find((k) => k.id === kind)!;
}
