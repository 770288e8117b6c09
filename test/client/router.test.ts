/** Which links the client router takes over, and when it prefetches. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DATA } from '../../templates/shared/index.ts';
import { installDom } from './dom.ts';

// The router reads the page's address when it loads: the page exists first.
const window = installDom({ after }, '', 'https://docs.example/docs/intro');
const { prefetchAllowed, routableUrl } = await import('../../templates/client/router.ts');

function anchor(html: string): HTMLAnchorElement {
  window.document.body.innerHTML = html;
  return window.document.querySelector('a') as unknown as HTMLAnchorElement;
}

describe('router (client)', () => {
  it('takes over links to pages of the same site, with their query and hash', () => {
    for (const href of ['/docs/guia', 'guia/primeiro', '/docs/guia.html', '/docs/guia?x=1#passo', 'https://docs.example/blog', '#secao']) {
      const url = routableUrl(anchor(`<a href="${href}">x</a>`));
      assert.ok(url, `${href} is routed`);
      assert.equal(url.href, new URL(href, 'https://docs.example/docs/intro').href);
    }
  });

  it("leaves links inside an island to the island (Elements' own routes look like pages of the site)", () => {
    assert.equal(routableUrl(anchor(`<div ${DATA.island}="api-reference"><dialog><a href="/operations/createPayment">x</a></dialog></div>`)), null);
  });

  it('leaves to the browser: other origins and schemes, new windows, downloads, files, API downloads and assets, and opted-out links', () => {
    const cases = [
      '<a href="https://other.example/docs">x</a>',
      '<a href="http://docs.example:8080/docs">x</a>',
      '<a href="mailto:dev@docs.example">x</a>',
      '<a href="/docs/guia" target="_blank">x</a>',
      '<a href="/docs/guia" download>x</a>',
      `<a href="/docs/guia" ${DATA.reload}>x</a>`,
      '<a href="/openapi/payment.yaml">x</a>',
      '<a href="/assets/main-ABC.js">x</a>',
      '<a href="/files/guia.pdf">x</a>',
    ];
    for (const html of cases) assert.equal(routableUrl(anchor(html)), null, html);
    assert.ok(routableUrl(anchor('<a href="/docs/guia" target="_self">x</a>')), 'target=_self is this window');
  });

  it('prefetches unless the connection asks to save data or is 2G', () => {
    const navigator = window.navigator as unknown as { connection?: unknown };
    const original = Object.getOwnPropertyDescriptor(navigator, 'connection');
    try {
      assert.equal(prefetchAllowed(), true, 'no connection information');
      for (const [connection, allowed] of [
        [{ saveData: false, effectiveType: '4g' }, true],
        [{ saveData: true, effectiveType: '4g' }, false],
        [{ saveData: false, effectiveType: 'slow-2g' }, false],
        [{ saveData: false, effectiveType: '2g' }, false],
      ] as const) {
        Object.defineProperty(navigator, 'connection', { value: connection, configurable: true });
        assert.equal(prefetchAllowed(), allowed, JSON.stringify(connection));
      }
    } finally {
      if (original) Object.defineProperty(navigator, 'connection', original);
      else delete navigator.connection;
    }
  });
});
