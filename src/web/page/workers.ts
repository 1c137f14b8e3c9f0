/**
 * The page's Web Workers (worker.ts): each panel starts its own (the answer's, the simulation's pool,
 * the grid's), and each gets the files the user opened before its first request.
 */
import { EARLY_WORKER, type WorkerRequest } from './protocol.js';

const workerUrl = new URL('./worker.js', import.meta.url);

/** The files the user opened, by name; every worker gets them before its first request. */
export const shelf = new Map<string, Uint8Array>();

/** The worker early.ts started while the page's script loaded, taken by the first panel asking (the answer's). */
function earlyWorker(): Worker | undefined {
  const scope = globalThis as Record<string, unknown>;
  const w = scope[EARLY_WORKER];
  delete scope[EARLY_WORKER];
  return w instanceof Worker ? w : undefined;
}

export function newWorker(): Worker {
  const w = earlyWorker() ?? new Worker(workerUrl, { type: 'module' });
  if (shelf.size) post(w, { type: 'files', id: 0, files: [...shelf], describe: false });
  return w;
}

export function post(w: Worker, req: WorkerRequest): void {
  w.postMessage(req);
}
