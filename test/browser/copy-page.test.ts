/**
 * "Copy page" in Chromium on the real site: a click puts the page's Markdown twin on the
 * clipboard and announces it, on a doc page and on the API reference reached by client
 * navigation; "View as Markdown" opens the twin.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../cli/serve.ts';
import { collectErrors, launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { builtSite, serveBuiltSite } from '../helpers/site.ts';
import { markerSurvived, setMarker } from './harness.ts';

describe('Copy page (real site)', () => {
  let browser: TestBrowser;
  let server: RunningServer;
  let origin: string;

  before(async () => {
    const started = [serveBuiltSite().then((s) => (server = s)), launchBrowser().then((b) => (browser = b))];
    await Promise.allSettled(started);
    await Promise.all(started);
    origin = `http://127.0.0.1:${server.port}`;
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const twin = async (route: string) => readFile(path.join(await builtSite(), `${route.slice(1)}.md`), 'utf8');

  async function copy(page: Page): Promise<string> {
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    const nav = page.locator('main .copy-page');
    await nav.locator('button').click();
    await page.waitForFunction(() => document.querySelector('main .copy-page [role="status"]')?.textContent === 'Copied', null, { timeout: 10_000 });
    return page.evaluate(() => navigator.clipboard.readText());
  }

  it('copies the twin of a doc page, then of the API reference after client navigation', async () => {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`${origin}/docs/api/pagamento`);
    assert.equal(await copy(page), await twin('/docs/api/pagamento'));

    await setMarker(page);
    await page.locator('.navbar a[href="/api-reference"]').first().click();
    await page.waitForURL(`${origin}/api-reference`);
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'API Reference');
    assert.ok(await markerSurvived(page), 'the API reference was reached by client navigation');
    assert.equal(await copy(page), await twin('/api-reference'));
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('announces the copy to screen readers and offers "View as Markdown"', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/docs/api/pagamento`);
    const status = page.locator('main .copy-page [role="status"]');
    assert.equal(await status.textContent(), '');
    await copy(page);
    assert.equal(await status.textContent(), 'Copied');
    await page.locator('main .copy-page summary').click();
    const link = page.locator('main .copy-page a', { hasText: 'View as Markdown' });
    assert.equal(await link.getAttribute('href'), '/docs/api/pagamento.md');
    const [response] = await Promise.all([page.waitForResponse(`${origin}/docs/api/pagamento.md`), link.click()]);
    assert.equal(await response.text(), await twin('/docs/api/pagamento'));
    await page.close();
  });
});
