/**
 * Cache files are written aside and renamed: a reader finds the whole file or none, a
 * failed write leaves nothing behind, and the name of a write under way is one that
 * pruning leaves alone.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isCacheWriteUnderWay, temporaryCacheName, writeCacheFile } from '../../cli/cache-file.ts';

describe('cache files', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'docsgen-cache-file-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes the bytes under the name, and nothing else stays in the folder', async () => {
    const file = path.join(dir, 'a.json');
    await writeCacheFile(file, '{"a":1}');
    await writeCacheFile(file, new Uint8Array([123, 125]));
    assert.equal(await readFile(file, 'utf8'), '{}');
    assert.deepEqual(await readdir(dir), ['a.json']);
  });

  it('leaves one whole file when the same name is written many times at once', async () => {
    const file = path.join(dir, 'b.bin');
    const bodies = Array.from({ length: 20 }, (_, i) => String(i).repeat(50_000));
    await Promise.all(bodies.map((body) => writeCacheFile(file, body)));
    assert.ok(bodies.includes(await readFile(file, 'utf8')), 'one of the bodies, whole');
    assert.deepEqual((await readdir(dir)).filter((name) => name.startsWith('b.bin')), ['b.bin']);
  });

  it('fails without leaving a file when the folder is missing', async () => {
    await assert.rejects(writeCacheFile(path.join(dir, 'missing', 'c.json'), 'x'), { code: 'ENOENT' });
    assert.deepEqual((await readdir(dir)).filter((name) => name.startsWith('c.json')), []);
  });

  it('tells a write under way from a finished entry', () => {
    assert.equal(isCacheWriteUnderWay(path.basename(temporaryCacheName(path.join(dir, '6.6-AbC_d-9')))), true);
    assert.equal(isCacheWriteUnderWay(path.basename(temporaryCacheName(path.join(dir, 'key.json')))), true);
    assert.equal(isCacheWriteUnderWay('6.6-AbC_d-9'), false);
    assert.equal(isCacheWriteUnderWay('key.json'), false);
  });
});
