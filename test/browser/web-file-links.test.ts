import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, startPageServer, watchPage, type PageServer } from '../helpers/page-in-chromium.js';
import { evaluateExact } from '../../src/evaluate.js';

/**
 * Links that carry their files (issue 51, item 9) and the opened-files list's per-file counts (item 10),
 * in the web page (dist/web) in Debian's Chromium, served by `injury-lab serve`'s own server, as
 * test/browser/web-page.test.ts sets it up: a link made with opened catalogue files names each with its
 * digest (on a page without crypto.subtle too); opened fresh, the page asks for exactly those files,
 * answers once they are open as they were, and refuses a file that differs in one line naming it;
 * followed in an open page, its prompt is not replaced by an earlier scenario's answer coming in late.
 */
const GST = 'test/fixtures/rosters/pilgrim-system.gst';
const CAT = 'test/fixtures/rosters/ashen-pilgrims.cat';
/** The link's digest of a file: the first 16 hex digits of its SHA-256 (src/web/page/files.ts, DIGEST_HEX), from node:crypto. */
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

let served: PageServer;
let context: BrowserContext;
let origin: string;
/**
 * The same server under a name that is not localhost (Chromium resolves it to 127.0.0.1): a page served
 * over plain http to another machine, where browsers give no crypto.subtle (not a secure context).
 */
let insecureOrigin: string;
const INSECURE_HOST = 'injury-lab.test';

beforeAll(async () => {
  if (!chromiumAvailable) return;
  const started = await startPageServer({ width: 1280, height: 900 }, [`--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`]);
  served = started;
  ({ context, origin } = started);
  insecureOrigin = `http://${INSECURE_HOST}:${started.port}`;
}, 60_000);

afterAll(async () => {
  await served?.close();
});

/** A fresh page at `hash` (as a link pasted into a new tab), its errors collected, every request outside the server (at `at`) refused. */
async function open(hash: string, at = origin): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors = await watchPage(page, at);
  await page.goto(`${at}/${hash}`);
  return { page, errors };
}

/**
 * Holds back the page's worker replies of one type until the test calls `window.release()`, as a slow
 * answer would be: the worker has replied, and the page has not heard yet. (Text, not a function: the
 * tests' type-check has no DOM library, as in web-phone.test.ts.)
 */
function holdReplies(page: Page, type: 'exact' | 'swept'): Promise<unknown> {
  return page.addInitScript(`
    const handler = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
    window.held = [];
    window.hold = true;
    window.release = () => {
      window.hold = false;
      for (const deliver of window.held.splice(0)) deliver();
    };
    Object.defineProperty(Worker.prototype, 'onmessage', {
      configurable: true,
      get() {
        return handler.get.call(this);
      },
      set(listener) {
        handler.set.call(this, listener && ((e) => {
          if (window.hold && e.data && e.data.type === ${JSON.stringify(type)}) window.held.push(() => listener.call(this, e));
          else listener.call(this, e);
        }));
      },
    });
  `);
}

const permalink = (scenario: object) => `#s=${encodeURIComponent(JSON.stringify(scenario))}`;
const exactRows = (page: Page) => page.$$eval('tr[data-outcome]', (trs) => trs.map((tr) => [tr.getAttribute('data-outcome'), tr.getAttribute('data-exact')]));
const ratio = (f: string) => (f.includes('/') ? f : `${f}/1`);

/** The scenario the first test's link is made with: the catalogue files' Lantern Warden as the target. */
const scenario = { kind: 'attack', catalogue: ['pilgrim-system.gst', 'ashen-pilgrims.cat'], target: 'Lantern Warden' };
/** The CLI's answer for it, from the same files on disk. */
const expected = () => evaluateExact({ ...scenario, catalogue: [GST, CAT] }).outcomes.map((o) => [o.outcome, ratio(o.exact)]);

/** The link a page (at `at`) writes once the catalogue files are opened and used, and the Lantern Warden picked. */
async function linkMadeWithFiles(at = origin): Promise<string> {
  const { page, errors } = await open(permalink({ kind: 'attack' }), at);
  await page.waitForSelector('#app[data-state=ready]');
  // A link that uses no opened file names none.
  expect(await page.evaluate('location.hash')).not.toContain('file=');
  await page.setInputFiles('#open-files', [GST, CAT]);
  await page.waitForSelector('#opened li[data-file="ashen-pilgrims.cat"] button');
  await page.click('#opened li[data-file="ashen-pilgrims.cat"] button');
  await page.waitForSelector('#f-target option[value="Lantern Warden"]', { state: 'attached' });
  await page.selectOption('#f-target', 'Lantern Warden');
  await page.waitForFunction(`document.querySelector('#app').dataset.state === 'ready' && location.hash.includes('Lantern%20Warden')`);
  expect(await exactRows(page)).toEqual(expected());
  const hash = (await page.evaluate('location.hash')) as string;
  expect(errors).toEqual([]);
  await page.close();
  return hash;
}

