/**
 * docsgen is not the portal: test/fixtures/sites/greenhouse, an English site with its own
 * colours, no blog and one API document of its own, builds in-process, and its output
 * holds nothing of the portal (no Sorrix, no Portuguese), its colours, an English search
 * index, a Postman collection foldered by its own tags, and the checks every site passes
 * (links resolve, the sitemap lists the pages, no feeds without a blog).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from '../../cli/build.ts';
import { loadConfig } from '../../cli/config.ts';
import { createLogger } from '../../cli/log.ts';
import { pageFiles } from '../../templates/shared/routes.ts';
import { openSearchEngine, type SearchEngine } from '../../templates/client/search/engine.ts';
import { repoRoot } from '../helpers/site.ts';
import { checkNoTempLeftovers, createCleanup, tempDir } from '../helpers/temp.ts';

checkNoTempLeftovers();

const SITE = path.join(repoRoot, 'test/fixtures/sites/greenhouse');
/** Words of the portal that must not leak into another site: its name, slogan and Portuguese texts the generator once held. */
const PORTAL_WORDS = ['sorrix', 'sorria', 'pagamento', 'autenticação', 'obter token', 'documentação', 'homologação', 'sem filas', 'escopos', 'não foi possível'];

type Json = Record<string, unknown>;

async function textFiles(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const file = path.posix.join(rel, entry.name);
    if (entry.isDirectory()) out.push(...(await textFiles(dir, file)));
    else if (!/\.(br|gz|ico|png|woff2?)$/.test(entry.name)) out.push(file);
  }
  return out;
}

