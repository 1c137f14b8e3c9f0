import { accessSync, constants, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync, linkSync, realpathSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { UsageError, showValue } from '../errors.js';
import { toolVersion } from '../project.js';
import { writeFileAtomic } from './files.js';

/**
 * Where injury-lab writes, and the promise it keeps there: a designer's files are never lost.
 *
 * - A report folder is replaced only when it holds nothing but what injury-lab wrote there. It is
 *   recognised by its ownership file, `.injury-lab.json`, which lists every file of the report (folders
 *   written before that file existed are recognised by the manifest in their results.json). A folder with
 *   anything else inside is refused, unless --force; a file at that path is always refused.
 * - Nothing is written or removed outside --out: the new report is written into a hidden folder inside
 *   --out and swapped in at the end, so a run that fails or is interrupted leaves the old report as it was.
 * - One run at a time per folder: a lock file inside it, `.injury-lab.lock`, holds the process id; a
 *   second run is refused, and a lock whose process is gone is taken over.
 * - Every check happens before any work starts: a mistake in --out costs nothing.
 */

export const OWNERSHIP_FILE = '.injury-lab.json';
/** Every hidden name injury-lab makes inside a folder it writes starts with this. */
const OURS_PREFIX = '.injury-lab';
const LOCK_FILE = '.injury-lab.lock';

interface Ownership {
  readonly tool: 'injury-lab';
  readonly type: 'report' | 'batch';
  readonly version: string;
  /** Paths relative to the folder, with '/' between parts. */
  readonly files: readonly string[];
}

const quote = (path: string) => showValue(path);

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** A folder nobody may write into: no write bit at all (root ignores permissions, so ask the mode), or no access for us. */
function readOnly(path: string, st: Stats): boolean {
  if ((st.mode & 0o222) === 0) return true;
  try {
    accessSync(path, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

function isInside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !r.startsWith(sep) && r !== '..');
}

/**
 * The parent folders of a path that does not exist yet: the nearest existing one must be a writable
 * folder. Returns nothing; throws the one-line reason otherwise.
 */
function checkCanCreate(flag: string, given: string, abs: string): void {
  let up = dirname(abs);
  for (;;) {
    const st = lstatOrUndefined(up);
    if (st) {
      const target = statFollowing(up, st);
      if (!target) throw new UsageError(`${flag}: ${quote(given)}: ${quote(up)} is a broken link`);
      if (!target.isDirectory()) throw new UsageError(`${flag}: ${quote(given)}: ${quote(up)} is a file, not a folder`);
      if (readOnly(up, target)) throw new UsageError(`${flag}: ${quote(given)}: ${quote(up)} is read-only, so nothing can be created in it`);
      return;
    }
    const next = dirname(up);
    if (next === up) return;
    up = next;
  }
}

/**
 * Where a path really is: symbolic links followed, for as much of it as exists (the rest, not made yet,
 * is appended as written). Two paths name the same place only if these agree: `--out link` where
 * `link` points at the folder of an input is that folder.
 */
function realPath(path: string): string {
  const abs = resolve(path);
  const rest: string[] = [];
  for (let at = abs; ; ) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      const up = dirname(at);
      if (up === at) return abs;
      rest.push(basename(at));
      at = up;
    }
  }
}

/**
 * Refuses folders no report may ever replace, --force or not: the root, the current folder or one
 * holding it, the home folder or one holding it, and any folder holding an input of this run. Paths
 * are compared where they really are, so a symbolic link to one of these is refused like the folder.
 */
