import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonInput } from '../src/json-input.js';
import { MAX_JSON_BYTES, jsonDepth } from '../src/json-text.js';
import { loadReportDef, parseReportDef, reportIdOf } from '../src/present/report/definition.js';
import { cli } from './helpers/cli.js';
import { cliInProcess } from './helpers/cli-in-process.js';

/**
 * Hostile input files (issue #10): each is refused in one line on stderr, exit 2, nothing on stdout,
 * nothing written. `cli` is the built CLI in a process of its own (run `npm run build` first);
 * `cliInProcess` runs the same src/cli/main.ts inside this process, for the many variants whose refusal
 * is only a matter of wording. A real process is kept for one refusal of each family and for every input
 * that might hang (/dev/zero, FIFOs), which only a process can be killed out of.
 */

const DEEP = 5000;
const deepArray = '['.repeat(DEEP) + ']'.repeat(DEEP);

const goodDef = {
  title: 'Armour',
  analyses: [{ id: 'armour', title: 'Armour', scenario: { kind: 'injury' }, vary: ['armour=none,standard'] }],
};

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'injury-lab-input-'));
}

/** Every entry under a folder (links not followed) with its type, size, time and content: "nothing changed" is equality. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const stack = [dir];
  for (let d = stack.pop(); d !== undefined; d = stack.pop()) {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = lstatSync(p);
      if (s.isDirectory()) stack.push(p);
      const body = s.isFile() ? readFileSync(p, 'base64') : s.isSymbolicLink() ? readlinkSync(p) : '';
      out[p] = `${s.mode} ${s.size} ${s.mtimeMs} ${body}`;
    }
  }
  return out;
}

/** A refusal: exit 2, empty stdout, exactly one line on stderr, matching `message`. */
function expectRefused(r: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  const lines = r.stderr.slice(0, -1).split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^injury-lab: /);
  expect(lines[0]).toMatch(message);
  expect(r.code).toBe(2);
}

/**
 * For inputs that used to hang or eat memory (/dev/zero, a FIFO): a hang detector far shorter than the
 * shared one, still far above a normal start-up, so a regression fails instead of stalling.
 */
function cliQuick(...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('JSON nested too deep', () => {
  const dir = tempDir();
  const scenario = join(dir, 'deep.json');
  writeFileSync(scenario, `{ "kind": "injury", "armour": ${deepArray} }`);
  const bare = join(dir, 'bare.json');
  writeFileSync(bare, deepArray);
  const def = join(dir, 'deep-def.json');
  writeFileSync(def, JSON.stringify({ ...goodDef, title: 'X' }).replace('"X"', deepArray));
  const tooDeep = new RegExp(`JSON nested ${DEEP + 1} deep; at most 64 levels are allowed$`);

  it('exact', async () => {
    // End to end in a CLI process: 5000 levels end in one line, not a stack overflow.
    expectRefused(cli('exact', scenario), new RegExp(`^injury-lab: scenario file ".*deep\\.json": ${tooDeep.source}`));
    expectRefused(await cliInProcess('exact', bare), new RegExp(`bare\\.json": JSON nested ${DEEP} deep; at most 64 levels are allowed$`));
  });

  it('sweep', async () => {
    expectRefused(await cliInProcess('sweep', scenario, '--vary', 'armour=none,standard'), tooDeep);
  });

  it('compare, whichever file is deep', async () => {
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, JSON.stringify({ kind: 'injury' }));
    expectRefused(await cliInProcess('compare', scenario, ok), tooDeep);
    expectRefused(await cliInProcess('compare', ok, scenario), tooDeep);
  });

  it('report --check-only', async () => {
    expectRefused(await cliInProcess('report', def, '--check-only'), new RegExp(`^injury-lab: ${def.replace(/[.\\]/g, '\\$&')}: ${tooDeep.source}`));
  });

  it('64 levels pass, 65 do not; depth is measured without recursion', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth([])).toBe(1);
    expect(jsonDepth({ a: [1, { b: [] }] })).toBe(4);
    expect(jsonDepth(JSON.parse('['.repeat(1e6) + ']'.repeat(1e6)))).toBe(1e6);
    const nested = (n: number) => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n)) as unknown;
    const kind = { label: 'f', what: 'a scenario file', missing: 'no such file' };
    const at = (n: number) => {
      const f = join(dir, `nested-${n}.json`);
      writeFileSync(f, JSON.stringify(nested(n)));
      return () => readJsonInput(f, kind);
    };
    expect(at(64)).not.toThrow();
    expect(at(65)).toThrow(/^f: JSON nested 65 deep; at most 64 levels are allowed$/);
    // Documents handed to the library directly are checked too.
    expect(() => parseReportDef({ ...goodDef, title: nested(100) }, 'x.json')).toThrow(/^x\.json: JSON nested 101 deep/);
  });
});

