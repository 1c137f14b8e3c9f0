import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { servePage } from '../../src/cli/commands/serve.js';

/**
 * The web page (dist/web, built by npm test before vitest runs) served by `injury-lab serve`'s own
 * server and driven in Debian's Chromium through playwright-core: what every browser test of the page
 * starts from, and how it watches a page (its errors, and any request leaving the server refused).
 */

const CHROMIUM = '/usr/bin/chromium';
const WEB = join(process.cwd(), 'dist', 'web');

/** Chromium is installed: the browser tests run (on CI it must be: .ci/run installs it). */
export const chromiumAvailable = existsSync(CHROMIUM);
if (!chromiumAvailable && process.env.CI) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);

export interface PageServer {
  readonly browser: Browser;
  /** One context for every page: the pages share no storage the page uses (it keeps its state in the link). */
  readonly context: BrowserContext;
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves dist/web on a free port and launches Chromium (with `args` beyond the usual), one context at `viewport`. */
export async function startPageServer(viewport: { width: number; height: number }, args: readonly string[] = []): Promise<PageServer & { readonly port: number }> {
  if (!existsSync(join(WEB, 'index.html'))) throw new Error('dist/web is not built: npm test builds it (node dist/scripts/build-web.js)');
  const server: Server = await servePage(WEB, 0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...args] });
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  return {
    browser,
    context,
    port,
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      await browser.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Watches a page before it loads: its errors (page errors, console errors, and every request that is not
 * the server's at `origin`, which is refused: no fonts, scripts or data from anywhere else) into the list
 * returned, and every console message into `messages` when given.
 */
export async function watchPage(page: Page, origin: string, messages?: string[]): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    messages?.push(`${m.type()}: ${m.text()}`);
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
    errors.push(`request outside the page: ${url}`);
    return route.abort();
  });
  return errors;
}
