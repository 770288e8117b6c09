import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { DocsgenError } from '../../cli/errors.ts';
import { startServer, type RunningServer, type ServeOptions } from '../../cli/serve.ts';
import { brotliWindowBits, precompress } from '../../cli/stages/precompress.ts';
import { createLiveReload, ERRORS_PATH, EVENTS_PATH } from '../../cli/watch/live.ts';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Sends the path exactly as given (http.request does not normalise it) and never decompresses. */
function request(
  server: RunningServer,
  target: string,
  options: { method?: string; headers?: http.OutgoingHttpHeaders } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, path: target, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** For request targets http.request refuses to send (backslashes, spaces): writes the request line by hand. */
function rawRequest(server: RunningServer, target: string): Promise<{ status: number; text: string }> {
  return rawExchange(server, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
}

/** Sends `head` (request line and headers, with the blank line) byte for byte and reads the answer until the server closes. */
function rawExchange(server: RunningServer, head: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => {
      socket.write(head);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
    socket.on('error', reject);
  });
}

/** Long enough to pass the compression threshold. */
function page(title: string): string {
  const filler = Array.from({ length: 60 }, (_, i) => `<p>Parágrafo ${i} de ${title}: sem filas, sorria.</p>`).join('\n');
  return `<!doctype html>\n<html lang="pt-BR"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n${filler}\n</body></html>\n`;
}

const SECRET = 'TOP-SECRET-OUTSIDE-THE-SITE';
const PNG = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
const files: Record<string, string | Buffer> = {
  'index.html': page('Início'),
  'docs/intro.html': page('Introdução'),
  'docs/intro/index.html': page('Introdução'),
  'only-dir/index.html': page('Só pasta'),
  'only-file.html': page('Só arquivo'),
  '404.html': page('Página não encontrada'),
  'assets/main-7KQ2M4ZB.js': `export const sorria = () => ${JSON.stringify('x'.repeat(3000))};\n`,
  'assets/styles-ABCD1234.css': `body { color: #123; }\n${'.a { margin: 0 }\n'.repeat(200)}`,
  'assets/main-7KQ2M4ZB.js.map': JSON.stringify({ version: 3, sources: ['a.ts'], mappings: 'A'.repeat(2000) }),
  'sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<urlset>${'<url><loc>https://developers.sorrix.example/</loc></url>'.repeat(40)}</urlset>\n`,
  'robots.txt': 'User-agent: *\nAllow: /\n',
  'blog/rss.xml': `<?xml version="1.0"?><rss>${'<item/>'.repeat(10)}</rss>`,
  'openapi/payment.yaml': `openapi: 3.1.0\ninfo:\n  title: Pagamentos\n${'  x-note: sorria\n'.repeat(100)}`,
  'openapi/payment.json': JSON.stringify({ openapi: '3.1.0', info: { title: 'Pagamentos' } }),
  'assets/big-AAAA0000.js': Array.from({ length: 6000 }, (_, i) => `export const v${i} = ${(i * 7919) % 100003};\n`).join(''),
  'img/photo.png': PNG,
  'img/logo.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(60)}</svg>`,
  'favicon.ico': Buffer.from([0, 0, 1, 0, 1, 0]),
  'docs/intro.md': `# Introdução\n\n${'Sem filas: sorria e pague.\n'.repeat(60)}`,
  'llms.txt': '# Sorrix\n\n- [Introdução](/docs/intro.md)\n',
  '.env': `SECRET=${SECRET}`,
  '.git/config': `[core] ${SECRET}`,
};

let tmp: string;
let site: string;
const running: RunningServer[] = [];

async function start(options: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const server = await startServer({ dir: site, port: 0, host: '127.0.0.1', ...options });
  running.push(server);
  return server;
}

async function stopAll(): Promise<void> {
  await Promise.all(running.splice(0).map((server) => server.close()));
}

before(async () => {
  tmp = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'docsgen-serve-')));
  // The site sits inside a dot folder on purpose: only dotfiles below the site root are private.
  site = path.join(tmp, '.cache', 'dist');
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(site, rel);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(file, content);
  }
  await fsp.writeFile(path.join(tmp, 'secret.txt'), SECRET);
  await fsp.writeFile(path.join(tmp, '.cache', 'secret.txt'), SECRET);
  await fsp.mkdir(path.join(tmp, 'outside'));
  await fsp.writeFile(path.join(tmp, 'outside', 'secret.txt'), SECRET);
  await fsp.symlink(path.join(tmp, 'secret.txt'), path.join(site, 'leak.txt'));
  await fsp.symlink(path.join(tmp, 'outside'), path.join(site, 'outside-dir'));
  await fsp.symlink('../secret.txt', path.join(site, 'relative-leak.txt'));
  await fsp.symlink(path.join(tmp, 'secret.txt'), path.join(site, 'leak.html'));
  await fsp.symlink('robots.txt', path.join(site, 'alias.txt'));
  await fsp.symlink('.env', path.join(site, 'env-link'));
});

