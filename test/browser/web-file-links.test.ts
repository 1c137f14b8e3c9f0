import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePage } from '../../src/cli/commands/serve.js';

/**
 * The opened-files list's per-file counts (issue 51, item 10), in the web page (dist/web) in Debian's
 * Chromium, served by `injury-lab serve`'s own server, as test/browser/web-page.test.ts sets it up.
 */
const CHROMIUM = '/usr/bin/chromium';
const WEB = join(process.cwd(), 'dist', 'web');
const available = existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);

const GST = 'test/fixtures/rosters/pilgrim-system.gst';
const CAT = 'test/fixtures/rosters/ashen-pilgrims.cat';

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
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

/** A fresh page at `hash` (as a link pasted into a new tab), its errors collected, every request outside the server refused. */
async function open(hash: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
    errors.push(`request outside the page: ${url}`);
    return route.abort();
  });
  await page.goto(`${origin}/${hash}`);
  return { page, errors };
}

const permalink = (scenario: object) => `#s=${encodeURIComponent(JSON.stringify(scenario))}`;

describe.skipIf(!available)('opened files in headless Chromium', () => {
  it('the file list says what each catalogue file holds, and what the files offer together', async () => {
    const { page, errors } = await open(permalink({ kind: 'attack' }));
    await page.waitForSelector('#app[data-state=ready]');
    await page.setInputFiles('#open-files', [GST, CAT, 'test/fixtures/rosters/bell-wardens.cat']);
    await page.waitForSelector('#opened li[data-file="bell-wardens.cat"] button');
    const item = async (name: string) => (await page.textContent(`#opened li[data-file="${name}"]`))!.replace(/ (use its profiles|in use)$/, '');
    // Each weapon and model is the file's that holds its entry: the game system's shared Thornpike and Ember
    // Carbine, the factions' own models and Censer Maul; together 3 weapons and 3 models (the pickers').
    expect(await item('pilgrim-system.gst')).toBe('pilgrim-system.gst (catalogue of trench-crusade: 2 weapons, 0 models in this file (3 weapons, 3 models with the other catalogue files))');
    expect(await item('ashen-pilgrims.cat')).toBe('ashen-pilgrims.cat (catalogue of trench-crusade: 0 weapons, 1 model in this file (3 weapons, 3 models with the other catalogue files))');
    expect(await item('bell-wardens.cat')).toBe('bell-wardens.cat (catalogue of trench-crusade: 1 weapon, 2 models in this file (3 weapons, 3 models with the other catalogue files))');
    expect(errors).toEqual([]);
    await page.close();
  });
});
