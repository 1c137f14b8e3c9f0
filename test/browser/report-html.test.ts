import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReportDef } from '../../src/present/report/definition.js';
import { writeReport } from '../../src/present/write/report.js';
import { runReport } from '../../src/present/report/run.js';
import { closePool } from '../../src/pool/simulate.js';

/**
 * The report page in a real browser: Debian's Chromium, driven by playwright-core, opens index.html
 * from disk with every request that is not a local file aborted, and checks what a reader would see.
 * CI installs Chromium (.ci/run); on a machine without it the test is skipped, unless CI is set.
 */
const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);

const out = mkdtempSync(join(tmpdir(), 'injury-lab-html-'));
const reports = ['trench-armour', 'trench-falls'];
let browser: Browser;

beforeAll(async () => {
  // The reports and the browser's start at once: neither waits for the other.
  const launched = available
    ? chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      })
    : undefined;
  launched?.catch(() => undefined); // its failure is thrown below, once awaited, not reported as unhandled first
  await Promise.all(reports.map(async (id) => writeReport(await runReport(loadReportDef(`reports/${id}.json`)), join(out, id))));
  await closePool();
  if (launched) browser = await launched;
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!available)('the HTML report in headless Chromium, offline', () => {
  for (const id of reports) {
    it(`${id}: every chart drawn, every table filled, no console errors, no network requests`, async () => {
      const context = await browser.newContext({ offline: true, viewport: { width: 1200, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      const outside: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:')) return route.continue();
        outside.push(url);
        return route.abort();
      });
      await page.goto(pathToFileURL(join(out, id, 'index.html')).href, { waitUntil: 'load' });

      const charts = await page.$$eval('figure.chart', (figs) =>
        figs.map((f) => {
          const svg = f.querySelector('svg');
          const box = svg?.getBoundingClientRect();
          return {
            name: f.getAttribute('data-chart'),
            width: box?.width ?? 0,
            height: box?.height ?? 0,
            marks: svg ? svg.querySelectorAll('path, rect, line').length : 0,
            text: svg ? svg.querySelectorAll('text').length : 0,
          };
        }),
      );
      const expected = loadReportDef(`reports/${id}.json`).analyses.reduce((n, a) => n + a.charts.length, 0);
      expect(charts).toHaveLength(expected);
      for (const c of charts) {
        expect(c.width, c.name!).toBeGreaterThan(300);
        expect(c.height, c.name!).toBeGreaterThan(150);
        expect(c.marks, c.name!).toBeGreaterThan(10);
        expect(c.text, c.name!).toBeGreaterThan(5);
      }

      const tables = await page.$$eval('table.numbers', (ts) =>
        ts.map((t) => ({
          kind: t.getAttribute('data-table'),
          headers: t.querySelectorAll('thead th').length,
          rows: t.querySelectorAll('tbody tr').length,
          empty: [...t.querySelectorAll('tbody td')].filter((td) => (td.textContent ?? '').trim() === '').length,
          cells: t.querySelectorAll('tbody td').length,
        })),
      );
      const def = loadReportDef(`reports/${id}.json`);
      const simulated = def.analyses.filter((a) => a.sim && a.exact).length;
      expect(tables).toHaveLength(2 * def.analyses.length + simulated);
      for (const t of tables) {
        expect(t.rows).toBeGreaterThan(0);
        expect(t.headers).toBeGreaterThan(2);
        expect(t.cells).toBe(t.rows * t.headers);
        expect(t.empty).toBe(0);
      }

      // The manifest says how to make the numbers again.
      const manifest = await page.textContent('#manifest');
      expect(manifest).toMatch(/injury-lab \d+\.\d+\.\d+/);
      expect(manifest).toMatch(/seed \d+/);
      expect(manifest).toMatch(/sha256 [0-9a-f]{64}/);
      if (simulated) expect(await page.textContent('body')).toMatch(/Simulation agrees with the exact answers/);

      // Hover: every chart's marks carry their values as titles, and the pointer at the middle of a bar or
      // a heat-map cell reaches the mark (neither its printed value nor an interval's rule takes the hover).
      const hover = await page.$$eval('figure.chart svg', (svgs) =>
        svgs.map((svg) => {
          const titled = [...svg.querySelectorAll('path > title')].map((t) => t.parentElement!);
          const blocks = titled.filter((m) => /rect|bar/.test(m.getAttribute('aria-roledescription') ?? ''));
          const missed = blocks.filter((m) => {
            const b = m.getBoundingClientRect();
            if (b.width < 6 || b.height < 6) return false;
            m.scrollIntoView({ block: 'center' });
            const c = m.getBoundingClientRect();
            return svg.ownerDocument.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2) !== m;
          });
          return { titled: titled.length, blocks: blocks.length, missed: missed.map((m) => m.querySelector('title')!.textContent) };
        }),
      );
      for (const h of hover) {
        expect(h.titled).toBeGreaterThan(0);
        expect(h.missed).toEqual([]);
      }
      expect(hover.some((h) => h.blocks > 0)).toBe(true);

      // Inlined SVGs must not share ids (a clash would make one chart use another's gradient).
      const ids = await page.$$eval('svg [id]', (els) => els.map((e) => e.id));
      expect(new Set(ids).size).toBe(ids.length);

      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('the page holds everything it needs: no external resources in the HTML', () => {
    for (const id of reports) {
      const html = readFileSync(join(out, id, 'index.html'), 'utf8');
      expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
      expect(html).not.toMatch(/\bsrc=|@import|url\((?!#)/i);
      // Each grid analysis's matrix CSV in matrices/ (a report of prices alone has none).
      const analyses = (JSON.parse(readFileSync(join(out, id, 'results.json'), 'utf8')) as { analyses: { id: string }[] }).analyses;
      expect(readdirSync(join(out, id)).sort()).toEqual(['.injury-lab.json', 'charts', 'index.html', ...(analyses.length ? ['matrices'] : []), 'results.csv', 'results.json']);
      if (analyses.length) expect(readdirSync(join(out, id, 'matrices')).sort()).toEqual(analyses.map((a) => `${a.id}.csv`).sort());
    }
  });
});
