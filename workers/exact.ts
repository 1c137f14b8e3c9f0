import { UsageError } from '../src/errors.js';
import { duelChancesOf, evaluateParsed } from '../src/exact-result.js';
import type { DuelsReply, ExactReply } from '../src/pool/exact.js';
import type { Scenario } from '../src/model/types.js';

/**
 * The exact engine in a worker thread: one scenario, already parsed by the main thread, solved here so
 * that the main thread stays free to hear Ctrl-C (a heavy solve takes a minute) and both cores solve
 * cells side by side. A UsageError does not survive the trip between threads as itself, so it travels
 * as its message.
 */
export function evaluateCell(scenario: Scenario): ExactReply {
  try {
    return { result: evaluateParsed(scenario) };
  } catch (e) {
    if (e instanceof UsageError) return { usageError: e.message };
    throw e;
  }
}

/**
 * A queue job's duels (src/queue/worker.ts), solved one after another on this thread: only their chances
 * go back, and a duel the engine refuses is named by its place in the batch.
 */
export function solveDuels(scenarios: readonly Scenario[]): DuelsReply {
  const chances = [];
  for (const [duel, scenario] of scenarios.entries()) {
    try {
      chances.push(duelChancesOf(evaluateParsed(scenario)));
    } catch (e) {
      if (e instanceof UsageError) return { usageError: e.message, duel };
      throw e;
    }
  }
  return { chances };
}