function checkNotPrecious(flag: string, given: string, abs: string, inputs: readonly string[]): void {
  const real = realPath(abs);
  if (abs === resolve('/') || real === realPath('/')) throw new UsageError(`${flag}: ${quote(given)} is the root folder; name a folder of its own, such as out/NAME`);
  if (isInside(process.cwd(), abs) || isInside(realPath(process.cwd()), real)) {
    throw new UsageError(`${flag}: ${quote(given)} is or holds the current folder; name a folder of its own, such as out/NAME`);
  }
  if (isInside(homedir(), abs) || isInside(realPath(homedir()), real)) {
    throw new UsageError(`${flag}: ${quote(given)} is or holds your home folder; name a folder of its own, such as out/NAME`);
  }
  for (const input of inputs) {
    if (isInside(resolve(input), abs) || isInside(realPath(input), real)) {
      throw new UsageError(`${flag}: ${quote(given)} holds ${quote(input)}, an input of this run; name another folder`);
    }
  }
}

/** Every path under `dir`, relative with '/', folders included; symlinks are listed, never followed. */
function walk(dir: string, prefix = ''): { path: string; dir: boolean; abs: string }[] {
  const out: { path: string; dir: boolean; abs: string }[] = [];
  // Iterative: a deep tree must not overflow the stack.
  const stack: [string, string][] = [[dir, prefix]];
  while (stack.length > 0) {
    const [d, p] = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const rel = p ? `${p}/${e.name}` : e.name;
      const abs = join(d, e.name);
      out.push({ path: rel, dir: e.isDirectory(), abs });
      if (e.isDirectory()) stack.push([abs, rel]);
    }
  }
  return out;
}

function readJson(path: string): unknown {
  try {
    const st = lstatSync(path);
    if (!st.isFile() || st.size > 16 * 1024 * 1024) return undefined;
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The files a report folder's ownership file (or, for older folders, its results.json) says are injury-lab's. */
function ownedFiles(dir: string): Set<string> | undefined {
  const own = readJson(join(dir, OWNERSHIP_FILE)) as Partial<Ownership> | undefined;
  if (own && own.tool === 'injury-lab' && own.type === 'report' && Array.isArray(own.files)) {
    return new Set(own.files.filter((f): f is string => typeof f === 'string'));
  }
  // Report folders written before the ownership file existed: what results.json's manifest says was written.
  const results = readJson(join(dir, 'results.json')) as { manifest?: { tool?: unknown }; analyses?: { charts?: { file?: unknown }[] }[] } | undefined;
  if (results?.manifest?.tool !== 'injury-lab' || !Array.isArray(results.analyses)) return undefined;
  const files = new Set(['index.html', 'results.csv', 'results.json']);
  for (const a of results.analyses) {
    for (const c of Array.isArray(a?.charts) ? a.charts : []) {
      if (typeof c?.file === 'string') for (const ext of ['vl.json', 'svg', 'png']) files.add(`charts/${c.file}.${ext}`);
    }
  }
  return files;
}

type FolderState =
  | { readonly state: 'empty' }
  | { readonly state: 'ours' }
  | { readonly state: 'foreign'; readonly example: string }
  | { readonly state: 'read-only'; readonly path: string };

/** What an existing folder holds, as far as replacing it goes. */
function inspectReportFolder(dir: string): FolderState {
  const entries = walk(dir).filter((e) => !e.path.split('/')[0]!.startsWith(OURS_PREFIX));
  if (entries.length === 0) return { state: 'empty' };
  const owned = ownedFiles(dir);
  const parents = new Set<string>();
  for (const f of owned ?? []) for (let p = dirname(f); p !== '.' && p !== ''; p = dirname(p)) parents.add(p);
  for (const e of entries) {
    if (e.dir ? !parents.has(e.path) : !owned?.has(e.path)) return { state: 'foreign', example: e.path };
  }
  for (const e of entries) if (e.dir && readOnly(e.abs, lstatSync(e.abs))) return { state: 'read-only', path: e.path };
  return { state: 'ours' };
}

/** True when `pid` is a live process (EPERM: alive, but someone else's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Locks held by this process, released on any exit, Ctrl-C included. */
const heldLocks = new Set<string>();
let exitHooked = false;

function releaseAll(): void {
  for (const lock of heldLocks) rmSync(lock, { force: true });
  heldLocks.clear();
}

function takeLock(flag: string, given: string, dir: string): string {
  const lock = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    // The lock appears with its process id already in it (written aside, then hard-linked into place,
    // which fails if the name exists), so another run never reads a half-written lock as stale.
    const mine = `${lock}.${process.pid}`;
    try {
      writeFileSync(mine, `${process.pid}\n`);
      try {
        linkSync(mine, lock);
      } finally {
        rmSync(mine, { force: true });
      }
      heldLocks.add(lock);
      if (!exitHooked) {
        exitHooked = true;
        process.on('exit', releaseAll);
      }
      return lock;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        throw new UsageError(`${flag}: ${quote(given)} is being written by another injury-lab run (process ${pid}); wait for it to finish, or remove ${quote(lock)} if no run is going on`);
      }
      // The run that left it is gone: its lock is stale.
      rmSync(lock, { force: true });
    }
  }
  throw new UsageError(`${flag}: ${quote(given)}: could not take the lock ${quote(lock)}; another run keeps taking it`);
}

