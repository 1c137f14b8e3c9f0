import { refusal } from '../messages.js';

/**
 * Refuses `--no-exact` without a simulation: the command would print an empty table and exit 0.
 * Shared by `compare` and `sweep`, which both simulate only when --trials or --precision is given.
 */
export function requireSomethingToCompute(exact: boolean, sim: unknown, command: string): void {
  if (!exact && !sim) throw refusal('', `--no-exact needs --trials or --precision: ${command} would have nothing to compute`);
}
