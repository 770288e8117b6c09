/** The precompress stage's cache: what did not change is copied from it, byte for byte, and it keeps only what the last build used. */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { brotliWindowBits, createCompressedAssetCache, createPrecompressor, precompress } from '../../../cli/stages/precompress.ts';
import { waitFor } from '../../helpers/wait.ts';

let tmp: string;
before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'docsgen-precompress-'));
});
after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const page = `<!doctype html><title>x</title>${'<p>Sorria para pagar, sem filas.</p>\n'.repeat(80)}`;
const script = (n: number) => Array.from({ length: 300 }, (_, i) => `export const v${i} = ${(i * n) % 997};`).join('\n');

/** A small output folder: one page under both of its names, a script, a file too small to compress. */
async function site(name: string, scriptVersion: number): Promise<string> {
  const dir = path.join(tmp, name);
  await mkdir(path.join(dir, 'docs/intro'), { recursive: true });
  await writeFile(path.join(dir, 'docs/intro.html'), page);
  await writeFile(path.join(dir, 'docs/intro/index.html'), page);
  await writeFile(path.join(dir, 'main.js'), script(scriptVersion));
  await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *\n');
  return dir;
}

async function copies(dir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dir, { recursive: true })).map(String).filter((f) => /\.(br|gz)$/.test(f)).sort();
  return new Map(await Promise.all(names.map(async (f) => [f, await readFile(path.join(dir, f))] as const)));
}

/** The window a brotli stream declares in its first bits (RFC 7932, 9.1): what a reader allocates to decode it. */
function declaredWindowBits(stream: Buffer): number {
  let bit = 0;
  const read = (n: number) => {
    let value = 0;
    for (let i = 0; i < n; i++, bit++) value |= ((stream[bit >> 3]! >> (bit & 7)) & 1) << i;
    return value;
  };
  if (read(1) === 0) return 16;
  const n = read(3);
  if (n !== 0) return 17 + n;
  const m = read(3);
  return m === 0 ? 17 : 8 + m;
}