function releaseLock(lock: string): void {
  rmSync(lock, { force: true });
  heldLocks.delete(lock);
}

export interface FolderClaim {
  /** The folder as the user named it, for messages. */
  readonly given: string;
  readonly dir: string;
  readonly force: boolean;
  readonly flag: string;
  /** Replaces the folder's contents with what `fill` writes into an empty folder. */
  replace(fill: (dir: string) => Promise<void> | void): Promise<void>;
  release(): void;
}

export interface ClaimOptions {
  /** The flag that named the folder, for messages: `--out`. */
  readonly flag?: string;
  /** Replace a folder that holds files injury-lab did not write. Never a file. */
  readonly force?: boolean;
  /** Files this run reads: a folder holding one is never replaced. */
  readonly inputs?: readonly string[];
}

/** The folder a path names, following a symlink; undefined for a broken link. */
function statFollowing(path: string, st: Stats): Stats | undefined {
  if (!st.isSymbolicLink()) return st;
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function checkFolder(flag: string, given: string, dir: string, force: boolean): void {
  const st = lstatOrUndefined(dir);
  if (!st) return;
  const target = statFollowing(dir, st);
  if (!target || !target.isDirectory()) {
    throw new UsageError(`${flag}: ${quote(given)} is ${target ? 'a file' : 'a broken link'}, not a folder; a report is a folder of files, and injury-lab never replaces a file`);
  }
  if (readOnly(dir, target)) throw new UsageError(`${flag}: ${quote(given)} is read-only; make it writable or name another folder`);
  const found = inspectReportFolder(dir);
  if (found.state === 'read-only') throw new UsageError(`${flag}: ${quote(given)}: ${quote(found.path)} inside it is read-only; make it writable or name another folder`);
  if (found.state === 'foreign' && !force) {
    throw new UsageError(
      `${flag}: ${quote(given)} holds files injury-lab did not write (such as ${quote(found.example)}); name a new or empty folder, or add --force to replace the folder and everything in it`,
    );
  }
}

/** A folder checked and locked for this run; `release` undoes the lock (and the folder, if it was made empty). */
interface LockedFolder {
  readonly flag: string;
  readonly force: boolean;
  readonly dir: string;
  release(): void;
}

/**
 * The steps every claim takes, before any work starts: refuse precious folders, check what is there (or
 * that it can be made), make it, lock it, and check again under the lock, since another run may have
 * written between the first look and now. A refused folder is left exactly as it was.
 */
function lockFolder(given: string, options: ClaimOptions, check: (flag: string, given: string, dir: string, force: boolean) => void): LockedFolder {
  const flag = options.flag ?? '--out';
  const force = options.force ?? false;
  const dir = resolve(given);
  checkNotPrecious(flag, given, dir, options.inputs ?? []);
  const existed = lstatOrUndefined(dir) !== undefined;
  if (existed) check(flag, given, dir, force);
  else checkCanCreate(flag, given, dir);
  mkdirSync(dir, { recursive: true });
  let lock: string;
  try {
    lock = takeLock(flag, given, dir);
    check(flag, given, dir, force);
  } catch (e) {
    if (heldLocks.has(join(dir, LOCK_FILE))) releaseLock(join(dir, LOCK_FILE));
    if (!existed) removeIfEmpty(dir);
    throw e;
  }
  let released = false;
  return {
    flag,
    force,
    dir,
    release() {
      if (released) return;
      released = true;
      releaseLock(lock);
      if (!existed) removeIfEmpty(dir);
    },
  };
}

/** Checks that a report may be written to `given` and locks it (the folder is created if missing, so it can be locked). */
export function claimReportFolder(given: string, options: ClaimOptions = {}): FolderClaim {
  const locked = lockFolder(given, options, checkFolder);
  return {
    given,
    dir: locked.dir,
    force: locked.force,
    flag: locked.flag,
    async replace(fill) {
      await replaceContents(this, fill);
    },
    release: locked.release,
  };
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (a report was written) or already gone: either way, nothing to undo.
  }
}

