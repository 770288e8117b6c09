/**
 * The page writer: pages handed over one by one end up under both of their names, each
 * with its compressed copies, however many batches they took; a copy that cannot be made
 * fails finish() instead of being lost.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { createPrecompressor, type Precompressor } from '../../../cli/stages/precompress.ts';
import type { RenderedPage } from '../../../cli/stages/render.ts';
import { createPageWriter } from '../../../cli/stages/write-pages.ts';
import { openStagingFolder } from '../../../cli/stages/write.ts';

const made: string[] = [];
after(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function outDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docsgen-write-pages-'));
  made.push(dir);
  return path.join(dir, 'dist');
}

const page = (i: number): RenderedPage => ({
  route: `/docs/p${i}`,
  kind: 'doc',
  title: `P${i}`,
  description: '',
  // Over the size below which no copy is made.
  html: `<!DOCTYPE html><html><body><h1>Page ${i}</h1>${'<p>texto de exemplo</p>'.repeat(100)}</body></html>`,
  sourceLinks: [],
  indexable: true,
});

describe('page writer', () => {
  it('writes every page under both names, each with its brotli and gzip copies, across many batches', async () => {
    const folder = await openStagingFolder(await outDir());
    const writer = createPageWriter(folder, { precompressor: createPrecompressor(folder.dir) });
    // Enough pages for several batches, with compression of one batch still running when the next is written.
    const pages = Array.from({ length: 150 }, (_, i) => page(i));
    for (const p of pages) await writer.add(p);
    const { fileCount } = await writer.finish();
    assert.equal(fileCount, pages.length * 2);
    for (const p of pages) {
      for (const file of [`${p.route.slice(1)}.html`, `${p.route.slice(1)}/index.html`]) {
        const full = path.join(folder.dir, file);
        assert.equal(await readFile(full, 'utf8'), p.html, file);
        assert.equal(brotliDecompressSync(await readFile(`${full}.br`)).toString(), p.html, `${file}.br`);
        assert.ok(existsSync(`${full}.gz`), `${file}.gz`);
      }
    }
  });

  it('fails finish() when a page cannot be compressed', async () => {
    const folder = await openStagingFolder(await outDir());
    const failing: Precompressor = {
      add: async (rels) => {
        if (rels.some((rel) => rel.includes('p7'))) throw new Error('disk full');
      },
      prepare: () => undefined,
      finish: async () => ({ files: 0, copies: 0, reused: 0 }),
    };
    const writer = createPageWriter(folder, { precompressor: failing });
    const added = (async () => {
      for (let i = 0; i < 100; i++) await writer.add(page(i));
    })();
    await assert.rejects(added.then(() => writer.finish()), /disk full/);
  });
});