after(async () => {
  await stopAll();
  await fsp.rm(tmp, { recursive: true, force: true });
});

const read = (rel: string): Buffer => {
  const content = files[rel];
  assert.ok(content !== undefined, rel);
  return Buffer.from(content);
};

describe('routes', () => {
  let server: RunningServer;
  before(async () => {
    server = await start();
  });

  it('answers every spelling of a page with the same bytes', async () => {
    const expected = read('docs/intro.html');
    for (const target of ['/docs/intro', '/docs/intro/', '/docs/intro.html', '/docs/intro/index.html', '/docs/intro?ref=nav']) {
      const reply = await request(server, target);
      assert.equal(reply.status, 200, target);
      assert.equal(reply.headers['content-type'], 'text/html; charset=utf-8', target);
      assert.deepEqual(reply.body, expected, target);
    }
  });

  it('answers / and /index.html with the home page', async () => {
    for (const target of ['/', '/index.html', '/?q=1']) {
      const reply = await request(server, target);
      assert.equal(reply.status, 200, target);
      assert.deepEqual(reply.body, read('index.html'), target);
    }
  });

  it('finds a page written only as x/index.html or only as x.html', async () => {
    for (const target of ['/only-dir', '/only-dir/', '/only-dir.html', '/only-dir/index.html']) {
      const reply = await request(server, target);
      assert.equal(reply.status, 200, target);
      assert.deepEqual(reply.body, read('only-dir/index.html'), target);
    }
    for (const target of ['/only-file', '/only-file/', '/only-file.html', '/only-file/index.html']) {
      const reply = await request(server, target);
      assert.equal(reply.status, 200, target);
      assert.deepEqual(reply.body, read('only-file.html'), target);
    }
  });

  it('answers files as themselves with their MIME type and charset', async () => {
    const cases: Array<[string, string, string]> = [
      ['/sitemap.xml', 'sitemap.xml', 'application/xml; charset=utf-8'],
      ['/robots.txt', 'robots.txt', 'text/plain; charset=utf-8'],
      ['/blog/rss.xml', 'blog/rss.xml', 'application/xml; charset=utf-8'],
      ['/assets/main-7KQ2M4ZB.js', 'assets/main-7KQ2M4ZB.js', 'text/javascript; charset=utf-8'],
      ['/assets/main-7KQ2M4ZB.js.map', 'assets/main-7KQ2M4ZB.js.map', 'application/json; charset=utf-8'],
      ['/assets/styles-ABCD1234.css', 'assets/styles-ABCD1234.css', 'text/css; charset=utf-8'],
      ['/openapi/payment.yaml', 'openapi/payment.yaml', 'text/yaml; charset=utf-8'],
      ['/openapi/payment.json', 'openapi/payment.json', 'application/json; charset=utf-8'],
      ['/img/photo.png', 'img/photo.png', 'image/png'],
      ['/img/logo.svg', 'img/logo.svg', 'image/svg+xml; charset=utf-8'],
      ['/favicon.ico', 'favicon.ico', 'image/vnd.microsoft.icon'],
      ['/docs/intro.md', 'docs/intro.md', 'text/markdown; charset=utf-8'],
      ['/llms.txt', 'llms.txt', 'text/plain; charset=utf-8'],
    ];
    for (const [target, rel, type] of cases) {
      const reply = await request(server, target);
      assert.equal(reply.status, 200, target);
      assert.equal(reply.headers['content-type'], type, target);
      assert.equal(reply.headers['x-content-type-options'], 'nosniff', target);
      assert.deepEqual(reply.body, read(rel), target);
    }
  });

  it('answers unknown paths with the 404 page and status 404, with no single-page fallback', async () => {
    for (const target of ['/nope', '/docs/intro/extra', '/docs/nope.html', '/assets/main-XXXXXXXX.js', '/sitemap.xml/', '/img', '/img/']) {
      const reply = await request(server, target);
      assert.equal(reply.status, 404, target);
      assert.equal(reply.headers['content-type'], 'text/html; charset=utf-8', target);
      assert.equal(reply.headers['cache-control'], 'no-cache', target);
      assert.equal(reply.headers.etag, undefined, target);
      assert.deepEqual(reply.body, read('404.html'), target);
    }
  });

  it('answers a small plain 404 when the site has no 404.html', async () => {
    const bare = path.join(tmp, 'bare');
    await fsp.mkdir(bare, { recursive: true });
    await fsp.writeFile(path.join(bare, 'index.html'), '<!doctype html><title>x</title>');
    const plain = await start({ dir: bare });
    const reply = await request(plain, '/nope');
    assert.equal(reply.status, 404);
    assert.equal(reply.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(reply.body.toString(), /Not Found/);
  });
});

describe('methods and conditional requests', () => {
  let server: RunningServer;
  before(async () => {
    server = await start();
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const target of ['/docs/intro', '/robots.txt', '/assets/main-7KQ2M4ZB.js']) {
      const get = await request(server, target);
      const head = await request(server, target, { method: 'HEAD' });
      assert.equal(head.status, 200, target);
      assert.equal(head.body.length, 0, target);
      for (const name of ['content-type', 'content-length', 'etag', 'cache-control', 'last-modified']) {
        assert.equal(head.headers[name], get.headers[name], `${target} ${name}`);
      }
    }
    const missing = await request(server, '/nope', { method: 'HEAD' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.length, 0);
    assert.equal(Number(missing.headers['content-length']), read('404.html').length);
  });

  it('refuses other methods with 405 and an Allow header', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const reply = await request(server, '/docs/intro', { method });
      assert.equal(reply.status, 405, method);
      assert.equal(reply.headers.allow, 'GET, HEAD', method);
    }
  });

  it('sends ETag and Last-Modified and answers 304 to If-None-Match', async () => {
    for (const target of ['/docs/intro', '/robots.txt', '/assets/main-7KQ2M4ZB.js', '/img/photo.png']) {
      const first = await request(server, target);
      const etag = first.headers.etag;
      assert.ok(etag, `${target} has an ETag`);
      assert.ok(first.headers['last-modified'], `${target} has Last-Modified`);
      const again = await request(server, target, { headers: { 'If-None-Match': etag } });
      assert.equal(again.status, 304, target);
      assert.equal(again.body.length, 0, target);
      assert.equal(again.headers.etag, etag, target);
      const other = await request(server, target, { headers: { 'If-None-Match': 'W/"something-else"' } });
      assert.equal(other.status, 200, target);
    }
  });

  it('answers 304 to If-Modified-Since', async () => {
    for (const target of ['/docs/intro', '/sitemap.xml']) {
      const first = await request(server, target);
      const since = first.headers['last-modified'];
      assert.ok(since, target);
      const again = await request(server, target, { headers: { 'If-Modified-Since': since } });
      assert.equal(again.status, 304, target);
      const older = await request(server, target, { headers: { 'If-Modified-Since': new Date(0).toUTCString() } });
      assert.equal(older.status, 200, target);
    }
  });

  it('serves byte ranges of files that are never compressed, and whole bodies otherwise', async () => {
    const partial = await request(server, '/img/photo.png', { headers: { Range: 'bytes=10-19' } });
    assert.equal(partial.status, 206);
    assert.equal(partial.headers['content-range'], `bytes 10-19/${PNG.length}`);
    assert.deepEqual(partial.body, PNG.subarray(10, 20));

    const unsatisfiable = await request(server, '/img/photo.png', { headers: { Range: 'bytes=9999-' } });
    assert.equal(unsatisfiable.status, 416);
    assert.equal(unsatisfiable.headers['content-range'], `bytes */${PNG.length}`);

    const text = await request(server, '/assets/main-7KQ2M4ZB.js', { headers: { Range: 'bytes=0-9', 'Accept-Encoding': 'gzip' } });
    assert.equal(text.status, 200);
    assert.deepEqual(zlib.gunzipSync(text.body), read('assets/main-7KQ2M4ZB.js'));
  });
});

