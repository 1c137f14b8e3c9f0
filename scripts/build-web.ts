/**
 * Builds the web page into dist/web/: page.js (the form and the results), worker.js (exact answers and
 * simulated chunks) and early.js (starts the answer's worker before page.js loads), each one bundle of the
 * project's own TypeScript with everything it imports, so the page needs no network at any point. esbuild,
 * not Vite: one fast binary that bundles TypeScript for the browser is all a static page of three entry
 * points needs; a dev server and rollup would be dead weight.
 *
 * The engine is the CLI's own code. A Node module reaching the bundle would mean the page runs code it
 * cannot (a file read, a thread pool): the build fails on any `node:` import instead of shimming it.
 */
import { build, type Metafile } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const source = join(root, 'src', 'web', 'page');
export const WEB_DIR = join(root, 'dist', 'web');

/** The inputs of a bundle that are Node's own modules: none may be. */
export function nodeInputs(meta: Metafile): string[] {
  const out: string[] = [];
  for (const input of Object.values(meta.inputs)) for (const i of input.imports) if (i.path.startsWith('node:') || i.external) out.push(i.path);
  return out;
}

export interface WebBuild {
  readonly files: readonly { name: string; bytes: number; gzipBytes: number }[];
}

export async function buildWeb(outDir = WEB_DIR): Promise<WebBuild> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: { early: join(source, 'early.ts'), page: join(source, 'page.ts'), worker: join(source, 'worker.ts') },
    outdir: outDir,
    bundle: true,
    // The chart's libraries (vega-embed with vega and vega-lite) load in their own chunk, after the form.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const leaked = nodeInputs(result.metafile);
  if (leaked.length) throw new Error(`the web bundle imports Node modules: ${[...new Set(leaked)].join(', ')}`);
  copyFileSync(join(source, 'index.html'), join(outDir, 'index.html'));
  copyFileSync(join(source, 'page.css'), join(outDir, 'page.css'));
  writeFileSync(join(outDir, 'meta.json'), JSON.stringify(result.metafile));
  const files = loadedFiles(outDir).map((name) => {
    const bytes = readFileSync(join(outDir, name));
    return { name, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  return { files };
}

/** Whether a visit loads this file of dist/web (the page, its styles and scripts and their chunks), not only someone reading it (maps, licences, the metafile). */
export function isLoaded(name: string): boolean {
  return name === 'index.html' || name === 'page.css' || /\.js$/.test(name);
}

/** Every file of `dir` a visit loads, by path relative to it ("chunks/embed-X.js"), in name order. */
export function loadedFiles(dir: string): string[] {
  return allFiles(dir).filter(isLoaded);
}

/** Every file under `dir`, by path relative to it, in name order. */
export function allFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { files } = await buildWeb();
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const total = files.reduce((n, f) => n + f.gzipBytes, 0);
  const raw = files.reduce((n, f) => n + f.bytes, 0);
  process.stdout.write(`web page: ${WEB_DIR} (${files.length} files a visit loads: ${kb(raw)}, ${kb(total)} gzipped)\n`);
}
