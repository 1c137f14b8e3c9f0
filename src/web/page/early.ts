/**
 * Starts the answer's worker as soon as the page's head is read, before the page's own script is. Both
 * bundle the same engine and each parses it: started from page.js, the worker began only once the page
 * had parsed its copy, one after the other; started here, a machine with two cores parses both at once
 * and the first answer comes that much sooner. workers.ts hands this worker to the first panel asking.
 */
import { EARLY_WORKER } from './protocol.js';

(globalThis as Record<string, unknown>)[EARLY_WORKER] = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
