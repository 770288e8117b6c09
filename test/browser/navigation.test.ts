/**
 * Client navigation on the real built site, in Chromium (spec §2 "Navigation
 * behaviour", §8 errors): no full page loads, head and history updates, scroll and
 * focus, canonical URLs, the not-found page, the progress bar, prefetching, and the
 * fallbacks when a page cannot be fetched.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../cli/serve.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { builtSite, serveBuiltSite } from '../helpers/site.ts';
import { clickInPage, fetchLog, injectLink, markerSurvived, quiet, requestsInFlight, setMarker, settle, waitForTitle, type ClickInit } from './harness.ts';

const FROM = '/docs/api/pagamento';
const TO = '/docs/api/transacao';

interface PageFacts {
  title: string;
  h1: string;
  tocIds: string[];
}

function decode(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/** Title, H1 and heading ids of a page, read from the build so the tests follow content edits. */
async function facts(route: string): Promise<PageFacts> {
  const html = await readFile(path.join(await builtSite(), `${route.slice(1)}.html`), 'utf8');
  const title = decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
  const h1 = decode(/<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] ?? '');
  const toc = /<nav class="toc"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
  const tocIds = Array.from(toc.matchAll(/href="#([^"]+)"/g), (m) => decodeURIComponent(m[1]!));
  return { title, h1, tocIds };
}

