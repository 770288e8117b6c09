/** Unit tests of the security headers stage: the policy follows what the pages and the API documents hold. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { LoadedApiDocument } from '../../../cli/stages/openapi.ts';
import type { RenderedPage } from '../../../cli/stages/render.ts';
import { HEADERS_JSON, HEADERS_NGINX, securityHeaderFiles, securityHeaders } from '../../../cli/stages/security-headers.ts';

/** Only the fields the stage reads; the rest of a rendered page does not matter here. */
function page(route: string, html: string): RenderedPage {
  return { route, kind: 'doc', title: route, description: '', html, sourceLinks: [], indexable: true } as unknown as RenderedPage;
}

/** Only `servers` and `document`, the fields the stage reads. */
function api(document: Record<string, unknown>): LoadedApiDocument {
  const servers = (document.servers as { url: string; description: string }[] | undefined) ?? [];
  return { id: 'x', servers, document } as unknown as LoadedApiDocument;
}

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

describe('security headers', () => {
  it('hashes each distinct inline script once, and leaves out external and JSON scripts', () => {
    const theme = 'document.documentElement.dataset.theme="dark"';
    const other = 'console.log(1 < 2 && "</p>")';
    const headers = securityHeaders({
      pages: [
        page('/', `<html><head><script>${theme}</script><script type="module" src="/assets/main.js"></script><script id="m" type="application/json">{"a":1}</script></head><body><script>${other}</script></body></html>`),
        page('/b', `<html><head><script>${theme}</script></head><body></body></html>`),
      ],
      apis: [],
    });
    const policy = directives(headers['Content-Security-Policy']!);
    assert.deepEqual(policy.get('script-src'), ["'self'", ...[sha(theme), sha(other)].sort()]);
    assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(policy.get('object-src'), ["'none'"]);
    assert.equal(headers['X-Frame-Options'], 'DENY');
    assert.equal(headers['Referrer-Policy'], 'strict-origin-when-cross-origin');
    assert.equal(headers['X-Content-Type-Options'], 'nosniff');
  });

  it('lets try-it reach the sandbox server at every level a document declares servers, and no production server', () => {
    const document = {
      servers: [
        { url: 'https://api.example.test/v1', description: 'Production' },
        { url: 'https://sandbox.example.test/v1', description: 'Sandbox' },
      ],
      paths: {
        '/token': {
          post: {
            servers: [
              { url: 'https://auth.example.test', description: 'Production' },
              { url: 'https://auth-sbx.example.test', description: 'Sandbox' },
            ],
          },
        },
        '/items': { servers: [{ url: 'https://items.example.test:8443/base', description: 'Only one' }], get: {} },
        '/relative': { servers: [{ url: '/v2', description: 'Same host' }] },
      },
    };
    // The config names the sandbox by its description, as it does for try-it and the request samples.
    const policy = directives(securityHeaders({ pages: [], apis: [api(document)], sandboxOf: () => 'Sandbox' })['Content-Security-Policy']!);
    assert.deepEqual(policy.get('connect-src'), ["'self'", 'https://auth-sbx.example.test', 'https://items.example.test:8443', 'https://sandbox.example.test']);
    // Without that setting try-it calls the first server listed, and the policy follows it.
    const unset = directives(securityHeaders({ pages: [], apis: [api(document)] })['Content-Security-Policy']!);
    assert.deepEqual(unset.get('connect-src'), ["'self'", 'https://api.example.test', 'https://auth.example.test', 'https://items.example.test:8443']);
  });

  it('allows what the pages load from other hosts, by the directive that governs it', () => {
    const html = [
      '<img src="https://img.example.test/a.png" srcset="https://cdn.example.test/a-2x.png 2x, /local.png 1x">',
      '<video src="https://media.example.test/v.mp4" poster="//posters.example.test/p.jpg"></video>',
      '<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>',
      '<img src="/img/logo.svg"><a href="https://elsewhere.example.test/">a link loads nothing</a>',
    ].join('');
    const policy = directives(securityHeaders({ pages: [page('/', html)], apis: [] })['Content-Security-Policy']!);
    assert.deepEqual(policy.get('img-src'), ["'self'", 'data:', 'https://cdn.example.test', 'https://img.example.test', 'https://posters.example.test']);
    assert.deepEqual(policy.get('media-src'), ["'self'", 'https://media.example.test']);
    assert.deepEqual(policy.get('frame-src'), ["'self'", 'https://www.youtube-nocookie.com']);
    assert.deepEqual(policy.get('connect-src'), ["'self'"]);
  });

  it('writes the same headers as JSON for docsgen serve and as add_header lines for nginx', () => {
    const headers = securityHeaders({ pages: [page('/', '<script>x()</script>')], apis: [] });
    const files = new Map(securityHeaderFiles(headers).map((f) => [f.path, new TextDecoder().decode(f.contents)]));
    assert.deepEqual(JSON.parse(files.get(HEADERS_JSON)!), headers);
    const nginx = files.get(HEADERS_NGINX)!;
    for (const [name, value] of Object.entries(headers)) assert.ok(nginx.includes(`add_header ${name} "${value}" always;`), name);
    assert.ok(HEADERS_JSON.startsWith('.') && HEADERS_NGINX.startsWith('.'), 'in a dot folder, which neither server publishes');
  });
});
