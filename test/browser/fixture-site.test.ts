/**
 * Behaviour that needs a site of its own, in Chromium: the announcement bar (dismissed,
 * remembered, shown again when its id changes) and islands (a render error shows the
 * crash message with "Try again"; client navigation unmounts and mounts islands).
 * The site is test/fixtures/sites/browser-chrome over the minimal fixture; its API
 * reference and search islands are replaced by islands/api-reference.tsx and
 * islands/search.tsx there, which the test drives through `window`. The search one is
 * bundled on preact/compat, as the real search island is.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loadConfig, type SiteConfig } from '../../cli/config.ts';
import { startServer, type RunningServer } from '../../cli/serve.ts';
import { DATA } from '../../templates/shared/index.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { buildFixture } from '../helpers/build.ts';
import { makeSite } from '../helpers/fixtures.ts';
import { createCleanup } from '../helpers/temp.ts';
import { repoRoot } from '../helpers/site.ts';
import { clickInPage, markerSurvived, setMarker } from './harness.ts';

type TestWindow = Window & { islandLog?: string[]; islandShouldThrow?: boolean; searchShouldThrow?: boolean; serverButton?: Element; laidOutWhenInserted?: boolean };

/**
 * Templates for the fixture: the real client code and styles, plus the test islands. The
 * bundler takes the islands from the templates folder, so the fixture gets a folder whose
 * entry files re-export the real ones.
 */