describe('compression', () => {
  let server: RunningServer;
  before(async () => {
    server = await start();
  });

  const decoders: Record<string, (body: Buffer) => Buffer> = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync };

  it('sends br and gzip bodies that decode to the original, with Vary', async () => {
    const targets: Array<[string, string]> = [
      ['/docs/intro', 'docs/intro.html'],
      ['/assets/main-7KQ2M4ZB.js', 'assets/main-7KQ2M4ZB.js'],
      ['/assets/styles-ABCD1234.css', 'assets/styles-ABCD1234.css'],
      ['/sitemap.xml', 'sitemap.xml'],
      ['/openapi/payment.yaml', 'openapi/payment.yaml'],
      ['/img/logo.svg', 'img/logo.svg'],
      ['/assets/main-7KQ2M4ZB.js.map', 'assets/main-7KQ2M4ZB.js.map'],
      ['/assets/big-AAAA0000.js', 'assets/big-AAAA0000.js'],
      ['/nope', '404.html'],
    ];
    for (const [target, rel] of targets) {
      for (const encoding of ['br', 'gzip'] as const) {
        const reply = await request(server, target, { headers: { 'Accept-Encoding': encoding } });
        assert.equal(reply.headers['content-encoding'], encoding, `${target} ${encoding}`);
        assert.match(String(reply.headers.vary), /Accept-Encoding/i, target);
        assert.equal(reply.headers['content-length'], undefined, target);
        assert.deepEqual(decoders[encoding]!(reply.body), read(rel), `${target} ${encoding}`);
      }
    }
  });

  it('prefers br when both are accepted, and sends identity when neither is', async () => {
    const both = await request(server, '/docs/intro', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    assert.equal(both.headers['content-encoding'], 'br');
    const none = await request(server, '/docs/intro');
    assert.equal(none.headers['content-encoding'], undefined);
    assert.deepEqual(none.body, read('docs/intro.html'));
    const refused = await request(server, '/docs/intro', { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(refused.headers['content-encoding'], undefined);
  });

  it('leaves tiny bodies and already compressed types alone', async () => {
    for (const target of ['/robots.txt', '/img/photo.png', '/favicon.ico']) {
      const reply = await request(server, target, { headers: { 'Accept-Encoding': 'br, gzip' } });
      assert.equal(reply.status, 200, target);
      assert.equal(reply.headers['content-encoding'], undefined, target);
      assert.deepEqual(reply.body, read(target.slice(1)), target);
    }
    const png = await request(server, '/img/photo.png', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(png.headers.vary, undefined);
  });

  it('keeps one ETag across encodings, so a compressed copy revalidates with 304 and Vary', async () => {
    for (const target of ['/docs/intro', '/assets/main-7KQ2M4ZB.js']) {
      const plain = await request(server, target);
      const br = await request(server, target, { headers: { 'Accept-Encoding': 'br' } });
      assert.ok(br.headers.etag?.startsWith('W/'), `${target} weak ETag: ${br.headers.etag}`);
      assert.equal(br.headers.etag, plain.headers.etag, target);
      const revalidated = await request(server, target, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) } });
      assert.equal(revalidated.status, 304, target);
      assert.equal(revalidated.headers['content-encoding'], undefined, target);
      assert.match(String(revalidated.headers.vary), /Accept-Encoding/i, target);
      assert.equal(revalidated.body.length, 0, target);
    }
  });

  it('sends HEAD without a body when compression would apply', async () => {
    const head = await request(server, '/docs/intro', { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.match(String(head.headers.vary), /Accept-Encoding/i);
  });
});

describe('caching', () => {
  let server: RunningServer;
  before(async () => {
    server = await start();
  });

  it('marks hashed assets immutable and everything else no-cache', async () => {
    const immutable = 'public, max-age=31536000, immutable';
    const cases: Array<[string, string]> = [
      ['/assets/main-7KQ2M4ZB.js', immutable],
      ['/assets/styles-ABCD1234.css', immutable],
      ['/assets/main-7KQ2M4ZB.js.map', immutable],
      ['/', 'no-cache'],
      ['/docs/intro', 'no-cache'],
      ['/sitemap.xml', 'no-cache'],
      ['/img/photo.png', 'no-cache'],
      ['/favicon.ico', 'no-cache'],
      ['/assets/missing-ZZZZ0000.js', 'no-cache'],
    ];
    for (const [target, expected] of cases) {
      const reply = await request(server, target);
      assert.equal(reply.headers['cache-control'], expected, target);
    }
    const revalidated = await request(server, '/assets/main-7KQ2M4ZB.js', {
      headers: { 'If-None-Match': String((await request(server, '/assets/main-7KQ2M4ZB.js')).headers.etag) },
    });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers['cache-control'], immutable);
  });
});

describe('path safety', () => {
  let server: RunningServer;
  before(async () => {
    server = await start();
  });

  const refusedWith404 = [
    '/../secret.txt',
    '/../../../../etc/passwd',
    '/..%2fsecret.txt',
    '/..%2Fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/%2E%2E%2F%2E%2E%2Fetc/passwd',
    '/.%2e/secret.txt',
    '/%2e./secret.txt',
    '/docs/..%2f..%2f..%2fetc/passwd',
    '/docs/%2e%2e/%2e%2e/secret.txt',
    '/docs/../../secret.txt',
    '/..%5csecret.txt',
    '/%5c..%5csecret.txt',
    '/docs%2fintro',
    '//etc/passwd',
    '/docs//intro',
    '/./index.html',
    '/.env',
    '/%2eenv',
    '/.git/config',
    '/docs/.git/config',
    '/leak.txt',
    '/relative-leak.txt',
    '/leak.html',
    '/leak',
    '/outside-dir/secret.txt',
    '/env-link',
  ];
  const refusedWith400 = ['/robots.txt%00', '/%00', '/robots.txt%00.html', '/%', '/%zz', '/docs/%e0%a4%a', '/%c0%ae%c0%ae/secret.txt', '/%ff'];

  it('refuses every spelling of a climb out of the folder, dotfiles and symlinks that leave it', async () => {
    for (const target of refusedWith404) {
      const reply = await request(server, target);
      assert.equal(reply.status, 404, target);
      assert.ok(!reply.body.includes(SECRET), `${target} leaked the secret`);
      assert.ok(!reply.body.includes('root:'), `${target} leaked /etc/passwd`);
    }
  });

  it('answers 400 to malformed percent-encoding and NUL bytes', async () => {
    for (const target of refusedWith400) {
      const reply = await request(server, target);
      assert.equal(reply.status, 400, target);
      assert.ok(!reply.body.includes(SECRET), target);
    }
  });

  it('refuses raw backslashes that http.request would not send', async () => {
    for (const target of ['/..\\secret.txt', '/docs\\..\\..\\secret.txt', '/\\..\\secret.txt']) {
      const reply = await rawRequest(server, target);
      assert.equal(reply.status, 404, target);
      assert.ok(!reply.text.includes(SECRET), target);
    }
  });

  it('still follows symlinks that stay inside the folder', async () => {
    const reply = await request(server, '/alias.txt');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, read('robots.txt'));
  });
});

