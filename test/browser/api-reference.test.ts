/**
 * The API reference pages in Chromium: the server-rendered reference is the reference,
 * and reading it (Page Down, the wheel, pointer moves, clicks) never loads Elements nor
 * moves what is on screen; "Try it", the console button or a `#try/…` link opens
 * Stoplight Elements in a dialog at the operation asked for, with the page's own
 * request samples, and closing it gives the reader back their place. The console
 * follows the colour mode, clears what try-it stored and keeps its styles to itself;
 * the samples' tabs switch with the docs' language tabs; no page overflows a phone.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { RunningServer } from '../../cli/serve.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { builtSite, serveBuiltSite } from '../helpers/site.ts';
import { quiet, requestsInFlight, scrollSettled } from './harness.ts';

declare global {
  interface Window {
    /** Counted by the reading test: the keys the page received. */
    docsgenKeys?: number;
  }
}

const READY = '.api-console[open] .api-elements[data-state="ready"]';
/** The key Elements' try-it keeps security values under (templates/client/islands/api-reference.tsx). */
const CREDENTIALS_KEY = 'TryIt_securitySchemeValues';

/** Console errors, warnings and page errors; hydration and React warnings land here too. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** Relative luminance (0 black, 1 white) of the first non-transparent background at or above the element. */
const BACKGROUND_LUMINANCE = `(el) => {
  const lum = (rgb) => { const [r, g, b] = rgb.match(/[\\d.]+/g).slice(0, 3).map(Number).map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  for (let n = el; n; n = n.parentElement) { const bg = getComputedStyle(n).backgroundColor; if (bg && !/rgba\\(.*, 0\\)$/.test(bg) && bg !== 'transparent') return lum(bg); }
  return 1;
}`;
const TEXT_LUMINANCE = `(el) => { const [r, g, b] = getComputedStyle(el).color.match(/[\\d.]+/g).slice(0, 3).map(Number).map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; }`;

async function luminance(page: Page, target: string | Locator, kind: 'background' | 'text'): Promise<number> {
  const locator = typeof target === 'string' ? page.locator(target).first() : target;
  return locator.evaluate(new Function(`return (${kind === 'background' ? BACKGROUND_LUMINANCE : TEXT_LUMINANCE})`)() as (el: Element) => number);
}

/** Where each page's pointer last went: per page, as tests run side by side. */
const pointers = new WeakMap<Page, number>();
/** A pointer move to a new point each time, as a reader's mouse does. */
async function movePointer(page: Page): Promise<void> {
  const x = ((pointers.get(page) ?? 0) % 400) + 37;
  pointers.set(page, x);
  await page.mouse.move(x, 300 + (x % 50));
}

/** Resolves once the page has loaded and the browser was idle, when islands that start by themselves have started. */
async function loadedAndIdle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((resolve) => window.requestIdleCallback(() => setTimeout(resolve, 500), { timeout: 2000 })));
}

/** The console at an address (`#try/…`), waiting for Elements to show the operation. */
async function openConsole(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector(READY, { timeout: 30_000 });
}

async function operationTitle(page: Page): Promise<string> {
  await page.waitForSelector(`${READY} h1`, { timeout: 10_000 });
  return (await page.textContent(`${READY} h1`))?.trim() ?? '';
}