describe('a second site, in English, with nothing of the portal', () => {
  const cleanup = createCleanup();
  let dist: string;
  let files: string[];
  const read = (file: string) => readFile(path.join(dist, file), 'utf8');

  before(async () => {
    dist = path.join(await tempDir(cleanup, 'greenhouse'), 'dist');
    const config = await loadConfig(SITE);
    await build(config, { outDir: dist, cache: false, logger: createLogger({ level: 'quiet' }) });
    files = await textFiles(dist);
  });
  after(() => cleanup.run());

  it('builds every doc, the custom pages and the API reference', () => {
    for (const route of ['/', '/docs/welcome', '/docs/guides/watering-schedules', '/docs/guides/sensor-readings', '/docs/reference/errors', '/hardware', '/climate-api']) {
      for (const file of pageFiles(route)) assert.ok(files.includes(file), `${file} is written`);
    }
  });

  it('holds no word of the portal in any file it writes', async () => {
    const found: string[] = [];
    for (const file of files) {
      const text = (await read(file)).toLowerCase();
      for (const word of PORTAL_WORDS) if (text.includes(word)) found.push(`${file}: ${word}`);
    }
    assert.deepEqual(found, []);
  });

  it('writes its own colours as custom properties in every page, for light and dark mode', async () => {
    for (const file of ['index.html', 'docs/welcome/index.html', 'climate-api/index.html', '404.html']) {
      const html = await read(file);
      const style = /<style data-theme-colors="">([^<]*)<\/style>/.exec(html)?.[1];
      assert.ok(style, `${file} has the theme's style`);
      assert.match(style, /:root\{[^}]*--c-primary:#1d6b3a;[^}]*--c-primary-soft:#e6f4ea;[^}]*--c-link:#1d6b3a\}/);
      // Dark mode gives only primary: the others are derived from it.
      assert.match(style, /html\[data-theme='dark'\]\{--c-primary:#7fd69b;--c-primary-strong:color-mix\(in srgb, #7fd69b 80%, #fff\);[^}]*--c-link:#7fd69b\}/);
      assert.ok(html.indexOf('data-theme-colors') > html.lastIndexOf('rel="stylesheet"'), `${file}: the colours come after the stylesheets, so they win`);
      assert.match(html, /<meta name="theme-color" media="\(prefers-color-scheme: light\)" content="#1d6b3a"\/>/);
    }
    const island = /data-island-props="([^"]*)"/.exec(await read('climate-api/index.html'))?.[1]?.replace(/&quot;/g, '"');
    assert.deepEqual((JSON.parse(island ?? '{}') as Json).primary, { light: '#1d6b3a', dark: '#7fd69b' }, 'the API reference island gets the primary colours');
  });

  describe('search, in English', () => {
    let engine: SearchEngine;
    before(async () => {
      engine = await openSearchEngine(async (url) => JSON.parse(await read(url.replace(/^\//, ''))) as unknown);
    });
    const top = async (query: string) => (await engine.search(query)).pages.map((p) => p.url);

    it('names English in the index, so the browser stems queries the same way', () => {
      assert.equal(engine.meta.language, 'en');
    });

    it('finds the forms of a word by its stem, not only by a typo away', async () => {
      // "watered" is two edits from "watering": only the English stemmer makes them meet.
      assert.equal((await top('watered'))[0], '/docs/guides/watering-schedules');
      assert.ok((await top('invoices')).includes('/docs/guides/sensor-readings'), 'the page says "invoice"');
      assert.ok((await top('readings')).includes('/docs/guides/sensor-readings'));
    });

    it('drops English stop words, and keeps finding API operations', async () => {
      assert.deepEqual(await top('the schedules'), await top('schedules'));
      const hit = (await engine.search('createSchedule')).pages[0];
      assert.equal(hit?.url, '/climate-api');
    });
  });

  describe('Postman collection', () => {
    let collection: Json;
    before(async () => {
      collection = JSON.parse(await read('openapi/climate.postman_collection.json')) as Json;
    });

    it('has one folder per tag of the document, named as the tag', () => {
      const folders = (collection.item as Json[]).map((f) => f.name);
      assert.deepEqual(folders, ['Access tokens', 'Sensors', 'Watering']);
      const names = (collection.item as Json[]).flatMap((f) => (f.item as Json[]).map((i) => i.name));
      assert.deepEqual(names, ['Issue an access token', 'List readings', 'Create a watering schedule']);
    });

    it('takes the auth flow from the security scheme, and its texts from the config (English by default)', async () => {
      const variables = Object.fromEntries((collection.variable as Json[]).map((v) => [v.key, v.value]));
      assert.equal(variables.baseUrl, 'https://bench.greenhouse.example', 'the sandboxServer of the config');
      assert.equal(variables.authUrl, 'https://auth.bench.greenhouse.example', 'the origin of the tokenUrl');
      const script = ((collection.event as { script: { exec: string[] } }[])[0]?.script.exec ?? []).join('\n');
      assert.match(script, /value: "sensors:read watering:write"/, 'asks for the scopes of the scheme');
      assert.ok(script.includes('console.warn("Fill in clientId and clientSecret in the environment and run \\"Issue an access token\\".")'), script);
      const description = String((collection.info as Json & { description: Json }).description.content);
      assert.match(description, /## Access tokens\n\nChoose the imported environment/);
      const environment = JSON.parse(await read('openapi/climate.postman_environment.json')) as Json;
      assert.equal(environment.name, 'Greenhouse Climate API (sandbox)');
    });
  });

  describe('what every site gets', () => {
    it('has no blog: no posts, lists, feeds, or feed links', async () => {
      assert.deepEqual(files.filter((f) => f.startsWith('blog/') || f.startsWith('blog.') || /(rss|atom)\.xml$/.test(f)), []);
      for (const file of files.filter((f) => f.endsWith('.html'))) assert.doesNotMatch(await read(file), /application\/(rss|atom)\+xml/, file);
      assert.doesNotMatch(await read('llms.txt'), /\/blog/);
    });

    it('lists every page in the sitemap, and robots.txt points at it', async () => {
      const sitemap = await read('sitemap.xml');
      const urls = Array.from(sitemap.matchAll(/<loc>([^<]+)<\/loc>/g), (m) => m[1]!);
      for (const route of ['/', '/docs/welcome', '/docs/guides/watering-schedules', '/hardware', '/climate-api']) {
        assert.ok(urls.includes(`https://docs.greenhouse.example${route}`), `${route} in the sitemap: ${urls.join(' ')}`);
      }
      assert.ok(urls.every((u) => u.startsWith('https://docs.greenhouse.example/')));
      assert.match(await read('robots.txt'), /Sitemap: https:\/\/docs\.greenhouse\.example\/sitemap\.xml/);
    });

    it('links only to files it wrote', async () => {
      const broken: string[] = [];
      for (const file of files.filter((f) => f.endsWith('.html'))) {
        for (const [, href] of (await read(file)).matchAll(/\b(?:href|src)="(\/[^"#?]*)/g)) {
          const target = href!.replace(/^\//, '');
          const candidates = target === '' ? ['index.html'] : [target, ...pageFiles(`/${target.replace(/\/$/, '')}`)];
          if (!candidates.some((c) => existsSync(path.join(dist, decodeURIComponent(c))))) broken.push(`${file}: ${href}`);
        }
      }
      assert.deepEqual(broken, []);
    });

    it('sets the page language from the config', async () => {
      assert.match(await read('docs/welcome/index.html'), /<html lang="en"/);
    });
  });
});
