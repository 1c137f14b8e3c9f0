import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's globalSetup: every temporary file of a run (the tests' folders, the CLI's, Redis's and
 * Chromium's) goes under one folder of its own, made before any test file starts (TMPDIR, which the forks
 * and every process they start inherit) and removed once the run ends: a run used to leave some 240
 * folders in the machine's temporary folder. Each project of vitest.config.ts runs this setup, in the one
 * main process: the first makes the folder, and the last to end removes it, never while another still
 * runs. Its name is short, as the CLI prints the paths of files the tests write there.
 */
const shared = globalThis as typeof globalThis & { injuryLabTempRoot?: { root: string; previous: string | undefined; users: number } };

export function setup(): () => void {
  if (!shared.injuryLabTempRoot) {
    const previous = process.env.TMPDIR;
    shared.injuryLabTempRoot = { root: mkdtempSync(join(tmpdir(), 'il-')), previous, users: 0 };
    process.env.TMPDIR = shared.injuryLabTempRoot.root;
  }
  shared.injuryLabTempRoot.users++;
  return () => {
    const run = shared.injuryLabTempRoot;
    if (!run || --run.users > 0) return;
    if (run.previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = run.previous;
    rmSync(run.root, { recursive: true, force: true });
    delete shared.injuryLabTempRoot;
  };
}
