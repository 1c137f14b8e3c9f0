import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, startPageServer, watchPage, type PageServer } from '../helpers/page-in-chromium.js';
import { evaluateExact } from '../../src/evaluate.js';
import { percent } from '../../src/text.js';

/**
 * The web page (dist/web) in Debian's Chromium through playwright-core, as test/browser/web-page.test.ts
 * drives it, on what a phone shows and what the console says: the answer's headline at the top of a
 * phone's window while the form is edited, and charts drawn without Vega-Lite's warnings.
 */
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

let served: PageServer;
let context: BrowserContext;
let origin: string;

beforeAll(async () => {
  if (!chromiumAvailable) return;
  served = await startPageServer(PHONE);
  ({ context, origin } = served);
}, 60_000);

afterAll(async () => {
  await served?.close();
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
  const messages: string[] = [];
  const errors = await watchPage(page, origin, messages);
  await page.goto(`${origin}/${hash}`);
  return { page, errors, console: messages };
}

const permalink = (scenario: object, extra = '') => `#s=${encodeURIComponent(JSON.stringify(scenario))}${extra}`;

/** Where an element is in the window, in CSS pixels. */
const rect = (page: Page, selector: string) =>
  page.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  });

const summaryText = (page: Page) => page.textContent('#summary-text');

/** Waits for the answer to a change: the headline ready again, and saying something else than `before`. */
async function answered(page: Page, before: string | null): Promise<string> {
  await page.waitForFunction(
    `document.querySelector('#app').dataset.state === 'ready' && document.querySelector('#summary').dataset.state === 'ready' && document.querySelector('#summary-text').textContent !== ${JSON.stringify(before)}`,
  );
  return (await summaryText(page))!;
}

describe.skipIf(!chromiumAvailable)('the web page on a phone, and its console', () => {
  it("keeps the answer's headline at the top of a phone's window (390x844) while a field far down the form changes it, the full answer a button away", async () => {
    const { page, errors } = await open(permalink({ kind: 'attack', armour: 'standard' }), PHONE);
    await page.waitForSelector('#app[data-state=ready]');
    // The headline is the table's: the worst outcome's chance, and the one before it or worse (hand-checked
    // against `injury-lab exact --kind attack --armour standard`'s "this or worse" column).
    const pct = (p: number) => percent(p, 2);
    const expected = (armour: string) => {
      const o = evaluateExact({ kind: 'attack', armour }).outcomes;
      return `attack: out of action ${pct(o.at(-1)!.probability)} · down or worse ${pct(o.at(-2)!.probability + o.at(-1)!.probability)}`;
    };
    await page.waitForSelector('#summary[data-state=ready]');
    expect(await summaryText(page)).toBe(expected('standard'));
    // Within the first screen, where the answer itself is not (it follows the whole form).
    const first = await rect(page, '#summary');
    expect(first.top >= 0 && first.bottom <= PHONE.height).toBe(true);
    expect((await rect(page, '#answer')).top).toBeGreaterThan(PHONE.height);

    // Every fold open, so the form is as long as it gets; a field some 4,000 px down changes the answer.
    await page.$$eval('#fields details', (all) => all.forEach((d) => ((d as unknown as { open: boolean }).open = true)));
    const armour = page.locator('#f-armour');
    await armour.scrollIntoViewIfNeeded();
    const before = await summaryText(page);
    await armour.selectOption('machine');
    expect(await answered(page, before)).toBe(expected('machine'));
    expect(await page.evaluate('scrollY')).toBeGreaterThan(3000);
    const inView = await rect(page, '#summary');
    expect({ top: inView.top, inWindow: inView.bottom <= PHONE.height }).toEqual({ top: 0, inWindow: true });
    // The field edited is below the headline, not under it.
    expect((await rect(page, '#f-armour')).top).toBeGreaterThanOrEqual(inView.bottom);

    // The last field of the form: the headline is still at the window's top once its answer is in.
    const last = page.locator('#f-criticalOn');
    await last.scrollIntoViewIfNeeded();
    await last.selectOption('unmodified');
    await page.waitForFunction(`document.querySelector('#app').dataset.state === 'ready' && location.hash.includes('criticalOn')`);
    expect(await page.evaluate('scrollY')).toBeGreaterThan(7000);
    expect((await rect(page, '#summary')).top).toBe(0);
    expect(await page.getAttribute('#summary', 'data-state')).toBe('ready');

    // A bad value's message is the headline until it is put right.
    await page.fill('#f-injuryDice', '99');
    await page.press('#f-injuryDice', 'Tab');
    await page.waitForSelector('#summary[data-state=error]');
    expect(await summaryText(page)).toMatch(/^injuryDice: /);
    expect((await rect(page, '#summary')).top).toBe(0);
    await page.fill('#f-injuryDice', '');
    await page.press('#f-injuryDice', 'Tab');
    await page.waitForSelector('#summary[data-state=ready]');

    // The button goes to the full answer, its heading just below the headline, and the keyboard with it.
    await page.click('#to-answer');
    const heading = await rect(page, '#answer-heading');
    const headline = await rect(page, '#summary');
    expect(heading.top >= headline.bottom && heading.bottom <= PHONE.height).toBe(true);
    expect(await page.evaluate('document.activeElement.id')).toBe('answer-heading');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says a duel's every chance, whole, on a phone (390x844); and keeps a wide window's layout, with no headline where the answer is pinned beside the form (1280x800)", async () => {
    const scenario = { kind: 'duel', a: { armour: 'standard', tough: true }, b: { armour: 'machine' } };
    const { page, errors } = await open(permalink(scenario), PHONE);
    await page.waitForSelector('#summary[data-state=ready]');
    // A duel's outcomes are not ranked: no worst one, every outcome's chance.
    const o = evaluateExact(scenario).outcomes;
    expect(await summaryText(page)).toBe(`duel: ${o.map((x) => `${x.outcome.replace(/-/g, ' ')} ${percent(x.probability, 2)}`).join(' · ')}`);
    // Not cut short: the headline's box holds all of its lines.
    expect(await page.$eval('#summary-text', (e) => e.scrollHeight <= e.clientHeight + 1)).toBe(true);
    await page.setViewportSize(LAPTOP);
    expect(await page.evaluate(`getComputedStyle(document.querySelector('#summary')).display`)).toBe('none');
    expect((await rect(page, '#answer')).top).toBeLessThan(LAPTOP.height);
    expect(errors).toEqual([]);
    await page.close();
  });

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
