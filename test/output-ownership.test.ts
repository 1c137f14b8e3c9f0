import { lstatSync, mkdirSync, rmSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutputFile, writeOutputFile } from '../src/present/write/output-file.js';
import { claimBatchFolder, claimReportFolder, OWNERSHIP_FILE } from '../src/present/write/output-folder.js';
import { cliInProcess } from './helpers/cli-in-process.js';
import { refusal } from './helpers/refusal.js';

/**
 * Issue 21, data loss: only the exact names injury-lab writes are injury-lab's, --force never removes a
 * file of the user's, and a file output never replaces a file, a link or a device unasked. Each case
 * checks, after a refusal, that every file is byte for byte what it was. The claims run in this process
 * (a report that renders charts is not needed to test what a folder may hold).
 */

const temp = (tag: string) => mkdtempSync(join(tmpdir(), `injury-lab-own-${tag}-`));

/** Every file and link under `dir` with its content (a link by its target): what a refusal must leave as it was. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name);
    const key = path.slice(dir.length + 1);
    if (e.isSymbolicLink()) out[key] = `-> ${readlinkSync(path)}`;
    else out[key] = e.isFile() ? readFileSync(path, 'utf8') : '<folder>';
  }
  return out;
}

/** An earlier report, written the way every report is: a claim, then its contents swapped in. */
async function earlierReport(out: string): Promise<void> {
  const claim = claimReportFolder(out);
  try {
    await claim.replace((d) => {
      writeFileSync(join(d, 'index.html'), '<p>report</p>');
      mkdirSync(join(d, 'charts'));
      writeFileSync(join(d, 'charts', 'a.svg'), '<svg/>');
    });
  } finally {
    claim.release();
  }
}

/** Whether a second report run may replace the folder: the claim it makes, granted and released. */
function claimOf(out: string, force = false): string {
  return refusal(() => claimReportFolder(out, { force }).release());
}

