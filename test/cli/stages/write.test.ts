/** Stage write: a site in memory becomes files in a staging folder beside the output. */
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../cli/config.ts';
import { stagingDir } from '../../../cli/stages/publish.ts';
import type { RenderedPage } from '../../../cli/stages/render.ts';
import { write } from '../../../cli/stages/write.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { checkNoTempLeftovers } from '../../helpers/temp.ts';

checkNoTempLeftovers();

const page = (route: string, html: string): RenderedPage => ({ route, kind: 'page', title: route, description: '', html, sourceLinks: [], indexable: true });
const bytes = (text: string) => new TextEncoder().encode(text);

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
}

describe('write', () => {
  it('writes each page under both of its names, the assets, the generated files and the static files, into the staging folder', async (t) => {
    const root = await makeSite(t);
    await mkdir(path.join(root, 'static/img'), { recursive: true });
    await writeFile(path.join(root, 'static/img/logo.svg'), '<svg/>');
    const config = await loadConfig(root);
    const outDir = path.join(root, 'dist');
    const pages = [page('/', '<p>home</p>'), page('/404', '<p>lost</p>'), page('/docs/guia/passo', '<p>passo</p>')];
    const result = await write({ pages, assets: [{ path: 'assets/main-ABCDEFGH.js', contents: bytes('run()') }], generated: [{ path: 'blog/rss.xml', contents: bytes('<rss/>') }] }, config, outDir);

    assert.equal(result.dir, stagingDir(outDir));
    assert.deepEqual(await listFiles(result.dir), ['404.html', 'assets/main-ABCDEFGH.js', 'blog/rss.xml', 'docs/guia/passo.html', 'docs/guia/passo/index.html', 'favicon.ico', 'img/logo.svg', 'index.html']);
    assert.equal(await readFile(path.join(result.dir, 'docs/guia/passo.html'), 'utf8'), '<p>passo</p>');
    assert.equal(await readFile(path.join(result.dir, 'docs/guia/passo/index.html'), 'utf8'), '<p>passo</p>');
    assert.equal(await readFile(path.join(result.dir, 'img/logo.svg'), 'utf8'), '<svg/>');
    assert.equal(result.fileCount, 8);
    const staticBytes = (await stat(path.join(root, 'static/favicon.ico'))).size + Buffer.byteLength('<svg/>');
    const written = ['<p>home</p>', '<p>lost</p>', '<p>passo</p>', '<p>passo</p>', 'run()', '<rss/>'].reduce((sum, s) => sum + Buffer.byteLength(s), 0);
    assert.equal(result.bytes, written + staticBytes, 'bytes of every file it wrote, the static files included');
    assert.deepEqual(await listFiles(outDir).catch(() => []), [], 'nothing is written where readers look');
  });

  it('starts from an empty staging folder: files of an earlier, interrupted write are gone', async (t) => {
    const root = await makeSite(t);
    const config = await loadConfig(root);
    const outDir = path.join(root, 'dist');
    await mkdir(stagingDir(outDir), { recursive: true });
    await writeFile(path.join(stagingDir(outDir), 'stale.html'), 'old');
    const result = await write({ pages: [page('/', 'new')], assets: [], generated: [] }, config, outDir);
    assert.deepEqual(await listFiles(result.dir), ['favicon.ico', 'index.html']);
  });
});
