/**
 * The file piscina loads in each worker thread. It is CommonJS on purpose: piscina loads its worker
 * with require() first, and in Node 20 a require() of an ES module that is stopped half-way (a pool
 * destroyed while its threads still load, as on Ctrl-C) can abort the whole process with
 * "FATAL ERROR: v8::Module::IsGraphAsync" instead of an error. This file loads the real worker,
 * simulate.js, with import(), which never takes that path; it is loaded once per thread.
 */
import type { ChunkTask } from '../src/sim/protocol.js';

type Worker = typeof import('./simulate.js');
let worker: Promise<Worker> | undefined;

async function runChunks(task: ChunkTask): Promise<ReturnType<Worker['runChunks']>> {
  worker ??= import('./simulate.js');
  return (await worker).runChunks(task);
}

module.exports = { runChunks };
