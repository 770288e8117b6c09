/**
 * The search dialog on the real built site, in Chromium: shortcuts, keyboard use and
 * focus, Portuguese-aware results that open the right section, nothing of search
 * loaded before it is wanted, the transfer budget of the first results, and axe on the
 * open dialog in both colour modes.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../cli/serve.ts';
import { DATA } from '../../templates/shared/index.ts';
import { collectErrors, launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { builtSite, serveBuiltSite } from '../helpers/site.ts';
import { clickInPage, injectLink, quiet, requestsInFlight } from './harness.ts';

const DOC = '/docs/documentacao/introducao';
const INPUT = 'dialog.search-dialog .search-dialog__input';
const OPEN_DIALOG = 'dialog.search-dialog[open]';
/** Spec of the budget: everything the first results need, gzip-compressed. */
const BUDGET_BYTES = 60 * 1024;
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let server: RunningServer;
let browser: TestBrowser;
let dist: string;

before(async () => {
  dist = await builtSite();
  server = await serveBuiltSite();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string, target = browser): Promise<Page> {
  const page = await target.newPage();
  await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
  return page;
}

/** Types a query at once and waits until its results (or its "no results") are on screen with their text. */
async function search(page: Page, query: string): Promise<void> {
  await page.fill(INPUT, query);
  await page.waitForSelector(`[data-query="${query.replace(/"/g, '\\"')}"]`, { timeout: 10_000 });
}

interface OptionFacts {
  id: string;
  href: string;
  heading: string;
  marks: string[];
  group: string;
}

async function options(page: Page): Promise<OptionFacts[]> {
  return page.$$eval('dialog.search-dialog [role="option"]', (els) =>
    els.map((el) => ({
      id: el.id,
      href: el.getAttribute('href') ?? '',
      heading: el.querySelector('.search-hit__heading')?.textContent ?? '',
      marks: Array.from(el.querySelectorAll('mark'), (m) => m.textContent ?? ''),
      group: el.closest('[role="group"]')?.querySelector('.search-group__title')?.textContent ?? '',
    })),
  );
}

/** Set by the island once it runs, whatever renders it (it runs on preact/compat, not React). */
const READY = `.navbar__search[${DATA.searchReady}]`;

/** Waits until the search island has mounted on the navbar button. */
async function islandMounted(page: Page): Promise<void> {
  await page.waitForSelector(READY, { state: 'attached', timeout: 10_000 });
}

async function islandIsMounted(page: Page): Promise<boolean> {
  return (await page.$(READY)) !== null;
}

async function activeId(page: Page): Promise<string | null> {
  return page.getAttribute(INPUT, 'aria-activedescendant');
}

/** Arrow keys until the option with this href is the active one, then Enter. */
async function openResult(page: Page, href: string): Promise<void> {
  const all = await options(page);
  const index = all.findIndex((o) => o.href === href);
  assert.ok(index >= 0, `no result links ${href}; results: ${all.map((o) => o.href).join(', ')}`);
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  assert.equal(await activeId(page), all[index]!.id);
  await page.keyboard.press('Enter');
  await page.waitForFunction((expected) => `${location.pathname}${location.hash}` === expected, href, { timeout: 10_000 });
}

/** Waits until the element (an id, or "text:<words>" for a heading holding those words) is on screen, below the fixed navbar. */
async function waitInView(page: Page, find: string): Promise<void> {
  await page.waitForFunction(
    (find) => {
      const element = find.startsWith('text:')
        ? Array.from(document.querySelectorAll<HTMLElement>('h1, h2, h3, h4')).find((h) => h.offsetParent !== null && h.textContent?.includes(find.slice(5)))
        : document.getElementById(find);
      if (!element) return false;
      const rect = element.getBoundingClientRect();
      const navbar = document.querySelector('.navbar')?.getBoundingClientRect().bottom ?? 0;
      return rect.height > 0 && rect.top >= navbar - 1 && rect.top < window.innerHeight;
    },
    find,
    { timeout: 10_000 },
  );
}

describe('search dialog', () => {
  it('opens on the first Ctrl+K, with focus in the query; Escape closes it and focus returns', async () => {
    const page = await open(DOC);
    const errors = collectErrors(page);
    page.on('console', (message) => {
      if (message.type() === 'warning' && /docsgen|hydrat/i.test(message.text())) errors.push(message.text());
    });
    await page.focus('.doc-sidebar a.menu__link');
    const before = await page.evaluate(() => document.activeElement?.getAttribute('href'));
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('search-dialog__input')), true);
    const dialog = await page.$eval(OPEN_DIALOG, (d) => ({ label: document.getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent, modal: d.matches(':modal') }));
    assert.deepEqual(dialog, { label: 'Search', modal: true });
    await page.keyboard.press('Escape');
    await page.waitForSelector(OPEN_DIALOG, { state: 'detached', timeout: 5000 });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), before);
    // Open again: the same shortcut works once the island is running.
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('takes over the server-rendered button as it is: the same element, unchanged and unmoved, nothing logged', async () => {
    const page = await open(DOC);
    // preact/compat reports no hydration mismatch the way React did (onRecoverableError): it
    // would build new elements instead, so the element itself and the console are what tell.
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') logged.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => logged.push(error.message));
    const button = '.navbar__search .search-button';
    const facts = () =>
      page.$eval(button, (el) => {
        const box = el.getBoundingClientRect();
        return { html: el.outerHTML, box: [box.x, box.y, box.width, box.height], same: el === (window as Window & { serverButton?: Element }).serverButton };
      });
    await page.$eval(button, (el) => ((window as Window & { serverButton?: Element }).serverButton = el));
    const before = await facts();
    await page.focus(button);
    await islandMounted(page);
    const after = await facts();
    assert.equal(after.same, true, 'the element the server sent is kept, not replaced');
    assert.equal(after.html, before.html);
    assert.deepEqual(after.box, before.box);
    // The button the island hydrated is the one that works.
    await page.keyboard.press('Enter');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    assert.deepEqual(logged, []);
    await page.close();
  });

  it('opens on the first "/" and the first Cmd+K too, and from the navbar button', async () => {
    const page = await open('/blog');
    await page.keyboard.press('/');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    assert.equal(await page.inputValue(INPUT), '', 'the "/" is not typed into the query');
    await page.keyboard.press('Escape');
    await page.click('.navbar .search-button');
    await page.waitForSelector(OPEN_DIALOG);
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('search-button')), true);
    await page.close();

    const home = await open('/');
    await home.keyboard.press('Meta+k');
    await home.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    // "/" typed in the query is text, not a shortcut.
    await home.keyboard.type('/v1');
    assert.equal(await home.inputValue(INPUT), '/v1');
    await home.close();
  });

  it('opens on the first click or tap of the navbar button, before its code has loaded', async () => {
    const page = await open('/blog');
    assert.equal(await islandIsMounted(page), false, 'nothing of search has run yet');
    await page.click('.navbar .search-button');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    await page.close();

    // A click with no pointer before it, as a tap on a touch screen can be.
    const touched = await open('/docs/documentacao/introducao');
    await touched.dispatchEvent('.navbar .search-button', 'click');
    await touched.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    await touched.close();
  });

  it('does not open on hover alone: hovering only loads the code', async () => {
    const page = await open('/blog');
    const requests = requestsInFlight(page);
    await page.hover('.navbar .search-button');
    await islandMounted(page);
    await page.mouse.move(10, 400);
    // Whatever the hover started has run its course.
    await quiet(page, requests, { calmRounds: 2 });
    assert.equal(await page.$(OPEN_DIALOG), null);
    await page.close();
  });

  it('closing returns focus to the button that opened it, even unfocused, or to what had focus before a shortcut', async () => {
    const focused = (page: Page) => page.evaluate(() => (document.activeElement?.id || document.activeElement?.className) ?? '');
    const closeWithEscape = async (page: Page) => {
      await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
      await page.keyboard.press('Escape');
      await page.waitForSelector(OPEN_DIALOG, { state: 'detached', timeout: 5000 });
    };
    // A click that does not focus the button, as Safari clicks, before the island runs and after.
    const clickUnfocused = (page: Page) => clickInPage(page, '.navbar .search-button');
    const page = await open(DOC);
    await clickUnfocused(page);
    await closeWithEscape(page);
    assert.equal(await focused(page), 'search-button', 'the first click, before the code loaded');
    // After a client navigation the router focuses <main>: a click on the button still returns to the button.
    await injectLink(page, '/docs/documentacao/credenciais', 'to-other-doc');
    await clickInPage(page, '#to-other-doc');
    await page.waitForFunction(() => location.pathname === '/docs/documentacao/credenciais' && document.activeElement?.id === 'main-content');
    await clickUnfocused(page);
    await closeWithEscape(page);
    assert.equal(await focused(page), 'search-button', 'a click on the running island');
    // A shortcut returns where the reader was: here <main>, where the navigation put them.
    await page.focus('#main-content');
    await page.keyboard.press('Control+k');
    await closeWithEscape(page);
    assert.equal(await focused(page), 'main-content', 'a shortcut pressed in the content');
    await page.close();
    // With nothing focused, a shortcut's dialog gives focus to the content, not to the navbar.
    const fresh = await open('/blog');
    assert.equal(await fresh.evaluate(() => document.activeElement === document.body), true);
    await fresh.keyboard.press('/');
    await closeWithEscape(fresh);
    assert.equal(await fresh.evaluate(() => document.activeElement?.tagName), 'MAIN');
    await fresh.close();
  });

  it('shows an Esc keycap to close on desktops, and a "Cancel" text button on phones and touch screens', async () => {
    const closeControl = async (page: Page) => {
      await page.click('.navbar .search-button');
      await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
      const close = page.locator('dialog.search-dialog .search-dialog__close');
      return {
        close,
        facts: {
          text: (await close.locator('.search-dialog__close-text').isVisible()) ? 'Cancel' : (await close.locator('kbd').innerText()).trim(),
          keycap: await close.locator('kbd').isVisible(),
          height: Math.round((await close.boundingBox())?.height ?? 0),
        },
      };
    };
    const desktop = await open(DOC);
    const wide = await closeControl(desktop);
    assert.deepEqual({ text: wide.facts.text, keycap: wide.facts.keycap }, { text: 'Esc', keycap: true });
    assert.equal(await desktop.getByRole('button', { name: 'Close search' }).isVisible(), true);
    await desktop.close();

    for (const [what, options] of [
      ['a phone, 390 x 844', { viewport: { width: 390, height: 844 }, touch: true }],
      ['a narrow window', { viewport: { width: 600, height: 800 } }],
      ['a touch tablet, 1180 x 820', { viewport: { width: 1180, height: 820 }, touch: true }],
    ] as const) {
      const page = await browser.isolatedPage(options);
      await page.goto(`${server.url}${DOC}`, { waitUntil: 'load' });
      const { close, facts } = await closeControl(page);
      assert.equal(facts.text, 'Cancel', what);
      assert.equal(facts.keycap, false, `${what}: no Esc keycap`);
      assert.ok(facts.height >= 44, `${what}: a touch target (${facts.height} px high)`);
      // Named by what it shows, for voice control ("tap Cancel") and screen readers alike.
      assert.equal(await page.getByRole('button', { name: 'Cancel', exact: true }).isVisible(), true, what);
      assert.equal(await page.getByRole('button', { name: 'Close search' }).count(), 0, `${what}: the hidden keycap's name is not read`);
      await close.click();
      await page.waitForSelector(OPEN_DIALOG, { state: 'detached', timeout: 5000 });
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'search-button', `${what}: focus is back on the button`);
      await page.close();
    }
  });

  it('keeps Tab inside the dialog and moves the active option with the arrow keys', async () => {
    const page = await open(DOC);
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    await search(page, 'homologacao');
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
      assert.equal(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog.search-dialog'))), true, `Tab ${i + 1} left the dialog`);
    }
    await page.focus(INPUT);
    const all = await options(page);
    assert.ok(all.length >= 3);
    assert.equal(await page.getAttribute(INPUT, 'role'), 'combobox');
    assert.equal(await page.getAttribute(INPUT, 'aria-expanded'), 'true');
    assert.equal(await activeId(page), all[0]!.id);
    await page.keyboard.press('ArrowDown');
    assert.equal(await activeId(page), all[1]!.id);
    assert.equal(await page.getAttribute(`[id="${all[1]!.id}"]`, 'aria-selected'), 'true');
    assert.equal(await page.getAttribute(`[id="${all[0]!.id}"]`, 'aria-selected'), 'false');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    assert.equal(await activeId(page), all[all.length - 1]!.id, 'ArrowUp from the first wraps to the last');
    await page.close();
  });

  it('"homologacao" finds "Roteiro de homologação" and Enter opens the section, its heading in view', async () => {
    const page = await open(DOC);
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    await search(page, 'homologacao');
    const all = await options(page);
    assert.equal(all[0]!.href, '/docs/anexo/roteiro-homologacao');
    assert.match(all[0]!.group, /^Docs\s*Anexos › Roteiro de homologação$/);
    assert.deepEqual(all[0]!.marks, ['homologação'], 'the accented word is highlighted');
    const section = all.find((o) => o.href.startsWith('/docs/anexo/roteiro-homologacao#'));
    assert.ok(section, 'a section of the page is among the results');
    await openResult(page, section.href);
    await waitInView(page, decodeURIComponent(section.href.split('#')[1]!));
    assert.equal(await page.$(OPEN_DIALOG), null, 'the dialog closed');
    await page.close();
  });

  it('"pagamentos" finds the "Pagamento" page (stemming) and Enter opens it', async () => {
    const page = await open(DOC);
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    await search(page, 'pagamentos');
    const all = await options(page);
    assert.match(all[0]!.group, /^Docs\s*API de Pagamento › Pagamento$/, 'the group names the sidebar category and the page');
    assert.ok(
      all.some((o) => o.marks.some((m) => m.toLowerCase() === 'pagamento')),
      'the singular is highlighted for the plural query',
    );
    const section = all.find((o) => o.href.startsWith('/docs/api/pagamento#'));
    assert.ok(section, `a section of /docs/api/pagamento is among the results: ${all.map((o) => o.href).join(' ')}`);
    await openResult(page, section.href);
    await waitInView(page, section.href.split('#')[1]!);
    await page.close();
  });

  it('"começando" tells the two "Começando" docs apart by their sidebar category', async () => {
    const page = await open(DOC);
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    await search(page, 'começando');
    const groups = new Map((await options(page)).map((o) => [o.href.split('#')[0], o.group]));
    const api = groups.get('/docs/api/comecando');
    const onboarding = groups.get('/docs/onboarding/comecando');
    assert.match(api ?? '', /API de Pagamento › Começando$/, `the API's: ${api}`);
    assert.match(onboarding ?? '', /Onboarding › Começando$/, `the onboarding's: ${onboarding}`);
    await page.close();
  });

  it('"POST /v1/payments" finds the operation and Enter opens its deep link in the API reference', async () => {
    const page = await open(DOC);
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    await search(page, 'POST /v1/payments');
    const all = await options(page);
    assert.equal(all[0]!.href, '/api-reference#/operations/createPayment');
    assert.match(all[0]!.group, /^API\s*API Reference$/);
    assert.match(all[0]!.heading, /^POST \/v1\/payments · Criar pagamento$/);
    await openResult(page, '/api-reference#/operations/createPayment');
    // The server-rendered reference has the operation under its id.
    await page.waitForFunction(
      () => {
        const candidates = [document.getElementById('/operations/createPayment'), ...Array.from(document.querySelectorAll<HTMLElement>('h1, h2, h3'))];
        return candidates.some((el) => {
          if (!el || el.offsetParent === null || !(el.id === '/operations/createPayment' || el.textContent?.trim() === 'Criar pagamento')) return false;
          const rect = el.getBoundingClientRect();
          return rect.height > 0 && rect.top >= 0 && rect.top < window.innerHeight;
        });
      },
      undefined,
      { timeout: 20_000 },
    );
    await page.close();
  });

  it('says when nothing matches and points to the docs index; an empty query shows recent searches', async () => {
    const page = await open(DOC);
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
    await search(page, 'xyzzy quux');
    const message = await page.textContent('dialog.search-dialog .search-dialog__message');
    assert.match(message ?? '', /No results for “xyzzy quux”\./);
    assert.equal(await page.getAttribute('dialog.search-dialog .search-dialog__message a', 'href'), '/docs');
    assert.equal(await page.getAttribute(INPUT, 'aria-expanded'), 'false');
    assert.equal(await page.getAttribute(INPUT, 'aria-activedescendant'), null);

    await search(page, 'credenciais');
    const first = (await options(page))[0]!;
    await page.keyboard.press('Enter');
    await page.waitForFunction((href) => `${location.pathname}${location.hash}` === href, first.href, { timeout: 10_000 });
    await page.keyboard.press('Control+k');
    await page.waitForSelector(OPEN_DIALOG);
    await page.fill(INPUT, '');
    await page.waitForSelector('dialog.search-dialog .search-hit--recent');
    const recent = await page.$$eval('dialog.search-dialog .search-hit--recent', (els) => els.map((e) => e.textContent));
    assert.equal(recent[0], 'credenciais', 'the latest search comes first');
    assert.ok(recent.length <= 5);
    await page.keyboard.press('Enter');
    assert.equal(await page.inputValue(INPUT), 'credenciais', 'Enter on a recent search runs it again');
    await page.close();
  });
});

