/** Whole builds of a small fixture site: output layout, the compile cache, and what the command prints. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { buildFixture } from '../helpers/build.ts';
import { makeSite, runCli } from '../helpers/fixtures.ts';
import { checkNoTempLeftovers } from '../helpers/temp.ts';

checkNoTempLeftovers();

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe('docsgen build', { concurrency: 2 }, () => {
  it('a build that reuses the compile cache writes exactly the same bytes as a cold one', async (t) => {
    // With an API page: its highlighted samples are kept in the cache too.
    const dir = await makeSite(t, 'browser-chrome');
    // The first build finds an empty cache, so it compiles everything as a build without one does
    // (that --no-cache leaves no cache behind is checked below); the second takes all it can from it.
    await buildFixture(dir, { outDir: 'cold', cache: true });
    await buildFixture(dir, { outDir: 'warm', cache: true });
    const kept = await readdir(path.join(dir, 'node_modules/.cache/docsgen/mdx'));
    assert.ok(kept.some((name) => /^[0-9a-f]{40}\.json$/.test(name)), 'compiled documents were kept');
    assert.ok(kept.includes('api-code.json'), "the API page's highlighted code was kept");
    const files = await listFiles(path.join(dir, 'cold'));
    assert.deepEqual(await listFiles(path.join(dir, 'warm')), files);
    for (const file of files) {
      assert.ok((await readFile(path.join(dir, 'cold', file))).equals(await readFile(path.join(dir, 'warm', file))), `${file} differs between a cold and a warm build`);
    }
  });

  it('writes pages under both names, assets with hashed names, and the chrome files', async (t) => {
    const dir = await makeSite(t);
    await buildFixture(dir);
    const files = await listFiles(path.join(dir, 'dist'));
    for (const file of ['index.html', '404.html', 'docs/index.html', 'docs.html', 'docs/intro/index.html', 'docs/intro.html', 'sitemap.xml', 'robots.txt', 'blog/rss.xml', 'blog/atom.xml', 'favicon.ico']) {
      assert.ok(files.includes(file), `dist/${file}`);
    }
    assert.ok(files.some((f) => /^assets\/main-[A-Z0-9]{8}\.js$/.test(f)), 'hashed router');
    assert.ok(files.some((f) => /^assets\/styles-[A-Z0-9]{8}\.css$/.test(f)), 'hashed stylesheet');
    assert.ok(!files.some((f) => f.startsWith('404/')), 'the 404 page has one name');
  });

  it('writes the same files, asset names included, whatever folder the command is started from, and with the client bundle kept by the last build', async (t) => {
    const dir = await makeSite(t);
    const here = await runCli(['build', '--quiet', '--out', 'here'], dir);
    assert.equal(here.code, 0, here.stderr);
    const store = path.join(dir, 'node_modules/.cache/docsgen/bundle');
    const entry = (await readdir(store)).find((name) => name.endsWith('.json'));
    assert.ok(entry, 'the client bundle was kept');
    const kept = await stat(path.join(store, entry));
    // Started from the folder above, naming the site with --root.
    const elsewhere = await runCli(['build', '--quiet', '--root', dir, '--out', path.join(dir, 'elsewhere')], path.dirname(dir));
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    const after = await stat(path.join(store, entry));
    assert.equal(after.ino, kept.ino, 'the second build took the kept bundle (a new bundle would have replaced the entry)');
    const files = await listFiles(path.join(dir, 'here'));
    assert.ok(files.some((f) => /^assets\/main-[A-Z0-9]{8}\.js$/.test(f)));
    assert.deepEqual(await listFiles(path.join(dir, 'elsewhere')), files);
    for (const file of files) assert.ok((await readFile(path.join(dir, 'here', file))).equals(await readFile(path.join(dir, 'elsewhere', file))), `${file} differs`);
  });

  it('--quiet prints nothing on success; --verbose names every stage; --no-cache leaves no cache', async (t) => {
    const dir = await makeSite(t);
    const quiet = await runCli(['build', '--quiet', '--no-cache'], dir);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout, '');
    assert.ok(!existsSync(path.join(dir, 'node_modules/.cache/docsgen')), '--no-cache leaves no cache behind');
    const verbose = await runCli(['build', '--verbose'], dir);
    assert.equal(verbose.code, 0, verbose.stderr);
    for (const stage of ['collect', 'openapi', 'compile', 'bundle', 'render', 'check-links', 'write', 'verify', 'publish']) {
      assert.match(verbose.stdout, new RegExp(`✓ ${stage} \\d`), `stage ${stage} is reported`);
    }
    assert.match(verbose.stdout, /Stages: config \d+(\.\d+)? m?s · bundle \d+(\.\d+)? m?s · collect/);
  });
});