describe('files that are not regular files, or too big', () => {
  it('a folder given as scenario file or report definition', async () => {
    const dir = tempDir();
    expectRefused(await cliInProcess('exact', dir), /^injury-lab: scenario file ".*": is not a regular file \(it is a folder\)$/);
    const asDef = join(dir, 'folder.json');
    mkdirSync(asDef);
    expectRefused(await cliInProcess('report', asDef, '--check-only'), /folder\.json: is not a regular file \(it is a folder\)$/);
  });

  // /dev/zero and FIFOs used to hang: they run in a CLI process, which cliQuick can kill.
  it('exact /dev/zero ends at once', () => {
    if (!existsSync('/dev/zero')) return;
    expectRefused(cliQuick('exact', '/dev/zero'), /^injury-lab: scenario file "\/dev\/zero": is not a regular file \(it is a character device\)$/);
  });

  it('a FIFO is refused without opening it (which would wait for a writer)', (ctx) => {
    const dir = tempDir();
    const fifo = join(dir, 'pipe.json');
    const made = spawnSync('mkfifo', [fifo]);
    if (made.error || made.status !== 0) return ctx.skip();
    expectRefused(cliQuick('exact', fifo), /pipe\.json": is not a regular file \(it is a FIFO\)$/);
    expectRefused(cliQuick('report', fifo, '--check-only'), /pipe\.json: is not a regular file \(it is a FIFO\)$/);
  });

  it('a 2 MB file is refused by its size', async () => {
    const dir = tempDir();
    const big = join(dir, 'big.json');
    writeFileSync(big, `{ "kind": "injury", "name": "${'x'.repeat(2_000_000)}" }`);
    expectRefused(await cliInProcess('exact', big), /big\.json": is 2\.0 MB; a scenario file is at most 1 MiB$/);
    expectRefused(await cliInProcess('report', big, '--check-only'), /big\.json: is 2\.0 MB; a report definition is at most 1 MiB$/);
    // Exactly the limit is allowed through to the parser.
    const limit = join(dir, 'limit.json');
    const head = '{ "kind": "injury", "description": "';
    writeFileSync(limit, `${head}${'x'.repeat(MAX_JSON_BYTES - head.length - 3)}" }`);
    expect(statSync(limit).size).toBe(MAX_JSON_BYTES);
    expect(await cliInProcess('exact', limit)).toMatchObject({ code: 0, stderr: '' });
  });

  it('a file that stats as 0 bytes is still read only up to the limit', (ctx) => {
    // /proc files are regular, stat as 0 bytes, and kallsyms holds megabytes.
    const p = '/proc/kallsyms';
    if (!existsSync(p) || statSync(p).size !== 0 || readFileSync(p).length <= MAX_JSON_BYTES) return ctx.skip();
    expect(() => readJsonInput(p, { label: 'k', what: 'a scenario file', missing: 'no such file' })).toThrow(/^k: is more than 1 MiB; a scenario file is at most 1 MiB$/);
  });

  it('a link to a regular file is read; a dangling link is "no such file"', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'real.json'), JSON.stringify({ kind: 'injury' }));
    symlinkSync('real.json', join(dir, 'link.json'));
    symlinkSync('gone.json', join(dir, 'dangling.json'));
    expect(await cliInProcess('exact', join(dir, 'link.json'))).toMatchObject({ code: 0, stderr: '' });
    expectRefused(await cliInProcess('exact', join(dir, 'dangling.json')), /dangling\.json": no such file$/);
    expectRefused(await cliInProcess('report', join(dir, 'dangling.json'), '--check-only'), /dangling\.json: no such report file$/);
  });
});