describe('search loading', { concurrency: true }, () => {
  /** What each island module imports that the page script does not: React and the search code. */
  async function searchAssets(page: Page): Promise<string[]> {
    const manifest = JSON.parse((await page.textContent('#docsgen-islands')) ?? '{}') as Record<string, { js: string; css: string[] }>;
    const search = manifest.search!;
    const imports = async (url: string) => [...(await readFile(path.join(dist, url), 'utf8')).matchAll(/(?:from|import)\s*"\.\/([^"]+)"/g)].map((m) => `/assets/${m[1]}`);
    const mainUrl = (await page.getAttribute('script[type="module"][src]', 'src'))!;
    const shared = new Set([mainUrl, ...(await imports(mainUrl))]);
    return [search.js, ...search.css, ...(await imports(search.js))].filter((url) => !shared.has(url));
  }

  function isIndex(url: string): boolean {
    return url === '/search/index.json' || url.startsWith('/assets/search/');
  }

  it('requests no search code or index before the reader shows intent, and the index only when the dialog opens', async () => {
    // A context of its own: nothing of search in its cache or storage.
    const page = await browser.isolatedPage();
    try {
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      const requests = requestsInFlight(page);
      await page.goto(`${server.url}${DOC}`, { waitUntil: 'load' });
      // Everything that starts by itself has started (and finished) by then: idle, nothing in flight.
      await quiet(page, requests, { calmRounds: 2 });
      const assets = await searchAssets(page);
      assert.ok(assets.length >= 2, `search has its own code: ${assets.join(', ')}`);
      assert.deepEqual(requested.filter((url) => assets.includes(url) || isIndex(url)), [], 'nothing of search before intent');

      // Focus on the button (keyboard users tab to it) loads the code, not the index.
      await page.focus('.navbar .search-button');
      await islandMounted(page);
      await quiet(page, requests);
      for (const asset of assets.filter((a) => a.endsWith('.js'))) assert.ok(requested.includes(asset), `${asset} loads on focus`);
      assert.equal(requested.filter(isIndex).length, 0, 'no index before the dialog opens');
      assert.equal(await page.$(OPEN_DIALOG), null, 'focus alone does not open the dialog');

      await page.keyboard.press('Enter');
      await page.waitForSelector(OPEN_DIALOG);
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/search/index.json')));
      assert.ok(requested.includes('/search/index.json'));
    } finally {
      await page.close();
    }
  });

  it('needs at most 60 KB gzip for the first results', async (t: TestContext) => {
    const sizes: Record<string, number> = {};
    // Each query in a context of its own (an empty cache, as a first visit), all at once.
    await Promise.all(
      ['pagamentos', 'homologacao', 'POST /v1/payments', 'cancelamento parcial'].map(async (query) => {
        const page = await browser.isolatedPage();
        try {
          const requested: string[] = [];
          const requests = requestsInFlight(page);
          await page.goto(`${server.url}${DOC}`, { waitUntil: 'load' });
          await quiet(page, requests, { calmRounds: 2 });
          page.on('request', (request) => requested.push(new URL(request.url()).pathname));
          await page.keyboard.press('Control+k');
          await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
          await search(page, query);
          // The passages of the results in view load next; wait until they have, and nothing more is on its way.
          await page.waitForFunction(() => {
            const body = document.querySelector('.search-dialog__body')!.getBoundingClientRect();
            return Array.from(document.querySelectorAll('[role="option"][data-pending]')).every((el) => el.getBoundingClientRect().top > body.bottom);
          });
          await quiet(page, requests);
          // Pages are not search's: the router may still prefetch one a loaded machine got to late.
          const isPage = (url: string) => url === '/' || url.endsWith('.html') || url.startsWith('/docs') || existsSync(path.join(dist, `${url.slice(1)}.html`));
          const searchRequests = requested.filter((url) => !isPage(url));
          let total = 0;
          for (const url of new Set(searchRequests)) {
            const body = await readFile(path.join(dist, url));
            // The server (like most hosts) sends small files uncompressed.
            total += body.byteLength < 1024 ? body.byteLength : gzipSync(body, { level: 6 }).byteLength;
          }
          sizes[query] = total;
        } finally {
          await page.close();
        }
      }),
    );
    t.diagnostic(`first results, gzip bytes: ${JSON.stringify(sizes)}`);
    assert.equal(Object.keys(sizes).length, 4);
    for (const [query, bytes] of Object.entries(sizes)) assert.ok(bytes <= BUDGET_BYTES, `"${query}" needed ${bytes} bytes, over the ${BUDGET_BYTES} budget`);
  });
});

describe('search accessibility', () => {
  for (const mode of ['light', 'dark'] as const) {
    it(`axe finds no violations in the open dialog (${mode} mode)`, async () => {
      const page = await browser.newPage();
      await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
      await page.goto(`${server.url}${DOC}`, { waitUntil: 'load' });
      assert.equal(await page.getAttribute('html', 'data-theme'), mode);
      // Evaluated, not added as a <script>: the site's Content-Security-Policy refuses inline scripts it does not list.
      await page.evaluate(await readFile(axePath, 'utf8'));
      await page.keyboard.press('Control+k');
      await page.waitForSelector(OPEN_DIALOG, { timeout: 10_000 });
      const check = async (state: string) => {
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(context: Element, options: object): Promise<{ violations: { id: string; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
          const result = await axe.run(document.querySelector('dialog.search-dialog')!, { resultTypes: ['violations'] });
          return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
        });
        assert.deepEqual(violations, [], `${state}, ${mode} mode`);
      };
      await check('empty query');
      await search(page, 'pagamentos');
      await page.keyboard.press('ArrowDown');
      await check('results with an active option');
      await search(page, 'xyzzy');
      await check('no results');
      await page.close();
    });
  }
});
