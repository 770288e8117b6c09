/**
 * The README's deployment recipe, proven: Debian's nginx runs deploy/nginx.conf on a
 * loopback port over the built site, and every routing rule of `docsgen serve` gives the
 * same status, body and headers there.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../cli/serve.ts';
import { builtSite, repoRoot } from './helpers/site.ts';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(base: string, pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: pathname, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout on ${pathname}`)));
    req.end();
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not listen on ${port} within ${timeoutMs} ms`);
}

describe('deployment with nginx (deploy/nginx.conf)', () => {
  let prefix: string;
  let nginx: ChildProcess | undefined;
  let nginxUrl: string;
  let docsgen: RunningServer;
  let dist: string;
  let nginxLog = '';

  before(async () => {
    assert.ok(NGINX, 'nginx is not installed: run test/setup/ensure-system-deps.sh (npm test does it for you)');
    dist = await builtSite();
    prefix = await mkdtemp(path.join(os.tmpdir(), 'docsgen-nginx-'));
    const port = await freePort();
    const serverBlock = (await readFile(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8'))
      .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
      .replace(/root [^;]+;/, `root ${dist};`);
    const withBrotli = existsSync(BROTLI_MODULE);
    const conf = [
      // Workers must read a build that lives in a private temp folder of this user.
      process.getuid?.() === 0 ? 'user root;' : '',
      withBrotli ? `load_module ${BROTLI_MODULE};` : '',
      'worker_processes 1;',
      `pid ${prefix}/nginx.pid;`,
      `error_log ${prefix}/error.log warn;`,
      'events { worker_connections 64; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      '  default_type application/octet-stream;',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${prefix}/${t};`),
      withBrotli ? serverBlock : serverBlock.replace(/^\s*brotli.*$/gm, ''),
      '}',
    ].join('\n');
    await writeFile(path.join(prefix, 'nginx.conf'), conf);
    nginx = spawn(NGINX!, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr?.on('data', (d: Buffer) => (nginxLog += d.toString()));
    await waitForPort(port, 10_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${nginxLog}`);
    });
    nginxUrl = `http://127.0.0.1:${port}`;
    docsgen = await startServer({ dir: dist, port: 0, host: '127.0.0.1' });
  });

  after(async () => {
    nginx?.kill('SIGQUIT');
    await docsgen?.close();
    if (prefix) await rm(prefix, { recursive: true, force: true });
  });

  it('answers /x, /x/, /x.html and /x/index.html with the same page, as docsgen serve does', async () => {
    for (const route of ['/docs/api/pagamento', '/blog', '/api-reference']) {
      const expected = await request(docsgen.url, route);
      for (const alias of [route, `${route}/`, `${route}.html`, `${route}/index.html`]) {
        const reply = await request(nginxUrl, alias);
        assert.equal(reply.status, 200, `${alias}: ${reply.status}`);
        assert.ok(reply.body.equals(expected.body), `${alias} gives the page`);
        assert.match(String(reply.headers['content-type']), /^text\/html; charset=utf-8/);
      }
    }
    const home = await request(nginxUrl, '/');
    assert.ok(home.body.equals(await readFile(path.join(dist, 'index.html'))));
  });

  it('serves 404.html with status 404 for unknown paths, and refuses dotfiles and traversal', async () => {
    const notFound = await readFile(path.join(dist, '404.html'));
    for (const p of ['/no/such/page', '/docs/api/pagamentos', '/.git/config']) {
      const reply = await request(nginxUrl, p);
      assert.equal(reply.status, 404, p);
      assert.ok(reply.body.equals(notFound), `${p} shows the not-found page`);
      assert.equal((await request(docsgen.url, p)).status, 404, `docsgen serve agrees on ${p}`);
    }
    for (const p of ['/../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd']) {
      const reply = await request(nginxUrl, p);
      assert.ok(reply.status >= 400, `${p} refused`);
      assert.doesNotMatch(reply.body.toString(), /root:x:0:0/);
    }
  });

  it('caches hashed assets for a year and revalidates everything else, like docsgen serve', async () => {
    const assets = await readdir(path.join(dist, 'assets'));
    const js = assets.find((f) => /^main-.*\.js$/.test(f))!;
    for (const p of [`/assets/${js}`, '/docs/api/pagamento', '/sitemap.xml']) {
      const [a, b] = await Promise.all([request(nginxUrl, p), request(docsgen.url, p)]);
      assert.equal(a.headers['cache-control'], b.headers['cache-control'], `${p}: Cache-Control`);
      assert.equal(a.headers['x-content-type-options'], 'nosniff');
    }
    assert.equal((await request(nginxUrl, `/assets/${js}`)).headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String((await request(nginxUrl, '/openapi/payment.yaml')).headers['content-type']), /^application\/yaml/);
  });

  it('answers conditional GETs with 304 and compresses text with gzip (and brotli where installed)', async () => {
    const first = await request(nginxUrl, '/docs/api/pagamento');
    assert.ok(first.headers.etag, 'an ETag');
    const again = await request(nginxUrl, '/docs/api/pagamento', { 'If-None-Match': String(first.headers.etag) });
    assert.equal(again.status, 304);
    const gz = await request(nginxUrl, '/docs/api/pagamento', { 'Accept-Encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(zlib.gunzipSync(gz.body).equals(first.body));
    assert.match(String(gz.headers.vary), /Accept-Encoding/);
    if (existsSync(BROTLI_MODULE)) {
      const br = await request(nginxUrl, '/docs/api/pagamento', { 'Accept-Encoding': 'br' });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.ok(zlib.brotliDecompressSync(br.body).equals(first.body));
    }
    const head = await request(nginxUrl, '/docs/api/pagamento', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
  });
});
