import { basename, extname } from 'node:path';
import { parseScenario } from '../input/scenario.js';
import type { ExactSolver } from '../exact-result.js';
import type { ChunkPlayer } from '../pool/simulate.js';
import { cliRunners, compareWith, type SimPlan } from './sweep.js';
import type { CompareInput, CompareResult } from './compare-core.js';

/**
 * Comparisons as the CLI runs them: scenarios parsed with their files read from disk, their exact answers
 * solved in worker threads and simulated on the pool, then compared by src/analysis/compare-core.ts
 * (which reads no file and runs nothing, so the web page bundles it). Everything of compare-core is
 * exported from here too.
 */
export * from './compare-core.js';

/** Names for the scenarios: their `name` field, else the file name; "a", "b" stay short in verdicts. */
export function scenarioName(raw: Record<string, unknown>, file: string): string {
  return typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name : basename(file, extname(file));
}

/** Evaluates and compares the scenarios, parsed from disk, on the CLI's threads unless a player and a solver are given; every one is validated before anything is computed. */
export function compareScenarios(inputs: readonly CompareInput[], opts: { exact?: boolean; sim?: SimPlan; signal?: AbortSignal; allowMixed?: boolean; player?: ChunkPlayer; solver?: ExactSolver } = {}): Promise<CompareResult> {
  return compareWith(inputs, (input) => parseScenario(input.raw, input.file), opts, cliRunners(opts, opts.sim?.workers));
}
