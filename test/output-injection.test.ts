import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRows } from '../src/present/tables/compare.js';
import { csvText, tidyCsv, tidyRows } from '../src/present/tables/csv.js';
import { compareScenarios } from '../src/analysis/compare.js';
import { indexHtml } from '../src/present/report/page.js';
import { runSweep } from '../src/analysis/sweep.js';
import { closePool } from '../src/pool/simulate.js';

/** Issue #10, output injection: no user text may become a spreadsheet formula or a script link. */

type Row = Record<string, string>;

afterAll(() => closePool());

describe('csvText: formula escaping', () => {
  it('prefixes text led by = + - @ tab or CR with a single quote', () => {
    const text = csvText([['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'plain', '']]);
    expect(text).toBe(`'=1+1,'+1,'-1,'@SUM(A1),'\tx,"'\rx",plain,\n`);
  });

  it('writes numbers and booleans unchanged', () => {
    expect(csvText([[-1, -0.25, 0, 1e-7, -Infinity, true, false]])).toBe('-1,-0.25,0,1e-7,-Infinity,true,false\n');
  });

  it('round-trips through csv-parse with the prefix kept as text', () => {
    const cells = ['=HYPERLINK("http://x","y")', '-2+3', '@evil', '\tlead', '\rlead'];
    const parsed = parse(csvText([cells, [-1, -0.25, 0, true, false]])) as string[][];
    expect(parsed[0]).toEqual(cells.map((c) => `'${c}`));
    expect(parsed[1]).toEqual(['-1', '-0.25', '0', 'true', 'false']);
  });
});

describe('tidy CSV (results.csv, sweep --format csv)', () => {
  it('escapes report and analysis ids, keeps negative varied values as numbers', async () => {
    const sweep = await runSweep({ base: { kind: 'injury' }, vary: ['injuryDice=-1..0'] });
    const { rows: raw } = tidyRows([{ report: '=cmd', analysis: '+x', sweep }]);
    expect(raw[0]!.slice(0, 3)).toEqual(['=cmd', '+x', -1]);
    const rows = parse(tidyCsv([{ report: '=cmd', analysis: '+x', sweep }]), { columns: true }) as Row[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).toMatchObject({ report: "'=cmd", analysis: "'+x" });
    expect(rows[0]!.injuryDice).toBe('-1');
    expect(rows.map((r) => r.injuryDice)).toContain('0');
  });
});

describe('compare --format csv', () => {
  /** Runs the built CLI from `cwd`, so a relative file name lands in the `file` column as given. */
  function cliIn(cwd: string, ...args: string[]) {
    const r = spawnSync(process.execPath, [resolve('dist/src/cli/main.js'), ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('escapes scenario names and file names, and leaves negative differences as numbers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'injury-lab-inject-'));
    const evilName = '=HYPERLINK("http://x")';
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ kind: 'injury', name: evilName }));
    writeFileSync(join(dir, '@evil.json'), JSON.stringify({ kind: 'injury', armour: 'standard' }));
    const r = cliIn(dir, 'compare', 'a.json', '@evil.json', '--format', 'csv');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/(^|,|")=HYPERLINK/m);
    const rows = parse(r.stdout, { columns: true }) as Row[];
    const a = rows.filter((x) => x.file === 'a.json');
    const b = rows.filter((x) => x.file === "'@evil.json");
    expect(a.length).toBeGreaterThan(0);
    expect(b).toHaveLength(a.length);
    for (const x of a) expect(x.name).toBe(`'${evilName}`);
    for (const x of b) expect(x.name).toBe("'@evil");
    // Armour makes out of action rarer: a negative difference, written as a plain number.
    const ooa = b.find((x) => x.view === 'outcome' && x.outcome === 'out-of-action')!;
    expect(ooa.difference).toMatch(/^-0\.\d+$/);
    expect(ooa.difference_exact).toMatch(/^'-\d+\/\d+$/);
  });

  it('compareRows holds numbers, not formatted strings, in its numeric columns', async () => {
    const result = await compareScenarios([
      { name: 'a', file: 'a.json', raw: { kind: 'injury' } },
      { name: 'b', file: 'b.json', raw: { kind: 'injury', armour: 'standard' } },
    ]);
    const [header, ...rows] = compareRows(result);
    const col = (n: string) => header!.indexOf(n);
    const ooa = rows.find((r) => r[col('name')] === 'b' && r[col('view')] === 'outcome' && r[col('outcome')] === 'out-of-action')!;
    expect(typeof ooa[col('difference')]).toBe('number');
    expect(ooa[col('difference')]).toBeLessThan(0);
    expect(typeof ooa[col('probability')]).toBe('number');
    expect(typeof ooa[col('ratio')]).toBe('number');
  });
});

describe('batch index page links', () => {
  it('never lets a report id form a scheme: relative, URL-encoded, HTML-escaped', () => {
    const html = indexHtml([{ id: 'javascript:alert(document.domain)', title: 't', description: 'd' }], '2026-01-01');
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('<a href="./javascript%3Aalert(document.domain)/index.html">t</a>');
  });

  it('encodes quotes, slashes and markup in ids', () => {
    const html = indexHtml([{ id: `x" onclick="y'/<b>`, title: 't', description: 'd' }], '2026-01-01');
    expect(html).toContain('<a href="./x%22%20onclick%3D%22y&#39;%2F%3Cb%3E/index.html">t</a>');
  });
});
