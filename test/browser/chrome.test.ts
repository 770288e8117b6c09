/**
 * The chrome around the content on the real built site, in Chromium: colour mode
 * (spec §4, §9), blocked storage (§8), the mobile menu and its breakpoint (§2), skip
 * link, dropdowns, table of contents, copy buttons, tabs, and the base-URL warning.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ConsoleMessage, Page } from 'playwright-core';
import type { RunningServer } from '../../cli/serve.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { builtSite, serveBuiltSite } from '../helpers/site.ts';
import { clickInPage, markerSurvived, setMarker } from './harness.ts';

const DOC = '/docs/api/pagamento';
const OTHER_DOC = '/docs/api/transacao';
const LIGHT = 'Switch between dark and light mode (currently light mode)';
const DARK = 'Switch between dark and light mode (currently dark mode)';

/** Records data-theme on <html> at the moment <body> is inserted: before anything can be painted. */
const THEME_AT_BODY = `new MutationObserver((records, observer) => {
  if (!document.body) return;
  window.themeAtBody = document.documentElement.getAttribute('data-theme');
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

/** Storage that throws on access, as in private modes with blocked storage. */
const BLOCKED_STORAGE = `Object.defineProperty(window, 'localStorage', {
  configurable: true,
  get: () => { throw new DOMException('The operation is insecure.', 'SecurityError'); },
});`;

interface TabsPages {
  group: string;
  /** A doc route with at least two tab sets of the group. */
  several: string;
  /** Another doc route with a tab set of the group. */
  other: string;
}

/** Finds, in the build, pages whose tabs share a group, so the test follows content edits. */
async function tabsPages(): Promise<TabsPages> {
  const dist = await builtSite();
  const counts: { route: string; groups: Map<string, number> }[] = [];
  for (const entry of await readdir(path.join(dist, 'docs'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html') || entry.name === 'index.html') continue;
    const file = path.join(entry.parentPath, entry.name);
    const groups = new Map<string, number>();
    for (const match of (await readFile(file, 'utf8')).matchAll(/data-tab-group="([^"]+)"/g)) groups.set(match[1]!, (groups.get(match[1]!) ?? 0) + 1);
    counts.push({ route: `/${path.relative(dist, file).replace(/\.html$/, '').split(path.sep).join('/')}`, groups });
  }
  for (const page of counts) {
    for (const [group, n] of page.groups) {
      const other = counts.find((p) => p !== page && p.groups.has(group));
      if (n >= 2 && other) return { group, several: page.route, other: other.route };
    }
  }
  throw new Error('The tabs test needs a doc page with two <Tabs> of one groupId and another page with that groupId.');
}

describe('site chrome (real site)', () => {
  let browser: TestBrowser;
  let server: RunningServer;

  before(async () => {
    // Each is assigned as soon as it exists, so after() stops it even when the other fails.
    const started = [serveBuiltSite().then((s) => (server = s)), launchBrowser().then((b) => (browser = b))];
    await Promise.allSettled(started);
    await Promise.all(started);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(route: string, options: { width?: number; init?: string[]; keepStorage?: boolean } = {}) {
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    if (options.width) await page.setViewportSize({ width: options.width, height: 800 });
    const messages: ConsoleMessage[] = [];
    const pageErrors: string[] = [];
    page.on('console', (message) => messages.push(message));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    for (const content of options.init ?? []) await page.addInitScript({ content });
    if (!options.keepStorage) {
      // Tests share one browser profile: start each from empty storage.
      await page.goto(`${server.url}/robots.txt`);
      await page.evaluate(() => localStorage.clear());
    }
    await page.goto(server.url + route, { waitUntil: 'load' });
    await setMarker(page);
    const errors = () => [...pageErrors, ...messages.filter((m) => m.type() === 'error').map((m) => m.text())];
    const warnings = () => messages.filter((m) => m.type() === 'warning').map((m) => m.text());
    return { page, errors, warnings };
  }

  const toggle = (page: Page) => page.locator('.navbar__items--right [data-theme-toggle]');

  it('leaves room between the navbar and the first heading on docs, blog and API pages', async () => {
    const { page } = await open('/docs/doc1');
    for (const route of ['/docs/doc1', '/blog', '/blog/2019/05/28/hola', '/blog/archive', '/api-reference', '/onboarding-api-reference']) {
      await page.goto(server.url + route, { waitUntil: 'load' });
      const gap = await page.evaluate(() => {
        const heading = [...document.querySelectorAll('main h1, main h2, main .breadcrumbs')].find((e) => e.getBoundingClientRect().height > 0)!;
        return heading.getBoundingClientRect().top - document.querySelector('.navbar')!.getBoundingClientRect().bottom;
      });
      assert.ok(gap >= 16, `${route}: the first heading starts ${gap} px below the navbar`);
    }
    await page.close();
  });

  it('is light by default; the toggle switches light/dark, labels itself exactly and persists the choice under "theme"', async () => {
    const { page, errors } = await open(DOC);
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
    assert.equal(await toggle(page).getAttribute('aria-label'), LIGHT);
    assert.equal(await toggle(page).getAttribute('title'), LIGHT);
    await toggle(page).click();
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    assert.equal(await toggle(page).getAttribute('aria-label'), DARK);
    assert.equal(await toggle(page).getAttribute('title'), DARK);
    assert.equal(await page.evaluate(() => localStorage.getItem('theme')), 'dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.notEqual(background, 'rgb(255, 255, 255)', 'the dark palette applies');
    await toggle(page).click();
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
    assert.equal(await page.evaluate(() => localStorage.getItem('theme')), 'light');
    assert.equal(await toggle(page).getAttribute('aria-label'), LIGHT);
    assert.deepEqual(errors(), []);
    await page.close();
  });

  it('applies the stored mode before first paint on every later load, and keeps it across client navigation', async () => {
    const { page } = await open(DOC, { init: [THEME_AT_BODY] });
    await toggle(page).click();
    await page.reload({ waitUntil: 'load' });
    assert.equal(await page.evaluate(() => (window as Window & { themeAtBody?: string }).themeAtBody), 'dark', 'dark was set before <body> existed');
    assert.equal(await toggle(page).getAttribute('aria-label'), DARK);
    await setMarker(page);
    await clickInPage(page, `.doc-sidebar a[href="${OTHER_DOC}"]`);
    await page.waitForFunction((route) => location.pathname === route && document.querySelector(`.doc-sidebar [aria-current="page"]`)?.getAttribute('href') === route, OTHER_DOC);
    assert.equal(await markerSurvived(page), true);
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    assert.equal(await toggle(page).getAttribute('aria-label'), DARK, 'the new navbar is labelled for the mode in use');
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    assert.equal(await page.evaluate(() => (window as Window & { themeAtBody?: string }).themeAtBody), 'dark');
    await page.close();
  });

  it('keeps working when storage throws, printing only a console warning', async () => {
    const { page, errors, warnings } = await open(DOC, { init: [BLOCKED_STORAGE], keepStorage: true });
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
    await toggle(page).click();
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    assert.equal(await toggle(page).getAttribute('aria-label'), DARK);
    const tab = page.locator('[data-tabs] [role="tab"][aria-selected="false"]').first();
    const value = await tab.getAttribute('data-tab-value');
    await tab.click();
    await clickInPage(page, `.doc-sidebar a[href="${OTHER_DOC}"]`);
    await page.waitForFunction((route) => location.pathname === route, OTHER_DOC);
    await page.waitForSelector(`#main-content [role="tab"][data-tab-value="${value}"][aria-selected="true"]`);
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark', 'the choice lasts for the visit');
    assert.equal(await markerSurvived(page), true);
    assert.deepEqual(errors(), [], 'no errors');
    const storageWarnings = warnings().filter((w) => /storage is unavailable/.test(w));
    assert.equal(storageWarnings.length, 1, `one warning, got: ${warnings().join(' | ')}`);
    await page.close();
  });

  it('collapses the navbar into a menu button at 996 px and below; shows the items and the sidebar at 997 px', async () => {
    const { page } = await open(DOC, { width: 996 });
    const selectors = {
      button: '.navbar__toggle',
      items: '.navbar__items:not(.navbar__items--right)',
      toggle: '.navbar__items--right [data-theme-toggle]',
      sidebar: '.doc-sidebar',
    };
    // Page functions avoid inner named functions: tsx would wrap them in a helper the page lacks.
    const state = () =>
      page.evaluate((selectors) => {
        const out: Record<string, boolean> = {};
        for (const [name, selector] of Object.entries(selectors)) {
          const el = document.querySelector<HTMLElement>(selector);
          out[name] = !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
        }
        return out;
      }, selectors);
    assert.deepEqual(await state(), { button: true, items: false, toggle: false, sidebar: false });
    assert.equal(await page.getAttribute('.navbar__toggle', 'aria-label'), 'Toggle navigation bar');
    await page.setViewportSize({ width: 997, height: 800 });
    assert.deepEqual(await state(), { button: false, items: true, toggle: true, sidebar: true });
    assert.equal(await page.locator('.doc-sidebar button', { hasText: /hide|collapse sidebar/i }).count(), 0, 'the docs sidebar cannot be hidden on desktop');
    await page.close();
  });

  it('mobile menu on a doc page: opens on the docs sidebar with "← Back to main menu", locks scroll, Escape closes and returns focus', async () => {
    const { page } = await open(DOC, { width: 400 });
    const menuButton = page.getByRole('button', { name: 'Toggle navigation bar' });
    await menuButton.click();
    const dialog = page.locator('#mobile-menu');
    await dialog.locator('.mobile-menu__panel').waitFor({ state: 'visible' });
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Close navigation bar');
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).overflow), 'hidden', 'body scroll is locked');
    const back = page.getByRole('button', { name: '← Back to main menu' });
    assert.equal(await back.isVisible(), true);
    assert.equal(await dialog.locator(`.mobile-menu__secondary a[href="${DOC}"][aria-current="page"]`).isVisible(), true, 'the docs sidebar shows, with this page active');
    assert.equal(await dialog.locator('.mobile-menu__primary').isVisible(), false);
    await back.click();
    assert.equal(await dialog.locator('.mobile-menu__primary').isVisible(), true, 'back shows the primary navigation');
    assert.equal(await dialog.locator('.mobile-menu__primary a[href="/api-reference"]').isVisible(), true);
    await page.keyboard.press('Escape');
    await dialog.locator('.mobile-menu__panel').waitFor({ state: 'hidden' });
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Toggle navigation bar', 'focus returns to the menu button');
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.body).overflow), 'hidden', 'scroll is unlocked');
    await menuButton.click();
    assert.equal(await back.isVisible(), true, 'it opens on the docs sidebar again');
    await page.close();
  });

  it('mobile menu on a blog page: opens on "Recent posts" with "← Back to main menu", and a post chosen there is shown', async () => {
    const { page } = await open('/blog/2019/05/30/welcome', { width: 390 });
    const dialog = page.locator('#mobile-menu');
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await dialog.locator('.mobile-menu__panel').waitFor({ state: 'visible' });
    const recent = dialog.locator('.mobile-menu__secondary nav[aria-label="Blog recent posts navigation"]');
    assert.equal(await recent.isVisible(), true, 'the recent posts show in the menu');
    assert.match((await recent.textContent()) ?? '', /Recent posts/);
    assert.equal(await page.getByRole('button', { name: '← Back to main menu' }).isVisible(), true);
    await page.getByRole('button', { name: '← Back to main menu' }).click();
    assert.equal(await dialog.locator('.mobile-menu__primary a[href="/blog"]').isVisible(), true, 'back shows the primary navigation');
    await page.keyboard.press('Escape');
    await dialog.locator('.mobile-menu__panel').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('.blog-sidebar nav').count(), 1, 'the list went back into the page when the menu closed');
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await recent.locator('a[href="/blog/2019/05/28/hola"]').click();
    await page.waitForFunction(() => location.pathname === '/blog/2019/05/28/hola');
    await dialog.locator('.mobile-menu__panel').waitFor({ state: 'hidden' });
    await page.close();
  });

  it('mobile menu traps focus: Tab and Shift+Tab cycle inside the open menu', async () => {
    const { page } = await open(DOC, { width: 400 });
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await page.locator('#mobile-menu .mobile-menu__panel').waitFor({ state: 'visible' });
    const visible = await page.evaluate(
      () => Array.from(document.querySelectorAll<HTMLElement>('#mobile-menu a[href], #mobile-menu button')).filter((el) => el.getClientRects().length > 0).length,
    );
    assert.ok(visible > 3);
    const inside = () => page.evaluate(() => !!document.activeElement && document.getElementById('mobile-menu')!.contains(document.activeElement));
    for (let i = 0; i < visible + 3; i++) {
      await page.keyboard.press('Tab');
      assert.equal(await inside(), true, `focus stays in the menu after ${i + 1} Tab presses`);
    }
    await page.evaluate(() => (document.querySelector('#mobile-menu .mobile-menu__close') as HTMLElement).focus());
    const first = await page.evaluate(() => document.activeElement?.outerHTML);
    for (let i = 0; i < visible; i++) await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.outerHTML), first, 'Tab wraps from the last item to the first');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await inside(), true);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.outerHTML), first, 'Shift+Tab from the first item went to the last');
    // Focus moved out by other means comes back.
    await page.evaluate(() => (document.querySelector('.skip-link') as HTMLElement).focus());
    assert.equal(await inside(), true);
    await page.close();
  });

  it('mobile menu closes on the backdrop and on navigation', async () => {
    const { page } = await open(DOC, { width: 400 });
    const dialog = page.locator('#mobile-menu');
    const panel = dialog.locator('.mobile-menu__panel');
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await panel.waitFor({ state: 'visible' });
    await page.mouse.click(390, 400);
    await panel.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await dialog.locator(`.mobile-menu__secondary a[href="${OTHER_DOC}"]`).click();
    await page.waitForFunction((route) => location.pathname === route, OTHER_DOC);
    await page.locator('#mobile-menu .mobile-menu__panel').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('menu-open')), false);
    assert.equal(await markerSurvived(page), true);
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    assert.equal(await page.locator(`#mobile-menu .mobile-menu__secondary a[href="${OTHER_DOC}"][aria-current="page"]`).isVisible(), true, 'the menu follows the new page');
    await page.keyboard.press('Escape');
    // Outside the docs the menu opens on the primary navigation, with no way "back".
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await dialog.locator('.mobile-menu__panel').waitFor({ state: 'visible' });
    assert.equal(await dialog.locator('.mobile-menu__primary').isVisible(), true);
    assert.equal(await page.getByRole('button', { name: '← Back to main menu' }).count(), 0);
    await page.close();
  });

  it("keeps the navbar item of the section marked across client navigation between docs (activeBasePath)", async () => {
    const { page, errors } = await open('/docs/sdk/telas');
    const activeItems = () =>
      page.evaluate(() => Array.from(document.querySelectorAll('.navbar__items .navbar__link--active'), (a) => a.textContent?.trim() ?? ''));
    assert.deepEqual(await activeItems(), ['Mobile SDK'], 'a doc under docs/sdk marks Mobile SDK');
    const go = async (route: string) => {
      await page.evaluate((href) => {
        const link = document.createElement('a');
        link.href = href;
        link.id = 'active-base-path-test';
        document.getElementById('main-content')!.prepend(link);
      }, route);
      await clickInPage(page, '#active-base-path-test');
      await page.waitForFunction((r) => location.pathname === r && document.querySelector('h1') !== null && !document.getElementById('active-base-path-test'), route);
    };
    await go('/docs/sdk/parametros');
    assert.deepEqual(await activeItems(), ['Mobile SDK'], 'another SDK doc keeps it');
    await go('/docs/onboarding/integracao');
    assert.deepEqual(await activeItems(), ['Onboarding'], 'an onboarding doc marks the Onboarding dropdown');
    assert.equal(await page.locator('.navbar__items:not(.navbar__items--right) .dropdown__link--active').textContent(), 'Onboarding guide', 'and its guide entry');
    await go('/docs/api/pagamento');
    assert.deepEqual(await activeItems(), ['API Reference'], "the Payment API's guide marks its reference's item");
    await go('/docs/anexo/flow');
    assert.deepEqual(await activeItems(), [], 'a doc of no navbar section marks none');
    await go('/docs/documentacao/credenciais');
    assert.deepEqual(await activeItems(), ['Documentation']);
    assert.equal(await markerSurvived(page), true, 'every step was a client navigation');
    assert.deepEqual(errors(), []);
    await page.close();
  });

  it('has a skip link: the first focusable element, visible on focus, moving focus to the main content', async () => {
    const { page } = await open(DOC);
    await page.keyboard.press('Tab');
    const skip = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const box = el.getBoundingClientRect();
      return { text: el.textContent, className: el.className, top: box.top, height: box.height };
    });
    assert.equal(skip.text, 'Skip to main content');
    assert.equal(skip.className, 'skip-link');
    assert.ok(skip.top >= 0 && skip.height > 0, 'visible while focused');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'main-content');
    assert.equal(await markerSurvived(page), true);
    await page.close();
  });

  it('version and language dropdowns work from the keyboard; the preferred version persists', async () => {
    const { page } = await open(DOC);
    await page.mouse.move(600, 600);
    const version = page.locator('[data-version] .dropdown__button');
    assert.match((await version.textContent()) ?? '', /Next/);
    await version.focus();
    assert.equal(await page.locator('#docsgen-version-menu').isVisible(), false, 'closed until asked for');
    await page.keyboard.press('Enter');
    assert.equal(await version.getAttribute('aria-expanded'), 'true');
    assert.equal(await page.locator('#docsgen-version-menu').isVisible(), true);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Next');
    await page.keyboard.press('Escape');
    assert.equal(await version.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('#docsgen-version-menu').isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('dropdown__button')), true, 'focus returns to the button');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.pathname === '/docs');
    assert.equal(await page.evaluate(() => localStorage.getItem('docs-preferred-version-default')), 'current');

    const language = page.locator('.dropdown__button', { hasText: 'English' });
    await language.focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await page.locator('#docsgen-locale-menu a').allTextContents(), ['English']);
    assert.equal(await page.locator('#docsgen-locale-menu').isVisible(), true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.locator('#docsgen-locale-menu').isVisible(), false, 'leaving the dropdown closes it');

    const onboarding = page.locator('.dropdown--link > a');
    await onboarding.focus();
    assert.equal(await page.locator('.dropdown--link .dropdown__menu').isVisible(), true, 'the link dropdown opens on focus');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.dropdown--link .dropdown__menu').isVisible(), false, 'Escape hides it');
    await page.close();
  });

  it('highlights the section being read in the table of contents', async () => {
    const { page } = await open(DOC);
    const ids = await page.evaluate(() => Array.from(document.querySelectorAll<HTMLAnchorElement>('.toc a.toc__link'), (a) => decodeURIComponent(a.hash.slice(1))));
    assert.ok(ids.length >= 4, 'the page has a table of contents');
    const active = () => page.evaluate(() => Array.from(document.querySelectorAll<HTMLAnchorElement>('.toc a.toc__link--active'), (a) => decodeURIComponent(a.hash.slice(1))));
    for (const id of [ids[2]!, ids[1]!]) {
      await page.evaluate((id) => document.getElementById(id)!.scrollIntoView(), id);
      await page.waitForFunction((id) => document.querySelector<HTMLAnchorElement>('.toc a.toc__link--active')?.hash === `#${encodeURIComponent(id)}`, id, { timeout: 3000 }).catch(() => undefined);
      assert.deepEqual(await active(), [id], `reading "${id}"`);
    }
    assert.equal(await page.getAttribute('.toc a.toc__link--active', 'aria-current'), 'location');
    await page.locator('.toc a.toc__link').nth(3).click();
    await page.waitForFunction((id) => document.querySelector<HTMLAnchorElement>('.toc a.toc__link--active')?.hash === `#${encodeURIComponent(id)}`, ids[3]!);
    await page.close();
  });

  it('on narrow screens the table of contents is an "On this page" disclosure', async () => {
    const { page } = await open(DOC, { width: 800 });
    assert.equal(await page.locator('.doc-toc').isVisible(), false);
    const disclosure = page.locator('details.toc-mobile');
    assert.equal(await disclosure.isVisible(), true);
    assert.equal(await disclosure.locator('summary').textContent(), 'On this page');
    const link = disclosure.locator('a.toc__link').nth(2);
    assert.equal(await link.isVisible(), false, 'collapsed at first');
    await disclosure.locator('summary').click();
    assert.equal(await link.isVisible(), true);
    const hash = await link.getAttribute('href');
    await link.click();
    await page.waitForFunction((hash) => location.hash === hash, hash);
    assert.equal(await disclosure.evaluate((d) => (d as HTMLDetailsElement).open), false, 'following a link closes it');
    const top = await page.evaluate((id) => document.getElementById(id)!.getBoundingClientRect().top, decodeURIComponent(hash!.slice(1)));
    assert.ok(top >= 59 && top < 120, `the heading is just under the navbar (${top})`);
    await page.close();
  });

  it('copy buttons copy the code and say "Copied"', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const { page } = await open(DOC);
    // The clipboard answers only the focused page.
    await page.bringToFront();
    const block = page.locator('.code-block').filter({ has: page.locator('[data-copy]') }).first();
    const expected = await block.evaluate((el) => Array.from(el.querySelectorAll('pre code .line'), (l) => l.textContent).join('\n') || el.querySelector('pre code')!.textContent);
    const button = block.locator('[data-copy]');
    await button.click();
    // The feedback follows the clipboard write, which is asynchronous.
    await page.waitForFunction((el) => el?.getAttribute('aria-label') === 'Copied', await button.elementHandle());
    assert.match((await button.textContent()) ?? '', /Copied/);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
    await page.waitForFunction((el) => el?.getAttribute('aria-label') === 'Copy code to clipboard', await button.elementHandle(), { timeout: 4000 });
    await page.close();
  });

  it('tabs keep the chosen language across the page and across pages', async () => {
    const pages = await tabsPages();
    const { page } = await open(pages.several);
    const sets = page.locator(`[data-tabs][data-tab-group="${pages.group}"]`);
    const values = await sets.first().locator(':scope > .tabs__list > [role="tab"]').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-tab-value')!));
    const choice = values[values.length - 1]!;
    await sets.first().locator(`:scope > .tabs__list > [role="tab"][data-tab-value="${choice}"]`).click();
    const selected = (p: Page) =>
      p.evaluate(
        ({ group, choice }) =>
          Array.from(document.querySelectorAll(`[data-tabs][data-tab-group="${group}"]`))
            .filter((set) => set.querySelector(`:scope > .tabs__list > [data-tab-value="${choice}"]`))
            .map((set) => set.querySelector(':scope > .tabs__list > [aria-selected="true"]')?.getAttribute('data-tab-value')),
        { group: pages.group, choice },
      );
    const onPage = await selected(page);
    assert.ok(onPage.length >= 2);
    assert.deepEqual(onPage, onPage.map(() => choice), 'every tab set of the group on the page follows');
    await page.evaluate((route) => {
      const link = document.createElement('a');
      link.href = route;
      link.id = 'tabs-link';
      document.getElementById('main-content')!.prepend(link);
      link.click();
    }, pages.other);
    await page.waitForFunction((route) => location.pathname === route && !document.getElementById('tabs-link'), pages.other);
    assert.equal(await markerSurvived(page), true);
    const there = await selected(page);
    assert.ok(there.length >= 1);
    assert.deepEqual(there, there.map(() => choice), 'the next page (client navigation) shows the same language');
    await page.reload({ waitUntil: 'load' });
    assert.deepEqual(await selected(page), there.map(() => choice), 'and so does a later visit');
    await page.close();
  });

  it('shows the base-URL warning only when scripts and styles both failed, suggesting the right base URL', async () => {
    const page = await browser.newPage();
    // The site served under /sorrix/ while built for /: pages load, /assets/ does not.
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== server.url) return route.continue();
      if (url.pathname.startsWith('/sorrix/')) return route.fulfill({ response: await route.fetch({ url: server.url + url.pathname.slice('/sorrix'.length) }) });
      return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
    });
    for (const [route, label] of [[DOC, 'a doc page'], ['/', 'the home page']] as const) {
      await page.goto(`${server.url}/sorrix${route === '/' ? '/' : route}`, { waitUntil: 'load' });
      const banner = page.locator('#docsgen-base-url-issue-banner');
      assert.equal(await banner.isVisible(), true, `${label}: the banner shows`);
      const text = (await banner.textContent()) ?? '';
      assert.match(text, /Your site did not load properly\./);
      assert.match(text, /wrong base URL is the usual reason/);
      assert.match(text, /Current configured baseUrl = \//);
      assert.match(text, /We suggest trying baseUrl = \/sorrix\//, `${label}: the suggestion is the path the site is served under`);
    }
    await page.unroute('**/*');

    // Only the stylesheet failed: the script removes the banner.
    await page.route('**/assets/*.css', (route) => route.abort());
    await page.goto(server.url + DOC, { waitUntil: 'load' });
    assert.equal(await page.locator('#docsgen-base-url-issue-banner').count(), 0);
    await page.unroute('**/assets/*.css');
    // Only the script failed: the stylesheet hides it.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(server.url + DOC, { waitUntil: 'load' });
    assert.equal(await page.locator('#docsgen-base-url-issue-banner').count(), 1);
    assert.equal(await page.locator('#docsgen-base-url-issue-banner').isVisible(), false);
    await page.close();
  });
});