describe.skipIf(!chromiumAvailable)('links that carry their files, in headless Chromium', () => {
  let made: Promise<string> | undefined;
  /** The link the first test makes, made once for whichever test runs first. */
  const madeLink = () => (made ??= linkMadeWithFiles());

  it('a link made with opened files names each with its digest, and opened fresh asks for exactly those files', async () => {
    const link = await madeLink();
    const files = new URLSearchParams(link.slice(1)).getAll('file');
    expect(files).toEqual([`pilgrim-system.gst:${digest(readFileSync(GST))}`, `ashen-pilgrims.cat:${digest(readFileSync(CAT))}`]);

    const { page, errors } = await open(link);
    await page.waitForSelector('#app[data-state=error]');
    const asked = 'This link was made with 2 files not open in this page: "pilgrim-system.gst", "ashen-pilgrims.cat". Open them to see its answer (each is checked against the link).';
    expect(await page.textContent('#link-files .link-files-missing')).toBe(`${asked} Open files…`);
    expect(await page.isVisible('#link-files button:text("Open files…")')).toBe(true);
    // Said in the answer's place too, instead of the reader's "has not been opened" beside the field.
    expect(await page.textContent('#scenario-error')).toBe(asked);
    expect(await page.$$eval('tr[data-exact]', (r) => r.length)).toBe(0);

    // One of the two opened: the prompt asks for the other alone.
    await page.setInputFiles('#open-files', [GST]);
    await page.waitForSelector('#opened li[data-file="pilgrim-system.gst"]');
    expect(await page.textContent('#link-files .link-files-missing')).toContain('a file not open in this page: "ashen-pilgrims.cat". Open it');
    expect(await page.$$eval('tr[data-exact]', (r) => r.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opening the files the link was made with shows the same answer', async () => {
    const link = await madeLink();
    const { page, errors } = await open(link);
    await page.waitForSelector('#app[data-state=error]');
    await page.setInputFiles('#open-files', [GST, CAT]);
    await page.waitForSelector('#app[data-state=ready]');
    expect(await exactRows(page)).toEqual(expected());
    expect(await page.textContent('#link-files')).toBe('');
    // The link stays the one it was made with.
    expect(await page.evaluate('location.hash')).toBe(link);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a file of the same name with other content is refused in one line naming it, and no answer is shown from it', async () => {
    const link = await madeLink();
    const { page, errors } = await open(link);
    await page.waitForSelector('#app[data-state=error]');
    // The Lantern Warden's cost changed (70 to 75 ducats): another version of the catalogue.
    const changed = readFileSync(CAT, 'utf8').replace('<cost name="Ducats" typeId="pg-ducats" value="70"/>', '<cost name="Ducats" typeId="pg-ducats" value="75"/>');
    expect(changed).not.toBe(readFileSync(CAT, 'utf8'));
    await page.setInputFiles('#open-files', [GST]);
    await page.waitForSelector('#opened li[data-file="pilgrim-system.gst"]');
    await page.setInputFiles('#open-files', [{ name: 'ashen-pilgrims.cat', mimeType: 'application/xml', buffer: Buffer.from(changed) }]);
    await page.waitForSelector('#opened li[data-file="ashen-pilgrims.cat"]');
    await page.waitForSelector('#link-files p.error');
    const line = `"ashen-pilgrims.cat" is not the file this link was made with (its content differs: SHA-256 ${digest(Buffer.from(changed)).slice(0, 8)}… here, ${digest(readFileSync(CAT)).slice(0, 8)}… in the link); the answer is not shown from it.`;
    expect(await page.textContent('#scenario-error')).toBe(line);
    expect(await page.$$eval('#link-files p.error', (ps) => ps.map((p) => p.firstChild?.textContent))).toEqual([line]);
    expect(await page.getAttribute('#app', 'data-state')).toBe('error');
    expect(await page.$$eval('tr[data-exact]', (r) => r.length)).toBe(0);

    // The user may mean the file they opened: used, it answers, and the link is made with it.
    await page.click('#link-files p.error button');
    await page.waitForSelector('#app[data-state=ready]');
    expect(await page.$$eval('tr[data-exact]', (r) => r.length)).toBeGreaterThan(0);
    expect(new URLSearchParams(((await page.evaluate('location.hash')) as string).slice(1)).getAll('file')).toContain(`ashen-pilgrims.cat:${digest(Buffer.from(changed))}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a page without crypto.subtle (plain http, not localhost) makes the same digests, and answers a link opened with its files', async () => {
    const link = await linkMadeWithFiles(insecureOrigin);
    // The digests are node:crypto's, as on a secure page.
    expect(new URLSearchParams(link.slice(1)).getAll('file')).toEqual([`pilgrim-system.gst:${digest(readFileSync(GST))}`, `ashen-pilgrims.cat:${digest(readFileSync(CAT))}`]);
    expect(link).toBe(await madeLink());

    const { page, errors } = await open(link, insecureOrigin);
    expect(await page.evaluate('[window.isSecureContext, typeof crypto.subtle]')).toEqual([false, 'undefined']);
    await page.waitForSelector('#app[data-state=error]');
    await page.setInputFiles('#open-files', [GST, CAT]);
    await page.waitForSelector('#app[data-state=ready]');
    expect(await exactRows(page)).toEqual(expected());
    expect(await page.textContent('#link-files')).toBe('');
    expect(await page.evaluate('location.hash')).toBe(link);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a link with files followed while an earlier answer is still coming shows its prompt, never that answer', async () => {
    const link = await madeLink();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    // The page's exact answers are held back until the test lets them through, as a slow answer (a long
    // duel's) would be: the answer's worker has replied, and the page has not heard yet.
    await holdReplies(page, 'exact');
    await page.goto(`${origin}/${permalink({ kind: 'attack', armour: 'machine' })}`);
    await page.waitForFunction('window.held.length === 1');
    expect(await page.getAttribute('#app', 'data-state')).toBe('computing');

    // The link with files is followed in the same page (pasted, or a link clicked): its prompt stands.
    await page.evaluate(`location.hash = ${JSON.stringify(link)}`);
    await page.waitForSelector('#link-files .link-files-missing');
    // The earlier scenario's answer comes in after the prompt (delivered within release()): it is not shown.
    await page.evaluate('window.release()');
    expect(await page.getAttribute('#app', 'data-state')).toBe('error');
    expect(await page.textContent('#scenario-error')).toMatch(/^This link was made with 2 files not open in this page/);
    expect(await page.$$eval('tr[data-exact]', (r) => r.length)).toBe(0);
    expect(await page.textContent('#summary-text')).toMatch(/^This link was made with 2 files/);

    // Opened, the files give the link's own answer.
    await page.setInputFiles('#open-files', [GST, CAT]);
    await page.waitForSelector('#app[data-state=ready]');
    expect(await exactRows(page)).toEqual(expected());
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a link with files followed while a sweep is still coming shows no sweep of the earlier scenario", async () => {
    const link = await madeLink();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    // The grid's replies are held back, as a big sweep's would be: its worker has replied, the page not heard.
    await holdReplies(page, 'swept');
    await page.goto(`${origin}/${permalink({ kind: 'attack' })}&vary=${encodeURIComponent('armour=none,standard')}`);
    await page.waitForFunction('window.held.length === 1');
    expect(await page.getAttribute('#grid-result', 'data-state')).toBe('computing');

    // The link with files is followed in the same page; the earlier sweep's reply comes in after it.
    await page.evaluate(`location.hash = ${JSON.stringify(`${link}&vary=${encodeURIComponent('armour=none,standard')}`)}`);
    await page.waitForSelector('#link-files .link-files-missing');
    await page.evaluate('window.release()');
    expect(await page.$$eval('#grid-table', (t) => t.length)).toBe(0);
    expect(await page.getAttribute('#grid-result', 'data-state')).not.toBe('ready');

    // Opened, the files give the link's own sweep: of its catalogue's scenario, armour none and standard.
    await page.setInputFiles('#open-files', [GST, CAT]);
    await page.waitForSelector('#grid-result[data-state=ready]');
    expect(await page.$$eval('#grid-table tbody tr', (rows) => rows.map((r) => r.getAttribute('data-row')))).toEqual(['none', 'standard']);
    expect(errors).toEqual([]);
    await page.close();
  });

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
