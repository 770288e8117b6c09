/**
 * Watch mode in a real browser: `docsgen serve --watch` runs as an author runs it (the
 * command line, from a copy of docsgen so its stylesheet can be edited) on a copy of
 * test/fixtures/sites/watch, and Chromium keeps a page open while files change.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { collectErrors, launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { copyWatchSite } from '../helpers/fixtures.ts';
import { repoRoot } from '../helpers/site.ts';
import { waitFor } from '../helpers/wait.ts';

declare global {
  interface Window {
    /** Set by a test: a page load loses it, a stylesheet swap keeps it. */
    docsgenWatchMarker?: string;
  }
}

const WAIT_MS = 20_000;


/** Opens `route` and waits until the page listens for changes. */
async function open(page: Page, url: string, route: string): Promise<void> {
  const connected = page.waitForResponse((response) => response.url().endsWith('/__docsgen/events'), { timeout: WAIT_MS });
  await page.goto(`${url}${route}`);
  await connected;
}

const bodyText = (page: Page) => page.evaluate(() => document.body.innerText);
const overlayText = (page: Page) => page.evaluate(() => document.getElementById('docsgen-error-overlay')?.shadowRoot?.textContent ?? '');

describe('serve --watch in the browser', () => {
  let docsgen: string;
  let root: string;
  let url: string;
  let browser: TestBrowser;
  let cli: { kill(signal: NodeJS.Signals): void; output(): string; exited: Promise<unknown>; running(): boolean };

  const site = (rel: string) => path.join(root, ...rel.split('/'));
  const edit = async (file: string, change: (text: string) => string) => {
    const before = await readFile(file, 'utf8');
    const after = change(before);
    assert.notEqual(after, before, `the edit of ${file} changes nothing`);
    await writeFile(file, after);
    return before;
  };

  /** A new tab on `route`, listening for changes, holding a marker that a page load would lose. */
  const openMarked = async (route: string, marker: string) => {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await open(page, url, route);
    await page.evaluate((text) => {
      window.docsgenWatchMarker = text;
    }, marker);
    return { page, errors };
  };

  before(async () => {
    // docsgen's templates belong to docsgen, so a stylesheet edit needs a copy of docsgen.
    docsgen = await mkdtemp(path.join(os.tmpdir(), 'docsgen-copy-'));
    for (const entry of ['cli', 'templates', 'package.json', 'tsconfig.json']) await cp(path.join(repoRoot, entry), path.join(docsgen, entry), { recursive: true });
    await symlink(path.join(repoRoot, 'node_modules'), path.join(docsgen, 'node_modules'), 'dir');
    root = await mkdtemp(path.join(os.tmpdir(), 'docsgen-watch-site-'));
    await copyWatchSite(root, { api: false });

    const child = spawn(process.execPath, [path.join(docsgen, 'cli/bin.mjs'), 'serve', '--watch', '--port', '0', '--root', root], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    cli = { kill: (signal) => child.kill(signal), output: () => output, exited, running: () => child.exitCode === null && child.signalCode === null };
    await waitFor('the first build', () => /Watching /.test(output), 90_000);
    url = /at (http:\/\/localhost:\d+)/.exec(output)?.[1] ?? assert.fail(output);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (cli?.running()) {
      cli.kill('SIGINT');
      await Promise.race([cli.exited, new Promise((resolve) => setTimeout(resolve, WAIT_MS))]);
      if (cli.running()) cli.kill('SIGKILL');
    }
    for (const dir of [docsgen, root]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('swaps an edit into the open page where the reader is: no page load, no request, same scroll, sidebar as left', async () => {
    const { page, errors } = await openMarked('/docs/introducao', 'before the edit');
    // The reader opened a sidebar category the page did not hold: a page load would close it again.
    const guia = page.locator('.doc-sidebar .menu__caret', { hasText: 'Guia' });
    assert.equal(await guia.getAttribute('aria-expanded'), 'false');
    await guia.click({ timeout: WAIT_MS });
    await waitFor('the category to open', async () => (await guia.getAttribute('aria-expanded')) === 'true');
    await page.evaluate(() => window.scrollTo(0, 1500));
    await waitFor('the page to scroll', () => page.evaluate(() => Math.round(window.scrollY) === 1500));
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));

    await edit(site('content/docs/introducao.mdx'), (t) => t.replace('Parágrafo 20 da introdução', 'Parágrafo 20 reescrito'));
    await waitFor('the new text in the open page', async () => (await bodyText(page)).includes('Parágrafo 20 reescrito'));
    assert.equal(await page.evaluate(() => window.docsgenWatchMarker), 'before the edit', 'the page was updated in place, not loaded again');
    assert.equal(await page.evaluate(() => Math.round(window.scrollY)), 1500, 'the scroll position did not move');
    assert.equal(await guia.getAttribute('aria-expanded'), 'true', 'the sidebar kept the category the reader opened');
    assert.deepEqual(
      requested.filter((p) => p.startsWith('/docs/introducao')),
      [],
      'the new page came with the change event, so the browser did not ask for it',
    );
    assert.equal(await page.evaluate(() => document.querySelectorAll('#docsgen-page').length), 1);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows a changed title in the sidebar and the heading of the open page', async () => {
    const { page, errors } = await openMarked('/docs/guia/segundo', 'before the edit');
    const file = site('content/docs/guia/segundo.mdx');
    const original = await edit(file, (t) => t.replace('title: Segundo passo', 'title: Passo dois'));
    try {
      await waitFor('the new title in the sidebar', async () => (await page.locator('.doc-sidebar a.menu__link--active').textContent()) === 'Passo dois');
      assert.equal(await page.locator('main h1').first().textContent(), 'Passo dois');
      assert.match(await page.title(), /^Passo dois \| /);
      assert.equal(await page.evaluate(() => window.docsgenWatchMarker), 'before the edit', 'updated in place');
    } finally {
      await writeFile(file, original);
    }
    await waitFor('the old title back', async () => (await page.locator('.doc-sidebar a.menu__link--active').textContent()) === 'Segundo passo');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('applies a stylesheet change without reloading the page', async () => {
    const { page, errors } = await openMarked('/docs/guia/primeiro', 'still here');
    const custom = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--docsgen-watch-test').trim());
    assert.equal(await custom(), '');

    const css = path.join(docsgen, 'templates/styles/main.css');
    const original = await edit(css, (t) => `${t}\n:root { --docsgen-watch-test: 7px; }\n`);
    try {
      await waitFor('the new rule to apply', async () => (await custom()) === '7px');
      assert.equal(await page.evaluate(() => window.docsgenWatchMarker), 'still here', 'the page did not reload');
      // The new sheet applies when it has loaded; the old one goes in the load event's task
      // after that, which a loaded machine can delay: wait for it rather than race it.
      const stylesheets = () => page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')].filter((l) => /\/assets\/styles-/.test(l.getAttribute('href') ?? '')).length);
      await waitFor('the old stylesheet to be removed', async () => (await stylesheets()) === 1, WAIT_MS);
    } finally {
      await writeFile(css, original);
    }
    await waitFor('the rule to go away again', async () => (await custom()) === '');
    assert.equal(await page.evaluate(() => window.docsgenWatchMarker), 'still here');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows a build error over the last good page, and clears it when the file is fixed', async () => {
    const page = await browser.newPage();
    await open(page, url, '/docs/guia/segundo');
    const file = site('content/docs/guia/segundo.mdx');
    const original = await edit(file, (t) => t.replace('Depois do [primeiro passo]', 'Depois do <primeiro passo]'));

    const text = await waitFor('the overlay', async () => {
      const shown = await overlayText(page);
      return shown.includes('MDX syntax error') ? shown : undefined;
    });
    assert.match(text, /content\/docs\/guia\/segundo\.mdx:7:\d+/);
    assert.match(text, /> 7 \| Depois do <primeiro passo\]/, 'the offending line is shown');
    assert.match(text, /Fix: /);
    assert.match(await bodyText(page), /Depois do primeiro passo/, 'the last good page stays underneath');
    const role = await page.evaluate(() => document.getElementById('docsgen-error-overlay')?.shadowRoot?.querySelector('[role="alertdialog"]') !== null);
    assert.ok(role, 'the overlay is announced as an alert dialog');

    await writeFile(file, original.replace('Depois do [primeiro passo]', 'Em seguida ao [primeiro passo]'));
    await waitFor('the fixed text', async () => (await bodyText(page)).includes('Em seguida ao primeiro passo'));
    assert.equal(await overlayText(page), '', 'the overlay is gone');
    await page.close();
  });

  it('loads a page that changed since it was prefetched afresh, not from the router’s copy', async () => {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    const messages: string[] = [];
    cdp.on('Network.eventSourceMessageReceived', (event: { eventName: string; data: string }) => messages.push(`${event.eventName} ${event.data}`));
    await cdp.send('Network.enable');
    // Listening from before the page opens: the link may be prefetched as soon as it shows, before the hover.
    const prefetched = page.waitForRequest((request) => new URL(request.url()).pathname === '/docs/guia/segundo', { timeout: WAIT_MS });
    await open(page, url, '/docs/guia/primeiro');
    const link = page.locator('a[href="/docs/guia/segundo"]:visible').first();
    await link.hover({ timeout: WAIT_MS });
    await prefetched;

    await edit(site('content/docs/guia/segundo.mdx'), (t) => t.replace('volte à [introdução]', 'releia a [introdução]'));
    await waitFor('the open page to hear of the change', () => messages.some((m) => m.startsWith('reload ') && m.includes('/docs/guia/segundo')));
    await link.click({ timeout: WAIT_MS });
    await waitFor('the changed page', async () => (await bodyText(page)).includes('releia a introdução'));
    await page.close();
  });
});

describe('serve --watch in the browser, while the first build runs', () => {
  let browser: TestBrowser;
  const dirs: string[] = [];
  const clis: { kill(signal: NodeJS.Signals): void; exited: Promise<unknown>; running(): boolean }[] = [];

  before(async () => {
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    for (const cli of clis) {
      if (!cli.running()) continue;
      cli.kill('SIGINT');
      await Promise.race([cli.exited, new Promise((resolve) => setTimeout(resolve, WAIT_MS))]);
      if (cli.running()) cli.kill('SIGKILL');
    }
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /**
   * `serve --watch` on a copy of the watch fixture whose first build waits, in its config,
   * for a file the test creates (`release`): it runs until the pages are open, however fast the machine.
   */
  async function startHeld(prepare: (root: string) => Promise<void> = async () => undefined) {
    const root = await mkdtemp(path.join(os.tmpdir(), 'docsgen-watch-first-'));
    const gateDir = await mkdtemp(path.join(os.tmpdir(), 'docsgen-watch-gate-'));
    dirs.push(root, gateDir);
    await copyWatchSite(root, { api: false });
    await prepare(root);
    const gate = path.join(gateDir, 'go');
    const config = path.join(root, 'site.config.ts');
    await writeFile(config, `import { existsSync as gateIsOpen } from 'node:fs';\nwhile (!gateIsOpen(${JSON.stringify(gate)})) await new Promise((resolve) => setTimeout(resolve, 20));\n${await readFile(config, 'utf8')}`);
    const child = spawn(process.execPath, [path.join(repoRoot, 'cli/bin.mjs'), 'serve', '--watch', '--port', '0', '--root', root], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    clis.push({ kill: (signal) => child.kill(signal), exited, running: () => child.exitCode === null && child.signalCode === null });
    const url = await waitFor('the server', () => /at (http:\/\/localhost:\d+) — building/.exec(output)?.[1], 90_000);
    return { root, url, output: () => output, release: () => writeFile(gate, '') };
  }

  const heading = (page: Page) => page.evaluate(() => document.querySelector('h1')?.textContent ?? '');

  it('a page open while it runs says the build failed, not "Building…", and shows the site once the file is fixed', async () => {
    let doc = '';
    let original = '';
    const watch = await startHeld(async (root) => {
      doc = path.join(root, 'content/docs/introducao.mdx');
      original = await readFile(doc, 'utf8');
      await writeFile(doc, original.replace('Texto original da introdução.', 'Texto {quebrado da introdução.'));
    });

    const page = await browser.newPage();
    const errors = collectErrors(page);
    let loads = 0;
    page.on('load', () => loads++);
    await open(page, watch.url, '/docs/introducao');
    assert.equal(await heading(page), 'Building…', 'the placeholder is open while the first build runs');
    await page.evaluate(() => {
      window.docsgenWatchMarker = 'open while building';
    });

    await watch.release();
    await waitFor('the overlay', async () => (await overlayText(page)).includes('No build has succeeded yet'), 90_000);
    await waitFor('the page to say the build failed', async () => (await heading(page)) === 'Build failed');
    assert.equal(await page.title(), 'Build failed');
    const text = await bodyText(page);
    assert.match(text, /The build failed, and no earlier build is there to show\. Fix the file named in the error/);
    assert.doesNotMatch(text, /Building|reloads by itself when the build is done/);
    assert.equal(await page.evaluate(() => window.docsgenWatchMarker), 'open while building', 'the page changed in place, without a reload');
    assert.match(watch.output(), /first build → build failed/);

    await writeFile(doc, original.replace('Texto original da introdução.', 'Texto consertado da introdução.'));
    await waitFor('the built page', async () => (await bodyText(page)).includes('Texto consertado da introdução.'));
    assert.equal(await heading(page), 'Introdução');
    assert.equal(await overlayText(page), '', 'the overlay is gone');
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-docsgen-placeholder')), false, 'the built page, not a placeholder');
    // Playwright reports the load event after the page's text can be read.
    await waitFor('the load event of the built page', () => loads >= 2);
    // A loop would reload again at once: half a second shows it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(loads, 2, 'the placeholder, then the built page: one reload, not a loop');
    // The placeholder is served with status 404 at every address but the home page's, and names no icon (the browser asks for /favicon.ico).
    assert.deepEqual(errors.filter((error) => !/status of 404/.test(error)), []);
    await page.close();
  });

  it("a page open at an address the site does not have shows the site's 404 page once the build succeeds", async () => {
    const watch = await startHeld();
    const page = await browser.newPage();
    await open(page, watch.url, '/nao-existe');
    assert.equal(await heading(page), 'Building…');
    await watch.release();
    // No list of changed pages names an address the site does not have.
    await waitFor('the site\'s 404 page', () => page.evaluate(() => !document.documentElement.hasAttribute('data-docsgen-placeholder')), 90_000);
    assert.doesNotMatch(await bodyText(page), /Building|Build failed/);
    assert.equal(await page.evaluate(() => document.querySelector('link[rel="stylesheet"]') !== null), true, 'a page of the site, with its styles');
    await page.close();
  });

  it('a placeholder whose live-reload stream connects only after the first build shows the built page', async () => {
    const watch = await startHeld();
    const page = await browser.newPage();
    // The script that opens the stream is held until the build is written: the reload that followed it went to no one.
    let letScriptThrough = () => undefined as void;
    const scriptHeld = new Promise<void>((resolve) => (letScriptThrough = resolve));
    await page.route(/\/__docsgen\/live-reload\.js$/, async (route) => {
      await scriptHeld;
      await route.continue();
    });
    // Not to DOMContentLoaded: the held script keeps it from firing.
    await page.goto(`${watch.url}/docs/introducao`, { waitUntil: 'commit' });
    await waitFor('the placeholder', async () => (await heading(page)) === 'Building…');
    await watch.release();
    await waitFor('the first build', () => /Built \d+ pages/.test(watch.output()), 90_000);
    letScriptThrough();
    await waitFor('the built page', async () => (await bodyText(page)).includes('Texto original da introdução.'));
    assert.equal(await heading(page), 'Introdução');
    await page.close();
  });
});
