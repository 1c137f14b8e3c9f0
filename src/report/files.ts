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
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Temporary folders being written, removed if the process is interrupted: a report folder appears
 * complete or not at all, never half-written.
 */
const pendingDirs = new Set<string>();
let hooked = false;

function removePending(): void {
  for (const d of pendingDirs) rmSync(d, { recursive: true, force: true });
  pendingDirs.clear();
}

export function trackTempDir(dir: string): void {
  pendingDirs.add(dir);
  if (!hooked) {
    hooked = true;
    process.on('exit', removePending);
  }
}

export function untrackTempDir(dir: string): void {
  pendingDirs.delete(dir);
}

/**
 * Fills a folder by writing everything into a temporary sibling and renaming it into place at the end.
 * An existing folder of that name is replaced only once the new one is complete; on any error the
 * temporary folder is removed and the old folder, if any, is left as it was.
 */
export async function writeDirAtomic(target: string, fill: (dir: string) => Promise<void> | void): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  const tmp = siblingTemp(target, 'writing');
  trackTempDir(tmp);
  try {
    mkdirSync(tmp);
    await fill(tmp);
    const old = siblingTemp(target, 'old');
    let moved = false;
    try {
      renameSync(target, old);
      moved = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    renameSync(tmp, target);
    if (moved) rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    untrackTempDir(tmp);
  }
}
