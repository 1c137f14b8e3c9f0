import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { UsageError } from './errors.js';
import { refusal } from './messages.js';
import { MAX_JSON_BYTES, STANDARD_INPUT, parseJsonText, type JsonInput } from './json-text.js';

/**
 * Every JSON file the user names (scenario files, report definitions) is read here, so a folder, a device,
 * a FIFO, a huge file or absurdly deep JSON ends in one line instead of a hang, an out-of-memory or a stack
 * overflow further on (ajv, messages and titles recurse).
 */

export interface JsonInputKind {
  /** How messages name the file, e.g. `scenario file "a.json"` or `reports/a.json`. */
  readonly label: string;
  /** What the file is, for the size message: "a scenario file". */
  readonly what: string;
  /** The words for a missing file (a dangling link included): "no such file". */
  readonly missing: string;
}

/** "a folder", "a FIFO", ...: what a non-regular file is, for messages. */
export function fileKind(s: Stats): string {
  if (s.isFile()) return 'a regular file';
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  return 'a special file';
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** A file the user names, read with a bound: how messages name it, and the most it may hold. */
export interface BoundedFile {
  /** How messages name the file, e.g. `scenario file "a.json"`. */
  readonly label: string;
  /** What the file is, for the size message: "a scenario file". */
  readonly what: string;
  /** The words for a missing file (a dangling link included): "no such file". */
  readonly missing: string;
  readonly maxBytes: number;
}

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

/**
 * The bytes of a file the user gave, refused in one UsageError line starting with `file.label`: a
 * missing file, anything but a regular file (a symlink to one is fine), and more than `maxBytes`.
 */
export function readBoundedFile(path: string, file: BoundedFile): Buffer {
  const cannot = (e: unknown): UsageError => {
    const code = (e as NodeJS.ErrnoException).code;
    return refusal(file.label, code === 'ENOENT' ? file.missing : `cannot be read (${code ?? 'error'})`);
  };
  const tooBig = (size: string) => refusal(file.label, `is ${size}`, `${file.what} is at most ${mib(file.maxBytes)}`);
  const notRegular = (s: Stats) => refusal(file.label, `is not a regular file (it is ${fileKind(s)})`);

  // stat before open: opening a FIFO blocks until someone writes to it.
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    throw cannot(e);
  }
  if (!st.isFile()) throw notRegular(st);
  if (st.size > file.maxBytes) throw tooBig(mb(st.size));

  let fd: number;
  try {
    // O_NONBLOCK: should the path become a FIFO between stat and open, open does not hang.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw cannot(e);
  }
  try {
    const again = fstatSync(fd);
    if (!again.isFile()) throw notRegular(again);
    // Bounded read: some regular files (/proc) stat as 0 bytes but hold more.
    const buf = Buffer.alloc(file.maxBytes + 1);
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    if (n > file.maxBytes) throw tooBig(`more than ${mib(file.maxBytes)}`);
    return buf.subarray(0, n);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw cannot(e);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads and parses a JSON file the user gave. Refuses, in one UsageError line starting with `kind.label`:
 * a missing file, anything but a regular file (a symlink to one is fine), more than MAX_JSON_BYTES, invalid
 * JSON, and nesting deeper than MAX_JSON_DEPTH.
 */
export function readJsonInput(path: string, kind: JsonInputKind): JsonInput {
  return parseJsonText(readBoundedFile(path, { ...kind, maxBytes: MAX_JSON_BYTES }).toString('utf8'), kind.label);
}

/**
 * JSON piped in on standard input (`report -`), read with the same bound as a file. A terminal is refused
 * at once: a user who typed `report -` by mistake would otherwise wait on a prompt-less read.
 */
export async function readJsonStdin(stdin: NodeJS.ReadStream, what: string): Promise<JsonInput> {
  if (stdin.isTTY) throw refusal(STANDARD_INPUT, 'is a terminal', `pipe ${what} in, e.g. injury-lab report - --out DIR < definition.json`);
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stdin as AsyncIterable<Buffer | string>) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += b.length;
    if (bytes > MAX_JSON_BYTES) {
      stdin.destroy();
      throw refusal(STANDARD_INPUT, `holds more than ${MAX_JSON_BYTES / 1024 / 1024} MiB`, `${what} is at most ${MAX_JSON_BYTES / 1024 / 1024} MiB`);
    }
    chunks.push(b);
  }
  if (bytes === 0) throw refusal(STANDARD_INPUT, 'is empty', `pipe ${what} in, e.g. injury-lab report - --out DIR < definition.json`);
  return parseJsonText(Buffer.concat(chunks).toString('utf8'), STANDARD_INPUT);
}