describe('hooks', () => {
  afterEach(stopAll);

  it('applies transformHtml to pages and the 404 page, and hashes and compresses the result', async () => {
    const seen: string[] = [];
    const server = await start({
      transformHtml: (html, pathname) => {
        seen.push(pathname);
        return html.replace('</body>', `<script data-reload="${pathname}"></script></body>`);
      },
    });
    const plainServer = await start();

    const reply = await request(server, '/docs/intro/');
    const transformed = read('docs/intro.html').toString().replace('</body>', '<script data-reload="/docs/intro/"></script></body>');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.toString(), transformed);
    assert.equal(Number(reply.headers['content-length']), Buffer.byteLength(transformed));
    assert.equal(reply.headers['last-modified'], undefined, 'the file date does not validate a transformed body');
    assert.deepEqual(seen, ['/docs/intro/']);

    const original = await request(plainServer, '/docs/intro/');
    assert.notEqual(reply.headers.etag, original.headers.etag, 'the ETag follows the transformed body');
    const stale = await request(server, '/docs/intro/', { headers: { 'If-None-Match': String(original.headers.etag) } });
    assert.equal(stale.status, 200);
    const fresh = await request(server, '/docs/intro/', { headers: { 'If-None-Match': String(reply.headers.etag) } });
    assert.equal(fresh.status, 304);

    const gzip = await request(server, '/docs/intro/', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(zlib.gunzipSync(gzip.body).toString(), transformed);

    const missing = await request(server, '/nope');
    assert.equal(missing.status, 404);
    assert.match(missing.body.toString(), /<script data-reload="\/nope"><\/script><\/body>/);

    const js = await request(server, '/assets/main-7KQ2M4ZB.js');
    assert.deepEqual(js.body, read('assets/main-7KQ2M4ZB.js'), 'only HTML is transformed');
  });

  it('consults the middleware first, for any method, and falls through when it declines', async () => {
    const server = await start({
      middleware: async (req, res) => {
        await new Promise((resolve) => setImmediate(resolve));
        if (req.url === '/__reload' || req.headers['x-intercept'] === '1') {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end(`middleware ${req.method}`);
          return true;
        }
        if (req.url === '/__boom') throw new Error('middleware failed on purpose');
        return false;
      },
    });
    const reload = await request(server, '/__reload', { method: 'POST' });
    assert.equal(reload.status, 200);
    assert.equal(reload.body.toString(), 'middleware POST');

    const intercepted = await request(server, '/docs/intro', { headers: { 'x-intercept': '1' } });
    assert.equal(intercepted.body.toString(), 'middleware GET');

    const through = await request(server, '/docs/intro');
    assert.deepEqual(through.body, read('docs/intro.html'));

    const originalWrite = process.stderr.write;
    const logged: string[] = [];
    process.stderr.write = ((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const boom = await request(server, '/__boom');
      assert.equal(boom.status, 500);
    } finally {
      process.stderr.write = originalWrite;
    }
    assert.match(logged.join(''), /GET \/__boom failed:[\s\S]*middleware failed on purpose/);
  });
});

describe('starting and stopping', () => {
  afterEach(stopAll);

  it('reports a port in use with the port, the host and a way out', async () => {
    const first = await start();
    await assert.rejects(start({ port: first.port }), (error: unknown) => {
      assert.ok(error instanceof DocsgenError);
      assert.equal(error.message, `Port ${first.port} on 127.0.0.1 is already in use.`);
      assert.equal(error.hint, `Stop the program using it, or pick another port: docsgen serve --port ${first.port + 1}`);
      return true;
    });
    const reply = await request(first, '/');
    assert.equal(reply.status, 200, 'the first server keeps serving');
  });

  it('says to build first when the folder is missing or has no index.html', async () => {
    await assert.rejects(start({ dir: path.join(tmp, 'no-such-dist') }), (error: unknown) => {
      assert.ok(error instanceof DocsgenError);
      assert.match(error.message, /no-such-dist.*does not exist/);
      assert.match(error.hint ?? '', /Run docsgen build first/);
      return true;
    });
    const empty = path.join(tmp, 'empty-dist');
    await fsp.mkdir(empty, { recursive: true });
    await fsp.writeFile(path.join(empty, '404.html'), 'x');
    await assert.rejects(start({ dir: empty }), (error: unknown) => {
      assert.ok(error instanceof DocsgenError);
      assert.match(error.message, /empty-dist.*no index\.html/);
      assert.match(error.hint ?? '', /Run docsgen build first/);
      return true;
    });
  });

  // Hangs, not durations, are what these two guard against: the timeout only ends a test that would never finish.
  it('gives its URL and stops accepting connections on close, ending an idle keep-alive connection', { timeout: 60_000 }, async () => {
    const server = await start();
    assert.equal(server.url, `http://127.0.0.1:${server.port}`);
    const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    const socketClosed = await new Promise<Promise<void>>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.port, path: '/', agent }, (res) => {
        const closed = new Promise<void>((done) => res.socket.once('close', () => done()));
        res.resume();
        res.on('end', () => resolve(closed));
      }).on('error', reject);
    });
    await server.close();
    await server.close();
    // The idle connection is ended by close() itself, not left to the client or a timeout.
    await socketClosed;
    agent.destroy();
    await assert.rejects(request(server, '/'), /ECONNREFUSED/);
  });

  it('closes even while a response is still streaming (a live-reload event stream), ending the stream', { timeout: 60_000 }, async () => {
    const server = await start({
      middleware: (req, res) => {
        if (req.url !== '/__events') return false;
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write(': open\n\n');
        return true;
      },
    });
    let streamEnded!: Promise<void>;
    await new Promise<void>((opened, reject) => {
      http.get({ host: '127.0.0.1', port: server.port, path: '/__events', agent: false }, (res) => {
        streamEnded = new Promise<void>((resolve) => res.on('close', resolve));
        res.once('data', () => opened());
        res.resume();
      }).on('error', reject);
    });
    await server.close();
    await streamEnded;
  });
});

