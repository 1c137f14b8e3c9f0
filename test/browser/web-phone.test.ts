import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePage } from '../../src/cli/commands/serve.js';

/**
 * The web page (dist/web) in Debian's Chromium through playwright-core, as test/browser/web-page.test.ts
 * drives it, on what a phone shows and what the console says: the answer's headline at the top of a
 * phone's window while the form is edited, and charts drawn without Vega-Lite's warnings.
 */
const CHROMIUM = '/usr/bin/chromium';
const WEB = join(process.cwd(), 'dist', 'web');
const available = existsSync(CHROMIUM);
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);

let browser: Browser;
let context: BrowserContext;
let server: Server;
let origin: string;

beforeAll(async () => {
  if (!available) return;
  if (!existsSync(join(WEB, 'index.html'))) throw new Error('dist/web is not built: npm test builds it (node dist/scripts/build-web.js)');
  server = await servePage(WEB, 0);
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  context = await browser.newContext({ viewport: PHONE, acceptDownloads: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

interface Visit {
  readonly page: Page;
  /** What went wrong in the page: every test expects none. */
  readonly errors: string[];
  /** Every console message of the page, of every level ("warning: WARN Dropping ..."). */
  readonly console: string[];
}

/** A page of its own at `hash`, its errors and console collected, every request outside the server refused. */
async function open(hash: string, viewport: { width: number; height: number }): Promise<Visit> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const errors: string[] = [];
  const messages: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    messages.push(`${m.type()}: ${m.text()}`);
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
    errors.push(`request outside the page: ${url}`);
    return route.abort();
  });
  await page.goto(`${origin}/${hash}`);
  return { page, errors, console: messages };
}

const permalink = (scenario: object, extra = '') => `#s=${encodeURIComponent(JSON.stringify(scenario))}${extra}`;

describe.skipIf(!available)('the web page\'s console', () => {
  it('draws a bar of one scenario, a sweep\'s lines and bars, a heat map and a value chart at their boxes\' widths with no "Dropping" warning from Vega-Lite', async () => {
    const drawn = async (page: Page, box: string) => {
      await page.waitForSelector(`${box}[data-state=drawn] svg`);
      return page.$eval(box, (b) => ({ svg: b.querySelector('svg')!.getBoundingClientRect().width, box: b.getBoundingClientRect().width }));
    };
    const fitted = (size: { svg: number; box: number }) => Math.abs(size.svg - size.box) <= 1;
    const visit = await open(permalink({ kind: 'attack' }, '&vary=injuryDice=0..3'), LAPTOP);
    const { page, errors } = visit;
    // A sweep over injury dice is drawn as lines, beside the answer's bar of one scenario.
    expect(fitted(await drawn(page, '#chart'))).toBe(true);
    expect(fitted(await drawn(page, '#grid-chart'))).toBe(true);
    expect(await page.$$eval('#grid-chart svg .mark-line', (l) => l.length)).toBeGreaterThan(0);
    // The chart follows its box when the window changes (the fit is kept on a resize, as width "container" did).
    await page.setViewportSize(PHONE);
    await page.waitForFunction(`Math.abs(document.querySelector('#chart svg').getBoundingClientRect().width - document.querySelector('#chart').getBoundingClientRect().width) <= 1`);
    await page.setViewportSize(LAPTOP);
    // A sweep over armour is drawn as bars (rows of steps, the height Vega-Lite warned about).
    await page.fill('#vary', 'armour=none,standard,reinforced');
    await page.click('#sweep');
    await page.waitForFunction(`document.querySelector('#grid-result').dataset.state === 'ready' && location.hash.includes('armour%3Dnone')`);
    expect(fitted(await drawn(page, '#grid-chart'))).toBe(true);
    // A matrix: its heat map and its value chart.
    await page.setInputFiles('#open-files', ['examples/profiles.json']);
    await page.click('#opened li[data-file="profiles.json"] button');
    await page.waitForSelector('#f-weapon');
    await page.click('#matrix');
    await page.waitForFunction(`document.querySelector('#grid-result').dataset.state === 'ready' && location.hash.includes('matrix=1')`);
    await drawn(page, '#grid-chart');
    await page.waitForSelector('#value-chart svg');
    expect(await page.$$eval('#grid-chart svg .mark-rect', (r) => r.length)).toBeGreaterThan(0);
    // Wait for the answer's chart too, redrawn for the profiles picked.
    await drawn(page, '#chart');
    expect(visit.console.filter((m) => m.includes('Dropping'))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
