import { mkdirSync, rmSync, statSync, writeFileSync, linkSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { refusal } from '../../messages.js';
import { siblingTemp, writeFileAtomic } from './files.js';
import { quote, lstatOrUndefined, readOnly, checkCanCreate, realPath, statFollowing, oneLine, inOneLine } from './paths.js';

/**
 * A file output (`sweep --out`, `compare --out`, a chart file): checked before any work starts, and
 * written whole or not at all, never replacing a file that appeared since the check.
 */

/**
 * Checks a file output (`sweep --out`, `compare --out`) before any work starts: not a folder, a device, a
 * pipe or a broken link; not an existing file unless --force; and its folder exists or can be made (so
 * `--out /proc/x/y.csv` is refused at once).
 */
export function checkOutputFile(given: string, inputs: readonly string[] = [], flag = '--out', force = false): void {
  inOneLine(flag, given, () => checkOutputFileNow(given, inputs, flag, force));
}

function checkOutputFileNow(given: string, inputs: readonly string[], flag: string, force: boolean): void {
  const abs = resolve(given);
  const real = realPath(abs);
  for (const input of inputs) if (resolve(input) === abs || realPath(input) === real) throw refusal(flag, `${quote(given)} is an input of this run`, 'name another file');
  const st = lstatOrUndefined(abs);
  if (st) {
    const target = statFollowing(abs, st);
    if (!target) throw refusal(flag, `${quote(given)} is a broken link`, 'name a file to write');
    if (target.isDirectory()) throw refusal(flag, `${quote(given)} is a folder`, `name a file, such as ${quote(join(given, 'results.csv'))}`);
    if (!target.isFile()) throw refusal(flag, `${quote(given)} is not a regular file (a device, a pipe or a socket)`, 'name a file to write, or leave out --out to print');
    if (!force) throw refusal(flag, `${quote(given)} already exists`, 'name a new file, or add --force to replace it');
    const parent = dirname(real);
    if (readOnly(parent, statSync(parent))) throw refusal(`${flag}: ${quote(given)}`, `${quote(parent)} is read-only`);
    return;
  }
  checkCanCreate(flag, given, abs);
}

/**
 * Writes a checked file output whole or not at all. A new file is linked into place, so a file that
 * appeared since the check is never replaced; with --force an existing file is replaced, and a symbolic
 * link is written through (the file it points to is replaced, the link stays). A failure (a full disk, a
 * name too long) is one line, and leaves nothing behind.
 */
export function writeOutputFile(given: string, text: string | Uint8Array, flag = '--out', force = false): void {
  const abs = resolve(given);
  try {
    const st = lstatOrUndefined(abs);
    if (st && !force) throw refusal(flag, `${quote(given)} appeared while the run went on`, 'name a new file, or add --force to replace it');
    if (st) {
      const real = realpathSync(abs);
      if (!statSync(real).isFile()) throw refusal(flag, `${quote(given)} is not a regular file`, 'name a file to write');
      writeFileAtomic(real, text);
      return;
    }
    mkdirSync(dirname(abs), { recursive: true });
    const tmp = siblingTemp(abs, 'tmp');
    try {
      writeFileSync(tmp, text, { flag: 'wx' });
      linkSync(tmp, abs);
    } finally {
      rmSync(tmp, { force: true });
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw refusal(flag, `${quote(given)} appeared while the run went on`, 'name a new file, or add --force to replace it');
    throw oneLine(flag, given, 'cannot write the file', e);
  }
}
