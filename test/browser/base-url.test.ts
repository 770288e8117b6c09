/**
 * A site built with `baseUrl: '/portal/'` (test/fixtures/sites/base-url), in Chromium,
 * served by `docsgen serve`'s server under /portal/: the router, search and the sidebar
 * JSON work and nothing answers 404. Served under another path, the page shows the
 * base-URL banner with the configured base URL and the one to try; the portal, built for
 * '/' and served there, shows none.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { build } from '../../cli/build.ts';
import { loadConfig } from '../../cli/config.ts';
import { createLogger } from '../../cli/log.ts';
import { startServer, type RunningServer } from '../../cli/serve.ts';
import { serveWatch } from '../../cli/watch.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { makeSite } from '../helpers/fixtures.ts';
import { serveBuiltSite } from '../helpers/site.ts';
import { createCleanup } from '../helpers/temp.ts';
import { waitFor } from '../helpers/wait.ts';
import { clickInPage, markerSurvived, setMarker } from './harness.ts';

const BANNER = '#docsgen-base-url-issue-banner';

describe('a site built for /portal/, in the browser', () => {
  const cleanup = createCleanup();
  let browser: TestBrowser;
  let dist = '';
  const servers: RunningServer[] = [];

  before(async () => {
    const site = await makeSite(cleanup, 'base-url');
    dist = path.join(site, 'dist');
    // Assigned as soon as it exists, so after() closes it even when the build fails.
    const launching = launchBrowser().then((launched) => (browser = launched));
    const built = loadConfig(site).then((config) => build(config, { outDir: dist, logger: createLogger({ level: 'quiet' }), skipCrawl: true, cache: false }));
    await Promise.allSettled([launching, built]);
    await Promise.all([launching, built]);
  });
  after(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
    await cleanup.run();
  });

  async function serve(baseUrl?: string): Promise<RunningServer> {
    const server = await startServer({ dir: dist, port: 0, host: '127.0.0.1', ...(baseUrl ? { baseUrl: () => baseUrl } : {}) });
    servers.push(server);
    return server;
  }

  /** A page that records every answer of 400 or more and every script error. */
  async function watchedPage(): Promise<{ page: Page; failed: string[]; errors: string[] }> {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    const failed: string[] = [];
    const errors: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    // Requests the page itself gave up (a navigation leaving the event stream, a fetch the router replaced) are not failures.
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`failed ${new URL(request.url()).pathname}: ${request.failure()?.errorText ?? ''}`);
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, failed, errors };
  }

  it('served under /portal/: navigates with the router, searches, expands a sidebar category, and nothing is missing', async () => {
    const server = await serve();
    assert.equal(server.baseUrl(), '/portal/', 'docsgen serve takes the base URL the build wrote');
    const { page, failed, errors } = await watchedPage();

    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    assert.equal(new URL(page.url()).pathname, '/portal/', "the host's root leads to the site");
    assert.equal(await page.locator(BANNER).count(), 0, 'the script removed the banner');
    await setMarker(page);

    // Client navigation through a navbar link written '/docs/intro' in the config.
    await clickInPage(page, '.navbar__items a.navbar__link[href="/portal/docs/intro"]');
    await page.waitForFunction(() => location.pathname === '/portal/docs/intro' && document.querySelector('h1')?.textContent === 'Introdução');
    assert.equal(await markerSurvived(page), true, 'the router swapped the page, no page load');

    // The Guia category is not in this page: expanding it loads the sidebar JSON, whose routes are put under /portal/.
    const sidebarJson = page.waitForResponse((response) => /\/portal\/assets\/sidebars-\w+\.json$/.test(new URL(response.url()).pathname));
    await page.locator('.doc-sidebar a.menu__caret', { hasText: 'Guia' }).click();
    assert.equal((await sidebarJson).status(), 200);
    const second = page.locator('.doc-sidebar a.menu__link[href="/portal/docs/guia/segundo-passo"]');
    await second.waitFor({ state: 'visible' });
    await clickInPage(page, '.doc-sidebar a.menu__link[href="/portal/docs/guia/segundo-passo"]');
    await page.waitForFunction(() => location.pathname === '/portal/docs/guia/segundo-passo' && document.querySelector('h1')?.textContent === 'Segundo passo');
    assert.equal(await markerSurvived(page), true, 'an item made from the JSON navigates through the router');
    assert.equal(await page.locator('.markdown img[alt="Logo"]').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), true, 'the image written /img/logo.svg loads');

    // Search: the index, its shards and passages load from under /portal/ and results lead there.
    await page.click('.navbar .search-button');
    await page.fill('dialog.search-dialog .search-dialog__input', 'pagamentos');
    await page.waitForSelector('dialog.search-dialog [role="option"]');
    const hrefs = await page.$$eval('dialog.search-dialog [role="option"]', (els) => els.map((el) => el.getAttribute('href') ?? ''));
    assert.ok(hrefs.some((href) => href.startsWith('/portal/docs/guia/segundo-passo')), `results: ${hrefs.join(', ')}`);
    for (const href of hrefs) assert.ok(href.startsWith('/portal/'), href);
    await page.keyboard.press('Escape');

    // The router again, this time to a page of the blog from a link of the content.
    await page.goto(`${server.url}/portal/docs/guia/segundo-passo`, { waitUntil: 'load' });
    await setMarker(page);
    await clickInPage(page, '.markdown a[href="/portal/blog"]');
    await page.waitForFunction(() => location.pathname === '/portal/blog');
    assert.equal(await markerSurvived(page), true);

    assert.deepEqual(failed, [], 'no request under the base URL failed');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('served under another path: the banner says the site did not load, with the configured base URL and the one to try', async () => {
    for (const [servedAt, route] of [
      ['/', '/'],
      ['/docs-site/', '/docs/intro'],
    ] as const) {
      const server = await serve(servedAt);
      const { page } = await watchedPage();
      await page.goto(`${server.url}${servedAt}${route.slice(1)}`, { waitUntil: 'load' });
      const banner = page.locator(BANNER);
      assert.equal(await banner.isVisible(), true, `served at ${servedAt}: the banner shows`);
      const text = (await banner.textContent()) ?? '';
      assert.match(text, /Your site did not load properly\./);
      assert.match(text, /wrong base URL is the usual reason/);
      assert.match(text, /Current configured baseUrl = \/portal\//);
      assert.ok(text.includes(`We suggest trying baseUrl = ${servedAt}`), `served at ${servedAt}: ${text}`);
      await page.close();
    }
  });

  it('serve --watch serves the site under /portal/ and updates the open page there when its source changes', async (t) => {
    const site = await makeSite(t, 'base-url');
    const watch = await serveWatch({ root: site, port: 0, host: '127.0.0.1', outDir: path.join(site, 'dist'), level: 'quiet', handleSignals: false });
    t.after(() => watch.close());
    await watch.idle();
    const { page, failed, errors } = await watchedPage();
    const connected = page.waitForResponse((response) => new URL(response.url()).pathname === '/portal/__docsgen/events');
    await page.goto(`${watch.url}/`, { waitUntil: 'load' });
    assert.equal(new URL(page.url()).pathname, '/portal/');
    await connected;
    await page.goto(`${watch.url}/portal/docs/guia/segundo-passo`, { waitUntil: 'load' });
    await waitFor('the page to listen for changes', () => watch.liveClients > 0);
    const file = path.join(site, 'content/docs/guia/segundo-passo.mdx');
    await writeFile(file, (await readFile(file, 'utf8')).replace('The word pagamentos', 'The edited word pagamentos'));
    await waitFor('the edit in the open page', async () => ((await page.textContent('.markdown')) ?? '').includes('The edited word'), 60_000);
    assert.equal(new URL(page.url()).pathname, '/portal/docs/guia/segundo-passo');
    assert.deepEqual(failed, []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('the portal, built for / and served there, shows no banner and keeps its layout', async () => {
    const server = await serveBuiltSite();
    servers.push(server);
    const page = await browser.newPage();
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    assert.equal(await page.locator(BANNER).count(), 0);
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-base-url')), false, 'a site at the root carries no base URL');
    await page.close();
  });
});
