/**
 * injury-lab as a library: validate a scenario, evaluate it exactly, simulate it, cross-check the two.
 *
 *   import { evaluateExact, parseScenario, simulate, crossCheck, closePool } from 'injury-lab';
 *   const exact = evaluateExact({ kind: 'attack', armour: 'machine', injuryDice: 1 });
 *   const run = await simulate(parseScenario({ kind: 'attack' }), { trials: 1e6, seed: 1 });
 *   await closePool();
 */
export { evaluateExact, type ExactResult, type ExactOutcome, type ExactValue, type Manifest } from './evaluate.js';
export { exactJson } from './present/tables/exact-json.js';
export { parseScenario, readScenarioFile, scenarioJsonSchema } from './input/scenario.js';
export type { Scenario, ExactAnswer, ReportLayout, KindSpec, SystemSpec, FieldSpec, SimKernel } from './model/types.js';
export { systems, findSystem } from './rules/registry.js';
export { simulate, simulateToPrecision, closePool, type SimRun, type PrecisionRun } from './pool/simulate.js';
export { summarize, crossCheck, wilson, type CrossCheckReport, type SimSummary } from './stats/index.js';
export { Dist } from './exact/dist.js';
export { keepDice, type KeepMode } from './exact/keep.js';
export { type Fraction, formatFraction, toNumber } from './exact/fraction.js';
export { UsageError } from './errors.js';
