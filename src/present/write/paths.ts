import { accessSync, constants, lstatSync, statSync, realpathSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { UsageError, showValue } from '../../errors.js';
import { refusal } from '../../messages.js';

/**
 * What any output path is checked for, a file's or a report folder's: where it really is (links
 * followed), whether its folder can be made and written, whether it is a folder no run may replace (the
 * root, the current or home folder, one holding an input), and a system error on it said in one line.
 */

export const quote = (path: string) => showValue(path);

export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** A folder nobody may write into: no write bit at all (root ignores permissions, so ask the mode), or no access for us. */
export function readOnly(path: string, st: Stats): boolean {
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
export function checkCanCreate(flag: string, given: string, abs: string): void {
  let up = dirname(abs);
  for (;;) {
    const st = lstatOrUndefined(up);
    if (st) {
      const target = statFollowing(up, st);
      if (!target) throw refusal(`${flag}: ${quote(given)}`, `${quote(up)} is a broken link`);
      if (!target.isDirectory()) throw refusal(`${flag}: ${quote(given)}`, `${quote(up)} is a file, not a folder`);
      if (readOnly(up, target)) throw refusal(`${flag}: ${quote(given)}`, `${quote(up)} is read-only, so nothing can be created in it`);
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
export function realPath(path: string): string {
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
export function checkNotPrecious(flag: string, given: string, abs: string, inputs: readonly string[]): void {
  const real = realPath(abs);
  if (abs === resolve('/') || real === realPath('/')) throw refusal(flag, `${quote(given)} is the root folder`, 'name a folder of its own, such as out/NAME');
  if (isInside(process.cwd(), abs) || isInside(realPath(process.cwd()), real)) {
    throw refusal(flag, `${quote(given)} is or holds the current folder`, 'name a folder of its own, such as out/NAME');
  }
  if (isInside(homedir(), abs) || isInside(realPath(homedir()), real)) {
    throw refusal(flag, `${quote(given)} is or holds your home folder`, 'name a folder of its own, such as out/NAME');
  }
  for (const input of inputs) {
    if (isInside(resolve(input), abs) || isInside(realPath(input), real)) {
      throw refusal(flag, `${quote(given)} holds ${quote(input)}, an input of this run`, 'name another folder');
    }
  }
}

/** The folder a path names, following a symlink; undefined for a broken link. */
export function statFollowing(path: string, st: Stats): Stats | undefined {
  if (!st.isSymbolicLink()) return st;
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** A system error met on a user's path as the one line naming the path; anything else as it was. */
export function oneLine(flag: string, given: string, doing: string, e: unknown): unknown {
  if (e instanceof UsageError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? refusal(`${flag}: ${quote(given)}`, `${doing} (${code}${errnoWords(code)})`) : e;
}

export function inOneLine<T>(flag: string, given: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw oneLine(flag, given, 'cannot use it', e);
  }
}

/** A few words on the errors a write can meet, for the one-line message. */
export function errnoWords(code: string): string {
  const words: Record<string, string> = {
    ENOSPC: ': the disk is full',
    EDQUOT: ': over the disk quota',
    ENAMETOOLONG: ': the name is too long',
    ELOOP: ': too many symbolic links (a loop?)',
    EISDIR: ': it is a folder',
    EACCES: ': permission denied',
    EPERM: ': not permitted',
    EROFS: ': a read-only file system',
    EIO: ': an input/output error',
  };
  return words[code] ?? '';
}