describe('client navigation (real site)', { concurrency: 3 }, () => {
  let browser: TestBrowser;
  let server: RunningServer;
  let from: PageFacts;
  let to: PageFacts;

  before(async () => {
    // Each is assigned as soon as it exists, so after() stops it even when another step fails.
    const started = [serveBuiltSite().then((s) => (server = s)), launchBrowser().then((b) => (browser = b))];
    await Promise.allSettled(started);
    await Promise.all(started);
    [from, to] = await Promise.all([facts(FROM), facts(TO)]);
    assert.ok(to.tocIds.length >= 3, `${TO} needs at least three headings for these tests`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(route: string, setup?: (page: Page) => Promise<void>): Promise<{ page: Page; fetched: string[]; errors: string[] }> {
    // A context of its own: the tests run side by side, and none may see another's cache or offline switch.
    const page = await browser.isolatedPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // A fetched 404 page is logged by Chromium itself; anything else is a real error.
      if (message.type() === 'error' && !/status of 404/.test(message.text())) errors.push(message.text());
    });
    const fetched = fetchLog(page);
    if (setup) await setup(page);
    await page.goto(server.url + route, { waitUntil: 'load' });
    await setMarker(page);
    return { page, fetched, errors };
  }

  it('follows an internal link without a full page load, updating content, head, sidebar and history', async () => {
    const { page, errors } = await open(FROM);
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request.url());
    });
    await page.evaluate(() => document.documentElement.setAttribute('lang', 'xx'));
    await page.click(`.doc-sidebar a[href="${TO}"]`);
    await waitForTitle(page, to.title);
    assert.equal(await markerSurvived(page), true, 'window state survives: no page load happened');
    assert.deepEqual(documents, [], 'no document request');
    assert.equal(new URL(page.url()).pathname, TO);
    assert.equal(await page.textContent('#main-content h1'), to.h1);
    const head = await page.evaluate(() => ({
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
      ogUrl: document.querySelectorAll('meta[property="og:url"]').length,
      ogUrlValue: document.querySelector('meta[property="og:url"]')?.getAttribute('content'),
      lang: document.documentElement.lang,
      active: Array.from(document.querySelectorAll('.doc-sidebar .menu__link--active'), (a) => a.getAttribute('href')),
      current: document.querySelector('.doc-sidebar [aria-current="page"]')?.getAttribute('href'),
    }));
    assert.equal(head.canonical, `https://developers.sorrix.example${TO}`);
    assert.equal(head.ogUrl, 1, 'head tags are replaced, not duplicated');
    assert.equal(head.ogUrlValue, `https://developers.sorrix.example${TO}`);
    assert.equal(head.lang, 'en', 'lang comes from the new page');
    assert.deepEqual(head.active, [TO], 'exactly the new page is active in the sidebar');
    assert.equal(head.current, TO);
    await page.goBack();
    await waitForTitle(page, from.title);
    assert.equal(new URL(page.url()).pathname, FROM);
    assert.equal(await markerSurvived(page), true, 'back is client navigation too');
    await page.goForward();
    await waitForTitle(page, to.title);
    assert.equal(await markerSurvived(page), true);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('runs at most 10 KB (gzip) of JavaScript before the load event on a doc page, and no React', async () => {
    const { page } = await open(FROM);
    const scripts = await page.evaluate(() => {
      const load = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime < load && /\.m?js(\?|$)/.test(new URL(entry.name).pathname))
        .map((entry) => new URL(entry.name).pathname);
    });
    assert.ok(scripts.some((s) => /^\/assets\/main-/.test(s)), `the router module is among ${scripts.join(', ')}`);
    const dist = await builtSite();
    const html = await readFile(path.join(dist, `${FROM.slice(1)}.html`), 'utf8');
    const inline = Array.from(html.matchAll(/<script(?![^>]*(?:\bsrc\b|\btype="application\/json"))[^>]*>([\s\S]*?)<\/script>/g), (m) => m[1]!).join('\n');
    let total = gzipSync(inline, { level: 9 }).length;
    for (const script of scripts) {
      const code = await readFile(path.join(dist, script), 'utf8');
      assert.doesNotMatch(code, /react\.production|__SECRET_INTERNALS|createRoot/, `${script} holds no React`);
      total += gzipSync(code, { level: 9 }).length;
    }
    assert.ok(total <= 10 * 1024, `${total} bytes of gzipped JavaScript before load (${scripts.join(', ')} and the inline scripts)`);
    await page.close();
  });

  it('restores scroll positions on back and forward', async () => {
    const { page } = await open(FROM);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await clickInPage(page, `.doc-sidebar a[href="${TO}"]`);
    await waitForTitle(page, to.title);
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'a new page starts at the top');
    await page.evaluate(() => window.scrollTo(0, 900));
    await page.goBack();
    await waitForTitle(page, from.title);
    await page.waitForFunction(() => Math.abs(window.scrollY - 1500) < 2);
    await page.goForward();
    await waitForTitle(page, to.title);
    await page.waitForFunction(() => Math.abs(window.scrollY - 900) < 2);
    assert.equal(await markerSurvived(page), true);
    // A reload restores the position too (kept in the history entry shortly after scrolling stops).
    await page.waitForFunction(() => Math.abs(((history.state as { docsgen?: { scroll?: number[] } } | null)?.docsgen?.scroll?.[1] ?? -1) - 900) < 2);
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => Math.abs(window.scrollY - 900) < 2, undefined, { timeout: 10_000 });
    await page.close();
  });

  it('scrolls to the #hash target after navigation, or to the top, and moves focus to the new content', async () => {
    const { page } = await open(FROM);
    const id = to.tocIds[2]!;
    await injectLink(page, `${TO}#${encodeURIComponent(id)}`, 'hash-link');
    await page.evaluate(() => window.scrollTo(0, 800));
    await clickInPage(page, '#hash-link');
    await waitForTitle(page, to.title);
    const position = await page.evaluate((id) => {
      const heading = document.getElementById(id)!;
      return { top: heading.getBoundingClientRect().top, navbar: document.querySelector('.navbar')!.getBoundingClientRect().bottom, scrollY: window.scrollY };
    }, id);
    assert.ok(position.scrollY > 0, 'the page scrolled down to the heading');
    assert.ok(position.top >= position.navbar - 1 && position.top < position.navbar + 40, `the heading sits just under the navbar (top ${position.top}, navbar ${position.navbar})`);
    assert.equal(new URL(page.url()).hash, `#${encodeURIComponent(id)}`);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main-content', 'focus moved to the new content');
    assert.equal(await page.evaluate(() => document.querySelector('[aria-live]')?.textContent), to.title, 'the new page is announced');

    await clickInPage(page, `.doc-sidebar a[href="${FROM}"]`);
    await waitForTitle(page, from.title);
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'without a hash the new page starts at the top');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main-content');
    await page.close();
  });

  it('treats paths ending in .html or /index.html as the page itself, in the address bar and in links', async () => {
    const { page } = await open(`${FROM}.html`);
    assert.equal(new URL(page.url()).pathname, FROM, 'x.html is shown as x');
    await page.goto(`${server.url}${FROM}/index.html?q=1#${encodeURIComponent(from.tocIds[0]!)}`);
    const url = new URL(page.url());
    assert.equal(url.pathname, FROM, 'x/index.html is shown as x');
    assert.equal(url.search, '?q=1');
    assert.equal(decodeURIComponent(url.hash.slice(1)), from.tocIds[0]);
    await page.goto(`${server.url}/index.html`);
    assert.equal(new URL(page.url()).pathname, '/');
    await page.goto(server.url + FROM, { waitUntil: 'load' });
    await setMarker(page);
    await injectLink(page, `${TO}.html`, 'html-link');
    await clickInPage(page, '#html-link');
    await waitForTitle(page, to.title);
    assert.equal(new URL(page.url()).pathname, TO);
    assert.equal(await markerSurvived(page), true);
    await injectLink(page, `${FROM}/index.html`, 'index-link');
    await clickInPage(page, '#index-link');
    await waitForTitle(page, from.title);
    assert.equal(new URL(page.url()).pathname, FROM);
    assert.equal(await markerSurvived(page), true);
    await page.close();
  });

  it('shows the not-found page for an unknown path, through client navigation as well as directly', async () => {
    const { page } = await open(FROM);
    await injectLink(page, '/docs/nao-existe', 'missing-link');
    await clickInPage(page, '#missing-link');
    await waitForTitle(page, 'Page Not Found | Sorrix');
    assert.equal(await markerSurvived(page), true);
    assert.equal(new URL(page.url()).pathname, '/docs/nao-existe', 'the address the reader asked for stays');
    assert.equal(await page.textContent('#main-content h1'), 'Page Not Found');
    assert.equal(await page.getAttribute('meta[name="robots"]', 'content'), 'noindex');
    await page.goBack();
    await waitForTitle(page, from.title);
    assert.equal(await page.locator('meta[name="robots"]').count(), 0, 'noindex leaves with the not-found page');

    const response = await page.goto(`${server.url}/docs/nao-existe`);
    assert.equal(response?.status(), 404);
    assert.equal(await page.textContent('#main-content h1'), 'Page Not Found');
    await page.close();
  });

  it('routes only same-origin page links opened in this tab, without modifier keys', async () => {
    const { page } = await open(FROM);
    const cases: { href: string; attrs?: Record<string, string>; init?: ClickInit; routed: boolean }[] = [
      { href: TO, routed: true },
      { href: `${TO}.html`, routed: true },
      { href: '/openapi/payment.json', routed: false },
      { href: '/openapi/payment.yaml', routed: false },
      { href: '/img/logo.svg', routed: false },
      { href: '/blog/rss.xml', routed: false },
      { href: '/assets/anything.js', routed: false },
      { href: TO, attrs: { target: '_blank' }, routed: false },
      { href: TO, attrs: { download: '' }, routed: false },
      { href: 'https://sorrix.example/', routed: false },
      { href: 'mailto:suporte@sorrix.example', routed: false },
      { href: TO, init: { ctrlKey: true }, routed: false },
      { href: TO, init: { metaKey: true }, routed: false },
      { href: TO, init: { shiftKey: true }, routed: false },
      { href: TO, init: { altKey: true }, routed: false },
      { href: TO, init: { button: 1 }, routed: false },
    ];
    const results = await page.evaluate(async (cases) => {
      // Runs after the router's listener on document: records whether it claimed the click, then stops the browser from following it.
      let claimed = false;
      window.addEventListener('click', (event) => {
        claimed = event.defaultPrevented;
        event.preventDefault();
      });
      const out: boolean[] = [];
      for (const c of cases) {
        const link = document.createElement('a');
        link.href = c.href;
        for (const [name, value] of Object.entries(c.attrs ?? {})) link.setAttribute(name, value);
        link.textContent = 'case';
        document.getElementById('main-content')!.prepend(link);
        claimed = false;
        const stop = new AbortController();
        const navigated = new Promise((resolve) => document.addEventListener('docsgen:navigate', resolve, { once: true, signal: stop.signal }));
        link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window, button: 0, ...c.init }));
        out.push(claimed);
        link.remove();
        // A claimed navigation to another page finishes before the next case (one to this page only scrolls).
        const [to, here] = [new URL(link.href).pathname, location.pathname].map((p) => p.replace(/(\.html|\/)$/, ''));
        if (claimed && to !== here) await navigated;
        stop.abort();
      }
      return out;
    }, cases);
    cases.forEach((c, i) => assert.equal(results[i], c.routed, `${c.href} ${JSON.stringify(c.attrs ?? c.init ?? {})}: routed=${c.routed}`));
    await page.close();
  });

  it('shows the progress bar only when loading takes more than 200 ms, as an accessible progressbar', async () => {
    // The slow page is held until the bar has been looked at, not for a fixed time a loaded machine can outlast.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { page } = await open(FROM, async (p) => {
      await p.route('**/blog/tags/hola', async (route) => {
        await released;
        await route.continue();
      });
    });
    const watch = () =>
      page.evaluate(() => {
        const bar = document.querySelector<HTMLElement>('.progress-bar')!;
        const log: { shown: number[]; start: number } = { shown: [], start: performance.now() };
        new MutationObserver(() => {
          if (!bar.hidden) log.shown.push(performance.now() - log.start);
        }).observe(bar, { attributes: true });
        (window as Window & { progressLog?: typeof log }).progressLog = log;
      });
    const shown = () => page.evaluate(() => (window as Window & { progressLog?: { shown: number[] } }).progressLog!.shown);

    // Fast: the page is already there (prefetched on hover), so the bar never shows. A
    // fetch from the local server would usually be fast too, but not on a loaded machine.
    await injectLink(page, '/blog/tags/hello', 'fast-link');
    const prefetched = page.waitForResponse((response) => new URL(response.url()).pathname === '/blog/tags/hello');
    await page.hover('#fast-link');
    await (await prefetched).finished();
    await watch();
    await clickInPage(page, '#fast-link');
    // The injected link lived in the old page: it is gone once the new one is in.
    await page.waitForFunction(() => location.pathname === '/blog/tags/hello' && !document.getElementById('fast-link'));
    await page.waitForTimeout(300);
    assert.deepEqual(await shown(), [], 'a fast navigation shows no progress bar');

    // Slow: the bar appears after 200 ms, is exposed as a progressbar, and goes once the page is there.
    await injectLink(page, '/blog/tags/hola', 'slow-link');
    await watch();
    await clickInPage(page, '#slow-link');
    const bar = page.locator('[role="progressbar"]');
    await bar.waitFor({ state: 'visible', timeout: 2000 });
    assert.equal(await bar.getAttribute('aria-hidden'), null, 'visible to assistive technology while shown');
    assert.equal(await bar.getAttribute('aria-label'), 'Loading page');
    assert.equal(await page.getAttribute('#docsgen-page', 'aria-busy'), 'true');
    const times = await shown();
    assert.ok(times.length > 0 && times[0]! >= 195, `the bar appeared after ${times[0]} ms, not before 200 ms`);
    release();
    await page.waitForFunction(() => location.pathname === '/blog/tags/hola');
    await bar.waitFor({ state: 'hidden', timeout: 3000 });
    assert.equal(await bar.getAttribute('aria-hidden'), 'true');
    assert.equal(await page.getAttribute('#docsgen-page', 'aria-busy'), null);
    assert.equal(await markerSurvived(page), true);
    await page.close();
  });

  it('falls back to a full page load when the page request fails (network error)', async () => {
    const { page } = await open(FROM, async (p) => {
      await p.route('**/blog/tags/facebook', (route) => (route.request().resourceType() === 'fetch' ? route.abort('failed') : route.continue()));
    });
    await injectLink(page, '/blog/tags/facebook', 'aborted-link');
    await Promise.all([page.waitForEvent('load'), clickInPage(page, '#aborted-link')]);
    assert.equal(new URL(page.url()).pathname, '/blog/tags/facebook');
    assert.equal(await markerSurvived(page), false, 'the page was loaded normally');
    assert.match(await page.title(), /facebook/i);
    await page.close();
  });

  it('falls back to a full page load when the server answers 5xx', async () => {
    const { page } = await open(FROM, async (p) => {
      await p.route('**/blog/archive', (route) =>
        route.request().resourceType() === 'fetch' ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'maintenance' }) : route.continue(),
      );
    });
    await injectLink(page, '/blog/archive', 'busy-link');
    await Promise.all([page.waitForEvent('load'), clickInPage(page, '#busy-link')]);
    assert.equal(new URL(page.url()).pathname, '/blog/archive');
    assert.equal(await markerSurvived(page), false);
    assert.equal(await page.textContent('#main-content h1'), 'Archive');
    await page.close();
  });

  it('offline, shows the error text and a Retry button that loads the page once the connection is back', async () => {
    const { page } = await open(FROM);
    await page.context().setOffline(true);
    try {
      // The router reads navigator.onLine when the fetch fails; Chromium may deliver the switch
      // to the page after setOffline() resolves, and a page that still thinks it is online loads normally.
      await page.waitForFunction(() => !navigator.onLine);
      // Only now the link: the router prefetches visible links once the page is idle, and a
      // prefetch that got the page before the switch would let the click succeed.
      await injectLink(page, '/blog/tags', 'offline-link');
      await clickInPage(page, '#offline-link');
      const retry = page.getByRole('button', { name: 'Retry' });
      await retry.waitFor({ timeout: 15_000 }).catch(async (error: Error) => {
        const shown = await page.evaluate(() => `${location.pathname}: ${document.querySelector('h1')?.textContent ?? 'no h1'}`).catch(() => page.url());
        throw new Error(`${error.message}\nThe page shows ${shown}`);
      });
      assert.equal(await page.textContent('#main-content h1'), 'This page could not be loaded.');
      const message = (await page.textContent('.load-error__message')) ?? '';
      assert.match(message, /Failed to fetch/, 'the error text is shown');
      assert.match(message, /\/blog\/tags/);
      assert.equal(new URL(page.url()).pathname, '/blog/tags');
      assert.equal(await markerSurvived(page), true, 'no reload was attempted');
      await page.context().setOffline(false);
      await page.waitForFunction(() => navigator.onLine);
      await retry.click();
      await waitForTitle(page, 'Tags | Sorrix');
      assert.equal(await markerSurvived(page), true);
    } finally {
      await page.context().setOffline(false);
    }
    await page.close();
  });

  it('prefetches on hover, and fetches each page at most once', async () => {
    const { page, fetched } = await open(FROM);
    await settle(fetched);
    await injectLink(page, '/blog/2019/05/28/hola', 'hover-link');
    assert.equal(fetched.filter((p) => p === '/blog/2019/05/28/hola').length, 0);
    await page.hover('#hover-link');
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/blog/2019/05/28/hola')));
    await page.click('#hover-link');
    await page.waitForFunction(() => location.pathname === '/blog/2019/05/28/hola' && document.title !== '');
    await page.hover('.navbar__brand');
    await page.goBack();
    await waitForTitle(page, from.title);
    await page.goForward();
    await page.waitForFunction(() => location.pathname === '/blog/2019/05/28/hola');
    await page.goBack();
    await waitForTitle(page, from.title);
    assert.equal(await markerSurvived(page), true);
    const counts = new Map<string, number>();
    for (const p of fetched) counts.set(p, (counts.get(p) ?? 0) + 1);
    const twice = Array.from(counts).filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'no page was fetched twice');
    assert.equal(counts.get('/blog/2019/05/28/hola'), 1);
    await page.close();
  });

  it('prefetches links when they scroll into view', async () => {
    const { page, fetched } = await open(FROM, async (p) => {
      await p.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const link = document.createElement('a');
          link.href = '/blog/tags/docusaurus';
          link.id = 'far-link';
          link.textContent = 'far below';
          link.style.display = 'block';
          link.style.marginTop = '3000px';
          document.body.append(link);
        });
      });
    });
    await page.waitForFunction((route) => performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === route), TO, { timeout: 8000 });
    await settle(fetched);
    assert.ok(fetched.includes(TO), `a visible sidebar link is prefetched without interaction (fetched: ${fetched.join(', ')})`);
    assert.ok(!fetched.includes('/blog/tags/docusaurus'), 'a link below the fold is not fetched yet');
    await page.evaluate(() => document.getElementById('far-link')!.scrollIntoView());
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/blog/tags/docusaurus')), undefined, { timeout: 10_000 });
    assert.ok(fetched.includes('/blog/tags/docusaurus'));
    await page.close();
  });

  for (const connection of [
    { name: 'saveData', value: { saveData: true, effectiveType: '4g' } },
    { name: 'a 2g connection', value: { saveData: false, effectiveType: '2g' } },
    { name: 'a slow-2g connection', value: { saveData: false, effectiveType: 'slow-2g' } },
  ]) {
    it(`does not prefetch with ${connection.name}, and still navigates`, async () => {
      const { page, fetched } = await open(FROM, async (p) => {
        // As text: tsx names the methods of a function it compiled, which would break it in the page.
        await p.addInitScript({
          content: `Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => Object.assign(new EventTarget(), ${JSON.stringify(connection.value)}) });`,
        });
      });
      const requests = requestsInFlight(page);
      // Until the prefetch of visible links, which starts when the browser is idle after load, would have begun.
      await quiet(page, requests, { calmRounds: 2 });
      await injectLink(page, '/blog/tags/hola', 'no-prefetch');
      await page.hover('#no-prefetch');
      await page.dispatchEvent('#no-prefetch', 'touchstart');
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await quiet(page, requests, { scroll: true, calmRounds: 2 });
      assert.deepEqual(fetched, [], 'nothing was fetched ahead of a click');
      await page.click('#no-prefetch');
      await page.waitForFunction(() => location.pathname === '/blog/tags/hola');
      await page.waitForFunction(() => /hola/i.test(document.title));
      assert.deepEqual(fetched, ['/blog/tags/hola'], 'the click itself fetched the page');
      assert.equal(await markerSurvived(page), true);
      await page.close();
    });
  }
});
