/**
 * The built site in Chromium under the Content-Security-Policy that `docsgen serve`
 * sends: its own scripts run (the inline theme script by its hash, the API reference
 * island), try-it may reach the sandbox and nothing else, an injected inline script
 * does not run, and no other site can frame the pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../cli/serve.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { serveBuiltSite } from '../helpers/site.ts';

declare global {
  interface Window {
    /** Filled by the init script below: every violation the page reported. */
    docsgenViolations?: string[];
  }
}

let browser: TestBrowser;
let server: RunningServer;

before(async () => {
  server = await serveBuiltSite();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(route: string): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    window.docsgenViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => window.docsgenViolations!.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
  return page;
}

const violations = (page: Page) => page.evaluate(() => window.docsgenViolations ?? []);

describe('Content-Security-Policy in the browser', () => {
  it('lets the pages run their own scripts, the inline theme script and the API reference island included', async () => {
    // One page for all of them: the init script that records violations runs again on each load.
    const page = await open('/');
    for (const route of ['/', '/docs/api/pagamento', '/blog/2019/05/28/hola']) {
      if (route !== '/') await page.goto(`${server.url}${route}`, { waitUntil: 'load' });
      assert.ok(await page.getAttribute('html', 'data-theme'), `${route}: the inline theme script ran`);
      assert.deepEqual(await violations(page), [], route);
    }
    // The console starts only when asked for: a #try/ deep link asks.
    await page.goto(`${server.url}/api-reference#try/operations/createPayment`, { waitUntil: 'load' });
    await page.waitForSelector('.sl-elements', { timeout: 60_000 });
    assert.deepEqual(await violations(page), [], 'Stoplight Elements needs nothing the policy refuses');
    await page.close();
  });

  it('lets try-it reach the sandbox servers of the documents, and no other host', async () => {
    const page = await open('/api-reference');
    await browser.context.route('https://*.sorrix.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', headers: { 'Access-Control-Allow-Origin': '*' }, body: 'sandbox' }),
    );
    try {
      const outcome = (url: string) => page.evaluate((u) => fetch(u).then((r) => r.text(), (e: Error) => `refused: ${e.message}`), url);
      assert.equal(await outcome('https://sandbox.api.sorrix.example/v1/payments'), 'sandbox');
      assert.equal(await outcome('https://auth.sandbox.sorrix.example/oauth/token'), 'sandbox');
      assert.match(await outcome('https://api.sorrix.example/v1/payments'), /^refused/, 'production is not reachable from the docs');
      assert.match(await outcome('https://attacker.example.test/steal'), /^refused/);
      const reported = await violations(page);
      assert.ok(reported.some((v) => v.startsWith('connect-src https://api.sorrix.example')), reported.join('\n'));
    } finally {
      await browser.context.unroute('https://*.sorrix.example/**');
      await page.close();
    }
  });

  it('does not run an inline script an attacker injects into a page', async () => {
    const page = await open('/docs/api/pagamento');
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
    });
    assert.equal(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected), undefined);
    assert.ok((await violations(page)).some((v) => v.startsWith('script-src-elem inline')));
    await page.close();
  });

  it('cannot be framed by another site', async () => {
    const page = await browser.newPage();
    const attacker = 'https://attacker.example.test/';
    await page.route(attacker, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<iframe src="${server.url}/docs/api/pagamento"></iframe>` }));
    await page.goto(attacker, { waitUntil: 'load' });
    const frame = page.frames()[1];
    assert.ok(frame, 'the iframe exists');
    assert.doesNotMatch(frame.url(), /\/docs\/api\/pagamento/, `the browser refused the page in the frame (${frame.url()})`);
    // Chromium's error page has a #main-content of its own: look for the site's navbar.
    assert.equal(await frame.evaluate(() => document.querySelector('.navbar') !== null), false, 'the page is not shown in the frame');
    await page.close();
  });
});
