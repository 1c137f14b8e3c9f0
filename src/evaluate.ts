import { parseScenario } from './input/scenario.js';
import type { Scenario } from './model/types.js';
import { evaluateParsed, type ExactResult } from './exact-result.js';

export { evaluateParsed, manifestFor, value, type ExactOutcome, type ExactResult, type ExactValue, type Manifest } from './exact-result.js';

/** Evaluates a scenario exactly. Accepts raw fields (validated here) or an already validated scenario. */
export function evaluateExact(input: Scenario | Record<string, unknown>): ExactResult {
  return evaluateParsed(parseScenario(input));
}
