import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutputFile } from '../src/present/write/output-file.js';
import { claimBatchFolder, claimReportFolder, OWNERSHIP_FILE } from '../src/present/write/output-folder.js';
import { loadReportDef } from '../src/present/report/definition.js';
import { cli } from './helpers/cli.js';
import { cliInProcess, cliInProcessWith } from './helpers/cli-in-process.js';

/**
 * Issue 10: a designer's files are never lost. Every case builds its files in a fresh temporary folder
 * and checks, after the refusal, that every file there is byte for byte what it was.
 *
 * `cli` starts the built CLI in a process of its own. Refusals of --out happen before any work, in the
 * same code whichever way the CLI is started, so most run in this process with `cliInProcess` (the same
 * src/cli/main.ts, the same refusal line and exit code, a fraction of the CPU), as do the reports that are
 * written (vega, which draws their charts, is loaded into this process once). Real processes are kept for
 * one refusal of each family, end to end, and for two runs at once.
 */

const MAIN = resolve('dist/src/cli/main.js');
const temp = (tag: string) => mkdtempSync(join(tmpdir(), `injury-lab-${tag}-`));

/** A report of two exact cells and one chart: these tests are about files, so the report is small. */
const DEF = join(temp('def'), 'falls.json');
writeFileSync(DEF, JSON.stringify({ title: 'Tiny', analyses: [{ id: 'armour', title: 'Armour', scenario: { kind: 'injury' }, vary: ['armour=none,standard'] }] }));

