/**
 * The crawl of the written site: each page fetched once as its own root, every other URL
 * requested once for the whole site, and broken links reported with the pages linking them.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../cli/config.ts';
import { DocsgenError, DocsgenErrors } from '../../../cli/errors.ts';
import { createCrawlLedger, verify, type VerifyConfig, type VerifyOptions } from '../../../cli/stages/verify.ts';
import { verifyOnThread } from '../../../cli/stages/verify-thread.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { createCleanup } from '../../helpers/temp.ts';
import { waitFor } from '../../helpers/wait.ts';

const cleanup = createCleanup();

describe('crawl ledger', () => {
  it('lets only the first page that links to a URL request it, and never a written page', () => {
    const ledger = createCrawlLedger(['http://h/a', 'http://h/b']);
    assert.equal(ledger.claim('http://h/logo.svg', 'http://h/a'), true);
    assert.equal(ledger.claim('http://h/logo.svg', 'http://h/b'), false);
    assert.equal(ledger.claim('http://h/logo.svg', 'http://h/b'), false);
    assert.equal(ledger.claim('http://h/b', 'http://h/a'), false, 'a written page is the root of its own check');
    assert.deepEqual(ledger.parentsOf('http://h/logo.svg'), { shown: ['http://h/a', 'http://h/b'], count: 2 });
  });

  it('keeps a few linking pages per URL and counts the rest', () => {
    const ledger = createCrawlLedger([]);
    for (let i = 0; i < 100; i++) ledger.claim('http://h/x', `http://h/p${i}`);
    const { shown, count } = ledger.parentsOf('http://h/x');
    assert.equal(count, 100);
    assert.equal(shown.length, 3);
  });
});

/** The same checks, whichever threads the crawl and its server run on: a result or an error must cross back whole. */
const variants: { name: string; crawl: (options: VerifyOptions, config: VerifyConfig) => ReturnType<typeof verify> }[] = [
  { name: 'the crawl and its server on the calling thread', crawl: (options, config) => verify({ ...options, serverThread: false }, config) },
  { name: 'the server on a thread of its own', crawl: (options, config) => verify({ ...options, serverThread: true }, config) },
  { name: 'the crawl on a thread of its own (large sites)', crawl: verifyOnThread },
];