describe('precompress', () => {
  it("fits brotli's window to each file, so a reader decodes a page with a window its size, not 4 MB", async () => {
    assert.deepEqual([100, 1000, 33_000, 65_520, 65_521, 3_000_000, 50_000_000].map(brotliWindowBits), [10, 10, 16, 16, 17, 22, 22]);
    const dir = await site('window', 3);
    await precompress(dir);
    const copy = await readFile(path.join(dir, 'docs/intro.html.br'));
    assert.equal(declaredWindowBits(copy), brotliWindowBits(Buffer.byteLength(page)));
    assert.ok(declaredWindowBits(copy) < 22, `a ${Buffer.byteLength(page)}-byte page declares a ${declaredWindowBits(copy)}-bit window`);
    assert.equal(zlib.brotliDecompressSync(copy).toString(), page);
  });

  it('compresses each distinct content once, reuses the cache on the next build with the same bytes, and prunes what is no longer used', async () => {
    const cache = path.join(tmp, 'cache');
    const first = await site('first', 7);
    assert.deepEqual(await precompress(first, { cacheDir: cache }), { files: 3, copies: 6, reused: 0 });
    const made = await copies(first);
    assert.deepEqual([...made.keys()], ['docs/intro.html.br', 'docs/intro.html.gz', 'docs/intro/index.html.br', 'docs/intro/index.html.gz', 'main.js.br', 'main.js.gz']);
    assert.deepEqual(zlib.brotliDecompressSync(made.get('main.js.br')!).toString(), script(7));
    assert.equal((await readdir(cache)).length, 2, 'two contents, one entry each');

    const second = await site('second', 7);
    assert.deepEqual(await precompress(second, { cacheDir: cache }), { files: 3, copies: 6, reused: 2 });
    assert.deepEqual(await copies(second), made, 'the same bytes as when compressed');

    const third = await site('third', 11);
    assert.deepEqual(await precompress(third, { cacheDir: cache }), { files: 3, copies: 6, reused: 1 });
    assert.deepEqual(zlib.gunzipSync((await copies(third)).get('main.js.gz')!).toString(), script(11));
    assert.equal((await readdir(cache)).length, 2, 'the old script’s entry is gone');

    // A cache entry cut short (a disk that filled up) is made again.
    const entry = path.join(cache, (await readdir(cache)).sort()[0]!);
    await writeFile(entry, (await readFile(entry)).subarray(0, 6));
    const fourth = await site('fourth', 11);
    assert.deepEqual(await precompress(fourth, { cacheDir: cache }), { files: 3, copies: 6, reused: 1 });
    assert.deepEqual(await copies(fourth), await copies(third));
  });

  it('gives pages handed over as they are written the copies a later pass over the folder gives, and compresses them once', async () => {
    const whole = await site('whole', 4);
    const handed = await site('handed', 4);
    await precompress(whole);
    const cache = path.join(tmp, 'cache-handed');
    const precompressor = createPrecompressor(handed, { cacheDir: cache });
    await precompressor.add(['docs/intro.html', 'docs/intro/index.html'], Buffer.from(page));
    assert.ok((await readdir(path.join(handed, 'docs'))).includes('intro.html.br'), 'copies are written when the page is handed over');
    const [one, other] = await Promise.all(['docs/intro.html.br', 'docs/intro/index.html.br'].map((rel) => stat(path.join(handed, rel))));
    assert.equal(one!.ino, other!.ino, "the copies beside the page's two names are one file under two names");
    // Three files with copies, not five: the later pass left the two names of the page alone.
    assert.deepEqual(await precompressor.finish(), { files: 3, copies: 6, reused: 0 });
    assert.deepEqual(await copies(handed), await copies(whole));
    assert.equal((await readdir(cache)).length, 2, 'the cache keeps the page and the script, both used by this build');
  });

  it('takes the copies prepare() started for a file written later, the same a pass over the folder makes', async () => {
    const whole = await site('whole-prepared', 6);
    await precompress(whole);
    const dir = await site('prepared', 6);
    const script = await readFile(path.join(dir, 'main.js'));
    await rm(path.join(dir, 'main.js'));
    const cache = path.join(tmp, 'cache-prepared');
    const precompressor = createPrecompressor(dir, { cacheDir: cache });
    precompressor.prepare('main.js', script);
    precompressor.prepare('robots.txt', Buffer.from('User-agent: *\n'));
    await writeFile(path.join(dir, 'main.js'), script);
    // Once the prepared copies are in the cache, a finish() that made them again would count them as reused.
    await waitFor('the prepared copies in the cache', async () => (await readdir(cache).catch(() => [])).some((name) => !name.endsWith('.tmp')));
    assert.deepEqual(await precompressor.finish(), { files: 3, copies: 6, reused: 0 });
    assert.deepEqual(await copies(dir), await copies(whole));
  });

  it("reuses the session's copies of the hashed assets, in memory, for the next builds of the process, made once even when they overlap", async () => {
    const assets = createCompressedAssetCache();
    const folder = async (name: string) => {
      const dir = await site(name, 9);
      await mkdir(path.join(dir, 'assets'), { recursive: true });
      await writeFile(path.join(dir, 'assets/main-ABC123.js'), script(9));
      return dir;
    };
    const plain = await folder('assets-plain');
    await precompress(plain);
    // Two builds at once (a failed build's prepared bundle still compressing when the next one starts): one compression.
    const [one, two] = await Promise.all(['assets-one', 'assets-two'].map(async (name) => createPrecompressor(await folder(name), { assets })));
    one!.prepare('assets/main-ABC123.js', Buffer.from(script(9)));
    two!.prepare('assets/main-ABC123.js', Buffer.from(script(9)));
    const results = await Promise.all([one!.finish(), two!.finish()]);
    // main.js and the page, at the quicker level, are not kept: each build compresses them.
    assert.deepEqual(results.map((r) => r.reused).sort(), [0, 1]);
    const third = createPrecompressor(await folder('assets-three'), { assets, cacheDir: path.join(tmp, 'cache-assets') });
    assert.deepEqual(await third.finish(), { files: 4, copies: 8, reused: 1 });
    assert.equal((await readdir(path.join(tmp, 'cache-assets'))).length, 3, 'a copy taken from memory is written to the cache folder too');
    for (const name of ['assets-one', 'assets-two', 'assets-three']) assert.deepEqual(await copies(path.join(tmp, name)), await copies(plain));
  });

  it("takes the hashed assets' copies from another build's cache folder, and leaves that folder as it was", async () => {
    const folder = async (name: string) => {
      const dir = await site(name, 7);
      await mkdir(path.join(dir, 'assets'), { recursive: true });
      await writeFile(path.join(dir, 'assets/main-DEF456.js'), script(7));
      return dir;
    };
    const shelf = path.join(tmp, 'cache-shelf');
    const first = await folder('shelf-first');
    await precompress(first, { cacheDir: shelf });
    const entries = async () => new Map(await Promise.all((await readdir(shelf)).map(async (name) => [name, await readFile(path.join(shelf, name))] as const)));
    const before = await entries();
    const dir = await folder('shelf-second');
    // The page and main.js are compressed again (only assets are taken from elsewhere), the asset is not.
    assert.deepEqual(await createPrecompressor(dir, { assets: createCompressedAssetCache({ shelf }) }).finish(), { files: 4, copies: 8, reused: 1 });
    assert.deepEqual(await copies(dir), await copies(first));
    assert.deepEqual(await entries(), before, 'nothing written to the shelf, nothing removed');
  });

  it('works without a cache, and gives the bytes a cached run gives', async () => {
    const plain = await site('plain', 5);
    const cached = await site('cached', 5);
    assert.deepEqual(await precompress(plain), { files: 3, copies: 6, reused: 0 });
    await precompress(cached, { cacheDir: path.join(tmp, 'cache-2') });
    assert.deepEqual(await copies(plain), await copies(cached));
    assert.equal(zlib.brotliDecompressSync((await copies(plain)).get('docs/intro.html.br')!).toString(), page);
  });

  it("gives the hashed files under assets/ brotli's and gzip's top levels, and pages and the search index quicker ones", async () => {
    const dir = path.join(tmp, 'quality');
    await mkdir(path.join(dir, 'assets'), { recursive: true });
    await writeFile(path.join(dir, 'assets/main-ABC123.js'), script(3));
    await writeFile(path.join(dir, 'page.html'), script(3));
    await mkdir(path.join(dir, 'assets/search/0123456789/t'), { recursive: true });
    await writeFile(path.join(dir, 'assets/search/0123456789/t/0.json'), script(3));
    await precompress(dir);
    const brotliAt = (quality: number) => zlib.brotliCompressSync(Buffer.from(script(3)), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(script(3)), [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(Buffer.byteLength(script(3))) } });
    assert.ok((await readFile(path.join(dir, 'assets/main-ABC123.js.br'))).equals(brotliAt(11)), 'an asset at quality 11');
    assert.ok((await readFile(path.join(dir, 'page.html.br'))).equals(brotliAt(6)), 'a page at quality 6');
    assert.ok((await readFile(path.join(dir, 'assets/search/0123456789/t/0.json.br'))).equals(brotliAt(6)), 'the search index, which changes with every page, at quality 6');
    assert.notDeepEqual(brotliAt(11), brotliAt(6), 'the two qualities give different bytes for this input');
    const gzipAt = (level: number) => zlib.gzipSync(Buffer.from(script(3)), { level });
    assert.ok((await readFile(path.join(dir, 'assets/main-ABC123.js.gz'))).equals(gzipAt(9)), 'an asset at gzip level 9');
    assert.ok((await readFile(path.join(dir, 'page.html.gz'))).equals(gzipAt(6)), 'a page at gzip level 6');
    assert.ok((await readFile(path.join(dir, 'assets/search/0123456789/t/0.json.gz'))).equals(gzipAt(6)), 'the search index at gzip level 6');
    assert.notDeepEqual(gzipAt(9), gzipAt(6), 'the two levels give different bytes for this input');
  });
});