describe('a report folder: only the exact names injury-lab writes are its own', () => {
  it('the ownership file records every file with its SHA-256', async () => {
    const out = join(temp('sha'), 'out');
    await earlierReport(out);
    const own = JSON.parse(readFileSync(join(out, OWNERSHIP_FILE), 'utf8'));
    expect(own.files).toEqual(['charts/a.svg', 'index.html']);
    // Computed apart: `printf '<p>report</p>' | sha256sum`.
    expect(own.sha256['index.html']).toBe('93aeea0c693969439a2849182734bf191b3426ff0c02e0b98618274496fb398d');
    expect(claimOf(out)).toBe('accepted');
  });

  it('a file of the user whose name starts with .injury-lab is the user\'s: the folder is refused, --force or not', async () => {
    const dir = temp('notes');
    const out = join(dir, 'out');
    await earlierReport(out);
    writeFileSync(join(out, '.injury-lab-notes.txt'), 'my notes');
    const before = snapshot(dir);
    expect(claimOf(out)).toMatch(/holds files injury-lab did not write \(such as "\.injury-lab-notes\.txt"\)/);
    expect(claimOf(out, true)).toMatch(/holds files injury-lab did not write \(such as "\.injury-lab-notes\.txt"\)/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('a folder holding only .injury-labrc/settings is not empty', () => {
    const dir = temp('rc');
    const out = join(dir, 'out');
    mkdirSync(join(out, '.injury-labrc'), { recursive: true });
    writeFileSync(join(out, '.injury-labrc', 'settings'), 'colour=on');
    const before = snapshot(dir);
    expect(claimOf(out, true)).toMatch(/such as "\.injury-labrc(\/settings)?"/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('an ownership file, a lock or a run folder that injury-lab did not write is the user\'s', async () => {
    for (const [name, make] of [
      [OWNERSHIP_FILE, (p: string) => writeFileSync(p, '{"mine": true}')],
      ['.injury-lab.lock', (p: string) => writeFileSync(p, 'remember the milk')],
      ['.injury-lab-writing-draft', (p: string) => (mkdirSync(p), writeFileSync(join(p, 'a.txt'), 'mine'))],
      ['.injury-lab-old-12', (p: string) => writeFileSync(p, 'a file, not a run folder')],
    ] as const) {
      const dir = temp('names');
      const out = join(dir, 'out');
      mkdirSync(out);
      make(join(out, name));
      const before = snapshot(dir);
      expect(claimOf(out, true), name).toMatch(/did not write/);
      expect(snapshot(dir), name).toEqual(before);
    }
  });

  it('an ownership file listing the user\'s file by name, with a SHA-256 that does not match, is refused without --force', async () => {
    const dir = temp('edited');
    const out = join(dir, 'out');
    await earlierReport(out);
    writeFileSync(join(out, 'index.html'), '<p>report</p><p>my annotations</p>');
    const before = snapshot(dir);
    expect(claimOf(out)).toBe(`--out: "${out}" is an earlier report, but "index.html" was changed since injury-lab wrote it; name another folder, or add --force to replace the report with its changes`);
    expect(snapshot(dir)).toEqual(before);
    // --force: the designer says the changes may go; it is still their own report's files only.
    expect(claimOf(out, true)).toBe('accepted');
  });

  it('a listed name that is now a link or a folder is not the report\'s file', async () => {
    const dir = temp('swapped');
    const out = join(dir, 'out');
    await earlierReport(out);
    writeFileSync(join(dir, 'thesis.txt'), 'three years of work');
    const index = join(out, 'index.html');
    // The user replaced the page by a link to their own file: the link is theirs.
    rmSync(index);
    symlinkSync(join(dir, 'thesis.txt'), index);
    expect(claimOf(out, true)).toMatch(/such as "index\.html"/);
    expect(readFileSync(join(dir, 'thesis.txt'), 'utf8')).toBe('three years of work');
  });

  it('report --force over a folder that was never a report is refused, and the folder is as it was', async () => {
    const dir = temp('userdir');
    const out = join(dir, 'userdir');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const before = snapshot(dir);
    const r = await cliInProcess('report', 'reports/trench-falls.json', '--out', out, '--force');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/holds files injury-lab did not write \(such as "notes\.txt"\)/);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('a batch folder (--all): its index page is replaced only when injury-lab wrote it', () => {
  it('an index page changed since it was written needs --force; one never written by injury-lab is refused with it', () => {
    const out = join(temp('batch'), 'out');
    const first = claimBatchFolder(out);
    first.writeIndex('<title>injury-lab reports</title>');
    first.release();
    expect(refusal(() => claimBatchFolder(out).release())).toBe('accepted');
    writeFileSync(join(out, 'index.html'), '<title>injury-lab reports</title> and my notes');
    expect(refusal(() => claimBatchFolder(out).release())).toMatch(/index\.html" was changed since injury-lab wrote it; name another folder, or add --force/);
    expect(refusal(() => claimBatchFolder(out, { force: true }).release())).toBe('accepted');
    // An ownership file of the user's in the batch folder.
    writeFileSync(join(out, OWNERSHIP_FILE), '{"mine": true}');
    expect(refusal(() => claimBatchFolder(out, { force: true }).release())).toMatch(/is not the ownership file of a batch of reports/);
    expect(readFileSync(join(out, OWNERSHIP_FILE), 'utf8')).toBe('{"mine": true}');
  });
});

describe('sweep and compare --out FILE: an existing file, a link or a device is never replaced unasked', () => {
  it('an existing file is refused without --force, and replaced with it', () => {
    const dir = temp('exists');
    const file = join(dir, 'grid.csv');
    writeFileSync(file, 'my spreadsheet');
    expect(refusal(() => checkOutputFile(file))).toBe(`--out: "${file}" already exists; name a new file, or add --force to replace it`);
    expect(readFileSync(file, 'utf8')).toBe('my spreadsheet');
    expect(refusal(() => checkOutputFile(file, [], '--out', true))).toBe('accepted');
    writeOutputFile(file, 'a,b\n', '--out', true);
    expect(readFileSync(file, 'utf8')).toBe('a,b\n');
    expect(readdirSync(dir)).toEqual(['grid.csv']);
  });

  it('a file that appears between the check and the write is not replaced', () => {
    const dir = temp('appears');
    const file = join(dir, 'grid.csv');
    checkOutputFile(file);
    writeFileSync(file, 'written meanwhile');
    expect(refusal(() => writeOutputFile(file, 'a,b\n'))).toMatch(/appeared while the run went on/);
    expect(readFileSync(file, 'utf8')).toBe('written meanwhile');
    expect(readdirSync(dir)).toEqual(['grid.csv']);
  });

  it('a link to a file is written through with --force: the link stays a link', () => {
    const dir = temp('link');
    writeFileSync(join(dir, 'real.csv'), 'old');
    symlinkSync(join(dir, 'real.csv'), join(dir, 'my-link.csv'));
    expect(refusal(() => checkOutputFile(join(dir, 'my-link.csv')))).toMatch(/already exists/);
    checkOutputFile(join(dir, 'my-link.csv'), [], '--out', true);
    writeOutputFile(join(dir, 'my-link.csv'), 'new', '--out', true);
    expect(lstatSync(join(dir, 'my-link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.csv'), 'utf8')).toBe('new');
    expect(readdirSync(dir).sort()).toEqual(['my-link.csv', 'real.csv']);
  });

  it('a link to a device, a device, and a broken link are refused, --force or not, and left as they were', () => {
    const dir = temp('device');
    symlinkSync('/dev/null', join(dir, 'my-null'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'broken'));
    const before = snapshot(dir);
    for (const force of [false, true]) {
      expect(refusal(() => checkOutputFile(join(dir, 'my-null'), [], '--out', force))).toMatch(/is not a regular file \(a device, a pipe or a socket\)/);
      expect(refusal(() => checkOutputFile('/dev/null', [], '--out', force))).toMatch(/is not a regular file/);
      expect(refusal(() => checkOutputFile(join(dir, 'broken'), [], '--out', force))).toMatch(/is a broken link/);
    }
    expect(snapshot(dir)).toEqual(before);
  });

  it('a name too long and a loop of links are one line each', () => {
    const dir = temp('errno');
    symlinkSync(join(dir, 'b'), join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    expect(refusal(() => checkOutputFile(join(dir, 'x'.repeat(300) + '.csv')))).toMatch(/cannot use it \(ENAMETOOLONG: the name is too long\)|cannot write/);
    expect(refusal(() => checkOutputFile(join(dir, 'a', 'x.csv')))).toMatch(/ELOOP|broken link/);
    expect(refusal(() => claimReportFolder(join(dir, 'a', 'out')))).toMatch(/ELOOP|broken link/);
  });

  it('sweep --out over an existing file is refused in one line, end to end; --force replaces it', async () => {
    const dir = temp('sweep');
    const file = join(dir, 'grid.csv');
    writeFileSync(file, 'my spreadsheet');
    const args = ['sweep', '--kind', 'injury', '--vary', 'armour=none,standard', '--format', 'csv', '--out', file];
    const refused = await cliInProcess(...args);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([2, '', `injury-lab: --out: "${file}" already exists; name a new file, or add --force to replace it\n`]);
    expect(readFileSync(file, 'utf8')).toBe('my spreadsheet');
    const forced = await cliInProcess(...args, '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^[^\n]*armour/);
  });
});
