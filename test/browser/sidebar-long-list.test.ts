/**
 * A sidebar list longer than a page holds (a fixture site with a 60-doc category), in
 * Chromium: the page shows a window around the current doc and a "more" link; the link
 * puts the left-out items in place from the shared JSON, keeping keyboard focus, and
 * they navigate; without JavaScript the "more" link leads to a doc among them.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../cli/config.ts';
import { startServer, type RunningServer } from '../../cli/serve.ts';
import { SIDEBAR_WINDOW } from '../../templates/shared/index.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { buildFixture } from '../helpers/build.ts';
import { makeSite } from '../helpers/fixtures.ts';
import { createCleanup } from '../helpers/temp.ts';
import { clickInPage, markerSurvived, setMarker } from './harness.ts';

const COUNT = 60;
const id = (i: number) => `longa/d${String(i).padStart(2, '0')}`;
const LAST = `/docs/${id(COUNT - 1)}`;
const LEFT_OUT = COUNT - SIDEBAR_WINDOW;

describe('a long sidebar list (fixture site)', () => {
  const cleanup = createCleanup();
  let site = '';
  let server: RunningServer;
  let browser: TestBrowser;
  let noScript: TestBrowser;

  before(async () => {
    site = await makeSite(cleanup);
    for (let i = 0; i < COUNT; i++) {
      const file = path.join(site, 'content/docs', `${id(i)}.md`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, `---\ntitle: Doc ${i}\ndescription: Documento ${i}.\n---\n\nTexto do documento ${i}.\n`);
    }
    const loaded = await loadConfig(site);
    const config = { ...loaded, sidebars: { docs: ['intro', { type: 'category' as const, label: 'Longa', items: Array.from({ length: COUNT }, (_, i) => id(i)) }] } };
    const outDir = path.join(site, 'dist');
    const launching = [launchBrowser().then((b) => (browser = b)), launchBrowser({ javaScriptEnabled: false }).then((b) => (noScript = b))];
    const built = buildFixture(config, { outDir, skipCrawl: true });
    await Promise.allSettled([...launching, built]);
    await Promise.all([...launching, built]);
    server = await startServer({ dir: outDir, port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await browser?.close();
    await noScript?.close();
    await server?.close();
    await cleanup.run();
  });

  it('shows a window with a "more" link that puts the left-out items in place, focused, and they navigate', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    await page.goto(server.url + LAST, { waitUntil: 'load' });
    await setMarker(page);
    const docLinks = () => page.locator('.doc-sidebar a.menu__link[href^="/docs/longa/"]').count();
    assert.equal(await docLinks(), SIDEBAR_WINDOW);
    const more = page.locator('.doc-sidebar a.menu__more');
    assert.equal(await more.textContent(), `${LEFT_OUT} more…`);
    await more.focus();
    await page.keyboard.press('Enter');
    await page.locator(`.doc-sidebar a.menu__link[href="/docs/${id(0)}"]`).waitFor();
    assert.equal(await docLinks(), COUNT);
    assert.equal(await more.count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), `/docs/${id(0)}`, 'focus moves to the first item shown');
    await clickInPage(page, `.doc-sidebar a.menu__link[href="/docs/${id(0)}"]`);
    await page.waitForFunction((route) => document.querySelector('.doc-sidebar [aria-current="page"]')?.getAttribute('href') === route, `/docs/${id(0)}`);
    assert.equal(await markerSurvived(page), true, 'client navigation');
    assert.equal(await docLinks(), COUNT, 'the sidebar the reader had stays');
    await page.close();
  });

  it('without JavaScript the "more" link leads to a doc among the items it stands for', async () => {
    const page = await noScript.newPage();
    page.setDefaultTimeout(8000);
    await page.goto(server.url + LAST);
    const href = await page.locator('.doc-sidebar a.menu__more').getAttribute('href');
    assert.ok(href);
    const index = Number(/d(\d+)$/.exec(href)?.[1]);
    assert.ok(index < LEFT_OUT, `${href} is among the ${LEFT_OUT} left out`);
    assert.equal((await page.goto(server.url + href))?.status(), 200);
    assert.equal(await page.locator('.doc-sidebar [aria-current="page"]').getAttribute('href'), href);
    await page.close();
  });
});
