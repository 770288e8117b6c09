/**
 * The docs sidebar of the real site in Chromium: a page holds its own category's items;
 * other categories load theirs from the shared sidebar JSON when expanded, on desktop and
 * in the mobile menu (the same tree); client navigation keeps what the reader opened;
 * without JavaScript every category label leads to a doc of its category.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { clickInPage, injectLink, markerSurvived, setMarker, useSiteAndBrowsers } from './harness.ts';

const DOC = '/docs/api/pagamento';
/** A category whose items are not in DOC's page, and one of its docs. */
const OTHER = { label: 'Anexos', doc: '/docs/anexo/flow' };
const SDK = { label: 'SDK Mobile', doc: '/docs/sdk/telas' };

describe('docs sidebar (real site)', () => {
  const env = useSiteAndBrowsers();

  async function open(route: string, width = 1280): Promise<{ page: Page; requested: string[]; errors: string[] }> {
    const page = await env.browser.newPage();
    page.setDefaultTimeout(8000);
    await page.setViewportSize({ width, height: 800 });
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(env.server.url + route, { waitUntil: 'load' });
    await setMarker(page);
    return { page, requested, errors };
  }

  const label = (page: Page, text: string, scope = '.doc-sidebar') => page.locator(`${scope} a.menu__caret`, { hasText: text });

  it('expands a category that was not in the page from the shared JSON, and navigates to a doc in it', async () => {
    const { page, requested, errors } = await open(DOC);
    const anexos = label(page, OTHER.label);
    assert.equal(await anexos.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator(`.doc-sidebar a[href="${OTHER.doc}"]`).count(), 0, 'its items are not in the page');
    assert.equal(requested.filter((p) => p.endsWith('.json')).length, 0, 'nothing loaded before the reader asks');

    await anexos.click();
    await page.locator(`.doc-sidebar a.menu__link[href="${OTHER.doc}"]`).waitFor({ state: 'visible' });
    assert.equal(await anexos.getAttribute('aria-expanded'), 'true');
    assert.equal(new URL(page.url()).pathname, DOC, 'the label expanded its category instead of leaving the page');
    assert.deepEqual(requested.filter((p) => p.endsWith('.json')).map((p) => p.replace(/-\w+\.json$/, '.json')), ['/assets/sidebars.json']);

    await clickInPage(page, `.doc-sidebar a.menu__link[href="${OTHER.doc}"]`);
    await page.waitForFunction((route) => location.pathname === route && document.querySelector('.doc-sidebar [aria-current="page"]')?.getAttribute('href') === route, OTHER.doc);
    assert.equal(await markerSurvived(page), true, 'client navigation, no page load');
    assert.equal(await label(page, 'API de Pagamento').getAttribute('aria-expanded'), 'true', 'the category the reader came from stays open');
    assert.equal(await label(page, OTHER.label).getAttribute('aria-expanded'), 'true');

    await label(page, OTHER.label).click();
    // The toggle runs in the sidebar code loaded after the page: wait for it rather than read at once.
    await page.locator('.doc-sidebar a.menu__caret[aria-expanded="false"]', { hasText: OTHER.label }).waitFor({ state: 'attached' });
    assert.equal(await label(page, OTHER.label).getAttribute('aria-expanded'), 'false', 'a loaded category collapses again');
    assert.equal(await page.locator(`.doc-sidebar a[href="${OTHER.doc}"]`).isVisible(), false);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('keeps the open categories when a link in the content leads to a category that was not loaded', async () => {
    const { page } = await open(DOC);
    await injectLink(page, SDK.doc, 'to-sdk');
    await clickInPage(page, '#to-sdk');
    await page.waitForFunction((route) => document.querySelector('.doc-sidebar [aria-current="page"]')?.getAttribute('href') === route, SDK.doc);
    assert.equal(await markerSurvived(page), true);
    assert.equal(await label(page, SDK.label).getAttribute('aria-expanded'), 'true');
    assert.equal(await label(page, 'API de Pagamento').getAttribute('aria-expanded'), 'true', 'the category open before stays open');
    assert.equal(await page.locator(`.doc-sidebar a.menu__link[href="${DOC}"]`).isVisible(), true);
    await page.close();
  });

  it('the mobile menu shows the same tree: expanding a category there keeps the menu open, and its docs navigate', async () => {
    const { page } = await open(DOC, 400);
    assert.equal(await page.locator('.doc-sidebar__nav').count(), 1, 'one sidebar tree in the page');
    const toggle = page.getByRole('button', { name: 'Toggle navigation bar' });
    await toggle.click();
    const dialog = page.locator('#mobile-menu');
    await dialog.locator('.mobile-menu__panel').waitFor({ state: 'visible' });
    assert.equal(await page.locator('.doc-sidebar__nav').count(), 1);
    const sdk = label(page, SDK.label, '#mobile-menu');
    await sdk.click();
    await dialog.locator(`a.menu__link[href="${SDK.doc}"]`).waitFor({ state: 'visible' });
    assert.equal(await dialog.locator('.mobile-menu__panel').isVisible(), true, 'the menu stays open');
    assert.equal(await sdk.getAttribute('aria-expanded'), 'true');
    // Focus stays trapped in the menu with the loaded items in it.
    await dialog.locator(`a.menu__link[href="${SDK.doc}"]`).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.getElementById('mobile-menu')!.contains(document.activeElement)), true);

    await dialog.locator(`a.menu__link[href="${SDK.doc}"]`).click();
    await page.waitForFunction((route) => location.pathname === route, SDK.doc);
    await dialog.locator('.mobile-menu__panel').waitFor({ state: 'hidden' });
    assert.equal(await markerSurvived(page), true);
    await toggle.click();
    assert.equal(await dialog.locator(`a.menu__link[href="${SDK.doc}"][aria-current="page"]`).isVisible(), true, 'the menu marks the new page');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal(await page.locator(`.doc-sidebar a.menu__link[href="${SDK.doc}"][aria-current="page"]`).isVisible(), true, 'the tree is back in the page on desktop');
    await page.close();
  });

  it('without JavaScript, every category label leads to a doc of its category, shown open there', async () => {
    const page = await env.noScript.newPage();
    page.setDefaultTimeout(8000);
    await page.goto(env.server.url + DOC);
    const labels = await page.locator('.doc-sidebar a.menu__caret').evaluateAll((links) => links.map((a) => ({ text: a.textContent ?? '', href: a.getAttribute('href') ?? '' })));
    assert.equal(labels.length, 5);
    for (const { text, href } of labels) {
      const response = await page.goto(env.server.url + href);
      assert.equal(response?.status(), 200, `${text} → ${href}`);
      assert.equal(await page.locator('.doc-sidebar [aria-current="page"]').getAttribute('href'), href, `${href} is marked current`);
      assert.equal(await label(page, text).getAttribute('aria-expanded'), 'true', `${text} is open on ${href}`);
    }
    await page.close();
  });
});
