/**
 * A site built for a host path (`baseUrl: '/portal/'`, as Docusaurus's baseUrl): every
 * URL the build writes is under it while authors keep writing '/docs/x', the link checks
 * still catch a broken link, and `docsgen serve` serves the folder under that path.
 */
import assert from 'node:assert/strict';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { normalizeBaseUrl } from '../../cli/base-url.ts';
import { build } from '../../cli/build.ts';
import { loadConfig, type SiteConfig } from '../../cli/config.ts';
import { formatAnyError } from '../../cli/errors.ts';
import { htmlWithBaseUrl } from '../../cli/html-base-url.ts';
import { createLogger } from '../../cli/log.ts';
import { checkLinks } from '../../cli/stages/check-links.ts';
import { loadApiDocuments } from '../../cli/stages/openapi.ts';
import { verify } from '../../cli/stages/verify.ts';
import type { RenderedPage } from '../../cli/stages/render.ts';
import { startServer, type RunningServer } from '../../cli/serve.ts';
import { makeSite } from '../helpers/fixtures.ts';
import { repoRoot } from '../helpers/site.ts';
import { createCleanup, tempDir } from '../helpers/temp.ts';

const BASE = '/portal/';
const ORIGIN = 'https://minimal.example';
const quiet = () => createLogger({ level: 'quiet' });

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Every URL-valued attribute of a page, as [tag, attribute, value]. */
function urlAttributes(html: string): [string, string, string][] {
  const found: [string, string, string][] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      for (const [attribute, value] of Object.entries(attributes)) {
        if (['href', 'src', 'poster', 'action', 'data-sidebar-src', 'data-copy-page'].includes(attribute)) found.push([name, attribute, value]);
        if (attribute === 'srcset') for (const candidate of value.split(',')) found.push([name, attribute, candidate.trim().split(/\s+/)[0] ?? '']);
        if (name === 'meta' && attribute === 'content' && /^(og:url|og:image|twitter:image)$/.test(attributes.property ?? attributes.name ?? '')) found.push([name, attributes.property ?? '', value]);
      }
    },
  }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return found;
}

describe('baseUrl in the config', () => {
  it('is normalised to a leading and a trailing slash', () => {
    assert.deepEqual(normalizeBaseUrl('/'), { baseUrl: '/' });
    assert.deepEqual(normalizeBaseUrl(''), { baseUrl: '/' });
    assert.deepEqual(normalizeBaseUrl('docs-portal'), { baseUrl: '/docs-portal/' });
    assert.deepEqual(normalizeBaseUrl('/a/b'), { baseUrl: '/a/b/' });
    assert.deepEqual(normalizeBaseUrl('//a//b//'.slice(1)), { baseUrl: '/a/b/' });
  });

  it('refuses a full URL, dot segments and characters a path cannot hold, saying what to write', async (t) => {
    const site = await makeSite(t, 'base-url');
    const configFile = path.join(site, 'site.config.ts');
    const source = await readFile(configFile, 'utf8');
    for (const [value, expected] of [
      ['https://minimal.example/portal/', /Config field 'baseUrl': 'https:\/\/minimal\.example\/portal\/' is a full URL; baseUrl is only the path part\. Put the origin in 'url'/],
      ['//cdn.example/portal/', /is a full URL/],
      ['/portal/../other/', /contains a '\.' or '\.\.' segment/],
      ['/portal?x=1', /contains a '\?', '#'/],
    ] as const) {
      await writeFile(configFile, source.replace("baseUrl: '/portal/'", `baseUrl: ${JSON.stringify(value)}`));
      const error = await loadConfig(site).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error, `${value} is refused`);
      const text = formatAnyError(error);
      assert.match(text, expected);
      assert.match(text, /site\.config\.ts:6/, 'the message points at the line of baseUrl');
    }
  });
});

