/**
 * What `npm test` runs before vitest: dist/ built from the sources with every type checked, and the web
 * page bundled. The two compiler runs (everything but the page, tests included, with Node's types; the
 * page with the DOM's) share nothing, so they run at once, one per core, instead of one after the other.
 * Declarations are not written: nothing a test runs reads them, and `npm run build` (what a user runs)
 * still writes them. Plain JavaScript, as it runs before anything is compiled.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// TypeScript 7 exports no bin/ path: its compiler is found beside its package.json.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');

/** A command's exit code, its output passed through as it comes. */
const run = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const codes = await Promise.all([run([tsc, '-p', 'tsconfig.json', '--noEmit', 'false', '--declaration', 'false']), run([tsc, '-p', 'tsconfig.web.json'])]);
if (codes.some((c) => c !== 0)) process.exit(1);
process.exit(await run(['dist/scripts/build-web.js']));
