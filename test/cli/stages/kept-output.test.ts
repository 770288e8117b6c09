/**
 * The previous output kept in the cache: the next build writes into it only what changed,
 * removes what the site no longer has, distrusts what was changed by hand, and the result
 * is, byte for byte and file for file, the output of a build into an empty folder.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, readFile, readdir, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { buildFixture } from '../../helpers/build.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { openLedger } from '../../../cli/stages/kept-output.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';

checkNoTempLeftovers();

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => path.relative(dir, path.join(e.parentPath, e.name)) + (e.isDirectory() ? '/' : '')).sort();
}

/** Fails unless `dir` holds exactly the files and folders of `expected`, with the same bytes. */
async function assertSameOutput(dir: string, expected: string): Promise<void> {
  const files = await listFiles(expected);
  assert.deepEqual(await listFiles(dir), files, `${path.basename(dir)}/ and ${path.basename(expected)}/ hold different files`);
  for (const file of files.filter((f) => !f.endsWith('/'))) {
    assert.ok((await readFile(path.join(dir, file))).equals(await readFile(path.join(expected, file))), `${file} differs from a build into an empty folder`);
  }
}

/** Docs outside the sidebar: enough of them give the search index's entry point compressed copies. */
async function addDocs(dir: string, count: number): Promise<void> {
  await mkdir(path.join(dir, 'content/docs/extra'), { recursive: true });
  for (let i = 0; i < count; i++) await writeFile(path.join(dir, `content/docs/extra/extra-${i}.mdx`), `---\ntitle: Extra ${i}\ndescription: Mais um passo.\n---\n\n## Parte ${i}\n\nTexto ${i}.\n`);
}

/** Bytes of a compressible static file, large enough to get compressed copies. */
const svg = (fill: string) => `<svg xmlns="http://www.w3.org/2000/svg">${`<rect width="10" height="10" fill="${fill}"/>`.repeat(60)}</svg>\n`;

/**
 * A build without the crawl of what it wrote: the crawl reads the staging folder and
 * changes nothing in it, and these tests compare what was written with a build into an
 * empty folder, file for file. The first test crawls its builds, the others save the
 * crawl's quarter of a second per build (about 7 s of CPU over the file).
 */
const buildUnchecked = (dir: string, options: Parameters<typeof buildFixture>[1] = {}) => buildFixture(dir, { skipCrawl: true, ...options });

