/** The crawl thread's fetch: what linkinator reads of a response, as the built-in fetch gives it. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { crawlFetch, type CrawlResponse } from '../../../cli/stages/crawl-fetch.ts';

describe('crawl fetch', () => {
  let server: http.Server;
  let origin: string;
  const seen: string[] = [];
  let connections = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url === '/old') return res.writeHead(301, { location: '/page' }).end('moved');
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/not-modified') return res.writeHead(304, { location: '/page' }).end();
      if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<a href="/x">x</a>');
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const unused: typeof fetch = () => assert.fail('the built-in fetch is not used for the loopback server');
  const get = (path: string, init?: Parameters<ReturnType<typeof crawlFetch>>[1]) => crawlFetch(unused)(`${origin}${path}`, init) as Promise<CrawlResponse>;

  it('gives the status, the headers and the body as a Node stream', async () => {
    const response = await get('/page', { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(response.url, `${origin}/page`);
    assert.ok(response.body && typeof response.body.pipe === 'function', 'linkinator pipes a Node stream as it is');
    assert.equal(await text(response.body), '<a href="/x">x</a>');
  });

  it('gives no body for HEAD, and the status of a missing file', async () => {
    const response = await get('/nope', { method: 'HEAD' });
    assert.equal(response.status, 404);
    assert.equal(response.body, null);
  });

  it('keeps the connection open after HEAD requests, which the crawl sends for every file it does not parse', async () => {
    const before = connections;
    for (let i = 0; i < 5; i++) await get('/page', { method: 'HEAD' });
    await text((await get('/page')).body!);
    assert.ok(connections - before <= 1, `six requests in a row took ${connections - before} connections`);
  });

  it('follows a redirect as fetch does, and returns it as it is with redirect: "manual"', async () => {
    const followed = await get('/old');
    assert.equal(followed.status, 200);
    assert.equal(followed.url, `${origin}/page`);
    assert.equal((await get('/not-modified')).status, 304, 'a status fetch does not follow is returned as it is');
    const manual = await get('/old', { redirect: 'manual' });
    assert.equal(manual.status, 301);
    assert.equal(manual.headers.get('location'), '/page');
  });

  it('fails as fetch does on a redirect loop and on a server that is not there', async () => {
    await assert.rejects(get('/loop'), /more than 20 redirects/);
    await assert.rejects(crawlFetch(unused)('http://127.0.0.1:1/'), 'nothing listens on port 1');
  });

  it('hands every other URL to the built-in fetch', async () => {
    const asked: string[] = [];
    const fallback = ((url: URL) => (asked.push(url.href), Promise.resolve(new Response('ok')))) as unknown as typeof fetch;
    const response = await crawlFetch(fallback)('https://example.test/page', { method: 'HEAD' });
    assert.ok(response instanceof Response);
    assert.deepEqual(asked, ['https://example.test/page']);
  });
});