for (const { name, crawl } of variants) describe(`verify, ${name}`, () => {
  let site: string;
  let out: string;
  const page = (body: string) => `<!DOCTYPE html><html><head><title>t</title><link rel="stylesheet" href="/s.css"></head><body><nav><a href="/">Home</a><a href="/a">A</a></nav>${body}</body></html>`;

  before(async () => {
    site = await makeSite(cleanup);
    out = await mkdtemp(path.join(os.tmpdir(), 'docsgen-verify-'));
    await mkdir(path.join(out, 'a'), { recursive: true });
    await writeFile(path.join(out, 's.css'), 'body{}');
    await writeFile(path.join(out, 'index.html'), page('<h2 id="top">Top</h2><a href="#top">here</a>'));
    for (const file of ['a.html', 'a/index.html']) await writeFile(path.join(out, file), page('<h2 id="x">X</h2><a href="#x">x</a><a href="/a#x">x</a>'));
  });
  after(async () => {
    await cleanup.run();
    await rm(out, { recursive: true, force: true });
  });

  it('passes a site whose links all resolve, requesting each shared link once', async () => {
    const config = await loadConfig(site);
    const progress: number[] = [];
    const result = await crawl({ dir: out, checkExternal: false, routes: ['/', '/a'], progress: (done) => progress.push(done) }, config);
    // The two pages, and the stylesheet once though both pages link to it.
    assert.equal(result.checked, 3);
    assert.deepEqual(progress, [1, 2]);
  });

  it("fails on a missing file, naming the pages that link to it; #id links are the in-memory check's", async () => {
    const config = await loadConfig(site);
    await writeFile(path.join(out, 'b.html'), page('<a href="/missing.png">img</a><a href="#nowhere">n</a><a href="/a#nowhere">a</a>'));
    try {
      await assert.rejects(crawl({ dir: out, checkExternal: false, routes: ['/', '/a', '/b'] }, config), (error: unknown) => {
        assert.ok(error instanceof DocsgenErrors, `the crawl failed otherwise: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        assert.deepEqual(error.errors.map((e) => e.message), ['Broken link /missing.png (status 404), linked from /b.']);
        return true;
      });
    } finally {
      await rm(path.join(out, 'b.html'));
    }
  });

  it('requests a link to a file still being written (the search index) once the build says it is written', async () => {
    const config = await loadConfig(site);
    await writeFile(path.join(out, 'c.html'), page('<a href="/search/index.json">índice</a><a href="/assets/search/ab12/t/0.json">parte</a>'));
    const late = ['search/index.json', 'assets/search/ab12/t/0.json'];
    let written = () => undefined as void;
    const pending = { files: ['search/index.json'], folders: ['assets/search'], written: new Promise<void>((resolve) => (written = resolve)) };
    try {
      let done = 0;
      const state = { settled: false };
      const checking = crawl({ dir: out, checkExternal: false, routes: ['/', '/a', '/c'], pending, progress: (n) => (done = n) }, config);
      void checking.then(() => (state.settled = true), () => (state.settled = true));
      // The two other pages are checked, and /c was fetched with them: its two links wait.
      await waitFor('the crawl to check the pages without pending links', () => done >= 2);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(state.settled, false, 'the crawl waits for the pending files');
      for (const rel of late) {
        await mkdir(path.dirname(path.join(out, rel)), { recursive: true });
        await writeFile(path.join(out, rel), '{}');
      }
      written();
      const result = await checking;
      assert.equal(result.checked, 6, 'the three pages, the stylesheet and both files of the index');
    } finally {
      for (const rel of ['c.html', ...late]) await rm(path.join(out, rel), { force: true });
    }
  });

  it('fails with the reason the server gives when the folder cannot be served', async () => {
    const config = await loadConfig(site);
    const missing = path.join(out, 'not-built');
    await assert.rejects(crawl({ dir: missing, checkExternal: false, routes: ['/'] }, config), (error: unknown) => {
      assert.ok(error instanceof DocsgenError, String(error));
      assert.match(error.message, /not-built/);
      assert.ok(error.hint, 'with a hint');
      return true;
    });
  });
});

describe('verify, the pages shared among crawling threads', () => {
  it('checks every page once, counts a link they share once, and reports a broken link once with its pages from every thread', async (t) => {
    const site = await makeSite(t);
    const config = await loadConfig(site);
    const out = await mkdtemp(path.join(os.tmpdir(), 'docsgen-verify-threads-'));
    t.after(() => rm(out, { recursive: true, force: true }));
    await writeFile(path.join(out, 's.css'), 'body{}');
    await writeFile(path.join(out, 'index.html'), '<!DOCTYPE html><title>home</title>');
    // Enough pages for several handouts, so both threads crawl some.
    const routes: string[] = [];
    for (let i = 0; i < 400; i++) {
      routes.push(`/p${i}`);
      const broken = i % 100 === 0 ? '<a href="/missing.png">img</a>' : '';
      await writeFile(path.join(out, `p${i}.html`), `<!DOCTYPE html><html><head><title>p</title><link rel="stylesheet" href="/s.css"></head><body><a href="/p${(i + 1) % 400}">next</a>${broken}</body></html>`);
    }
    const done: number[] = [];
    await assert.rejects(verifyOnThread({ dir: out, checkExternal: false, routes, progress: (n) => done.push(n) }, config, { threads: 2 }), (error: unknown) => {
      assert.ok(error instanceof DocsgenErrors, String(error));
      assert.equal(error.errors.length, 1, error.errors.map((e) => e.message).join('\n'));
      // Three of the four linking pages, whichever the threads met first, and the count of the others.
      assert.match(error.errors[0]!.message, /^Broken link \/missing\.png \(status 404\), linked from \/p(?:0|[1-3]00), \/p(?:0|[1-3]00), \/p(?:0|[1-3]00) and 1 more\.$/);
      return true;
    });
    assert.equal(Math.max(...done), 400, 'every page crawled');
    await rm(path.join(out, 'p0.html'));
    await writeFile(path.join(out, 'p0.html'), '<!DOCTYPE html><html><head><title>p</title><link rel="stylesheet" href="/s.css"></head><body>ok</body></html>');
    for (const i of [100, 200, 300]) await writeFile(path.join(out, `p${i}.html`), '<!DOCTYPE html><title>p</title><p>ok</p>');
    const result = await verifyOnThread({ dir: out, checkExternal: false, routes }, config, { threads: 2 });
    assert.equal(result.checked, 401, 'the 400 pages and the stylesheet once');
  });
});
