import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJsonStdin } from '../src/json-input.js';
import { MAX_JSON_BYTES } from '../src/json-text.js';
import { cliInProcessWith } from './helpers/cli-in-process.js';

/**
 * `report -`: a definition piped in (from a script that writes definitions, or a here-document). It is
 * read with the bounds of a file, named "standard input" in messages, reads its variant and profiles files
 * relative to the working folder, is named after its output folder, and leaves a copy of itself in it.
 *
 * Most runs are in this process (`cliInProcessWith`: the same src/cli/main.ts, its stdin the text given,
 * as one chunk of a pipe). One runs in a CLI process of its own with a real pipe, many chunks of it: more
 * than the limit, which has to be counted across chunks and stop the read.
 */

const MAIN = resolve('dist/src/cli/main.js');

/** `injury-lab report ...args < input`, from the folder `cwd`, in this process. */
function piped(input: string | Buffer, args: string[], cwd = process.cwd()) {
  return cliInProcessWith({ cwd, stdin: input }, 'report', ...args);
}

/** The same through a real pipe into a CLI process of its own. */
function pipedToProcess(input: string | Buffer, args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, 'report', ...args], { input, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Exact only and a few cells: a second or so with its charts. */
const definition = {
  title: 'Piped: a variant against the core rules',
  analyses: [
    {
      scenario: { kind: 'injury' },
      vary: ['armour=none,standard', { field: 'rules', values: ['none', 'examples/variants/out-of-action-on-10.json'] }],
    },
  ],
};
const text = JSON.stringify(definition, null, 2);

const results = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));

describe('report - (the definition on standard input)', () => {
  it('runs it, names the report after its folder, keeps the definition beside the page, and gives what the same file gives', async () => {
    // A working folder of the designer's own, with the variant file the definition names relative to it.
    const work = mkdtempSync(join(tmpdir(), 'injury-lab-stdin-'));
    mkdirSync(join(work, 'examples', 'variants'), { recursive: true });
    copyFileSync('examples/variants/out-of-action-on-10.json', join(work, 'examples', 'variants', 'out-of-action-on-10.json'));
    const out = join(work, 'what-if');
    const r = await piped(text, ['-', '--out', 'what-if'], work);
    expect(r.stderr).not.toMatch(/Error|at .*\.js/);
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, 'definition.json'), 'utf8')).toBe(text);
    const fromPipe = results(out);
    expect(fromPipe.report).toMatchObject({ id: 'what-if', file: 'standard input', title: definition.title });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('injury-lab report - --out DIR &lt; definition.json');

    // The same definition from a file in the working folder: the same cells.
    writeFileSync(join(work, 'twin.json'), text);
    expect((await cliInProcessWith({ cwd: work }, 'report', 'twin.json', '--out', 'twin')).code).toBe(0);
    const fromFile = results(join(work, 'twin'));
    expect(fromPipe.analyses.map((a: { cells: unknown }) => a.cells)).toEqual(fromFile.analyses.map((a: { cells: unknown }) => a.cells));
    // The variant was read: Out of Action on 10+ for an unarmoured model is what 9+ is under Standard
    // Armour's -1 (the same totals qualify), and differs from the core rules' 9+ for both.
    const ooa = new Map<string, string>(
      fromPipe.analyses[0].cells.map((c: { labels: string[]; outcomes: { outcome: string; exact: string }[] }) => [c.labels.join(' '), c.outcomes.find((o) => o.outcome === 'out-of-action')!.exact]),
    );
    expect(ooa.size).toBe(4);
    const [noneCore, noneVariant, standardCore, standardVariant] = [...ooa.values()];
    expect(noneVariant).toBe(standardCore);
    expect(new Set([noneCore, noneVariant, standardVariant]).size).toBe(3);

    // Run again into the same folder: the copy of the definition is the report's own file, so it is replaced.
    expect((await piped(text, ['-', '--out', 'what-if'], work)).code).toBe(0);
  });

  it('reads variant files relative to the working folder, not to a file it does not have', async () => {
    const r = await piped(text, ['-', '--check-only'], resolve('reports'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('examples/variants/out-of-action-on-10.json');
    const ok = await piped(text, ['-', '--check-only']);
    expect(ok.stdout).toBe('standard input: ok (1 analyses, 4 cells)\n');
  });

  it('refuses, in one line and with nothing written: an empty input, invalid JSON, too much, and a definition named with --all', async () => {
    const work = mkdtempSync(join(tmpdir(), 'injury-lab-stdin-bad-'));
    const out = join(work, 'never');
    const cases: [string | Buffer, string, typeof pipedToProcess | typeof piped][] = [
      ['', 'standard input: is empty', piped],
      ['{"title": ', 'standard input: not valid JSON', piped],
      // End to end: a real pipe hands it over in many chunks.
      [Buffer.alloc(MAX_JSON_BYTES + 10, 0x20), 'standard input: holds more than 1 MiB', pipedToProcess],
      ['{"title": "no analyses"}', 'standard input', piped],
    ];
    for (const [input, message, run] of cases) {
      const r = await run(input, ['-', '--out', out]);
      expect({ message, code: r.code }).toEqual({ message, code: 2 });
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(message);
      expect(existsSync(out)).toBe(false);
    }
    expect((await piped(text, ['-', '--all', 'reports', '--out', out])).stderr).toContain('not both');
  });

  it('says a file the definition names is not JSON without quoting a byte of it (the file may be anyone\'s)', async () => {
    const work = mkdtempSync(join(tmpdir(), 'injury-lab-stdin-quote-'));
    // A stand-in for /etc/passwd: a file the user did not write on the command line.
    writeFileSync(join(work, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\nsecret-line\n');
    const naming = JSON.stringify({ title: 't', analyses: [{ scenario: { kind: 'injury', rules: 'passwd' }, vary: ['armour=none,standard'] }] });
    const r = await piped(naming, ['-', '--check-only'], work);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('injury-lab: standard input: analyses[0]: cell armour="none": variant file "passwd": not valid JSON (an unexpected character at line 1, column 1)\n');
  });

  it('refuses a terminal at once instead of waiting for what nobody will type', async () => {
    const tty = Object.assign(Readable.from([]), { isTTY: true }) as unknown as NodeJS.ReadStream;
    await expect(readJsonStdin(tty, 'a report definition')).rejects.toThrow(/^standard input: is a terminal.*report - --out DIR < definition\.json/);
  });
});
