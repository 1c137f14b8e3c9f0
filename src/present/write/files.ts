import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A temporary name next to `path` (same folder, so the final rename stays on one file system). */
export function siblingTemp(path: string, tag: string): string {
  return join(dirname(path), `.${basename(path)}.${tag}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
}

/** Writes a file whole or not at all: to a temporary sibling first, then renamed over the target. */
export function writeFileAtomic(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = siblingTemp(path, 'tmp');
  try {
    writeFileSync(tmp, text, { flag: 'wx' });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
