/** Whole builds of a small fixture site through the CLI: output layout, cache, logging. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { makeSite, runCli } from '../helpers/fixtures.ts';
import { checkNoTempLeftovers } from '../helpers/temp.ts';

checkNoTempLeftovers();

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe('docsgen build', { concurrency: 2 }, () => {
  it('a build that reuses the compile cache writes exactly the same bytes as a cold one', async (t) => {
    const dir = await makeSite(t);
    const cold = await runCli(['build', '--no-cache', '--out', 'cold'], dir);
    assert.equal(cold.code, 0, cold.stderr);
    assert.ok(!existsSync(path.join(dir, 'node_modules/.cache/docsgen')), '--no-cache leaves no cache behind');
    const first = await runCli(['build', '--out', 'first'], dir);
    assert.equal(first.code, 0, first.stderr);
    const warm = await runCli(['build', '--out', 'warm'], dir);
    assert.equal(warm.code, 0, warm.stderr);
    assert.ok((await readdir(path.join(dir, 'node_modules/.cache/docsgen/mdx'))).length > 0, 'the cache was written');
    const files = await listFiles(path.join(dir, 'cold'));
    assert.deepEqual(await listFiles(path.join(dir, 'warm')), files);
    for (const file of files) {
      assert.ok((await readFile(path.join(dir, 'cold', file))).equals(await readFile(path.join(dir, 'warm', file))), `${file} differs between a cold and a warm build`);
    }
  });

  it('writes pages under both names, assets with hashed names, and the chrome files', async (t) => {
    const dir = await makeSite(t);
    const result = await runCli(['build'], dir);
    assert.equal(result.code, 0, result.stderr);
    const files = await listFiles(path.join(dir, 'dist'));
    for (const file of ['index.html', '404.html', 'docs/index.html', 'docs.html', 'docs/intro/index.html', 'docs/intro.html', 'sitemap.xml', 'robots.txt', 'blog/rss.xml', 'blog/atom.xml', 'favicon.ico']) {
      assert.ok(files.includes(file), `dist/${file}`);
    }
    assert.ok(files.some((f) => /^assets\/main-[A-Z0-9]{8}\.js$/.test(f)), 'hashed router');
    assert.ok(files.some((f) => /^assets\/styles-[A-Z0-9]{8}\.css$/.test(f)), 'hashed stylesheet');
    assert.ok(!files.some((f) => f.startsWith('404/')), 'the 404 page has one name');
  });

  it('--quiet prints nothing on success; --verbose names every stage', async (t) => {
    const dir = await makeSite(t);
    const quiet = await runCli(['build', '--quiet'], dir);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout, '');
    const verbose = await runCli(['build', '--verbose'], dir);
    assert.equal(verbose.code, 0, verbose.stderr);
    for (const stage of ['collect', 'openapi', 'compile', 'bundle', 'render', 'check-links', 'write', 'verify', 'publish']) {
      assert.match(verbose.stdout, new RegExp(`✓ ${stage} \\d`), `stage ${stage} is reported`);
    }
    assert.match(verbose.stdout, /Stages: config \d+(\.\d+)? m?s · collect/);
  });
});
