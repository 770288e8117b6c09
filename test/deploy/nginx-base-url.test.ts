/**
 * The README's recipe for a site under a base URL, proven: nginx running deploy/nginx.conf
 * changed as the README says, over a site built with `baseUrl: '/portal/'` deployed in a
 * folder of that name, answers as `docsgen serve` does over the same build.
 */
import assert from 'node:assert/strict';
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from '../../cli/build.ts';
import { loadConfig } from '../../cli/config.ts';
import { createLogger } from '../../cli/log.ts';
import { startServer, type RunningServer } from '../../cli/serve.ts';
import { makeSite } from '../helpers/fixtures.ts';
import { startNginx, type RunningNginx } from '../helpers/nginx.ts';
import { createCleanup } from '../helpers/temp.ts';

describe('deployment under a base URL with nginx', () => {
  const cleanup = createCleanup();
  let nginx: RunningNginx | undefined;
  let docsgen: RunningServer | undefined;
  let deployed = '';

  before(async () => {
    const site = await makeSite(cleanup, 'base-url');
    const dist = path.join(site, 'dist');
    await build(await loadConfig(site), { outDir: dist, logger: createLogger({ level: 'quiet' }), skipCrawl: true, cache: false });
    deployed = path.join(site, 'www', 'portal');
    await cp(dist, deployed, { recursive: true, preserveTimestamps: true });
    nginx = await startNginx(deployed, { baseUrl: '/portal/' });
    docsgen = await startServer({ dir: dist, port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await nginx?.stop();
    await docsgen?.close();
    await cleanup.run();
  });

  const get = (base: string, p: string) => fetch(base + p, { redirect: 'manual', headers: { 'accept-encoding': 'identity' } });

  it('serves the pages, assets and 404 page under /portal/ as docsgen serve does', async () => {
    const page = await readFile(path.join(deployed, 'docs/intro.html'), 'utf8');
    const stylesheet = /href="(\/portal\/assets\/styles-[^"]+)"/.exec(page)?.[1];
    assert.ok(stylesheet);
    for (const p of ['/portal/', '/portal/docs/intro', '/portal/docs/intro/', '/portal/docs/intro.html', '/portal/sitemap.xml', '/portal/img/logo.svg', stylesheet, '/portal/docs/nope', '/docs/intro', '/portal/.docsgen/headers.json']) {
      const [fromNginx, fromServe] = await Promise.all([get(nginx!.url, p), get(docsgen!.url, p)]);
      assert.equal(fromNginx.status, fromServe.status, `${p}: nginx ${fromNginx.status}, docsgen serve ${fromServe.status}`);
      assert.equal(await fromNginx.text(), await fromServe.text(), `${p}: the same body`);
      assert.equal(fromNginx.headers.get('content-security-policy'), fromServe.headers.get('content-security-policy'), `${p}: the same policy`);
      assert.equal(fromNginx.headers.get('cache-control'), fromServe.headers.get('cache-control'), `${p}: the same caching`);
    }
    assert.equal((await get(nginx!.url, '/portal/docs/nope')).status, 404);
  });

  it("redirects the host's root to the site", async () => {
    const [fromNginx, fromServe] = await Promise.all([get(nginx!.url, '/'), get(docsgen!.url, '/')]);
    assert.equal(fromNginx.status, 302);
    assert.equal(fromServe.status, 302);
    assert.equal(new URL(fromNginx.headers.get('location') ?? '', nginx!.url).pathname, '/portal/');
    assert.equal(new URL(fromServe.headers.get('location') ?? '', docsgen!.url).pathname, '/portal/');
  });
});