describe('htmlWithBaseUrl', () => {
  it('changes root-absolute URLs in URL attributes only, leaving text, external links and fragments', () => {
    const html =
      '<link rel="stylesheet" href="/assets/a.css"><a href="/docs/x?a=1&amp;b=2#y">x</a><a href="//cdn.example/a">e</a><a href="https://h.example/x">e</a>' +
      '<a href="#top">t</a><img srcset="/a.png 1x, /b.png 2x" src="/a.png"><pre>href="/docs/not-a-link"</pre><script>var a = \'<a href="/x">\';</script>';
    assert.equal(
      htmlWithBaseUrl(html, BASE),
      '<link rel="stylesheet" href="/portal/assets/a.css"><a href="/portal/docs/x?a=1&amp;b=2#y">x</a><a href="//cdn.example/a">e</a><a href="https://h.example/x">e</a>' +
        '<a href="#top">t</a><img srcset="/portal/a.png 1x, /portal/b.png 2x" src="/portal/a.png"><pre>href="/docs/not-a-link"</pre><script>var a = \'<a href="/x">\';</script>',
    );
    assert.equal(htmlWithBaseUrl(html, '/'), html, "a site at the host's root is left as rendered");
  });
});

describe('the in-memory link check under a base URL', () => {
  const page = (route: string, body: string, sourceLinks: RenderedPage['sourceLinks'] = []): RenderedPage => ({
    route,
    kind: 'page',
    title: route,
    description: route,
    html: `<!DOCTYPE html><html><body><h1 id="top">${route}</h1>${body}</body></html>`,
    sourceFile: `content/pages${route === '/' ? '/index' : route}.mdx`,
    sourceLinks,
    indexable: true,
  });

  it('resolves links under the base URL and reports one outside it, or to a missing page, as its author wrote it', async (t) => {
    const config = await loadConfig(await makeSite(t, 'base-url'));
    const files = new Set(['/img/logo.svg']);
    const good = [page('/', '<a href="/portal/a#top">a</a><a href="/portal/">home</a><a href="/portal">home</a><img src="/portal/img/logo.svg"><a href="https://minimal.example/portal/a">abs</a>'), page('/a', '<a href="/portal/#top">home</a>')];
    assert.equal((await checkLinks({ pages: good, files }, config)).checked, 6);

    const bad = [
      ...good,
      page('/b', '<a href="/a">not under the base URL</a><a href="/portal/missing">missing</a>', [{ href: '/missing', line: 3, column: 5 }]),
    ];
    const error = await checkLinks({ pages: bad, files }, config).then(
      () => undefined,
      (e: unknown) => e,
    );
    const text = formatAnyError(error);
    assert.match(text, /Broken link '\/a' lies outside the site's base URL \/portal\//);
    assert.match(text, /content\/pages\/b\.mdx:3:5 +Broken link '\/missing' points to \/missing, which is not a page or file of this site/);
  });
});

describe('links to the site in API descriptions under a base URL', () => {
  it('are shown from the root on the page (put under the base URL with it) and under the base URL in the console\'s JSON', async (t) => {
    const dir = await tempDir(t, 'base-url-openapi');
    const file = path.join(dir, 'site-links.yaml');
    const yaml = (await readFile(path.join(repoRoot, 'test/fixtures/openapi/site-links.yaml'), 'utf8')).replaceAll('https://minimal.example/', `${ORIGIN}${BASE}`);
    await writeFile(file, yaml);
    const [api] = await loadApiDocuments([{ id: 'pay', file }], dir, { siteUrl: `${ORIGIN}/portal`, baseUrl: BASE });
    assert.ok(api);
    assert.match(api.operations[0]!.description, /\[the guide\]\(\/docs\/guia\/pagar\)/);
    assert.match(api.referenceJsonText ?? '', /\[the guide\]\(\/portal\/docs\/guia\/pagar\)/, 'Elements renders the JSON in the browser as it is');
    assert.ok(api.siteLinks?.some((link) => link.href === '/docs/guia/pagar'), 'the link check gets the route');
    assert.match(api.jsonText, /\(https:\/\/minimal\.example\/portal\/docs\/guia\/pagar\)/, 'the download keeps the link as written');
  });
});

describe('a site built with baseUrl /portal/', () => {
  const cleanup = createCleanup();
  let site = '';
  let dist = '';
  let server: RunningServer | undefined;
  let config: SiteConfig;
  const read = (file: string) => readFile(path.join(dist, file), 'utf8');

  before(async () => {
    site = await makeSite(cleanup, 'base-url');
    dist = path.join(site, 'dist');
    config = await loadConfig(site);
    // The whole build, crawl included: linkinator walks the site through `docsgen serve` under /portal/.
    await build(config, { outDir: dist, logger: quiet(), cache: false });
    server = await startServer({ dir: dist, port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await server?.close();
    await cleanup.run();
  });

  it('writes every link, asset and preview URL of every page under /portal/', async () => {
    const pages = (await filesUnder(dist)).filter((f) => f.endsWith('.html'));
    assert.ok(pages.length >= 10);
    let seen = 0;
    for (const file of pages) {
      for (const [tag, attribute, value] of urlAttributes(await read(file))) {
        seen++;
        if (/^https?:/.test(value) && !value.startsWith(ORIGIN)) continue;
        if (value.startsWith('#')) continue;
        const ok = value.startsWith(BASE) || value.startsWith(`${ORIGIN}${BASE}`);
        assert.ok(ok, `${file}: <${tag} ${attribute}="${value}"> is not under ${BASE}`);
      }
    }
    assert.ok(seen > 200);
    const doc = await read('docs/guia/segundo-passo.html');
    assert.match(doc, /<link rel="canonical" href="https:\/\/minimal\.example\/portal\/docs\/guia\/segundo-passo"/);
    assert.match(doc, /<meta property="og:image" content="https:\/\/minimal\.example\/portal\/img\/logo\.svg"/);
    assert.match(doc, /<a href="\/portal\/docs\/intro#visao-geral">introduction<\/a>/, 'a link written /docs/intro in MDX');
    assert.match(doc, /<img[^>]* src="\/portal\/img\/logo\.svg" alt="Logo"/, 'an image written /img/logo.svg in MDX');
    assert.match(doc, /data-base-url="\/portal\/"/, 'the browser code learns the base URL from <html>');
    const manifest = /<script id="docsgen-islands" type="application\/json">([^<]*)<\/script>/.exec(doc)?.[1] ?? '';
    for (const island of Object.values(JSON.parse(manifest) as Record<string, { js: string; css: string[] }>)) {
      for (const url of [island.js, ...island.css]) assert.ok(url.startsWith(`${BASE}assets/`), `island file ${url}`);
    }
    const notFound = await read('404.html');
    assert.match(notFound, /<link rel="stylesheet" href="\/portal\/assets\/styles-/, 'the 404 page loads its styles from under /portal/ wherever it is shown');
  });

  it('puts /portal/ into the sitemap, the feeds, the search index, the sidebar JSON, llms.txt and the Markdown twins', async () => {
    const locs = [...(await read('sitemap.xml')).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    assert.ok(locs.length >= 8);
    for (const loc of locs) assert.ok(loc.startsWith(`${ORIGIN}${BASE}`), loc);
    assert.ok(locs.includes(`${ORIGIN}${BASE}`) && locs.includes(`${ORIGIN}${BASE}docs/intro`));
    assert.match(await read('robots.txt'), /Sitemap: https:\/\/minimal\.example\/portal\/sitemap\.xml/);
    for (const feed of ['blog/rss.xml', 'blog/atom.xml']) {
      const urls = [...(await read(feed)).matchAll(/https?:\/\/minimal\.example[^<"\s]*/g)].map((m) => m[0]);
      assert.ok(urls.length >= 3, feed);
      for (const url of urls) assert.ok(url.startsWith(`${ORIGIN}${BASE}`), `${feed}: ${url}`);
    }
    const meta = JSON.parse(await read('search/index.json')) as { base: string; pages: [string, string, string][] };
    assert.match(meta.base, /^\/portal\/assets\/search\/[0-9a-f]+\/$/);
    for (const [url] of meta.pages) assert.ok(url.startsWith(BASE), url);
    const llms = [...(await read('llms.txt')).matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]!);
    assert.ok(llms.length >= 3);
    for (const url of llms) assert.ok(url.startsWith(`${ORIGIN}${BASE}`), `llms.txt: ${url}`);
    assert.match(await read('docs/guia/segundo-passo.md'), /\[introduction\]\(https:\/\/minimal\.example\/portal\/docs\/intro#visao-geral\)/);
    assert.deepEqual(JSON.parse(await read('.docsgen/base-url.json')), { baseUrl: BASE });
    const sidebarJson = (await filesUnder(path.join(dist, 'assets'))).find((f) => /^sidebars-\w+\.json$/.test(f));
    assert.ok(sidebarJson);
    const hrefs = [...(await read(`assets/${sidebarJson}`)).matchAll(/"href":"([^"]*)"/g)].map((m) => m[1]!);
    assert.ok(hrefs.length >= 3);
    for (const href of hrefs) assert.ok(href.startsWith(BASE), `sidebar JSON: ${href}`);
  });

  it('serves the folder under /portal/: the root redirects there, paths outside it are 404', async () => {
    const get = (p: string) => fetch(server!.url + p, { redirect: 'manual' });
    for (const from of ['/', '/portal']) {
      const response = await get(from);
      assert.equal(response.status, 302, from);
      assert.equal(response.headers.get('location'), BASE);
      assert.ok(response.headers.get('content-security-policy'), 'the redirect carries the security headers');
    }
    for (const p of ['/portal/', '/portal/docs/intro', '/portal/docs/intro/', '/portal/docs/intro.html', '/portal/sitemap.xml', '/portal/img/logo.svg']) {
      assert.equal((await get(p)).status, 200, p);
    }
    const outside = await get('/docs/intro');
    assert.equal(outside.status, 404);
    assert.match(await outside.text(), /href="\/portal\/assets\/styles-/, 'the 404 page is the site\'s, with its assets under /portal/');
    assert.equal((await get('/portal/docs/nope')).status, 404);
    assert.equal((await get('/portal/.docsgen/base-url.json')).status, 404, 'the folder of the build\'s server files is not published');
  });

  it('crawls the written site under /portal/ and reports a file missing there', async () => {
    const copy = path.join(site, 'crawled');
    await cp(dist, copy, { recursive: true });
    await rm(path.join(copy, 'img/logo.svg'));
    const routes = ['/', '/docs/intro', '/docs/guia/segundo-passo'];
    const error = await verify({ dir: copy, checkExternal: false, routes }, config).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.match(formatAnyError(error), /Broken link \/portal\/img\/logo\.svg \(status 404\)/);
    await cp(path.join(dist, 'img/logo.svg'), path.join(copy, 'img/logo.svg'));
    const result = await verify({ dir: copy, checkExternal: false, routes }, config);
    assert.ok(result.checked > 10, 'every link of those pages answered under /portal/');
  });

  it('still fails the build on a broken link written from the root, at its line', async (t) => {
    const broken = await makeSite(t, 'base-url');
    await writeFile(path.join(broken, 'content/docs/quebrado.mdx'), '---\ntitle: Quebrado\ndescription: A broken link.\n---\n\nSee [nothing](/docs/nope).\n');
    const error = await build(await loadConfig(broken), { outDir: path.join(broken, 'dist'), logger: quiet(), cache: false, skipCrawl: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error, 'the build fails');
    const text = formatAnyError(error);
    assert.match(text, /Broken link '\/docs\/nope' points to \/docs\/nope, which is not a page or file of this site/);
    assert.match(text, /content\/docs\/quebrado\.mdx:6/);
  });
});