describe('HTTP corners, answered as nginx answers them', () => {
  let server: RunningServer;
  before(async () => {
    server = await start();
  });

  const exchange = (requestLine: string, headers: string[]) => rawExchange(server, `${requestLine}\r\n${[...headers, 'Connection: close'].join('\r\n')}\r\n\r\n`);

  it('refuses an empty, repeated or malformed Host with 400, and HTTP/2.0 and later with 505', async () => {
    const badHosts: Array<[string, string[]]> = [
      ['empty', ['Host: ']],
      ['with a space', ['Host: a b']],
      ['repeated', ['Host: 127.0.0.1', 'Host: evil.example']],
      ['repeated alike', ['Host: 127.0.0.1', 'Host: 127.0.0.1']],
      ['with a slash', ['Host: a/b']],
      ['with ..', ['Host: ..']],
    ];
    for (const [what, headers] of badHosts) {
      const reply = await exchange('GET /docs/intro HTTP/1.1', headers);
      assert.equal(reply.status, 400, `Host ${what}`);
      assert.ok(!reply.text.includes('Introdução'), `Host ${what}: no page`);
    }
    for (const version of ['HTTP/2.0', 'HTTP/3.0']) {
      const reply = await exchange(`GET /docs/intro ${version}`, ['Host: 127.0.0.1']);
      assert.equal(reply.status, 505, version);
    }
  });

  it('answers well-formed requests: a host name with a port, and HTTP/1.0 without Host', async () => {
    assert.equal((await exchange('GET /docs/intro HTTP/1.1', [`Host: localhost:${server.port}`])).status, 200);
    assert.equal((await exchange('GET /docs/intro HTTP/1.1', ['Host: [::1]:8080'])).status, 200);
    assert.equal((await exchange('GET /docs/intro HTTP/1.0', [])).status, 200);
  });

  it('ignores an If-Modified-Since later than the clock (RFC 9110 13.1.3) and answers in full', async () => {
    const future = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
    for (const target of ['/docs/intro', '/sitemap.xml']) {
      const reply = await request(server, target, { headers: { 'If-Modified-Since': future } });
      assert.equal(reply.status, 200, target);
      assert.ok(reply.body.length > 0, target);
    }
  });

  it('answers If-Match and If-Unmodified-Since on pages as on files: 412 when they do not hold', async () => {
    for (const target of ['/docs/intro', '/sitemap.xml']) {
      const first = await request(server, target);
      const etag = String(first.headers.etag);
      const lastModified = Date.parse(String(first.headers['last-modified']));
      assert.equal((await request(server, target, { headers: { 'If-Match': '"someone-else"' } })).status, 412, `${target} If-Match other`);
      assert.equal((await request(server, target, { headers: { 'If-Match': etag } })).status, 200, `${target} If-Match own`);
      assert.equal((await request(server, target, { headers: { 'If-Match': '*' } })).status, 200, `${target} If-Match *`);
      const before = new Date(lastModified - 3600_000).toUTCString();
      const after = new Date(lastModified + 3600_000).toUTCString();
      assert.equal((await request(server, target, { headers: { 'If-Unmodified-Since': before } })).status, 412, `${target} changed since`);
      assert.equal((await request(server, target, { headers: { 'If-Unmodified-Since': after } })).status, 200, `${target} unchanged since`);
    }
  });

  it('answers a request for several ranges with the whole file (documented: nginx sends multipart/byteranges)', async () => {
    const reply = await request(server, '/img/photo.png', { headers: { Range: 'bytes=0-4,10-14' } });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, PNG);
  });
});