/** Every file under `dir` with its content: what a refusal must leave exactly as it was. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name);
    out[path.slice(dir.length + 1)] = e.isFile() ? readFileSync(path, 'utf8') : '<folder>';
  }
  return out;
}

/** The CLI run from inside `cwd`, for the cases where a relative --out such as "." matters. */
function cliIn(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function expectRefused(r: { code: number | null; stdout: string; stderr: string }, message: RegExp | string): void {
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(typeof message === 'string' ? message : message);
  expect(r.code).toBe(2);
}

describe('report --out: a folder is replaced only when it holds nothing but an earlier report', () => {
  // In process: test/input-files.test.ts runs this refusal of --all end to end, and checks the disk after it.
  it('a definition named ...json in an --all folder is refused, and the parent of --out keeps its files', async () => {
    const dir = temp('dots');
    mkdirSync(join(dir, 'defs'));
    mkdirSync(join(dir, 'parent', 'out'), { recursive: true });
    writeFileSync(join(dir, 'parent', 'keep.txt'), 'precious');
    copyFileSync(DEF, join(dir, 'defs', '...json'));
    const before = snapshot(dir);
    expectRefused(await cliInProcess('report', '--all', join(dir, 'defs'), '--out', join(dir, 'parent', 'out')), /\.\.\.json": a report file name must be/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('an existing file at --out is refused, --force or not', async () => {
    const dir = temp('file');
    const thesis = join(dir, 'thesis.txt');
    writeFileSync(thesis, 'three years of work');
    expectRefused(await cliInProcess('report', DEF, '--out', thesis), /thesis\.txt" is a file, not a folder/);
    expectRefused(await cliInProcess('report', DEF, '--out', thesis, '--force'), /thesis\.txt" is a file, not a folder/);
    expect(readFileSync(thesis, 'utf8')).toBe('three years of work');
  });

  it('a folder holding other files is refused, --force or not', async () => {
    const dir = temp('foreign');
    const out = join(dir, 'out');
    mkdirSync(join(out, 'drafts'), { recursive: true });
    writeFileSync(join(out, 'drafts', 'notes.txt'), 'mine');
    const before = snapshot(dir);
    // In process: the same claim of the folder refuses "." and a path under a file below, end to end.
    expectRefused(await cliInProcess('report', DEF, '--out', out), /holds files injury-lab did not write \(such as "drafts(\/notes\.txt)?"\); name a new or empty folder \(--force replaces only an earlier report/);
    expectRefused(await cliInProcess('report', DEF, '--out', out, '--force'), /holds files injury-lab did not write/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('its own earlier report is replaced, and the ownership file lists exactly the files written', async () => {
    const dir = temp('again');
    const out = join(dir, 'out');
    expect((await cliInProcess('report', DEF, '--out', out)).code).toBe(0);
    const first = JSON.parse(readFileSync(join(out, OWNERSHIP_FILE), 'utf8'));
    const written = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== OWNERSHIP_FILE)
      .map((e) => join(e.parentPath, e.name).slice(out.length + 1))
      .sort();
    expect(first).toMatchObject({ tool: 'injury-lab', type: 'report', files: written });
    expect((await cliInProcess('report', DEF, '--out', out)).code).toBe(0);
    expect(readdirSync(dir)).toEqual(['out']);
  });

  it('a report folder from before the ownership file is recognised by the manifest in its results.json', async () => {
    const dir = temp('legacy');
    const out = join(dir, 'out');
    expect((await cliInProcess('report', DEF, '--out', out)).code).toBe(0);
    const ownership = readFileSync(join(out, OWNERSHIP_FILE), 'utf8');
    spawnSync('rm', [join(out, OWNERSHIP_FILE)]);
    // Recognised: the claim a second run makes is granted (how a folder of ours is replaced is the test above).
    claimReportFolder(out, { inputs: [DEF] }).release();
    // ...but one extra file in it makes it the user's again,
    writeFileSync(join(out, 'charts', 'my-edit.svg'), '<svg/>');
    expectRefused(await cliInProcess('report', DEF, '--out', out), /such as "charts\/my-edit\.svg"/);
    // as it does once a run has written the ownership file again.
    writeFileSync(join(out, OWNERSHIP_FILE), ownership);
    expectRefused(await cliInProcess('report', DEF, '--out', out), /such as "charts\/my-edit\.svg"/);
  });

  it('a read-only folder is refused and left as it was, with no hidden folder beside or inside it', async () => {
    const dir = temp('readonly');
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'kept.txt'), 'kept');
    chmodSync(out, 0o555);
    try {
      const before = snapshot(dir);
      expectRefused(await cliInProcess('report', DEF, '--out', out, '--force'), /out" is read-only; make it writable or name another folder/);
      expect(snapshot(dir)).toEqual(before);
      expect(readdirSync(dir)).toEqual(['out']);
    } finally {
      chmodSync(out, 0o755);
    }
  });

  it('the root, the current folder and its parent are refused before anything is looked at, --force or not', async () => {
    const dir = temp('cwd');
    writeFileSync(join(dir, 'thesis.txt'), 'mine');
    mkdirSync(join(dir, 'work'));
    const cwd = join(dir, 'work');
    // In process, but from the same temporary current folder: a mistake can only reach `dir`.
    expectRefused(await cliInProcessWith({ cwd }, 'report', DEF, '--out', '/'), /"\/" is the root folder/);
    // End to end in a CLI process started in that folder.
    expectRefused(cliIn(cwd, 'report', DEF, '--out', '.', '--force'), /"\." is or holds the current folder/);
    expectRefused(await cliInProcessWith({ cwd }, 'report', DEF, '--out', '..', '--force'), /"\.\." is or holds the current folder/);
    expect(snapshot(dir)).toEqual({ 'thesis.txt': 'mine', work: '<folder>' });
  });

  it('a folder holding the report definition is refused, even with --force', async () => {
    const dir = temp('input');
    copyFileSync(DEF, join(dir, 'falls.json'));
    expectRefused(await cliInProcess('report', join(dir, 'falls.json'), '--out', dir, '--force'), /holds .*falls\.json", an input of this run/);
    expect(readdirSync(dir)).toEqual(['falls.json']);
  });

  // End to end in a CLI process: the one line, not a stack trace, is what the process prints.
  it('--out under a file is one line, not a stack trace', () => {
    const dir = temp('under');
    writeFileSync(join(dir, 'afile'), 'x');
    expectRefused(cli('report', DEF, '--out', join(dir, 'afile', 'x')), /afile" is a file, not a folder/);
  });

  it('--all: an index.html that injury-lab did not write is refused; the batch folder keeps other files', async () => {
    const dir = temp('batch');
    const defs = join(dir, 'defs');
    mkdirSync(defs);
    copyFileSync(DEF, join(defs, 'falls.json'));
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'index.html'), 'my own page');
    writeFileSync(join(out, 'notes.txt'), 'notes');
    expectRefused(await cliInProcess('report', '--all', defs, '--out', out), /index\.html" was not written by injury-lab/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('my own page');
    expectRefused(await cliInProcess('report', '--all', defs, '--out', out, '--force'), /index\.html" was not written by injury-lab; name a new or empty folder$/m);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('my own page');
    writeFileSync(join(out, 'index.html'), '');
    spawnSync('rm', [join(out, 'index.html')]);
    expect((await cliInProcess('report', '--all', defs, '--out', out)).code).toBe(0);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('notes');
    expect(readdirSync(out).sort()).toEqual([OWNERSHIP_FILE, 'falls', 'index.html', 'notes.txt']);
    // A second run recognises its own index page and report folder: the claims it makes are granted.
    const index = readFileSync(join(out, 'index.html'), 'utf8');
    const inputs = [join(defs, 'falls.json'), defs];
    const again = claimBatchFolder(out, { inputs });
    again.claimReport('falls', inputs).release();
    again.release();
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(index);
  });
});

describe('replacing a claimed folder (in process)', () => {
  it('a failure while writing leaves the old report as it was and no hidden folder', async () => {
    const dir = temp('fail');
    const out = join(dir, 'out');
    const first = claimReportFolder(out);
    await first.replace((d) => writeFileSync(join(d, 'index.html'), 'old report'));
    first.release();
    const before = snapshot(dir);
    const second = claimReportFolder(out);
    await expect(
      second.replace((d) => {
        writeFileSync(join(d, 'index.html'), 'half');
        throw new Error('chart failed');
      }),
    ).rejects.toThrow('chart failed');
    second.release();
    expect(snapshot(dir)).toEqual(before);
  });

  it('a file the user adds while the report runs stops the swap, and nothing is removed', async () => {
    const dir = temp('during');
    const out = join(dir, 'out');
    const claim = claimReportFolder(out);
    writeFileSync(join(out, 'added.txt'), 'mine');
    await expect(claim.replace((d) => writeFileSync(join(d, 'index.html'), 'new'))).rejects.toThrow(/such as "added\.txt"/);
    claim.release();
    expect(readdirSync(out)).toEqual(['added.txt']);
  });
});

describe('two runs into one folder', () => {
  it('a live lock refuses the second run; a lock whose process is gone is taken over', async () => {
    const dir = temp('lock');
    const out = join(dir, 'out');
    mkdirSync(out);
    const lock = join(out, '.injury-lab.lock');
    // The process that started this test file (vitest's) is alive, and is not the run's own: its lock is current.
    writeFileSync(lock, `${process.ppid}\n`);
    expectRefused(await cliInProcess('report', DEF, '--out', out), new RegExp(`is being written by another injury-lab run \\(process ${process.ppid}\\)`));
    expect(readFileSync(lock, 'utf8')).toBe(`${process.ppid}\n`);
    // A process that has ended: its lock is stale, and the claim a run makes takes it over.
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(lock, `${ended.stdout}\n`);
    const claim = claimReportFolder(out, { inputs: [DEF] });
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    claim.release();
    expect(existsSync(lock)).toBe(false);
  });

  it('started together, one writes and the other refuses or runs after it; never a half-written folder', async () => {
    const dir = temp('race');
    const out = join(dir, 'out');
    const run = () =>
      new Promise<{ code: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [MAIN, 'report', DEF, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('exit', (code) => done({ code, stderr }));
      });
    // Twice: into a new folder, then over the report the first pair left there.
    for (let pair = 0; pair < 2; pair++) {
      const results = await Promise.all([run(), run()]);
      expect(results.filter((r) => r.code === 0).length).toBeGreaterThan(0);
      for (const r of results.filter((x) => x.code !== 0)) {
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/is being written by another injury-lab run/);
      }
      const own = JSON.parse(readFileSync(join(out, OWNERSHIP_FILE), 'utf8')) as { files: string[] };
      const present = readdirSync(out, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name !== OWNERSHIP_FILE)
        .map((e) => join(e.parentPath, e.name).slice(out.length + 1))
        .sort();
      expect(present).toEqual(own.files);
    }
  });
});

describe('sweep and compare --out: checked before any work, one line', () => {
  const sweep = (out: string) => ['sweep', '--kind', 'injury', '--vary', 'armour=none,standard', '--out', out];

  it('a folder, a path under a file, a read-only folder and /proc are refused', async () => {
    const dir = temp('fileout');
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'afile'), 'x');
    mkdirSync(join(dir, 'locked'));
    chmodSync(join(dir, 'locked'), 0o555);
    try {
      // End to end in a CLI process; the others differ only in the words.
      expectRefused(cli(...sweep(join(dir, 'folder'))), /folder" is a folder; name a file/);
      expectRefused(await cliInProcess(...sweep(join(dir, 'afile', 'x.csv'))), /afile" is a file, not a folder/);
      expectRefused(await cliInProcess(...sweep(join(dir, 'locked', 'x.csv'))), /locked" is read-only/);
      expectRefused(await cliInProcess(...sweep('/proc/nope/x.csv')), /"\/proc" is read-only/);
      expectRefused(
        await cliInProcess('compare', 'test/fixtures/attack.json', 'test/fixtures/attack.json', '--out', join(dir, 'folder')),
        /folder" is a folder; name a file/,
      );
    } finally {
      chmodSync(join(dir, 'locked'), 0o755);
    }
    expect(readdirSync(dir).sort()).toEqual(['afile', 'folder', 'locked']);
  });

  it('an input of the run is never the output', async () => {
    const dir = temp('sameio');
    const scenario = join(dir, 's.json');
    writeFileSync(scenario, '{"kind": "injury"}');
    expectRefused(await cliInProcess('sweep', scenario, '--vary', 'armour=none,standard', '--out', scenario), /s\.json" is an input of this run/);
    expect(readFileSync(scenario, 'utf8')).toBe('{"kind": "injury"}');
  });
});

describe('a symbolic link is where it points: --out through a link is refused like the folder itself', () => {
  const refusal = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };

  it('a link to the folder holding an input, --force or not; the input and its neighbours stay', () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-link-'));
    mkdirSync(join(dir, 'defs'));
    writeFileSync(join(dir, 'defs', 'falls.json'), '{}');
    writeFileSync(join(dir, 'defs', 'notes.txt'), 'mine');
    symlinkSync(join(dir, 'defs'), join(dir, 'link'));
    const message = refusal(() => claimReportFolder(join(dir, 'link'), { force: true, inputs: [join(dir, 'defs', 'falls.json')] }));
    expect(message).toBe(`--out: "${join(dir, 'link')}" holds "${join(dir, 'defs', 'falls.json')}", an input of this run; name another folder`);
    expect(readdirSync(join(dir, 'defs')).sort()).toEqual(['falls.json', 'notes.txt']);
    // A file output through a link to an input is the input.
    symlinkSync(join(dir, 'defs', 'notes.txt'), join(dir, 'notes-link.csv'));
    expect(() => checkOutputFile(join(dir, 'notes-link.csv'), [join(dir, 'defs', 'notes.txt')])).toThrow(/is an input of this run/);
  });

  it('a link to the current folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-link-'));
    mkdirSync(join(dir, 'w'));
    writeFileSync(join(dir, 'w', 'keep.txt'), 'mine');
    symlinkSync(join(dir, 'w'), join(dir, 'wl'));
    const before = process.cwd();
    process.chdir(join(dir, 'w'));
    try {
      expect(refusal(() => claimReportFolder('../wl', { force: true }))).toBe('--out: "../wl" is or holds the current folder; name a folder of its own, such as out/NAME');
    } finally {
      process.chdir(before);
    }
    expect(readdirSync(join(dir, 'w'))).toEqual(['keep.txt']);
  });
});

describe('the variant and profiles files a run reads are inputs too', () => {
  it('a report reading a variant and a profiles file lists both; --out over their folder is refused', () => {
    const def = loadReportDef('reports/variant-example.json');
    expect(def.inputs).toEqual(['examples/variants/out-of-action-on-10.json']);
    expect(loadReportDef('reports/matrix-example.json').inputs).toEqual(['examples/profiles.json']);
    expect(() => claimReportFolder('examples', { force: true, inputs: [def.file, ...def.inputs] })).toThrow(
      '--out: "examples" holds "examples/variants/out-of-action-on-10.json", an input of this run; name another folder',
    );
  });
});
