/**
 * The second fixture site (test/fixtures/sites/greenhouse: English, its own colours) in
 * Chromium: the page paints with its colours in both modes, and the search dialog reads
 * an English query with the English stemmer, which it loads alone.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loadConfig } from '../../cli/config.ts';
import { startServer, type RunningServer } from '../../cli/serve.ts';
import { collectErrors, launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { buildFixture } from '../helpers/build.ts';
import { repoRoot } from '../helpers/site.ts';
import { createCleanup, tempDir } from '../helpers/temp.ts';

const INPUT = 'dialog.search-dialog .search-dialog__input';

describe('the English fixture site in a browser', () => {
  const cleanup = createCleanup();
  let browser: TestBrowser;
  let server: RunningServer;

  before(async () => {
    const outDir = path.join(await tempDir(cleanup, 'greenhouse-browser'), 'dist');
    const config = await loadConfig(path.join(repoRoot, 'test/fixtures/sites/greenhouse'));
    await buildFixture(config, { outDir, skipCrawl: true });
    server = await startServer({ dir: outDir, port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await cleanup.run();
  });

  async function open(route: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
    return page;
  }

  const primary = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--c-primary').trim());

  it('paints with the site’s colours in light and dark mode', async () => {
    const page = await open('/docs/welcome');
    assert.equal(await primary(page), '#1d6b3a');
    const linkColour = await page.$eval('.markdown a[href="/docs/guides/watering-schedules"]', (a) => getComputedStyle(a).color);
    assert.equal(linkColour, 'rgb(29, 107, 58)');
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    assert.equal(await primary(page), '#7fd69b');
  });

  it('keeps the Copy page button on the right of a doc with no title beside it (hide_title, or its own # title), as beside a title', async () => {
    for (const route of ['/docs/guides/sensor-readings', '/docs/reference/errors', '/docs/welcome']) {
      const page = await open(route);
      const right = await page.evaluate(() => ({
        button: document.querySelector('.doc-header .copy-page')!.getBoundingClientRect().right,
        header: document.querySelector('.doc-header')!.getBoundingClientRect().right,
      }));
      assert.ok(Math.abs(right.header - right.button) < 1, `${route}: the button ends at the header's right edge (${JSON.stringify(right)})`);
      await page.close();
    }
  });

  it('finds "watering" by "watered", loading only the English stemmer', async () => {
    const page = await open('/docs/welcome');
    const errors = collectErrors(page);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.keyboard.press('Control+k');
    await page.waitForSelector('dialog.search-dialog[open]', { timeout: 10_000 });
    await page.fill(INPUT, 'watered');
    await page.waitForSelector('[data-query="watered"]', { timeout: 10_000 });
    const hrefs = await page.$$eval('dialog.search-dialog [role="option"]', (els) => els.map((el) => el.getAttribute('href') ?? ''));
    assert.ok(hrefs.some((href) => href.startsWith('/docs/guides/watering-schedules')), hrefs.join(', '));
    // Every stemmer is its own chunk: the page fetched the English one (Porter's suffix table), not another language's.
    const bodies = await Promise.all(scripts.map(async (url) => (await fetch(`${server.url}${url}`)).text()));
    assert.equal(bodies.filter((code) => code.includes('ational:"ate"')).length, 1, `the English stemmer is fetched once: ${scripts.join(', ')}`);
    const others = ['"amento"', '"imiento"', '"atrices"', '"gliela"'].filter((suffix) => bodies.some((code) => code.includes(suffix)));
    assert.deepEqual(others, [], 'no stemmer of another language is fetched');
    assert.deepEqual(errors, []);
  });
});
