/**
 * The sources' texts kept by a build session: a file is read again when its
 * modification time or size changed, kept while both are the same, and forgotten once
 * the site no longer has it.
 */
import assert from 'node:assert/strict';
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createSourceTextCache, pruneSourceTexts, readSourceTexts } from '../../cli/source-texts.ts';
import { tempDir } from '../helpers/temp.ts';

describe('source texts', () => {
  it('reads a file again once its time or size changed, with the time of the version read', async (t) => {
    const dir = await tempDir(t, 'texts');
    const file = path.join(dir, 'a.md');
    await writeFile(file, 'first');
    const cache = createSourceTextCache();
    assert.equal(readSourceTexts([file], cache)[0]!.text, 'first');
    await writeFile(file, 'second, longer');
    await utimes(file, new Date('2023-04-05T06:07:08Z'), new Date('2023-04-05T06:07:08Z'));
    const [read] = readSourceTexts([file], cache);
    assert.equal(read!.text, 'second, longer');
    assert.equal(new Date(read!.mtimeMs).toISOString(), '2023-04-05T06:07:08.000Z');
  });

  it('keeps the text while the time and size are the ones it was read with', async (t) => {
    const dir = await tempDir(t, 'texts');
    const file = path.join(dir, 'a.md');
    // A whole second: utimes() cannot give back the nanoseconds a write left.
    const mtime = new Date('2024-01-02T03:04:05Z');
    await writeFile(file, 'one');
    await utimes(file, mtime, mtime);
    const cache = createSourceTextCache();
    readSourceTexts([file], cache);
    // Same size, same time: what a build in the same session takes for the same file.
    await writeFile(file, 'two');
    await utimes(file, mtime, mtime);
    assert.equal(readSourceTexts([file], cache)[0]!.text, 'one');
    // A fresh session reads the disk.
    assert.equal(readSourceTexts([file], createSourceTextCache())[0]!.text, 'two');
  });

  it('forgets the files the site no longer has', async (t) => {
    const dir = await tempDir(t, 'texts');
    const [a, b] = [path.join(dir, 'a.md'), path.join(dir, 'b.md')];
    await Promise.all([writeFile(a, 'a'), writeFile(b, 'b')]);
    const cache = createSourceTextCache();
    readSourceTexts([a, b], cache);
    pruneSourceTexts(cache, [b]);
    assert.deepEqual([...cache.files.keys()], [b]);
  });

  it('fails, as a read does, for a file that is gone', () => {
    assert.throws(() => readSourceTexts(['/no/such/docsgen/source.md'], createSourceTextCache()), { code: 'ENOENT' });
  });
});
