/**
 * The API reference pages in Chromium: Stoplight Elements starts on the reader's
 * first interaction (or at once for a `#/` route in the address), after the
 * server-rendered summary, shows every operation, keeps deep links across reloads,
 * follows the colour mode, clears what try-it stored, keeps its styles to itself, and
 * is never loaded by other pages.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import type { RunningServer } from '../../cli/serve.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { builtSite, repoRoot, serveBuiltSite } from '../helpers/site.ts';

const READY = '.api-elements[data-state="ready"]';
/** The key Elements' try-it keeps security values under (templates/client/islands/api-reference.tsx). */
const CREDENTIALS_KEY = 'TryIt_securitySchemeValues';

interface Operation {
  id: string;
  summary: string;
  kind: 'operations' | 'webhooks';
}

async function operationsOf(spec: string): Promise<Operation[]> {
  const doc = parseYaml(await readFile(path.join(repoRoot, spec), 'utf8')) as Record<string, Record<string, Record<string, { operationId?: string; summary?: string }>>>;
  const out: Operation[] = [];
  for (const [group, kind] of [['paths', 'operations'], ['webhooks', 'webhooks']] as const) {
    for (const item of Object.values(doc[group] ?? {})) {
      for (const [method, op] of Object.entries(item)) {
        if (['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method) && op.operationId) out.push({ id: op.operationId, summary: op.summary ?? '', kind });
      }
    }
  }
  return out;
}

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

let pointerX = 0;
/** The reader's first interaction, which starts Elements: the mouse moves over the page (to a new point each time, so it is a move). */
async function interact(page: Page): Promise<void> {
  pointerX = (pointerX % 200) + 11;
  await page.mouse.move(pointerX, 300);
}

/** Resolves once the page has loaded and the browser was idle, when islands that start by themselves have started. */
async function loadedAndIdle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.evaluate(() => new Promise((resolve) => window.requestIdleCallback(() => setTimeout(resolve, 500), { timeout: 2000 })));
}

/** Opens a reference page and starts Elements: a `#/` route starts it by itself, otherwise the mouse moves. */
async function openReference(page: Page, url: string): Promise<void> {
  await page.goto(url);
  if (!new URL(url).hash.startsWith('#/')) await interact(page);
  await page.waitForSelector(READY, { timeout: 30_000 });
}

async function operationTitle(page: Page): Promise<string> {
  return (await page.textContent(`${READY} h1`))?.trim() ?? '';
}

describe('API reference pages (Chromium)', () => {
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

  for (const { route, spec } of [
    { route: '/api-reference', spec: 'openapi/payment.yaml' },
    { route: '/onboarding-api-reference', spec: 'openapi/onboarding.yaml' },
  ]) {
    it(`${route}: the summary comes first, then Elements shows every operation, with no console errors or warnings`, async () => {
      const operations = await operationsOf(spec);
      const page = await browser.newPage();
      const problems = consoleProblems(page);
      try {
        await page.goto(`${server.url}${route}`, { waitUntil: 'domcontentloaded' });
        assert.ok(await page.isVisible('[data-api-summary]'), 'the server-rendered summary is what the reader sees first');
        assert.equal(await page.$(READY), null, 'Elements has not taken over at first paint');
        await interact(page);
        await page.waitForSelector(READY, { timeout: 30_000 });
        assert.equal(await page.isVisible('[data-api-summary]'), false, 'the summary steps aside once Elements shows the same operations');
        assert.equal(await page.$$eval('[data-api-summary] [id^="/operations/"]', (els) => els.length), 0, 'no element but Elements answers to its routes');
        assert.ok(await page.isVisible('[data-clear-credentials]'), 'the island shows the "Clear saved credentials" button');
        for (const op of operations) {
          await page.evaluate((hash) => (window.location.hash = hash), `#/${op.kind}/${op.id}`);
          await page.waitForFunction(
            ([selector, title]) => document.querySelector(selector)?.textContent?.trim() === title,
            [`${READY} h1`, op.summary] as const,
            { timeout: 10_000 },
          ).catch(() => undefined);
          assert.equal(await operationTitle(page), op.summary, `Elements shows ${op.kind}/${op.id}`);
        }
        assert.deepEqual(problems, [], 'no console errors or warnings');
      } finally {
        await page.close();
      }
    });
  }

  it('waits for the reader: the Elements chunk is not requested before an interaction, and is after a mouse move', async () => {
    const page = await browser.newPage();
    const problems = consoleProblems(page);
    const urls: string[] = [];
    page.on('request', (request) => urls.push(new URL(request.url()).pathname));
    try {
      await page.goto(`${server.url}/api-reference`, { waitUntil: 'load' });
      await loadedAndIdle(page);
      await page.waitForLoadState('networkidle');
      for (const file of islandFiles) assert.ok(!urls.includes(file), `${file} is not requested before the reader interacts`);
      assert.ok(await page.isVisible('[data-api-summary]'), 'the summary is what the reader has');
      assert.equal(await page.$('.api-elements'), null, 'Elements has not started');

      await interact(page);
      await page.waitForSelector(READY, { timeout: 30_000 });
      for (const file of islandFiles) assert.ok(urls.includes(file), `${file} is requested once the mouse moved`);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('starts Elements without any interaction when the address has a #/ route', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/onboarding-api-reference#/operations/getMerchant`);
      // No mouse, keyboard or focus: the route alone starts it.
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.equal(await page.isVisible('[data-api-summary]'), false);
      assert.equal(await operationTitle(page), 'Consultar estabelecimento');
    } finally {
      await page.close();
    }
  });

  it('starts Elements when the reader follows a link of the summary, and opens that operation', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/api-reference`, { waitUntil: 'load' });
      // A keyboard-free activation without pointer events, as assistive technology does it.
      await page.$eval('[data-api-summary] nav a[href="#/operations/createPayment"]', (link) => (link as HTMLAnchorElement).click());
      await page.waitForSelector(READY, { timeout: 30_000 });
      await page.waitForFunction((selector) => document.querySelector(selector)?.textContent?.trim() === 'Criar pagamento', `${READY} h1`, { timeout: 10_000 });
    } finally {
      await page.close();
    }
  });

  it('opens a deep link to an operation, and again after a reload, with try-it on the sandbox', async () => {
    const page = await browser.newPage();
    const problems = consoleProblems(page);
    try {
      await openReference(page, `${server.url}/api-reference#/operations/createPayment`);
      assert.equal(await operationTitle(page), 'Criar pagamento');
      const top = await page.$eval('[data-island="api-reference"]', (el) => el.getBoundingClientRect().top);
      const navbar = await page.$eval('.navbar', (el) => el.getBoundingClientRect().bottom);
      assert.ok(Math.abs(top - navbar) <= 2, `the reference is brought under the navbar (top ${top}, navbar ${navbar})`);
      assert.match((await page.textContent(READY)) ?? '', /--url https:\/\/sandbox\.api\.sorrix\.example\/v1\/payments/, 'try-it and its sample use the sandbox');

      await page.reload();
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.equal(page.url(), `${server.url}/api-reference#/operations/createPayment`);
      assert.equal(await operationTitle(page), 'Criar pagamento', 'the same operation after a reload');

      await page.evaluate(() => (window.location.hash = '#/operations/createToken'));
      await page.waitForFunction((selector) => /auth\.sandbox\.sorrix\.example\/oauth\/token/.test(document.querySelector(selector)?.textContent ?? ''), READY);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('makes Elements and its code samples dark in dark mode, and light again', async () => {
    const page = await browser.newPage();
    try {
      await page.addInitScript(() => window.localStorage.setItem('theme', 'light'));
      await openReference(page, `${server.url}/api-reference#/operations/createPayment`);
      const canvas = `${READY} .sl-elements-api`;
      // A string of the curl request sample: its colour comes from the code theme Elements picks.
      const sample = page.locator(`${READY} pre.sl-code-viewer`, { hasText: 'curl' }).locator('.token.string').first();
      await sample.waitFor();
      assert.ok((await luminance(page, canvas, 'background')) > 0.8, 'light canvas');
      assert.ok((await luminance(page, sample, 'text')) < 0.3, 'dark code on the light sample');

      await page.click('.navbar [data-theme-toggle]');
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await page.waitForTimeout(100);
      assert.ok((await luminance(page, canvas, 'background')) < 0.05, 'dark canvas');
      assert.ok((await luminance(page, sample, 'background')) < 0.05, 'dark code sample');
      assert.ok((await luminance(page, sample, 'text')) > 0.4, 'light code text in the dark sample (its theme store was told)');

      await page.click('.navbar [data-theme-toggle]');
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      await page.waitForTimeout(100);
      assert.ok((await luminance(page, canvas, 'background')) > 0.8, 'light canvas again');
      assert.ok((await luminance(page, sample, 'text')) < 0.3, 'dark code again');
    } finally {
      await page.close();
    }
  });

  it('"Clear saved credentials" removes what try-it stored, on screen and in storage', async () => {
    const page = await browser.newPage();
    try {
      await openReference(page, `${server.url}/api-reference#/operations/createPayment`);
      const token = `${READY} input[aria-label="Token"]`;
      await page.fill(token, 'Bearer sk_sbx_not-a-real-secret');
      await page.waitForFunction((key) => (window.localStorage.getItem(key) ?? '').includes('sk_sbx_not-a-real-secret'), CREDENTIALS_KEY);

      await page.click('[data-clear-credentials]');
      assert.equal(await page.evaluate((key) => window.localStorage.getItem(key), CREDENTIALS_KEY), null, 'nothing left in localStorage');
      await page.waitForSelector(token);
      assert.equal(await page.inputValue(token), '', 'the field is empty: Elements no longer holds the value in memory');
      assert.match((await page.textContent('[data-credentials-status]')) ?? '', /cleared/);
      assert.equal(await operationTitle(page), 'Criar pagamento', 'the reader stays on the operation');

      await page.reload();
      await page.waitForSelector(READY, { timeout: 30_000 });
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
    const page = await browser.newPage();
    const plain = await browser.newPage();
    const withoutElements = await browser.newPage();
    try {
      await openReference(page, `${server.url}/onboarding-api-reference`);
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
              if (!own && !/\[data-island="?api-reference"?\]/.test(selector) && !/^\s*\.api-elements/.test(selector)) bad.push(selector);
            }
          } else if (rule instanceof CSSGroupingRule) queue.push(...rule.cssRules);
        }
        return bad;
      });
      assert.deepEqual(unscoped, [], "every selector of the island stylesheet is scoped to the island or needs Elements' own classes");

      // The same chrome on a page that never loads Elements.
      await plain.goto(`${server.url}/docs/onboarding/introducao-api`);
      assert.deepEqual(onApiPage.slice(0, 6), await stylesOf(plain, chrome.slice(0, 6)));
      // The page's own heading, compared with the same page where Elements never loaded.
      await withoutElements.route('**/island-api-reference-*', (route) => route.abort());
      await withoutElements.goto(`${server.url}/onboarding-api-reference`, { waitUntil: 'load' });
      assert.deepEqual(onApiPage.slice(6), await stylesOf(withoutElements, chrome.slice(6)));
    } finally {
      await Promise.all([page.close(), plain.close(), withoutElements.close()]);
    }
  });

  it('starts and stops with client navigation, leaving nothing behind', async () => {
    const page = await browser.newPage();
    const problems = consoleProblems(page);
    try {
      await page.goto(`${server.url}/`);
      await page.evaluate(() => ((window as Window & { apiTestMarker?: boolean }).apiTestMarker = true));
      await page.click('.navbar__items a[href="/api-reference"]');
      await page.waitForSelector('[data-api-summary]');
      await loadedAndIdle(page);
      assert.equal(await page.$('.api-elements'), null, 'reached by client navigation, Elements waits for an interaction too');
      await interact(page);
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.ok(await page.evaluate(() => (window as Window & { apiTestMarker?: boolean }).apiTestMarker), 'reached through client navigation, not a page load');
      assert.equal(await page.$$eval('style[data-api-reference-theme]', (els) => els.length), 1);

      await page.click('.navbar__items a[href="/docs/documentacao/introducao"]');
      await page.waitForURL(/\/docs\/documentacao\/introducao$/);
      await page.waitForFunction(() => !document.querySelector('[data-island="api-reference"]'));
      assert.equal(await page.$$eval('style[data-api-reference-theme]', (els) => els.length), 0, "Elements' theme styles leave with it");

      await page.goBack();
      await page.waitForSelector('[data-api-summary]');
      await loadedAndIdle(page);
      assert.equal(await page.$('.api-elements'), null, 'back on the page, Elements waits again');
      await interact(page);
      await page.waitForSelector(READY, { timeout: 30_000 });
      assert.equal(await page.isVisible('[data-api-summary]'), false);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('no other page requests the Elements chunk or its stylesheet', async () => {
    const requested = async (route: string) => {
      const page = await browser.newPage();
      const urls: string[] = [];
      page.on('request', (request) => urls.push(new URL(request.url()).pathname));
      try {
        await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
        // Islands start after load and idle or on interaction: give them that time, a mouse move and the search box a focus.
        await loadedAndIdle(page);
        await interact(page);
        await page.focus('[data-island="search"] button, [data-island="search"] input').catch(() => undefined);
        await page.waitForLoadState('networkidle');
        return urls;
      } finally {
        await page.close();
      }
    };
    const onApi = await requested('/api-reference');
    for (const file of islandFiles) assert.ok(onApi.includes(file), `the API reference loads ${file}`);
    for (const route of ['/', '/docs/api/pagamento', '/blog/2019/05/28/hola']) {
      const urls = await requested(route);
      assert.ok(urls.length > 1, `${route} loaded its assets`);
      for (const file of islandFiles) assert.ok(!urls.includes(file), `${route} must not request ${file}`);
    }
  });
});