describe('security headers', () => {
  afterEach(stopAll);

  const baseline = {
    'content-security-policy': "frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
  };

  it('sends the baseline on every kind of answer when the site has no headers file', async () => {
    const server = await start();
    const answers = [
      await request(server, '/docs/intro'),
      await request(server, '/assets/main-7KQ2M4ZB.js'),
      await request(server, '/nope'),
      await request(server, '/%zz'),
      await request(server, '/docs/intro', { method: 'POST' }),
      await request(server, '/docs/intro', { headers: { 'If-None-Match': String((await request(server, '/docs/intro')).headers.etag) } }),
      await request(server, '/img/photo.png', { headers: { Range: 'bytes=9999-' } }),
    ];
    for (const reply of answers) {
      for (const [name, value] of Object.entries(baseline)) assert.equal(reply.headers[name], value, `${reply.status}: ${name}`);
    }
  });

  it('sends the headers the build wrote, reads them again when they change, and never serves the file', async () => {
    const site2 = path.join(tmp, 'with-headers');
    await fsp.cp(site, site2, { recursive: true });
    const file = path.join(site2, '.docsgen', 'headers.json');
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const policy = "default-src 'self'; script-src 'self' 'sha256-abc'; frame-ancestors 'none'";
    await fsp.writeFile(file, JSON.stringify({ 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY' }));
    const server = await start({ dir: site2 });
    for (const target of ['/docs/intro', '/nope', '/img/photo.png', '/%zz']) {
      const reply = await request(server, target);
      assert.equal(reply.headers['content-security-policy'], policy, target);
      assert.equal(reply.headers['referrer-policy'], 'strict-origin-when-cross-origin', `${target}: the baseline fills in what the file leaves out`);
    }
    assert.equal((await request(server, '/.docsgen/headers.json')).status, 404);

    const rebuilt = "default-src 'self'; script-src 'self' 'sha256-def'; frame-ancestors 'none'";
    await fsp.writeFile(file, JSON.stringify({ 'Content-Security-Policy': rebuilt }));
    assert.equal((await request(server, '/docs/intro')).headers['content-security-policy'], rebuilt);
  });
});

describe('compressed copies written by the build', () => {
  let pre: string;
  let server: RunningServer;
  before(async () => {
    pre = path.join(tmp, 'precompressed');
    for (const rel of ['index.html', 'docs/intro.html', 'docs/intro.md', 'assets/big-AAAA0000.js', 'assets/main-7KQ2M4ZB.js', 'robots.txt', 'img/photo.png', '404.html']) {
      await fsp.mkdir(path.dirname(path.join(pre, rel)), { recursive: true });
      await fsp.writeFile(path.join(pre, rel), files[rel]!);
    }
    await fsp.mkdir(path.join(pre, '.docsgen'));
    await fsp.writeFile(path.join(pre, '.docsgen', 'notes.txt'), 'private '.repeat(500));
    await precompress(pre);
    server = await startServer({ dir: pre, port: 0, host: '127.0.0.1' });
    running.push(server);
  });

  it('writes a brotli and a gzip copy of each text file of 1 KiB or more, and nothing else', async () => {
    const listed = (await fsp.readdir(pre, { recursive: true })).map(String).filter((f) => /\.(br|gz)$/.test(f)).sort();
    const expected = ['404.html', 'assets/big-AAAA0000.js', 'assets/main-7KQ2M4ZB.js', 'docs/intro.html', 'docs/intro.md', 'index.html'].flatMap((f) => [`${f}.br`, `${f}.gz`]).sort();
    assert.deepEqual(listed, expected);
    for (const rel of ['docs/intro.html', 'assets/big-AAAA0000.js']) {
      assert.deepEqual(zlib.brotliDecompressSync(await fsp.readFile(path.join(pre, `${rel}.br`))), read(rel), rel);
      assert.deepEqual(zlib.gunzipSync(await fsp.readFile(path.join(pre, `${rel}.gz`))), read(rel), rel);
    }
    const big = read('assets/big-AAAA0000.js');
    const topQuality = zlib.brotliCompressSync(big, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: big.length, [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(big.length) } });
    assert.deepEqual(await fsp.readFile(path.join(pre, 'assets/big-AAAA0000.js.br')), topQuality, 'brotli at its highest quality');
  });

  it('sends the copy as it is, with its length, Vary and an ETag of its own', async () => {
    for (const [target, rel] of [['/docs/intro', 'docs/intro.html'], ['/', 'index.html'], ['/assets/big-AAAA0000.js', 'assets/big-AAAA0000.js'], ['/docs/intro.md', 'docs/intro.md']] as const) {
      const plainReply = await request(server, target);
      for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']] as const) {
        const reply = await request(server, target, { headers: { 'Accept-Encoding': `${encoding}, identity;q=0.5` } });
        assert.equal(reply.status, 200, `${target} ${encoding}`);
        assert.equal(reply.headers['content-encoding'], encoding, `${target} ${encoding}`);
        assert.deepEqual(reply.body, await fsp.readFile(path.join(pre, rel + suffix)), `${target} ${encoding}: the copy's bytes`);
        assert.equal(Number(reply.headers['content-length']), reply.body.length, `${target} ${encoding}`);
        assert.match(String(reply.headers.vary), /Accept-Encoding/i, target);
        assert.equal(reply.headers['content-type'], plainReply.headers['content-type'], target);
        assert.equal(reply.headers['cache-control'], plainReply.headers['cache-control'], target);
        assert.notEqual(reply.headers.etag, plainReply.headers.etag, `${target} ${encoding}: another representation, another ETag`);
        const again = await request(server, target, { headers: { 'Accept-Encoding': encoding, 'If-None-Match': String(reply.headers.etag) } });
        assert.equal(again.status, 304, `${target} ${encoding}`);
        assert.match(String(again.headers.vary), /Accept-Encoding/i, target);
        const head = await request(server, target, { method: 'HEAD', headers: { 'Accept-Encoding': encoding } });
        assert.equal(head.body.length, 0);
        assert.equal(head.headers['content-length'], reply.headers['content-length']);
      }
    }
    const both = await request(server, '/docs/intro', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    assert.equal(both.headers['content-encoding'], 'br', 'br preferred');
    const gzipPreferred = await request(server, '/docs/intro', { headers: { 'Accept-Encoding': 'br;q=0.5, gzip' } });
    assert.equal(gzipPreferred.headers['content-encoding'], 'gzip', 'the client’s weights first');
  });

  it('serves byte ranges of a copy from the copy’s bytes', async () => {
    const copy = await fsp.readFile(path.join(pre, 'assets/big-AAAA0000.js.br'));
    const reply = await request(server, '/assets/big-AAAA0000.js', { headers: { 'Accept-Encoding': 'br', Range: 'bytes=5-14' } });
    assert.equal(reply.status, 206);
    assert.equal(reply.headers['content-encoding'], 'br');
    assert.equal(reply.headers['content-range'], `bytes 5-14/${copy.length}`);
    assert.deepEqual(reply.body, copy.subarray(5, 15));
  });

  it('ignores a copy older than its file (watch mode rewrites files and makes no copies) and compresses on the fly', async () => {
    const rel = 'assets/main-7KQ2M4ZB.js';
    const changed = `${read(rel).toString()}\n// changed after the build\n`;
    await fsp.writeFile(path.join(pre, rel), changed);
    const old = new Date(Date.now() - 60_000);
    await fsp.utimes(path.join(pre, `${rel}.br`), old, old);
    const reply = await request(server, `/${rel}`, { headers: { 'Accept-Encoding': 'br' } });
    assert.equal(reply.headers['content-encoding'], 'br');
    assert.equal(zlib.brotliDecompressSync(reply.body).toString(), changed);
  });

  it('compresses the rest on the fly as before: pages changed by transformHtml, the 404 page', async () => {
    const transformed = await startServer({ dir: pre, port: 0, host: '127.0.0.1', transformHtml: (html) => html.replace('</body>', '<script src="/live.js"></script></body>') });
    running.push(transformed);
    const page2 = await request(transformed, '/docs/intro', { headers: { 'Accept-Encoding': 'br' } });
    assert.equal(page2.headers['content-encoding'], 'br');
    assert.match(zlib.brotliDecompressSync(page2.body).toString(), /<script src="\/live\.js"><\/script><\/body>/);
    const missing = await request(server, '/nope', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(missing.status, 404);
    assert.deepEqual(zlib.gunzipSync(missing.body), read('404.html'));
  });
});

describe('live-reload endpoints and DNS rebinding', () => {
  afterEach(stopAll);

  it('answers the overlay and the event stream only to requests addressed to this server', async () => {
    const live = createLiveReload(Promise.resolve(''));
    const server = await start({ middleware: live.middleware, transformHtml: live.transformHtml });
    try {
      const ask = (target: string, host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port: server.port, path: target, headers: { Host: host }, agent: false }, (res) => {
            resolve(res.statusCode ?? 0);
            res.destroy();
          });
          req.on('error', reject);
        });
      for (const host of ['evil.example', `evil.example:${server.port}`, 'localhost', `localhost:${server.port + 1}`, `127.0.0.2:${server.port}`]) {
        assert.equal(await ask(ERRORS_PATH, host), 403, `errors with Host ${host}`);
        assert.equal(await ask(EVENTS_PATH, host), 403, `events with Host ${host}`);
      }
      for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `LOCALHOST:${server.port}`]) {
        assert.equal(await ask(ERRORS_PATH, host), 200, `errors with Host ${host}`);
        assert.equal(await ask(EVENTS_PATH, host), 200, `events with Host ${host}`);
      }
      assert.equal(await ask('/docs/intro', 'evil.example'), 200, 'the pages themselves are public');
    } finally {
      live.close();
    }
  });
});
