import { basename, extname } from 'node:path';
import { refusal } from '../messages.js';
import { parseScenario } from '../input/scenario.js';
import type { FieldValue } from '../model/types.js';
import type { ExactSolver } from '../exact-result.js';
import type { ChunkPlayer } from '../pool/simulate.js';
import { computeCell, solveAllOnThreads, type SimPlan } from './sweep.js';
import { checkComparable, compareCells, type CompareInput, type CompareResult } from './compare-core.js';

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

/** Evaluates and compares the scenarios; every one is validated before anything is computed. */
export async function compareScenarios(inputs: readonly CompareInput[], opts: { exact?: boolean; sim?: SimPlan; signal?: AbortSignal; allowMixed?: boolean; player?: ChunkPlayer; solver?: ExactSolver } = {}): Promise<CompareResult> {
  if (inputs.length < 2) throw refusal('compare', 'give at least two scenario files');
  const planned = inputs.map((input, index) => {
    const scenario = parseScenario(input.raw, input.file);
    return { index, point: [index], labels: [input.name], assignment: {} as Record<string, FieldValue>, scenario };
  });
  checkComparable(
    planned.map((p) => ({ file: inputs[p.index]!.file, scenario: p.scenario })),
    opts.allowMixed,
  );
  const scenarios: CompareResult['scenarios'][number][] = [];
  const exacts = (opts.exact ?? true) ? solveAllOnThreads(planned.map((p) => p.scenario), opts.signal, opts.solver) : [];
  for (const p of planned) {
    // The same seeds for every scenario: common random numbers, as in a sweep.
    const cell = await computeCell(p, await exacts[p.index], opts.sim, opts.sim?.seed ?? 0, opts.signal, opts.player);
    scenarios.push({ name: inputs[p.index]!.name, file: inputs[p.index]!.file, cell });
  }
  return compareCells(scenarios, opts.sim);
}