describe('the kept output', () => {
  it('a build into the kept output writes what changed, removes what went, and gives the output of a build from nothing', async (t) => {
    const dir = await makeSite(t);
    const cache = path.join(dir, 'node_modules/.cache/docsgen');
    await mkdir(path.join(dir, 'static/img'), { recursive: true });
    await writeFile(path.join(dir, 'static/img/logo.svg'), svg('red'));
    await writeFile(path.join(dir, 'static/img/old.svg'), svg('blue'));
    await writeFile(path.join(dir, 'content/docs/guia/segundo.mdx'), '---\ntitle: Segundo\ndescription: O segundo passo.\n---\n\nTexto.\n');
    await addDocs(dir, 40);
    const first = await buildFixture(dir, { cache: true });
    assert.equal(first.filesWritten, first.fileCount, 'a first build writes every file');
    assert.ok(!existsSync(path.join(cache, 'output')), 'nothing to keep when dist/ did not exist');
    // The second build links the published files it would write as they are, then
    // replaces dist/: the first output is kept.
    const second = await buildFixture(dir, { cache: true });
    assert.ok(second.filesWritten < second.fileCount / 2, `most files were linked (${second.filesWritten} of ${second.fileCount} written)`);
    assert.ok(existsSync(path.join(cache, 'output/index.html')), 'the replaced output is kept in the cache');
    await buildFixture(dir, { outDir: 'clean-second' });
    await assertSameOutput(path.join(dir, 'dist'), path.join(dir, 'clean-second'));
    // What the third build writes into the kept output must not reach the published files it shares.
    await cp(path.join(dir, 'dist'), path.join(dir, 'second'), { recursive: true });

    // The site changes: a doc edited, one removed, one added, a static file changed and one removed.
    await appendFile(path.join(dir, 'content/docs/intro.mdx'), '\nUm parágrafo novo.\n');
    await rm(path.join(dir, 'content/docs/guia/segundo.mdx'));
    await writeFile(path.join(dir, 'content/docs/guia/terceiro.mdx'), '---\ntitle: Terceiro\ndescription: O terceiro passo.\n---\n\nMais texto.\n');
    await writeFile(path.join(dir, 'static/img/logo.svg'), svg('green'));
    await rm(path.join(dir, 'static/img/old.svg'));
    const third = await buildFixture(dir, { cache: true });
    await buildFixture(dir, { outDir: 'clean' });
    await assertSameOutput(path.join(dir, 'dist'), path.join(dir, 'clean'));
    assert.ok(existsSync(path.join(dir, 'clean/search/index.json.br')), 'the search index has its copies');
    await assertSameOutput(path.join(cache, 'output'), path.join(dir, 'second'));
    assert.ok(third.filesWritten < third.fileCount / 2, `most files were left as they were (${third.filesWritten} of ${third.fileCount} written)`);
    assert.ok(!existsSync(path.join(dir, 'dist/docs/guia/segundo.html')), 'the removed doc is gone');
    assert.ok(!existsSync(path.join(dir, 'dist/img/old.svg.br')), "the removed static file's copies are gone");
  });

  it('a file of the published output changed, added or removed by hand is not trusted', async (t) => {
    const dir = await makeSite(t);
    await buildUnchecked(dir, { cache: true });
    await buildUnchecked(dir, { cache: true });
    // dist/ is kept by the next build, then written into by the one after it.
    const intro = path.join(dir, 'dist/docs/intro/index.html');
    const html = await readFile(intro, 'utf8');
    // Same size, other bytes: only its time tells.
    await writeFile(intro, html.replace('Intro', 'IntrO'));
    assert.equal((await stat(intro)).size, Buffer.byteLength(html));
    await writeFile(path.join(dir, 'dist/added-by-hand.txt'), 'not the build’s');
    const copy = (await listFiles(path.join(dir, 'dist'))).find((f) => f.endsWith('.html.br'));
    assert.ok(copy, 'the output has compressed copies');
    await unlink(path.join(dir, 'dist', copy));
    await buildUnchecked(dir, { cache: true });
    const last = await buildUnchecked(dir, { cache: true });
    await buildUnchecked(dir, { outDir: 'clean' });
    await assertSameOutput(path.join(dir, 'dist'), path.join(dir, 'clean'));
    assert.ok(last.filesWritten > 0 && last.filesWritten < last.fileCount, `the changed files were written again, and only they (${last.filesWritten} of ${last.fileCount})`);
  });

  it('a build that keeps every copy keeps their compression cache too, for a build without the kept output', async (t) => {
    const dir = await makeSite(t);
    await addDocs(dir, 40);
    const compressed = path.join(dir, 'node_modules/.cache/docsgen/precompressed');
    await buildUnchecked(dir, { cache: true });
    await buildUnchecked(dir, { cache: true });
    const entries = (await readdir(compressed)).sort();
    assert.ok(entries.length > 10, `the cache holds the copies (${entries.length})`);
    const kept = await buildUnchecked(dir, { cache: true });
    assert.equal(kept.filesWritten, 0, 'nothing changed');
    assert.deepEqual((await readdir(compressed)).sort(), entries);
    // The search index is written after the others, its copies kept all the same.
    await buildUnchecked(dir, { outDir: 'clean' });
    assert.ok(existsSync(path.join(dir, 'clean/search/index.json.br')), 'the search index has its copies');
    await assertSameOutput(path.join(dir, 'dist'), path.join(dir, 'clean'));
  });

  it('a static file swapped with another of the same size and time is written with its new bytes', async (t) => {
    const dir = await makeSite(t);
    await mkdir(path.join(dir, 'static/img'), { recursive: true });
    const [a, b] = [path.join(dir, 'static/img/a.svg'), path.join(dir, 'static/img/b.svg')];
    await writeFile(a, svg('red'));
    await writeFile(b, svg('tan'));
    const when = new Date('2025-01-01T00:00:00Z');
    await Promise.all([utimes(a, when, when), utimes(b, when, when)]);
    for (let i = 0; i < 3; i++) await buildUnchecked(dir, { cache: true });
    // Swapped as mv does it: each keeps its time, and both have the same size.
    await rename(a, `${a}.tmp`);
    await rename(b, a);
    await rename(`${a}.tmp`, b);
    await buildUnchecked(dir, { cache: true });
    assert.equal(await readFile(path.join(dir, 'dist/img/a.svg'), 'utf8'), svg('tan'));
    await buildUnchecked(dir, { outDir: 'clean' });
    await assertSameOutput(path.join(dir, 'dist'), path.join(dir, 'clean'));
  });

  it('a manifest that is not one docsgen wrote is not trusted, and the build goes on', async (t) => {
    const dir = await makeSite(t);
    const cache = path.join(dir, 'node_modules/.cache/docsgen');
    await buildUnchecked(dir, { cache: true });
    await buildUnchecked(dir, { cache: true });
    const manifest = JSON.parse(await readFile(path.join(cache, 'output.json'), 'utf8')) as { files: unknown[] };
    manifest.files = [1, ...manifest.files];
    await writeFile(path.join(cache, 'output.json'), JSON.stringify(manifest));
    const last = await buildUnchecked(dir, { cache: true });
    assert.equal(last.filesWritten, last.fileCount, 'every file written');
    await buildUnchecked(dir, { outDir: 'clean' });
    await assertSameOutput(path.join(dir, 'dist'), path.join(dir, 'clean'));
  });

  it('writes a manifest the next build can read, whatever its number of files', async (t) => {
    for (const count of [0, 1, 4095, 4096, 4097, 8192]) {
      const root = await tempDir(t, 'manifest');
      const ledger = await openLedger({ dir: path.join(root, 'staging'), cacheDir: path.join(root, 'cache') });
      await mkdir(path.join(root, 'staging'), { recursive: true });
      await ledger.ready();
      for (let i = 0; i < count; i++) ledger.produce(`p${i}.html`, 'h', 1, { written: true });
      await ledger.save();
      const saved = JSON.parse(await readFile(path.join(root, 'cache/next.json'), 'utf8')) as { files: unknown[] };
      assert.equal(saved.files.length, count);
    }
  });

  it('without a manifest for it, a kept folder is written into as if empty', async (t) => {
    const dir = await makeSite(t);
    const cache = path.join(dir, 'node_modules/.cache/docsgen');
    await buildUnchecked(dir, { cache: true });
    await buildUnchecked(dir, { cache: true });
    await rm(path.join(cache, 'output.json'));
    const last = await buildUnchecked(dir, { cache: true });
    assert.equal(last.filesWritten, last.fileCount, 'every file written');
    await buildUnchecked(dir, { outDir: 'clean' });
    await assertSameOutput(path.join(dir, 'dist'), path.join(dir, 'clean'));
  });
});
