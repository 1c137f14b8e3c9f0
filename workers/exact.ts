import { UsageError } from '../src/errors.js';
import { evaluateParsed } from '../src/exact-result.js';
import type { ExactReply } from '../src/pool/exact.js';
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
