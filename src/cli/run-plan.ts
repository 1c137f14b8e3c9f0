import { refusal } from '../messages.js';
import { noExactAnswer } from '../rules/exact-kinds.js';
import { kindSpecOf } from './sweep-options.js';
import { rawScenarioFromArgv } from './options.js';

/**
 * Refuses `--no-exact` without a simulation: the command would print an empty table and exit 0.
 * Shared by `compare` and `sweep`, which both simulate only when --trials or --precision is given.
 */
export function requireSomethingToCompute(exact: boolean, sim: unknown, command: string): void {
  if (!exact && !sim) throw refusal('', `--no-exact needs --trials or --precision: ${command} would have nothing to compute`);
}

/** Refuses, before its warbands are read, an exact answer to a kind that is simulated only (a battle): `exact` and `check`. */
export function requireExactKind(argv: Readonly<Record<string, unknown>>): void {
  const kind = kindSpecOf(rawScenarioFromArgv(argv, argv.scenario), typeof argv.scenario === 'string' ? argv.scenario : '');
  if (!kind.exact) throw noExactAnswer(kind.id);
}
