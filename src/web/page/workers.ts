/**
 * The page's Web Workers (worker.ts): each panel starts its own (the answer's, the simulation's pool,
 * the grid's), and each gets the files the user opened before its first request.
 */
import type { WorkerRequest } from './protocol.js';

const workerUrl = new URL('./worker.js', import.meta.url);

/** The files the user opened, by name; every worker gets them before its first request. */
export const shelf = new Map<string, Uint8Array>();

export function newWorker(): Worker {
  const w = new Worker(workerUrl, { type: 'module' });
  if (shelf.size) post(w, { type: 'files', id: 0, files: [...shelf], describe: false });
  return w;
}

export function post(w: Worker, req: WorkerRequest): void {
  w.postMessage(req);
}
