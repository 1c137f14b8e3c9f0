import { createHash } from 'node:crypto';
import { type Dirent, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, writeFileSync, linkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { refusal } from '../../messages.js';
import { toolVersion } from '../../version.js';
import { writeFileAtomic } from './files.js';
import { quote, lstatOrUndefined, readOnly, checkCanCreate, checkNotPrecious, statFollowing, inOneLine, errnoWords } from './paths.js';
import { matrixFile } from '../report/page.js';

/**
 * Where injury-lab writes, and the promise it keeps there: a designer's files are never lost.
 *
 * - A report folder is replaced only when it holds nothing but what injury-lab wrote there. It is
 *   recognised by its ownership file, `.injury-lab.json`, which lists every file of the report with its
 *   SHA-256 (folders written before that file existed are recognised by the manifest in their
 *   results.json). Only names injury-lab makes, exactly, are ever taken as ours: a user's
 *   `.injury-lab-notes.txt` is the user's. A folder with anything else inside is refused, --force or not;
 *   --force only lets a run replace an earlier report whose files were changed since it was written. A
 *   file at that path is always refused.
 * - Nothing is written or removed outside --out: the new report is written into a hidden folder inside
 *   --out and swapped in at the end, so a run that fails or is interrupted leaves the old report as it was.
 * - One run at a time per folder: a lock file inside it, `.injury-lab.lock`, holds the process id; a
 *   second run is refused, and a lock whose process is gone is taken over.
 * - Every check happens before any work starts: a mistake in --out costs nothing.
 */

export const OWNERSHIP_FILE = '.injury-lab.json';

const LOCK_FILE = '.injury-lab.lock';

/** The hidden folders a run writes into and moves the old report into; the number is its process id. */
const WRITING_PREFIX = '.injury-lab-writing-';

const OLD_PREFIX = '.injury-lab-old-';

const RUN_FOLDER = /^\.injury-lab-(?:writing|old)-\d+$/;

/** What a lock file holds: the process id of the run, and nothing else. */
const LOCK_TEXT = /^\d{1,10}\n?$/;

const LOCK_ASIDE = /^\.injury-lab\.lock\.\d+$/;

interface Ownership {
  readonly tool: 'injury-lab';
  readonly type: 'report' | 'batch';
  readonly version: string;
  /** Paths relative to the folder, with '/' between parts. */
  readonly files: readonly string[];
  /** Each file's SHA-256 (hex) as written; ownership files written before it was recorded have none. */
  readonly sha256?: Readonly<Record<string, string>>;
}

/** Every path under `dir`, relative with '/', folders included; symlinks are listed, never followed. */
function walk(dir: string, prefix = ''): { path: string; dir: boolean; abs: string }[] {
  const out: { path: string; dir: boolean; abs: string }[] = [];
  // Iterative: a deep tree must not overflow the stack.
  const stack: [string, string][] = [[dir, prefix]];
  while (stack.length > 0) {
    const [d, p] = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (e) {
      // A folder removed while it is walked (another run's hidden folder, done with): nothing left in it.
      if (d !== dir && (e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    for (const e of entries) {
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

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * An ownership file as injury-lab writes it, of the given type, or undefined for anything else (a file
 * of that name that is not ours, a folder, a link, or JSON of another shape).
 */
function readOwnership(dir: string, type: Ownership['type']): Ownership | undefined {
  const own = readJson(join(dir, OWNERSHIP_FILE)) as Partial<Ownership> | undefined;
  if (!own || typeof own !== 'object' || own.tool !== 'injury-lab' || own.type !== type || typeof own.version !== 'string') return undefined;
  if (!Array.isArray(own.files) || !own.files.every((f) => typeof f === 'string')) return undefined;
  const hashes = own.sha256;
  if (hashes !== undefined) {
    if (typeof hashes !== 'object' || hashes === null || Array.isArray(hashes)) return undefined;
    if (!own.files.every((f) => typeof hashes[f] === 'string')) return undefined;
  }
  return own as Ownership;
}

/** The ownership file's text for the files now under `dir`, each with its SHA-256. */
function ownershipText(dir: string, type: Ownership['type'], files: readonly string[]): string {
  const hashes: Record<string, string> = {};
  for (const f of files) hashes[f] = sha256(join(dir, f));
  const ownership: Ownership = { tool: 'injury-lab', type, version: toolVersion, files, sha256: hashes };
  return JSON.stringify(ownership, null, 2) + '\n';
}

/** A lock file as a run writes it: a regular file holding a process id. */
function isOurLock(path: string, beingWritten = false): boolean {
  const st = lstatOrUndefined(path);
  if (!st?.isFile() || st.size > 16) return false;
  try {
    const text = readFileSync(path, 'utf8');
    return LOCK_TEXT.test(text) || (beingWritten && text === '');
  } catch {
    return false;
  }
}

/** The names injury-lab itself keeps in a report folder beside the report: its ownership file, its lock, the folders of a run. */
function isRunFile(dir: string, entry: { path: string; dir: boolean }, ownershipValid: boolean): boolean {
  if (entry.path === OWNERSHIP_FILE) return ownershipValid && !entry.dir;
  // A run's own name that is gone by the time it is looked at was another run's, done with it (a lock
  // released, a lock written aside and linked, a hidden folder removed): nothing of the user's.
  const gone = (path: string) => lstatOrUndefined(join(dir, path)) === undefined;
  // The lock, and the name it is written under before being linked into place (its process id appended).
  if (entry.path === LOCK_FILE) return gone(LOCK_FILE) || isOurLock(join(dir, LOCK_FILE));
  // Another run's, caught between being made and being written.
  if (LOCK_ASIDE.test(entry.path)) return gone(entry.path) || isOurLock(join(dir, entry.path), true);
  const top = entry.path.split('/')[0]!;
  if (!RUN_FOLDER.test(top)) return false;
  const st = lstatOrUndefined(join(dir, top));
  return st === undefined || st.isDirectory();
}

interface OwnedFiles {
  readonly files: ReadonlySet<string>;
  /** Each file's SHA-256 as written, when the ownership file records them. */
  readonly sha256?: Readonly<Record<string, string>>;
  readonly ownershipValid: boolean;
}

/** The files a report folder's ownership file (or, for older folders, its results.json) says are injury-lab's. */
function ownedFiles(dir: string): OwnedFiles | undefined {
  const own = readOwnership(dir, 'report');
  if (own) return { files: new Set(own.files), ...(own.sha256 ? { sha256: own.sha256 } : {}), ownershipValid: true };
  // Report folders written before the ownership file existed: what results.json's manifest says was written.
  const results = readJson(join(dir, 'results.json')) as { manifest?: { tool?: unknown }; analyses?: { id?: unknown; charts?: { file?: unknown }[] }[] } | undefined;
  if (results?.manifest?.tool !== 'injury-lab' || !Array.isArray(results.analyses)) return undefined;
  const files = new Set(['index.html', 'results.csv', 'results.json']);
  for (const a of results.analyses) {
    // An analysis's matrix CSV (matrices/ID.csv, written since issue 51) is the report's too.
    if (typeof a?.id === 'string') files.add(matrixFile(a.id));
    for (const c of Array.isArray(a?.charts) ? a.charts : []) {
      if (typeof c?.file === 'string') for (const ext of ['vl.json', 'svg', 'png']) files.add(`charts/${c.file}.${ext}`);
    }
  }
  return { files, ownershipValid: false };
}

type FolderState =
  | { readonly state: 'empty' }
  | { readonly state: 'ours' }
  | { readonly state: 'foreign'; readonly example: string }
  | { readonly state: 'changed'; readonly example: string }
  | { readonly state: 'read-only'; readonly path: string };

/**
 * What an existing folder holds, as far as replacing it goes. Only exact names are injury-lab's: the
 * files its ownership file lists (regular files, and unchanged when it records their SHA-256), the
 * folders holding them, the ownership file itself when it reads as ours, a lock holding a process id,
 * and a run's own hidden folders. Anything else, whatever its name, is the user's.
 */
function inspectReportFolder(dir: string): FolderState {
  const owned = ownedFiles(dir);
  const entries = walk(dir).filter((e) => !isRunFile(dir, e, owned?.ownershipValid ?? false));
  if (entries.length === 0) return { state: 'empty' };
  const parents = new Set<string>();
  for (const f of owned?.files ?? []) for (let p = dirname(f); p !== '.' && p !== ''; p = dirname(p)) parents.add(p);
  for (const e of entries) {
    if (e.dir ? !parents.has(e.path) : !owned?.files.has(e.path) || !lstatSync(e.abs).isFile()) return { state: 'foreign', example: e.path };
  }
  if (owned?.sha256) for (const e of entries) if (!e.dir && sha256(e.abs) !== owned.sha256[e.path]) return { state: 'changed', example: e.path };
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

/**
 * What this process leaves on disk while it runs, undone on any exit (Ctrl-C and SIGTERM exit through
 * process.exit, so they are included): the hidden folders a report is written into, the locks, and
 * the folders a claim created, removed if they are still empty. In that order, since a lock or a
 * hidden folder keeps a created folder from being empty.
 */
const pendingDirs = new Set<string>();

const heldLocks = new Set<string>();

const createdDirs = new Set<string>();

let exitHooked = false;

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const d of pendingDirs) rmSync(d, { recursive: true, force: true });
    for (const lock of heldLocks) rmSync(lock, { force: true });
    // Innermost first: a folder's path is longer than its parent's.
    for (const d of [...createdDirs].sort((a, b) => b.length - a.length)) removeIfEmpty(d);
    pendingDirs.clear();
    heldLocks.clear();
    createdDirs.clear();
  });
}

function takeLock(flag: string, given: string, dir: string): string {
  const lock = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    // The lock appears with its process id already in it (written aside, then hard-linked into place,
    // which fails if the name exists), so another run never reads a half-written lock as stale.
    const mine = `${lock}.${process.pid}`;
    try {
      writeFileSync(mine, `${process.pid}\n`, { flag: 'wx' });
      try {
        linkSync(mine, lock);
      } finally {
        rmSync(mine, { force: true });
      }
      heldLocks.add(lock);
      hookExit();
      return lock;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A file of that name that holds anything but a process id is the user's: never taken over.
      if (!isOurLock(lock)) throw refusal(flag, `${quote(given)} holds ${quote(LOCK_FILE)}, which injury-lab did not write`, 'move it out or name another folder');
      const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        throw refusal(flag, `${quote(given)} is being written by another injury-lab run (process ${pid})`, `wait for it to finish, or remove ${quote(lock)} if no run is going on`);
      }
      // The run that left it is gone: its lock is stale.
      rmSync(lock, { force: true });
    }
  }
  throw refusal(`${flag}: ${quote(given)}`, `could not take the lock ${quote(lock)}`, 'another run keeps taking it');
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

function checkFolder(flag: string, given: string, dir: string, force: boolean): void {
  const st = lstatOrUndefined(dir);
  if (!st) return;
  const target = statFollowing(dir, st);
  if (!target || !target.isDirectory()) {
    throw refusal(flag, `${quote(given)} is ${target ? 'a file' : 'a broken link'}, not a folder`, 'a report is a folder of files, and injury-lab never replaces a file');
  }
  if (readOnly(dir, target)) throw refusal(flag, `${quote(given)} is read-only`, 'make it writable or name another folder');
  const found = inspectReportFolder(dir);
  if (found.state === 'read-only') throw refusal(`${flag}: ${quote(given)}`, `${quote(found.path)} inside it is read-only`, 'make it writable or name another folder');
  if (found.state === 'foreign') {
    throw refusal(
      flag,
      `${quote(given)} holds files injury-lab did not write (such as ${quote(found.example)})`,
      'name a new or empty folder (--force replaces only an earlier report, never files of yours)',
    );
  }
  if (found.state === 'changed' && !force) {
    throw refusal(flag, `${quote(given)} is an earlier report, but ${quote(found.example)} was changed since injury-lab wrote it`, 'name another folder, or add --force to replace the report with its changes');
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
  return inOneLine(flag, given, () => lockFolderChecked(flag, given, options, check));
}

function lockFolderChecked(flag: string, given: string, options: ClaimOptions, check: (flag: string, given: string, dir: string, force: boolean) => void): LockedFolder {
  const force = options.force ?? false;
  const dir = resolve(given);
  checkNotPrecious(flag, given, dir, options.inputs ?? []);
  if (lstatOrUndefined(dir) !== undefined) check(flag, given, dir, force);
  else checkCanCreate(flag, given, dir);
  // Every folder made here, innermost first: what an interrupted or refused run removes again, if empty.
  const firstMade = mkdirSync(dir, { recursive: true });
  const made: string[] = [];
  if (firstMade !== undefined) for (let d = dir; ; d = dirname(d)) {
    made.push(d);
    if (d === firstMade || dirname(d) === d) break;
  }
  for (const d of made) createdDirs.add(d);
  hookExit();
  const unmake = (): void => {
    for (const d of made) {
      removeIfEmpty(d);
      createdDirs.delete(d);
    }
  };
  let lock: string;
  try {
    lock = takeLock(flag, given, dir);
    check(flag, given, dir, force);
  } catch (e) {
    if (heldLocks.has(join(dir, LOCK_FILE))) releaseLock(join(dir, LOCK_FILE));
    unmake();
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
      unmake();
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
    if (RUN_FOLDER.test(name) && lstatSync(join(dir, name)).isDirectory()) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** A temporary folder being written, removed if the process exits half-way (Ctrl-C included). */
function trackPending(dir: string): void {
  pendingDirs.add(dir);
  hookExit();
}

/**
 * Writes the new contents into a hidden folder inside the claimed one, then swaps them in: the old
 * entries move aside into another hidden folder, the new ones move in, the old ones are removed. If
 * anything fails before the swap, the folder is as it was.
 */
async function replaceContents(claim: FolderClaim, fill: (dir: string) => Promise<void> | void): Promise<void> {
  const { dir, flag, given, force } = claim;
  removeLeftovers(dir);
  const writing = join(dir, `${WRITING_PREFIX}${process.pid}`);
  const old = join(dir, `${OLD_PREFIX}${process.pid}`);
  trackPending(writing);
  trackPending(old);
  try {
    mkdirSync(writing);
    await fill(writing);
    const files = walk(writing)
      .filter((e) => !e.dir)
      .map((e) => e.path)
      .sort();
    writeFileSync(join(writing, OWNERSHIP_FILE), ownershipText(writing, 'report', files), { flag: 'wx' });
    // A file the user put there while the report ran is theirs: look once more before removing anything.
    checkFolder(flag, given, dir, force);
    mkdirSync(old);
    for (const name of readdirSync(dir)) {
      if (name === LOCK_FILE || RUN_FOLDER.test(name)) continue;
      renameSync(join(dir, name), join(old, name));
    }
    for (const name of readdirSync(writing)) renameSync(join(writing, name), join(dir, name));
  } catch (e) {
    // Put back whatever had moved aside, then report the failure in one line.
    if (lstatOrUndefined(old)) for (const name of readdirSync(old)) if (!lstatOrUndefined(join(dir, name))) renameSync(join(old, name), join(dir, name));
    if (e instanceof UsageError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (typeof err.code === 'string') throw refusal(`${flag}: ${quote(given)}`, `cannot write the report (${err.code}${errnoWords(err.code)}${err.path ? ` on ${quote(err.path)}` : ''})`);
    throw e;
  } finally {
    rmSync(writing, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
    pendingDirs.delete(writing);
    pendingDirs.delete(old);
  }
}

/**
 * Whose a batch's index page is: injury-lab's when the batch ownership file lists it (unchanged, when it
 * records its SHA-256), or, from runs before that file, by its title; 'changed' when the ownership file
 * lists it but its content is no longer what was written.
 */
function indexOwner(dir: string): 'ours' | 'changed' | 'foreign' {
  const path = join(dir, 'index.html');
  if (!lstatOrUndefined(path)?.isFile()) return 'foreign';
  const own = readOwnership(dir, 'batch');
  if (own?.files.includes('index.html')) return own.sha256 === undefined || own.sha256['index.html'] === sha256(path) ? 'ours' : 'changed';
  try {
    return lstatSync(path).size < 1024 * 1024 && readFileSync(path, 'utf8').includes('<title>injury-lab reports</title>') ? 'ours' : 'foreign';
  } catch {
    return 'foreign';
  }
}

function checkBatchFolder(flag: string, given: string, dir: string, force: boolean): void {
  const st = lstatOrUndefined(dir);
  if (!st) return;
  const target = statFollowing(dir, st);
  if (!target || !target.isDirectory()) throw refusal(flag, `${quote(given)} is ${target ? 'a file' : 'a broken link'}, not a folder`, '--all writes a folder of reports');
  if (readOnly(dir, target)) throw refusal(flag, `${quote(given)} is read-only`, 'make it writable or name another folder');
  // The batch rewrites its ownership file: one that is not a batch's is somebody else's (or a single report's).
  if (lstatOrUndefined(join(dir, OWNERSHIP_FILE)) && !readOwnership(dir, 'batch')) {
    throw refusal(flag, `${quote(join(given, OWNERSHIP_FILE))} is not the ownership file of a batch of reports`, 'name a new or empty folder');
  }
  if (!lstatOrUndefined(join(dir, 'index.html'))) return;
  const owner = indexOwner(dir);
  if (owner === 'foreign') throw refusal(flag, `${quote(join(given, 'index.html'))} was not written by injury-lab`, 'name a new or empty folder');
  if (owner === 'changed' && !force) {
    throw refusal(flag, `${quote(join(given, 'index.html'))} was changed since injury-lab wrote it`, 'name another folder, or add --force to replace it');
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
      writeFileAtomic(join(dir, OWNERSHIP_FILE), ownershipText(dir, 'batch', ['index.html']));
    },
    release,
  };
}
