/**
 * The page scan on threads of its own files under each page what the main thread's own
 * pass files (ids, links, search text, inline scripts and other hosts), hands back the
 * pages of a thread that goes, and a build that uses it writes the same site, byte for
 * byte, as one that reads every page itself.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { build, createBuildSession, disposeBuildSession } from '../../../cli/build.ts';
import { loadConfig } from '../../../cli/config.ts';
import { createLogger } from '../../../cli/log.ts';
import { createLinkCheckCache } from '../../../cli/stages/check-links.ts';
import type { RenderedPage } from '../../../cli/stages/render.ts';
import { scanPage, type ScanCaches } from '../../../cli/stages/scan-pages.ts';
import { createPageScanner } from '../../../cli/stages/scan-pool.ts';
import { createSearchIndexCache } from '../../../cli/stages/search-index.ts';
import { createHeaderSourcesCache } from '../../../cli/stages/security-headers.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { checkNoTempLeftovers } from '../../helpers/temp.ts';

checkNoTempLeftovers();

const caches = (): ScanCaches => ({ links: createLinkCheckCache(), searchIndex: createSearchIndexCache(), headers: createHeaderSourcesCache() });

const page = (i: number): RenderedPage => ({
  route: `/docs/p${i}`,
  kind: i % 5 === 4 ? 'api' : 'doc',
  title: `Página ${i}`,
  description: '',
  html:
    `<!DOCTYPE html><html><head><script>window.x=${i % 3}</script><link rel="stylesheet" href="https://fonts.example/a.css"></head>` +
    `<body><nav><a href="/docs/p${i + 1}">Próxima</a><a href="#s${i}">Seção</a></nav><main><div class="markdown">` +
    `<h1 id="top">Página ${i}</h1><p>Texto da página ${i} &amp; mais.</p><h2 id="s${i}">Seção ${i}</h2>` +
    `<p>Pagamento com <code>sorriso</code> ${i}.</p><img src="/img/${i}.png"><img src="https://cdn.example/${i}.png"></div></main></body></html>`,
  sourceLinks: [],
  indexable: i % 7 !== 6,
});

/** What the caches hold for each page, as plain data. */
function filed(pages: readonly RenderedPage[], c: ScanCaches) {
  return pages.map((p) => ({
    anchors: c.links.anchorsOfPage.get(p),
    records: c.searchIndex.recordsOfPage.get(p),
    sources: c.headers.sourcesOfPage.get(p),
  }));
}

/** What the main thread files for `pages`, and what scanner threads file for copies of them kept without HTML. */
async function scannedBoth(count: number, threads: number, options: { drain: boolean }) {
  const pages = Array.from({ length: count }, (_, i) => page(i));
  const here = caches();
  for (const p of pages) scanPage(p, p.html, here);
  const threaded = caches();
  const kept = pages.map((p) => ({ ...p, html: '' }));
  const scanner = createPageScanner(threaded, { threads });
  try {
    for (const [i, p] of pages.entries()) await scanner.scan(kept[i]!, p.html);
    if (options.drain) await scanner.drain();
  } finally {
    await scanner.close();
  }
  return { expected: filed(pages, here), actual: filed(kept, threaded) };
}

describe('page scan threads', () => {
  it('file under each page what the main thread files, whatever order the pages come back in', async () => {
    const { expected, actual } = await scannedBoth(60, 2, { drain: true });
    assert.ok(expected.every((e) => e.anchors && e.sources), 'every page has its links and sources');
    assert.ok(expected.filter((e) => e.records).length > 40 && expected.some((e) => !e.records), 'search text only for indexed pages');
    assert.deepEqual(actual, expected);
  });

  it('reads on the calling thread the pages still in flight when it is closed', async () => {
    const { expected, actual } = await scannedBoth(12, 1, { drain: false });
    assert.deepEqual(actual, expected);
  });

  it('make a build write what a build that reads every page itself writes', async (t) => {
    const site = await makeSite(t);
    const config = await loadConfig(site);
    const outputs: Map<string, string>[] = [];
    for (const threads of [0, 2]) {
      const session = createBuildSession({ scanThreads: threads, scanThreadsFrom: 0 });
      const outDir = path.join(site, `out-${threads}`);
      try {
        await build(config, { outDir, session, cache: false, skipCrawl: true, logger: createLogger({ level: 'quiet' }) });
      } finally {
        await disposeBuildSession(session);
      }
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(outDir, path.join(e.parentPath, e.name)));
      outputs.push(new Map(await Promise.all(files.sort().map(async (file) => [file, (await readFile(path.join(outDir, file))).toString('base64')] as const))));
    }
    const [alone, threaded] = outputs;
    assert.ok(alone!.size > 50, `the fixture writes a site (${alone!.size} files)`);
    // What the scan feeds: the search index and the security headers (by their inline scripts' hashes).
    assert.ok(alone!.has(path.join('search', 'index.json')), 'the site has a search index');
    assert.ok(alone!.has(path.join('.docsgen', 'headers.json')), 'the site has its security headers');
    assert.deepEqual([...threaded!.keys()], [...alone!.keys()]);
    for (const [file, bytes] of alone!) assert.equal(threaded!.get(file), bytes, `${file} differs`);
  });
});