describe('report ids', () => {
  const rule = 'a report file name must be at most 64 letters, digits, - and _ (starting with a letter or digit), then .json';

  it('every shipped definition has a safe id', () => {
    for (const f of readdirSync('reports').filter((n) => n.endsWith('.json'))) expect(loadReportDef(join('reports', f)).id).toMatch(/^[a-z0-9-]+$/);
  });

  it('ids are checked wherever they are made', () => {
    expect(reportIdOf('defs/trench_2-b.json')).toBe('trench_2-b');
    expect(reportIdOf(`${'a'.repeat(64)}.json`)).toBe('a'.repeat(64));
    for (const bad of ['defs/...json', '..json', '.hidden.json', 'a b.json', 'javascript:alert(1).json', '-x.json', `${'a'.repeat(65)}.json`, 'é.json']) {
      expect(() => reportIdOf(bad)).toThrow(`${JSON.stringify(bad)}: ${rule}`);
      expect(() => parseReportDef(goodDef, bad)).toThrow(`${JSON.stringify(bad)}: ${rule}`);
    }
    expect(() => reportIdOf('nul.json')).toThrow(/"nul" is a device name on Windows/);
  });

  it('a single definition with an unsafe name is refused without --all in the message', async () => {
    const dir = tempDir();
    const f = join(dir, '...json');
    writeFileSync(f, JSON.stringify(goodDef));
    const before = snapshot(dir);
    expectRefused(await cliInProcess('report', f, '--out', join(dir, 'out')), new RegExp(`^injury-lab: ${JSON.stringify(f).replace(/[.\\]/g, '\\$&')}: a report file name must`));
    expect(snapshot(dir)).toEqual(before);
  });

  describe('--all refuses the whole folder, writing nothing', () => {
    /**
     * A folder of one good definition plus `add`, run with --out two levels down (`...json` once replaced
     * the parent). In this process unless `spawn`: what is on disk afterwards is the same code's doing
     * either way, and the first name below checks it with a real CLI process.
     */
    async function runAll(add: (defs: string) => void, { spawn = false } = {}) {
      const root = tempDir();
      const defs = join(root, 'defs');
      mkdirSync(defs);
      mkdirSync(join(root, 'work'));
      writeFileSync(join(root, 'work', 'keep.txt'), 'keep');
      writeFileSync(join(defs, 'good.json'), JSON.stringify(goodDef));
      add(defs);
      const before = snapshot(root);
      const out = join(root, 'work', 'out');
      const args = ['report', '--all', defs, '--out', out];
      const r = spawn ? cli(...args) : await cliInProcess(...args);
      expect(existsSync(out)).toBe(false);
      expect(snapshot(root)).toEqual(before);
      return { r, defs };
    }

    for (const name of ['...json', '..json', '.hidden.json', 'a b.json', 'javascript:alert(1).json']) {
      it(name, async () => {
        const { r, defs } = await runAll((d) => writeFileSync(join(d, name), JSON.stringify(goodDef)), { spawn: name === '...json' });
        expectRefused(r, /^injury-lab: --all: /);
        expect(r.stderr).toBe(`injury-lab: --all: ${JSON.stringify(join(defs, name))}: ${rule}\n`);
      });
    }

    it('a dangling *.json link', async () => {
      const { r, defs } = await runAll((d) => symlinkSync('gone.json', join(d, 'x.json')));
      expectRefused(r, /^injury-lab: --all: /);
      expect(r.stderr).toBe(`injury-lab: --all: ${JSON.stringify(join(defs, 'x.json'))} is a broken link\n`);
    });

    it('a *.json folder', async () => {
      const { r } = await runAll((d) => mkdirSync(join(d, 'sub.json')));
      expectRefused(r, /--all: ".*sub\.json" is not a regular file \(it is a folder\); allowed: report definitions \(\*\.json\)$/);
    });

    // In process: --all only stats its entries, and reading one would meet readJsonInput's FIFO check,
    // which the spawned FIFO test above guards against hanging.
    it('a *.json FIFO', async (ctx) => {
      const { r } = await runAll((d) => {
        const made = spawnSync('mkfifo', [join(d, 'pipe.json')]);
        if (made.error || made.status !== 0) ctx.skip();
      });
      expectRefused(r, /--all: ".*pipe\.json" is not a regular file \(it is a FIFO\); allowed: report definitions/);
    });

    it('a link to a definition elsewhere is fine', async () => {
      const root = tempDir();
      const defs = join(root, 'defs');
      mkdirSync(defs);
      writeFileSync(join(root, 'elsewhere.json'), JSON.stringify(goodDef));
      symlinkSync(join(root, 'elsewhere.json'), join(defs, 'linked.json'));
      const r = await cliInProcess('report', '--all', defs, '--check-only');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/linked\.json: ok/);
    });

    it('names that differ only in case', async (ctx) => {
      const { r } = await runAll((d) => {
        writeFileSync(join(d, 'Good.json'), JSON.stringify(goodDef));
        if (readdirSync(d).length < 2) ctx.skip(); // a case-insensitive file system: one file
      });
      expectRefused(r, /--all: ".*Good\.json" and ".*good\.json" differ only in case; each report needs its own output folder name$/);
    });
  });
});