/** Stale hidden folders of runs that were killed: ours, and nobody else's holds the lock now. */
function removeLeftovers(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (name.startsWith(`${OURS_PREFIX}-writing-`) || name.startsWith(`${OURS_PREFIX}-old-`)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** Temporary folders being written, removed if the process exits half-way (Ctrl-C included). */
const pendingDirs = new Set<string>();
let pendingHooked = false;

function trackPending(dir: string): void {
  pendingDirs.add(dir);
  if (!pendingHooked) {
    pendingHooked = true;
    process.on('exit', () => {
      for (const d of pendingDirs) rmSync(d, { recursive: true, force: true });
    });
  }
}

/**
 * Writes the new contents into a hidden folder inside the claimed one, then swaps them in: the old
 * entries move aside into another hidden folder, the new ones move in, the old ones are removed. If
 * anything fails before the swap, the folder is as it was.
 */
async function replaceContents(claim: FolderClaim, fill: (dir: string) => Promise<void> | void): Promise<void> {
  const { dir, flag, given, force } = claim;
  removeLeftovers(dir);
  const writing = join(dir, `${OURS_PREFIX}-writing-${process.pid}`);
  const old = join(dir, `${OURS_PREFIX}-old-${process.pid}`);
  trackPending(writing);
  trackPending(old);
  try {
    mkdirSync(writing);
    await fill(writing);
    const files = walk(writing)
      .filter((e) => !e.dir)
      .map((e) => e.path)
      .sort();
    const ownership: Ownership = { tool: 'injury-lab', type: 'report', version: toolVersion, files };
    const ownershipText = JSON.stringify(ownership, null, 2) + '\n';
    writeFileSync(join(writing, OWNERSHIP_FILE), ownershipText, { flag: 'wx' });
    // A file the user put there while the report ran is theirs: look once more before removing anything.
    checkFolder(flag, given, dir, force);
    mkdirSync(old);
    for (const name of readdirSync(dir)) {
      if (name === LOCK_FILE || name.startsWith(`${OURS_PREFIX}-writing-`) || name.startsWith(`${OURS_PREFIX}-old-`)) continue;
      renameSync(join(dir, name), join(old, name));
    }
    for (const name of readdirSync(writing)) renameSync(join(writing, name), join(dir, name));
  } catch (e) {
    // Put back whatever had moved aside, then report the failure in one line.
    if (lstatOrUndefined(old)) for (const name of readdirSync(old)) if (!lstatOrUndefined(join(dir, name))) renameSync(join(old, name), join(dir, name));
    if (e instanceof UsageError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (typeof err.code === 'string') throw new UsageError(`${flag}: ${quote(given)}: cannot write the report (${err.code}${err.path ? ` on ${quote(err.path)}` : ''})`);
    throw e;
  } finally {
    rmSync(writing, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
    pendingDirs.delete(writing);
    pendingDirs.delete(old);
  }
}

/** A batch's index page is injury-lab's when the batch ownership file lists it (or, from older runs, by its title). */
function indexIsOurs(dir: string): boolean {
  const own = readJson(join(dir, OWNERSHIP_FILE)) as Partial<Ownership> | undefined;
  if (own?.tool === 'injury-lab' && own.type === 'batch' && Array.isArray(own.files) && own.files.includes('index.html')) return true;
  try {
    const st = lstatSync(join(dir, 'index.html'));
    return st.isFile() && st.size < 1024 * 1024 && readFileSync(join(dir, 'index.html'), 'utf8').includes('<title>injury-lab reports</title>');
  } catch {
    return false;
  }
}

function checkBatchFolder(flag: string, given: string, dir: string, force: boolean): void {
  const st = lstatOrUndefined(dir);
  if (!st) return;
  const target = statFollowing(dir, st);
  if (!target || !target.isDirectory()) throw new UsageError(`${flag}: ${quote(given)} is ${target ? 'a file' : 'a broken link'}, not a folder; --all writes a folder of reports`);
  if (readOnly(dir, target)) throw new UsageError(`${flag}: ${quote(given)} is read-only; make it writable or name another folder`);
  const index = lstatOrUndefined(join(dir, 'index.html'));
  if (index && !indexIsOurs(dir) && !(force && index.isFile())) {
    throw new UsageError(
      `${flag}: ${quote(join(given, 'index.html'))} was not written by injury-lab; name a new or empty folder${index.isFile() ? ', or add --force to replace it' : ''}`,
    );
  }
}

export interface BatchClaim {
  readonly given: string;
  readonly dir: string;
  /** Claims the report folder OUT/id (checked and locked like any report folder). */
  claimReport(id: string, inputs: readonly string[]): FolderClaim;
  /** Writes the batch's index page and its ownership file. */
  writeIndex(html: string): void;
  release(): void;
}

/**
 * Checks and locks the folder of a batch run (`report --all`): the folder itself is never replaced, only
 * its index page and one report folder per definition, each under the same rules as a single report.
 */
export function claimBatchFolder(given: string, options: ClaimOptions = {}): BatchClaim {
  const { flag, force, dir, release } = lockFolder(given, options, checkBatchFolder);
  return {
    given,
    dir,
    claimReport: (id, inputs) => claimReportFolder(join(given, id), { flag, force, inputs }),
    writeIndex(html) {
      writeFileAtomic(join(dir, 'index.html'), html);
      const ownership: Ownership = { tool: 'injury-lab', type: 'batch', version: toolVersion, files: ['index.html'] };
      writeFileAtomic(join(dir, OWNERSHIP_FILE), JSON.stringify(ownership, null, 2) + '\n');
    },
    release,
  };
}

/**
 * Checks a file output (`sweep --out`, `compare --out`) before any work starts: not a folder, not a
 * device, and its folder exists or can be made (so `--out /proc/x/y.csv` is refused at once).
 */
export function checkOutputFile(given: string, inputs: readonly string[] = [], flag = '--out'): void {
  const abs = resolve(given);
  const real = realPath(abs);
  for (const input of inputs) if (resolve(input) === abs || realPath(input) === real) throw new UsageError(`${flag}: ${quote(given)} is an input of this run; name another file`);
  const st = lstatOrUndefined(abs);
  if (st) {
    const target = statFollowing(abs, st);
    if (target?.isDirectory()) throw new UsageError(`${flag}: ${quote(given)} is a folder; name a file, such as ${quote(join(given, 'results.csv'))}`);
    if (target && !target.isFile()) throw new UsageError(`${flag}: ${quote(given)} is not a regular file; name a file to write`);
    const parent = dirname(abs);
    if (readOnly(parent, statSync(parent))) throw new UsageError(`${flag}: ${quote(given)}: ${quote(parent)} is read-only`);
    return;
  }
  checkCanCreate(flag, given, abs);
}
