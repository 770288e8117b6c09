/** The client bundle kept between builds: given back whole while its inputs keep their bytes, and never after one changed. */
import assert from 'node:assert/strict';
import { readdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bundleKey, createBundleStore, flushBundleStore, readBundle, saveBundle } from '../../../cli/stages/bundle-store.ts';
import type { BundleResult } from '../../../cli/stages/bundle.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';

checkNoTempLeftovers();

const bytes = (text: string) => new TextEncoder().encode(text);

function result(): BundleResult {
  return {
    files: [
      { path: 'assets/main-AAAA1111.js', contents: bytes('console.log(1)') },
      { path: 'assets/empty-BBBB2222.css', contents: bytes('') },
      { path: 'assets/island-x-CCCC3333.js', contents: bytes('export{}') },
    ],
    script: '/assets/main-AAAA1111.js',
    styles: ['/assets/styles-DDDD4444.css'],
    themeInit: '(()=>{})()',
    islands: { x: { js: '/assets/island-x-CCCC3333.js', css: [] } },
  };
}

async function setUp(t: Parameters<typeof tempDir>[0]) {
  const dir = await tempDir(t, 'bundle-store');
  const inputs = [path.join(dir, 'main.ts'), path.join(dir, 'island.tsx')];
  await writeFile(inputs[0]!, 'export const a = 1;');
  await writeFile(inputs[1]!, 'export const b = 2;');
  const store = createBundleStore(path.join(dir, 'cache'));
  return { inputs, store };
}

const plain = (r: BundleResult) => ({ ...r, files: r.files.map((f) => ({ path: f.path, contents: Buffer.from(f.contents).toString() })) });

describe('bundle store', () => {
  it('gives back the same files, URLs and islands while every input has the same bytes', async (t) => {
    const { inputs, store } = await setUp(t);
    const key = bundleKey('["entries"]');
    assert.equal(await readBundle(store, key), undefined, 'nothing kept yet');
    saveBundle(store, key, result(), inputs);
    await flushBundleStore(store);
    const kept = await readBundle(store, key);
    assert.ok(kept);
    assert.deepEqual(plain(kept.result), plain(result()));
    assert.deepEqual(kept.inputs, inputs);
    assert.equal(await readBundle(store, bundleKey('["other entries"]')), undefined, 'other entry points have their own key');
  });

  it('is not used once an input changed, even with the same size and time, or is gone', async (t) => {
    const { inputs, store } = await setUp(t);
    const key = bundleKey('["entries"]');
    saveBundle(store, key, result(), inputs);
    await flushBundleStore(store);
    // Same length, same mtime: what npm gives the files of another version of a package.
    await writeFile(inputs[0]!, 'export const a = 2;');
    const time = new Date('1985-10-26T08:15:00Z');
    await utimes(inputs[0]!, time, time);
    assert.equal(await readBundle(store, key), undefined);
    await writeFile(inputs[0]!, 'export const a = 1;');
    assert.ok(await readBundle(store, key), 'the same bytes again');
    await rm(inputs[1]!);
    assert.equal(await readBundle(store, key), undefined);
  });

  it('keeps one entry: a new one replaces the others, and no temporary file stays', async (t) => {
    const { inputs, store } = await setUp(t);
    const first = bundleKey('["a"]');
    const second = bundleKey('["b"]');
    saveBundle(store, first, result(), inputs);
    await flushBundleStore(store);
    saveBundle(store, second, result(), inputs);
    await flushBundleStore(store);
    assert.deepEqual((await readdir(store.dir)).sort(), [`${second}.bin`, `${second}.json`]);
    assert.equal(await readBundle(store, first), undefined);
    assert.ok(await readBundle(store, second));
  });

  it('read only, takes the entries of the folder and leaves the folder as it was', async (t) => {
    const { inputs, store } = await setUp(t);
    const key = bundleKey('["entries"]');
    saveBundle(store, key, result(), inputs);
    await flushBundleStore(store);
    const before = (await readdir(store.dir)).sort();
    const reader = createBundleStore(store.dir, { readOnly: true });
    assert.ok(await readBundle(reader, key));
    saveBundle(reader, bundleKey('["other entries"]'), result(), inputs);
    await flushBundleStore(reader);
    assert.deepEqual((await readdir(store.dir)).sort(), before, 'nothing written, nothing removed');
  });

  it('an entry whose bytes were cut short is not used', async (t) => {
    const { inputs, store } = await setUp(t);
    const key = bundleKey('["entries"]');
    saveBundle(store, key, result(), inputs);
    await flushBundleStore(store);
    await writeFile(path.join(store.dir, `${key}.bin`), 'console.lo');
    assert.equal(await readBundle(store, key), undefined);
  });
});
