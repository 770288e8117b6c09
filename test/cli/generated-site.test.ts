/**
 * A large generated site built by the command, as a user would: 363 docs in 55 sidebar
 * categories, past the sizes where the build hands page scanning and the crawl to threads
 * of their own and where the sidebar shows a window of its top-level list (the bench
 * builds the same generator's sites at 1,023 and 9,933 docs). Every page is written under
 * both of its names; the sidebar's cost per page does not grow with the site (every doc page
 * under 40 KB, each holding only its own category's items, one shared sidebar JSON
 * listing every doc); and a broken link planted in one doc fails the build with that
 * doc's file and line. Correctness only: speed is measured by `npm run bench`.
 *
 * One build serves every check: at this size a build is the cost of the file. A process
 * of its own keeps the build's memory out of the test runner, and a build in the test's
 * process saved nothing measurable.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { appendFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SCAN_THREADS_FROM } from '../../cli/stages/scan-pool.ts';
import { VERIFY_THREAD_FROM } from '../../cli/stages/verify-thread.ts';
import { SIDEBAR_WINDOW, type SidebarEntry, type SidebarJson } from '../../templates/shared/index.ts';
import { runCli, type CliResult } from '../helpers/fixtures.ts';
import { generateSite, type GeneratedSite } from '../helpers/generated-site.ts';

const DOCS = 363;
const BUILD_TIMEOUT_MS = 15 * 60_000;
const MAX_PAGE_BYTES = 40 * 1024;

function docsIn(items: readonly SidebarEntry[]): string[] {
  return items.flatMap((item) => (item.type === 'doc' ? [item.href ?? ''] : item.type === 'category' ? docsIn(item.items ?? []) : []));
}

describe(`a generated site of ${DOCS} docs`, { timeout: 2 * BUILD_TIMEOUT_MS }, () => {
  let site: GeneratedSite;
  let built: CliResult;
  let dist: string;
  const html = (route: string) => readFile(path.join(dist, `${route.slice(1)}.html`), 'utf8');

  before(async () => {
    site = await generateSite(DOCS);
    dist = path.join(site.dir, 'dist');
    built = await runCli(['build', '--quiet', '--out', 'dist'], site.dir, BUILD_TIMEOUT_MS);
  });
  after(() => rm(site.dir, { recursive: true, force: true }));

  it('builds, with every doc under both of its names', async () => {
    assert.equal(built.code, 0, `${built.stdout}\n${built.stderr}`);
    const missing = site.docs.flatMap((doc) => [`${doc.route}/index.html`, `${doc.route}.html`]).filter((file) => !existsSync(path.join(dist, file)));
    assert.deepEqual(missing, []);
    const [first, second] = await Promise.all([`${site.docs[1]!.route}/index.html`, `${site.docs[1]!.route}.html`].map((f) => readFile(path.join(dist, f))));
    assert.ok(first!.equals(second!), 'both names hold the same bytes');
    assert.match(first!.toString(), /<h1[^>]*>Documento 1<\/h1>/);
  });

  it('keeps every doc page under 40 KB', async () => {
    assert.equal(built.code, 0, 'the site built');
    assert.ok(site.docs.length > Math.max(SCAN_THREADS_FROM, VERIFY_THREAD_FROM), 'large enough for the threads of large sites');
    const sizes = await Promise.all(site.docs.map(async (doc) => ({ route: doc.route, bytes: (await stat(path.join(dist, `${doc.route.slice(1)}.html`))).size })));
    const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    assert.ok(largest.bytes < MAX_PAGE_BYTES, `${largest.route} is ${largest.bytes} bytes, over ${MAX_PAGE_BYTES}`);
  });

  it("puts only the current category's docs in a page, and each label links to a doc of its category", async () => {
    assert.equal(built.code, 0, 'the site built');
    // A doc in the middle of the long top-level list of categories.
    const category = 'g005/api/';
    // The sidebar's links: the phone menu's navbar dropdowns (docs version, language) are groups of their own.
    const page = (await html(`/docs/${category}doc-0180`)).replace(/<details class="menu__group">[\s\S]*?<\/details>/g, '');
    const links = Array.from(page.matchAll(/<a class="menu__link[^"]*" href="([^"]+)"/g), (m) => m[1]!);
    const inCategory = links.filter((href) => href.startsWith(`/docs/${category}`));
    const expected = site.docs.filter((doc) => doc.id.startsWith(category)).map((doc) => doc.route);
    assert.ok(expected.length > 1);
    assert.deepEqual(inCategory.sort(), expected.sort(), 'the docs of its category are all there');
    assert.deepEqual(links.filter((href) => !href.startsWith(`/docs/${category}`)), [], 'no doc of another category');
    const labels = Array.from(page.matchAll(/<a class="menu__caret[^"]*" href="([^"]+)"[^>]*>([^<]+)</g), (m) => ({ href: m[1]!, label: m[2]! }));
    assert.ok(labels.length > 0);
    // Labels are "<group> <folder>", the category of the docs under /docs/<group>/<folder>/.
    for (const { href, label } of labels) assert.ok(href.startsWith(`/docs/${label.replace(' ', '/')}/`), `${label} links to ${href}`);
    const categories = new Set(site.docs.map((doc) => doc.id.split('/').slice(0, 2).join('/')));
    assert.ok(categories.size > SIDEBAR_WINDOW, `${categories.size} categories, more than the window of ${SIDEBAR_WINDOW}`);
    const more = Array.from(page.matchAll(/<a class="menu__more" href="([^"]+)"/g), (m) => m[1]!);
    assert.equal(more.length, 2, 'the long top-level list shows a window with "more" links on both sides');
  });

  it('writes one content-hashed sidebar JSON listing every doc, referenced by every doc page', async () => {
    assert.equal(built.code, 0, 'the site built');
    const json = (await readdir(path.join(dist, 'assets'))).filter((name) => /^sidebars-[A-Z0-9]+\.json$/.test(name));
    assert.equal(json.length, 1);
    const sidebars = JSON.parse(await readFile(path.join(dist, 'assets', json[0]!), 'utf8')) as SidebarJson;
    assert.equal(docsIn(sidebars.docs ?? []).length, site.docs.length);
    const reference = `data-sidebar-src="/assets/${json[0]!}#docs"`;
    const without: string[] = [];
    for (const doc of site.docs) if (!(await html(doc.route)).includes(reference)) without.push(doc.route);
    assert.deepEqual(without, [], 'every doc page references the shared JSON');
  });

  // Last: it edits a source (and puts it back); the checks above read only the first build's output.
  it('fails on a broken link planted in one doc, naming its file and line', async () => {
    const doc = site.docs[Math.floor(DOCS / 2)]!;
    const file = path.join(site.dir, doc.file);
    const original = await readFile(file, 'utf8');
    const lines = original.split('\n').length;
    await appendFile(file, '\nVeja [a página que não existe](/docs/nao-existe).\n');
    try {
      const result = await runCli(['build', '--quiet', '--out', 'dist-broken'], site.dir, BUILD_TIMEOUT_MS);
      assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
      assert.ok(result.stderr.includes(`${doc.file}:${lines + 1}:`), `the report names ${doc.file}:${lines + 1}:\n${result.stderr}`);
      assert.match(result.stderr, /\/docs\/nao-existe/);
    } finally {
      await writeFile(file, original);
    }
  });
});