async function fixtureTemplates(site: string): Promise<string> {
  const dir = path.join(site, 'templates');
  await mkdir(path.join(dir, 'client/islands'), { recursive: true });
  await mkdir(path.join(dir, 'styles'), { recursive: true });
  const relative = (from: string, to: string) => {
    const rel = path.relative(path.dirname(path.join(dir, from)), path.join(repoRoot, to)).split(path.sep).join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  await writeFile(path.join(dir, 'client/main.ts'), `import '${relative('client/main.ts', 'templates/client/main.ts')}';\n`);
  await writeFile(path.join(dir, 'client/theme-init.ts'), `import '${relative('client/theme-init.ts', 'templates/client/theme-init.ts')}';\n`);
  await writeFile(path.join(dir, 'styles/main.css'), `@import '${relative('styles/main.css', 'templates/styles/main.css')}';\n`);
  for (const island of ['api-reference', 'search']) {
    const file = `client/islands/${island}.tsx`;
    await writeFile(path.join(dir, file), `export { mount } from '${relative(file, `test/fixtures/sites/browser-chrome/islands/${island}.tsx`)}';\n`);
  }
  return dir;
}

describe('announcement bar and islands (fixture site)', () => {
  let browser: TestBrowser;
  let server: RunningServer;
  let site: string;
  let config: SiteConfig;
  let outDir: string;

  async function buildWith(announcementId: string): Promise<void> {
    await buildFixture({ ...config, announcementBar: { id: announcementId, content: `The sandbox is open (${announcementId}).`, dismissible: true } }, { outDir, skipCrawl: true });
  }

  const cleanup = createCleanup();
  before(async () => {
    site = await makeSite(cleanup, 'browser-chrome');
    const loaded = await loadConfig(site);
    config = { ...loaded, dirs: { ...loaded.dirs, templates: await fixtureTemplates(site) } };
    outDir = path.join(site, 'dist');
    // Assigned as soon as it exists, so after() closes it even when the build fails.
    const launching = launchBrowser().then((launched) => (browser = launched));
    const built = buildWith('launch-1');
    await Promise.allSettled([launching, built]);
    await Promise.all([launching, built]);
    server = await startServer({ dir: outDir, port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await cleanup.run();
  });

  /** The reader asks for the API console, which starts the API reference island (`data-island-start="request"`). */
  async function askForConsole(page: Page): Promise<void> {
    await page.evaluate(() => (location.hash = '#try/'));
  }

  let pointerX = 0;
  async function moveMouse(page: Page): Promise<void> {
    pointerX = (pointerX % 200) + 11;
    await page.mouse.move(pointerX, 300);
  }

  async function open(route: string, init?: string): Promise<{ page: Page; pageErrors: string[] }> {
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    if (init) await page.addInitScript({ content: init });
    await page.goto(server.url + route, { waitUntil: 'load' });
    await setMarker(page);
    return { page, pageErrors };
  }

  it('the announcement bar is dismissible; the dismissal persists across reloads and resets when its id changes', async () => {
    const { page } = await open('/docs/intro');
    const bar = page.getByRole('region', { name: 'Announcement' });
    assert.equal(await bar.isVisible(), true);
    assert.match((await bar.textContent()) ?? '', /The sandbox is open \(launch-1\)\./);
    await bar.getByRole('button', { name: 'Close' }).click();
    assert.equal(await bar.count(), 0, 'dismissed');
    assert.equal(await page.evaluate(() => localStorage.getItem('docsgen.announcement.dismissed')), 'launch-1');
    await clickInPage(page, '.navbar a[href="/demo-api"]');
    await page.waitForFunction(() => location.pathname === '/demo-api');
    assert.equal(await page.getByRole('region', { name: 'Announcement' }).isVisible(), false, 'client navigation does not bring it back');

    // Hidden before first paint on a later visit: the head script marks <html> before <body> exists.
    await page.addInitScript({
      content: `new MutationObserver((records, observer) => {
        if (!document.body) return;
        window.dismissedAtBody = document.documentElement.hasAttribute('data-announcement-dismissed');
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });`,
    });
    await page.reload({ waitUntil: 'load' });
    assert.equal(await page.evaluate(() => (window as Window & { dismissedAtBody?: boolean }).dismissedAtBody), true);
    assert.equal(await page.getByRole('region', { name: 'Announcement' }).isVisible(), false, 'still dismissed after a reload');

    await buildWith('launch-2');
    await page.reload({ waitUntil: 'load' });
    const next = page.getByRole('region', { name: 'Announcement' });
    assert.equal(await next.isVisible(), true, 'a new id shows the bar again');
    assert.match((await next.textContent()) ?? '', /launch-2/);
    await page.close();
  });

  it('a render error in an island shows "This page crashed." with "Try again", and the rest of the page keeps working', async () => {
    const { page, pageErrors } = await open('/demo-api', 'window.islandShouldThrow = true;');
    await askForConsole(page);
    const island = page.locator('[data-island="api-reference"]');
    const alert = island.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /This page crashed\./);
    assert.match((await alert.textContent()) ?? '', /Demo island failed on purpose/, 'the error text is shown');
    const tryAgain = island.getByRole('button', { name: 'Try again' });
    assert.equal(await tryAgain.isVisible(), true);
    assert.deepEqual(pageErrors, [], 'the error stayed inside the island');

    // The rest of the page works.
    await page.locator('.navbar__items--right [data-theme-toggle]').click();
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');

    // Still broken: "Try again" renders it again, and it crashes again.
    await tryAgain.click();
    await island.getByRole('alert').waitFor();
    // Fixed: "Try again" re-renders it.
    await page.evaluate(() => {
      (window as TestWindow).islandShouldThrow = false;
    });
    await island.getByRole('button', { name: 'Try again' }).click();
    await island.locator('.demo-island').waitFor();
    assert.equal(await island.getByRole('alert').count(), 0);
    await island.getByRole('button', { name: 'Clicked 0' }).click();
    await island.getByRole('button', { name: 'Clicked 1' }).waitFor();
    assert.equal(await markerSurvived(page), true, 'no page load was needed');
    await page.close();
  });

  it('an island on preact/compat hydrates its server markup, renders through a portal, and its crash boundary catches', async () => {
    const { page, pageErrors } = await open('/docs/intro');
    const island = page.locator('[data-island="search"]');
    const button = island.locator('.search-button');
    await button.evaluate((el) => ((window as TestWindow).serverButton = el));
    await button.focus();
    await page.waitForSelector(`[data-island="search"][${DATA.searchReady}]`, { state: 'attached' });
    assert.equal(await button.evaluate((el) => el === (window as TestWindow).serverButton), true, 'hydrated: the element the server sent is kept');

    // Whether the layout effect had run when the panel was first seen: in the commit that inserted it, as in React.
    await page.evaluate(() => {
      new MutationObserver((records, observer) => {
        const panel = records.flatMap((r) => Array.from(r.addedNodes)).find((n): n is Element => n instanceof Element && n.matches('.demo-search'));
        if (!panel) return;
        (window as TestWindow).laidOutWhenInserted = panel.hasAttribute('data-laid-out');
        observer.disconnect();
      }).observe(document.body, { childList: true });
    });
    await button.click();
    const panel = page.locator('body > .demo-search');
    await panel.waitFor();
    assert.equal(await page.evaluate(() => (window as TestWindow).laidOutWhenInserted), true);
    const id = await panel.getAttribute('id');
    assert.ok(id && (await page.locator(`[id="${id}-title"]`).count()) === 1, `useId names the panel: ${id}`);
    assert.equal(await panel.getAttribute('aria-labelledby'), `${id}-title`);
    await panel.getByRole('button', { name: 'Close demo search' }).click();
    await panel.waitFor({ state: 'detached' });

    await page.evaluate(() => ((window as TestWindow).searchShouldThrow = true));
    await button.click();
    const alert = island.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /This page crashed\..*Demo search failed on purpose/s);
    assert.equal(await page.locator('.demo-search').count(), 0);
    assert.deepEqual(pageErrors, [], 'the error stayed inside the island');
    await page.evaluate(() => ((window as TestWindow).searchShouldThrow = false));
    await island.getByRole('button', { name: 'Try again' }).click();
    await button.click();
    await panel.waitFor();
    assert.equal(await markerSurvived(page), true, 'no page load was needed');
    await page.close();
  });

  it('an island that fails to load shows the same message, and "Try again" loads it', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    let blocked = true;
    await page.route('**/assets/island-api-reference-*.js*', (route) => (blocked ? route.abort() : route.continue()));
    await page.goto(`${server.url}/demo-api`, { waitUntil: 'load' });
    await askForConsole(page);
    const island = page.locator('[data-island="api-reference"]');
    await island.getByRole('alert').waitFor();
    assert.match((await island.textContent()) ?? '', /This page crashed\./);
    blocked = false;
    await island.getByRole('button', { name: 'Try again' }).click();
    await island.locator('.demo-island').waitFor();
    await page.close();
  });

  it('client navigation unmounts the islands of the old page and mounts those of the new one', async () => {
    const { page, pageErrors } = await open('/demo-api');
    const log = () => page.evaluate(() => (window as TestWindow).islandLog ?? []);
    await askForConsole(page);
    await page.locator('.demo-island').waitFor();
    assert.deepEqual(await log(), ['mount']);
    await clickInPage(page, '.navbar a[href="/docs/intro"]');
    await page.waitForFunction(() => location.pathname === '/docs/intro' && !document.querySelector('[data-island="api-reference"]'));
    assert.deepEqual(await log(), ['mount', 'unmount']);
    // Back to the address that asked for the console: it starts again.
    await page.goBack();
    await page.waitForFunction(() => location.pathname === '/demo-api');
    await page.locator('.demo-island').waitFor();
    assert.deepEqual(await log(), ['mount', 'unmount', 'mount']);
    assert.equal(await markerSurvived(page), true);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });

  it('an island that starts on request waits for its address, and a page left before any request leaves nothing waiting', async () => {
    const { page, pageErrors } = await open('/demo-api');
    const log = () => page.evaluate(() => (window as TestWindow).islandLog ?? []);
    await page.evaluate(() => new Promise((resolve) => window.requestIdleCallback(() => setTimeout(resolve, 300), { timeout: 2000 })));
    await moveMouse(page);
    await page.keyboard.press('Shift');
    await page.waitForTimeout(300);
    assert.deepEqual(await log(), [], 'not started by load, idle or input');

    // Left without asking; the same address on the next page must not start the old page's island.
    await clickInPage(page, '.navbar a[href="/docs/intro"]');
    await page.waitForFunction(() => location.pathname === '/docs/intro' && !document.querySelector('[data-island="api-reference"]'));
    await askForConsole(page);
    await page.waitForTimeout(300);
    assert.deepEqual(await log(), [], 'nothing mounted for a page that is gone');

    // Back on the page (its own address, without the console's): waiting again until asked.
    await clickInPage(page, '.navbar a[href="/demo-api"]');
    await page.waitForFunction(() => location.pathname === '/demo-api');
    await page.waitForTimeout(300);
    assert.deepEqual(await log(), []);
    await askForConsole(page);
    await page.locator('.demo-island').waitFor();
    assert.deepEqual(await log(), ['mount']);
    assert.equal(await markerSurvived(page), true);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
});