/** What the reader has on screen: the scroll position and the element at the middle of the viewport, with its place. */
async function readingPosition(page: Page): Promise<{ y: number; element: string; top: number }> {
  return page.evaluate(() => {
    const el = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    const path: string[] = [];
    for (let n = el; n && n !== document.body; n = n.parentElement) path.unshift(`${n.tagName}${n.id ? `#${n.id}` : ''}:${[...(n.parentElement?.children ?? [])].indexOf(n)}`);
    return { y: Math.round(window.scrollY), element: path.join('>'), top: Math.round(el?.getBoundingClientRect().top ?? 0) };
  });
}

// The tests are independent (a context each, nothing stored shared) and mostly wait on
// the browser: several at a time keep the cores busy.
describe('API reference pages (Chromium)', { concurrency: 4 }, () => {
  let server: RunningServer;
  let browser: TestBrowser;
  let islandFiles: string[];

  before(async () => {
    [server, browser] = await Promise.all([serveBuiltSite(), launchBrowser()]);
    const html = await readFile(path.join(await builtSite(), 'api-reference.html'), 'utf8');
    const manifest = JSON.parse(/<script id="docsgen-islands" type="application\/json">([^<]*)<\/script>/.exec(html)![1]!) as Record<string, { js: string; css: string[] }>;
    islandFiles = [manifest['api-reference']!.js, ...manifest['api-reference']!.css];
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const route of ['/api-reference', '/onboarding-api-reference']) {
    it(`${route}: reading never loads Elements nor moves what is on screen (Page Down, pointer moves, the wheel, a click on a heading)`, async () => {
      const page = await browser.isolatedPage();
      const problems = consoleProblems(page);
      const urls: string[] = [];
      page.on('request', (request) => urls.push(new URL(request.url()).pathname));
      const requests = requestsInFlight(page);
      try {
        await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
        await loadedAndIdle(page);
        // Counts the keys the page received, for the message of a scroll that did not happen.
        await page.evaluate(() => window.addEventListener('keydown', () => (window.docsgenKeys = (window.docsgenKeys ?? 0) + 1), true));
        const reader: { action: string; run: () => Promise<void> }[] = [
          { action: 'Page Down', run: () => page.keyboard.press('PageDown') },
          { action: 'Page Down', run: () => page.keyboard.press('PageDown') },
          { action: 'wheel', run: () => page.mouse.wheel(0, 700) },
          { action: 'click on a heading', run: () => page.click('.api-summary__tag h3 >> nth=1') },
          { action: 'Page Down', run: () => page.keyboard.press('PageDown') },
          { action: 'wheel', run: () => page.mouse.wheel(0, 900) },
        ];
        for (const { action, run } of reader) {
          await movePointer(page);
          await run();
          // A keyboard or wheel scroll starts a few frames after the input, later on a busy
          // machine than the five still frames that count as "at rest": wait until it has begun.
          await page.waitForFunction(() => window.scrollY > 0, undefined, { timeout: 5_000 }).catch(() => undefined);
          // Let the scroll the reader asked for, and what it starts, finish; then look at what they have.
          await quiet(page, requests, { scroll: true });
          const before = await readingPosition(page);
          // A full run once saw the first Page Down scroll nothing for five seconds; what the page knew then says why, should it happen again.
          if (before.y === 0) {
            const state = await page.evaluate(() => ({ keys: window.docsgenKeys, focused: document.hasFocus(), active: document.activeElement?.tagName, visibility: document.visibilityState }));
            assert.fail(`${action}: the page did not scroll (${JSON.stringify(state)})`);
          }
          // Only pointer moves now, each followed by whatever it starts: nothing may change what the reader is reading.
          for (let i = 0; i < 5; i++) {
            await movePointer(page);
            await quiet(page, requests);
          }
          await quiet(page, requests, { scroll: true, calmRounds: 2 });
          assert.deepEqual(await readingPosition(page), before, `after ${action}, the scroll position and the element at the middle of the viewport stay`);
        }
        for (const file of islandFiles) assert.ok(!urls.includes(file), `${file} is not requested while the reader reads`);
        assert.deepEqual(problems, [], 'no console errors or warnings');
      } finally {
        await page.close();
      }
    });
  }

  it('"Try it" on createPayment opens the console at that operation, over the page, and closing it gives the reader back their place', async () => {
    const page = await browser.isolatedPage();
    const problems = consoleProblems(page);
    try {
      await page.goto(`${server.url}/api-reference`, { waitUntil: 'load' });
      // The reader has the operation on screen, its "Try it" in view (so the click scrolls nothing).
      await page.$eval('[data-api-try="createPayment"]', (el) => el.scrollIntoView({ block: 'center' }));
      await scrollSettled(page);
      const before = await readingPosition(page);
      await page.click('[data-api-try="createPayment"]');
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.equal(await operationTitle(page), 'Criar pagamento', 'the console opens at the operation');
      assert.equal(new URL(page.url()).hash, '#try/operations/createPayment', 'the address is a deep link into the console');
      assert.match((await page.textContent(READY)) ?? '', /Idempotency-Key: 8e4f2a1c-5b7d-4e3a-9c1f-2d6b8a0e4f71/, "Elements shows the page's own curl sample");
      assert.match((await page.textContent(READY)) ?? '', /Sandbox/, 'try-it is on the sandbox');
      assert.equal((await page.evaluate(() => Math.round(window.scrollY))), before.y, 'the page under the console did not move');

      await page.click('.api-console__close');
      await page.waitForFunction(() => !document.querySelector('.api-console[open]'));
      assert.equal(new URL(page.url()).hash, '', 'closing drops the console address');
      assert.deepEqual(await readingPosition(page), before, 'the reader is where they were');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('a #try/ deep link opens the console at once, again after a reload; the console button opens its overview', async () => {
    const page = await browser.isolatedPage();
    try {
      await openConsole(page, `${server.url}/onboarding-api-reference#try/operations/getMerchant`);
      assert.equal(await operationTitle(page), 'Consultar estabelecimento');
      await page.reload();
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.equal(await operationTitle(page), 'Consultar estabelecimento', 'the same operation after a reload');
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('.api-console[open]'));
      await page.click('[data-api-console]');
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.match((await page.textContent(`${READY} h1`)) ?? '', /Onboarding/, 'the overview of the API');
    } finally {
      await page.close();
    }
  });

  it("on a phone, Elements' own top bar and drawer stay below the console's bar: tapping Close closes it, and so does Esc", async () => {
    const page = await browser.isolatedPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(`${server.url}/api-reference`, { waitUntil: 'load' });
      await page.click('[data-api-console]');
      await page.waitForSelector(`${READY} h1`, { timeout: 30_000 });
      // Elements' drawer open too: the largest thing it can lay over the console.
      await page.click(`${READY} button[data-test="show-left-sidebar-btn"]`);
      const box = (await page.locator('.api-console__close').boundingBox())!;
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('.api-console__close') !== null, centre);
      assert.ok(hit, 'the Close button is what is at its own centre');
      await page.mouse.click(centre.x, centre.y);
      await page.waitForFunction(() => !document.querySelector('.api-console[open]'));

      await page.goto(`${server.url}/api-reference#try/operations/createPayment`);
      await page.waitForSelector(`${READY} h1`, { timeout: 30_000 });
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('.api-console[open]'));
    } finally {
      await page.close();
    }
  });

  it("leaves Elements' links to Elements: hovering one preloads nothing, and following one keeps the operation in the address", async () => {
    const page = await browser.isolatedPage();
    const problems = consoleProblems(page);
    const paths: string[] = [];
    page.on('request', (request) => paths.push(new URL(request.url()).pathname));
    try {
      await openConsole(page, `${server.url}/api-reference#try/`);
      // Operations sit in collapsed groups of Elements' navigation; schemas are listed open.
      const link = page.locator(`${READY} a[href="/schemas/Health"]`).first();
      await link.waitFor();
      await link.hover();
      await page.waitForTimeout(300);
      assert.ok(!paths.includes('/schemas/Health'), 'no request for an Elements route');
      await link.click();
      await page.waitForFunction(() => location.hash === '#try/schemas/Health');
      const title = await operationTitle(page);
      assert.match(title, /Health/);
      assert.equal(new URL(page.url()).pathname, '/api-reference', 'the page stays');
      await page.reload();
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.equal(await operationTitle(page), title, 'a reload opens the console where the reader was');
      assert.ok(!paths.includes('/schemas/Health'), 'and no request for it was made at all');
      assert.deepEqual(problems, [], 'no console errors (no 404 of a preloaded Elements route)');
    } finally {
      await page.close();
    }
  });

  it('a #/operations/ link (the stable anchor) shows the server-rendered operation, without loading Elements', async () => {
    const page = await browser.isolatedPage();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(new URL(request.url()).pathname));
    try {
      await page.goto(`${server.url}/api-reference#/operations/createPayment`, { waitUntil: 'load' });
      await loadedAndIdle(page);
      const top = await page.$eval('[id="/operations/createPayment"]', (el) => el.getBoundingClientRect().top);
      const navbar = await page.$eval('.navbar', (el) => el.getBoundingClientRect().bottom);
      assert.ok(top >= navbar - 2 && top < navbar + 40, `the operation is at the top, under the navbar (top ${top}, navbar ${navbar})`);
      for (const file of islandFiles) assert.ok(!urls.includes(file), `${file} is not requested`);
    } finally {
      await page.close();
    }
  });

  it("the samples' language tabs switch together, and with the docs' tabs", async () => {
    const page = await browser.isolatedPage();
    try {
      await page.goto(`${server.url}/docs/api/pagamento`);
      await page.click('[data-tab-group="linguagem"] [role="tab"][data-tab-value="python"] >> nth=0');
      await page.goto(`${server.url}/api-reference`);
      const selected = () => page.$$eval('[data-api-samples] [role="tab"][aria-selected="true"]', (tabs) => [...new Set(tabs.map((t) => t.getAttribute('data-tab-value')))]);
      assert.deepEqual(await selected(), ['python'], 'Python, picked in the docs, is shown for every operation');
      assert.ok(await page.isVisible('[id="/operations/createPayment"] [data-api-samples] [role="tabpanel"][data-tab-value="python"]'));
      // Its blank lines (after the import, after the URL) are as tall as the others.
      const pitches = await page.$$eval('[id="/operations/createPayment"] [data-api-samples] [role="tabpanel"][data-tab-value="python"] .line', (lines) =>
        lines.slice(1).map((line, i) => line.getBoundingClientRect().top - lines[i]!.getBoundingClientRect().top),
      );
      assert.ok(Math.max(...pitches) - Math.min(...pitches) <= 1, `every line of the sample is as tall: ${pitches.join(', ')}`);
      await page.click('[id="/operations/createPayment"] [data-api-samples] [role="tab"][data-tab-value="go"]');
      assert.deepEqual(await selected(), ['go'], 'one choice switches every operation');
      await page.goto(`${server.url}/docs/api/pagamento`);
      await page.click('[data-tab-group="linguagem"] [role="tab"][data-tab-value="curl"] >> nth=0');
      await page.goto(`${server.url}/onboarding-api-reference`);
      assert.deepEqual(await selected(), ['curl'], 'and back from the docs');
      // On paper every sample prints, the tabs not opened too.
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      await page.emulateMedia({ media: 'print' });
      const ruby = page.locator('[data-api-samples] [role="tabpanel"][data-tab-value="ruby"]').first();
      assert.ok(await ruby.isVisible(), 'a sample never opened prints');
      assert.match((await ruby.textContent()) ?? '', /require 'net\/http'/);
    } finally {
      await page.close();
    }
  });

  it('no page overflows a phone: both API pages at 360, 390 and 414 px', async () => {
    const page = await browser.isolatedPage();
    try {
      // Each page is loaded once, at the widest, and narrowed as a phone turned or a window
      // resized would: the layout has to hold then too. A load per width cost Chromium
      // about a CPU second for each of these 630 KB pages.
      for (const route of ['/api-reference', '/onboarding-api-reference']) {
        await page.setViewportSize({ width: 414, height: 800 });
        await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
        for (const width of [414, 390, 360]) {
          await page.setViewportSize({ width, height: 800 });
          const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth }));
          if (wide.page > wide.viewport) {
            // The elements that stick out, to say what to fix: looked for only then, as measuring each of a 630 KB page's elements is not free.
            const culprits = await page.evaluate(() =>
              [...document.querySelectorAll('main *')]
                .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !el.closest('.table-wrapper, pre, .tabs__list, [hidden]'))
                .map((el) => `${el.tagName}.${el.className}`)
                .slice(0, 3),
            );
            assert.fail(`${route} at ${width} px: page ${wide.page} px wide in a ${wide.viewport} px viewport (${culprits.join(', ')})`);
          }
          await page.mouse.wheel(300, 0);
          assert.equal(await page.evaluate(() => window.scrollX), 0, `${route} at ${width} px does not scroll sideways`);
        }
      }
    } finally {
      await page.close();
    }
  });

  it('makes Elements and its code samples dark in dark mode, and light again', async () => {
    const page = await browser.isolatedPage();
    try {
      await page.addInitScript(() => window.localStorage.setItem('theme', 'light'));
      await openConsole(page, `${server.url}/api-reference#try/operations/createPayment`);
      const canvas = `${READY} .sl-elements-api`;
      const sample = page.locator(`${READY} pre.sl-code-viewer`, { hasText: 'curl' }).locator('.token.string').first();
      await sample.waitFor();
      assert.ok((await luminance(page, canvas, 'background')) > 0.8, 'light canvas');
      assert.ok((await luminance(page, sample, 'text')) < 0.3, 'dark code on the light sample');

      // The navbar is under the modal console: switch the mode as the toggle does.
      await page.evaluate(() => (document.querySelector('.navbar [data-theme-toggle]') as HTMLButtonElement).click());
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await page.waitForTimeout(100);
      assert.ok((await luminance(page, canvas, 'background')) < 0.05, 'dark canvas');
      assert.ok((await luminance(page, sample, 'background')) < 0.05, 'dark code sample');
      assert.ok((await luminance(page, sample, 'text')) > 0.4, 'light code text in the dark sample (its theme store was told)');

      await page.evaluate(() => (document.querySelector('.navbar [data-theme-toggle]') as HTMLButtonElement).click());
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      await page.waitForTimeout(100);
      assert.ok((await luminance(page, canvas, 'background')) > 0.8, 'light canvas again');
      assert.ok((await luminance(page, sample, 'text')) < 0.3, 'dark code again');
    } finally {
      await page.close();
    }
  });

  it('"Clear saved credentials" removes what try-it stored, on screen and in storage', async () => {
    const page = await browser.isolatedPage();
    try {
      await openConsole(page, `${server.url}/api-reference#try/operations/createPayment`);
      const token = `${READY} input[aria-label="Token"]`;
      await page.fill(token, 'Bearer sk_sbx_not-a-real-secret');
      await page.waitForFunction((key) => (window.localStorage.getItem(key) ?? '').includes('sk_sbx_not-a-real-secret'), CREDENTIALS_KEY);

      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('.api-console[open]'));
      await page.click('[data-clear-credentials]');
      assert.equal(await page.evaluate((key) => window.localStorage.getItem(key), CREDENTIALS_KEY), null, 'nothing left in localStorage');
      assert.match((await page.textContent('[data-credentials-status]')) ?? '', /cleared/);
      await page.click('[data-api-try="createPayment"]');
      await page.waitForSelector(token);
      assert.equal(await page.inputValue(token), '', 'the field is empty: Elements no longer holds the value in memory');

      await page.reload();
      await page.waitForSelector(token, { timeout: 30_000 });
      assert.equal(await page.inputValue(token), '', 'still empty after a reload');
    } finally {
      await page.close();
    }
  });

  it("keeps Elements' styles inside it: the navbar and footer look as on other pages, and every rule is scoped", async () => {
    const chrome = ['.navbar__brand', '.navbar__items a', '.footer', '.footer__title', '.footer ul', '.footer li a', '.api-page__header h1'];
    const stylesOf = (page: Page, selectors: string[]) =>
      page.evaluate(
        (list) =>
          list.map((selector) => {
            const el = document.querySelector(selector);
            if (!el) return `${selector}: missing`;
            const s = getComputedStyle(el);
            return [selector, s.fontFamily, s.fontSize, s.fontWeight, s.lineHeight, s.color, s.marginTop, s.marginBottom, s.paddingLeft, s.listStyleType, s.textDecorationLine, s.boxSizing].join(' | ');
          }),
        selectors,
      );
    const page = await browser.isolatedPage();
    const plain = await browser.isolatedPage();
    const withoutElements = await browser.isolatedPage();
    try {
      await openConsole(page, `${server.url}/onboarding-api-reference#try/`);
      const onApiPage = await stylesOf(page, chrome);
      const unscoped = await page.evaluate(() => {
        const sheet = [...document.styleSheets].find((s) => s.href?.includes('/island-api-reference-'));
        if (!sheet) return ['the island stylesheet is not loaded'];
        const bad: string[] = [];
        const queue: CSSRule[] = [...sheet.cssRules];
        while (queue.length > 0) {
          const rule = queue.shift()!;
          if (rule instanceof CSSStyleRule) {
            for (const selector of rule.selectorText.split(/,(?![^(]*\))/)) {
              const own = /\.[\w\\:-]*sl-/.test(selector.replace(/:not\([^)]*\)/g, ''));
              if (!own && !/\[data-island="?api-reference"?\]/.test(selector) && !/^\s*\.api-(?:elements|console)/.test(selector)) bad.push(selector);
            }
          } else if (rule instanceof CSSGroupingRule) queue.push(...rule.cssRules);
        }
        return bad;
      });
      assert.deepEqual(unscoped, [], "every selector of the island stylesheet is scoped to the island or needs Elements' own classes");

      await plain.goto(`${server.url}/docs/onboarding/introducao-api`);
      assert.deepEqual(onApiPage.slice(0, 6), await stylesOf(plain, chrome.slice(0, 6)));
      await withoutElements.goto(`${server.url}/onboarding-api-reference`, { waitUntil: 'load' });
      assert.deepEqual(onApiPage.slice(6), await stylesOf(withoutElements, chrome.slice(6)));
    } finally {
      await Promise.all([page.close(), plain.close(), withoutElements.close()]);
    }
  });

  it('starts and stops with client navigation, leaving nothing behind', async () => {
    const page = await browser.isolatedPage();
    const problems = consoleProblems(page);
    try {
      await page.goto(`${server.url}/`);
      await page.evaluate(() => ((window as Window & { apiTestMarker?: boolean }).apiTestMarker = true));
      await page.click('.navbar__items a[href="/api-reference"]');
      await page.waitForSelector('[data-api-summary]');
      await loadedAndIdle(page);
      await movePointer(page);
      assert.equal(await page.$('.api-console'), null, 'reached by client navigation, the console waits to be asked for too');
      await page.click('[data-api-try="createPayment"]');
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.ok(await page.evaluate(() => (window as Window & { apiTestMarker?: boolean }).apiTestMarker), 'reached through client navigation, not a page load');
      assert.equal(await page.$$eval('style[data-api-reference-theme]', (els) => els.length), 1);
      await page.keyboard.press('Escape');

      await page.click('.navbar__items a[href="/docs/documentacao/introducao"]');
      await page.waitForURL(/\/docs\/documentacao\/introducao$/);
      await page.waitForFunction(() => !document.querySelector('[data-island="api-reference"]'));
      assert.equal(await page.$$eval('style[data-api-reference-theme]', (els) => els.length), 0, "Elements' theme styles leave with it");
      assert.equal(await page.$('.api-console'), null, 'the console leaves with it');

      await page.goBack();
      await page.waitForSelector('[data-api-summary]');
      await loadedAndIdle(page);
      assert.equal(await page.$('.api-console'), null, 'back on the page, the console waits again');
      await page.click('[data-api-try="getTransaction"]');
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.equal(await operationTitle(page), 'Consultar transação');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('no other page requests the Elements chunk or its stylesheet', async () => {
    const requested = async (route: string) => {
      const page = await browser.isolatedPage();
      const urls: string[] = [];
      page.on('request', (request) => urls.push(new URL(request.url()).pathname));
      try {
        await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
        await loadedAndIdle(page);
        await movePointer(page);
        await page.focus('[data-island="search"] button, [data-island="search"] input').catch(() => undefined);
        await page.waitForLoadState('networkidle');
        return urls;
      } finally {
        await page.close();
      }
    };
    for (const route of ['/', '/docs/api/pagamento', '/blog/2019/05/28/hola']) {
      const urls = await requested(route);
      assert.ok(urls.length > 1, `${route} loaded its assets`);
      for (const file of islandFiles) assert.ok(!urls.includes(file), `${route} must not request ${file}`);
    }
  });
});
