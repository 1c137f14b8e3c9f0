/**
 * The file piscina loads in each worker thread. It is CommonJS on purpose: piscina loads its worker
 * with require() first, and in Node 20 a require() of an ES module that is stopped half-way (a pool
 * destroyed while its threads still load, as on Ctrl-C) can abort the whole process with
 * "FATAL ERROR: v8::Module::IsGraphAsync" instead of an error. This file loads the real workers with
 * import(), which never takes that path; each is loaded once per thread, when first asked for.
 */
import type { Scenario } from '../src/model/types.js';
import type { ChunkTask } from '../src/sim/protocol.js';

type SimWorker = typeof import('./simulate.js');
type ExactWorker = typeof import('./exact.js');
let simWorker: Promise<SimWorker> | undefined;
let exactWorker: Promise<ExactWorker> | undefined;

async function runChunks(task: ChunkTask): Promise<ReturnType<SimWorker['runChunks']>> {
  simWorker ??= import('./simulate.js');
  return (await simWorker).runChunks(task);
}

async function evaluateCell(scenario: Scenario): Promise<ReturnType<ExactWorker['evaluateCell']>> {
  exactWorker ??= import('./exact.js');
  return (await exactWorker).evaluateCell(scenario);
}

async function solveDuels(scenarios: Scenario[]): Promise<ReturnType<ExactWorker['solveDuels']>> {
  exactWorker ??= import('./exact.js');
  return (await exactWorker).solveDuels(scenarios);
}

module.exports = { runChunks, evaluateCell, solveDuels };
