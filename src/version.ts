/**
 * injury-lab's version, as package.json declares it: outputs' manifests and CSV columns carry it. Read
 * by a JSON import rather than from the file at run time, so the engine bundles for a browser (no
 * node:fs) with the very number the CLI prints. tsc emits a copy of package.json into dist/ for it
 * (src/project.ts does not take that copy for the project root).
 */
import pkg from '../package.json' with { type: 'json' };

export const toolVersion: string = pkg.version;
