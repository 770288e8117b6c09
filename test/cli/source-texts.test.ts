/**
 * The sources' texts kept by a build session: a file is read again when its
 * modification time or size changed, kept while both are the same, and forgotten once
 * the site no longer has it. In watch mode, where the file watcher reports every change,
 * only what it reported is asked again, and folders are listed again only after a file
 * was added or removed.
 */
import assert from 'node:assert/strict';
import { symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createSourceTextCache, listedSources, pruneSourceTexts, readSourceTexts, reportSourceChanges } from '../../cli/source-texts.ts';
import { listTree } from '../../cli/source-tree.ts';
import { tempDir } from '../helpers/temp.ts';

/** A file listed as itself, not through a link. */
const own = (file: string) => ({ file, real: file });

describe('source texts', () => {
  it('reads a file again once its time or size changed, with the time of the version read', async (t) => {
    const dir = await tempDir(t, 'texts');
    const file = path.join(dir, 'a.md');
    await writeFile(file, 'first');
    const cache = createSourceTextCache();
    assert.equal(readSourceTexts([own(file)], cache)[0]!.text, 'first');
    await writeFile(file, 'second, longer');
    await utimes(file, new Date('2023-04-05T06:07:08Z'), new Date('2023-04-05T06:07:08Z'));
    const [read] = readSourceTexts([own(file)], cache);
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
    readSourceTexts([own(file)], cache);
    // Same size, same time: what a build in the same session takes for the same file.
    await writeFile(file, 'two');
    await utimes(file, mtime, mtime);
    assert.equal(readSourceTexts([own(file)], cache)[0]!.text, 'one');
    // A fresh session reads the disk.
    assert.equal(readSourceTexts([own(file)], createSourceTextCache())[0]!.text, 'two');
  });

  it('forgets the files the site no longer has', async (t) => {
    const dir = await tempDir(t, 'texts');
    const [a, b] = [path.join(dir, 'a.md'), path.join(dir, 'b.md')];
    await Promise.all([writeFile(a, 'a'), writeFile(b, 'b')]);
    const cache = createSourceTextCache();
    readSourceTexts([own(a), own(b)], cache);
    pruneSourceTexts(cache, [b]);
    assert.deepEqual([...cache.files.keys()], [b]);
  });

  it('in watch mode, reads again only the files the watcher reported, and those reached through a link', async (t) => {
    const dir = await tempDir(t, 'texts');
    const [a, b, target] = ['a.md', 'b.md', 'target.md'].map((name) => path.join(dir, name)) as [string, string, string];
    const linked = path.join(dir, 'linked.md');
    await Promise.all([writeFile(a, 'a'), writeFile(b, 'b'), writeFile(target, 'target')]);
    await symlink(target, linked);
    const files = [own(a), own(b), { file: linked, real: target }];
    const cache = createSourceTextCache();
    reportSourceChanges(cache, []);
    assert.deepEqual(readSourceTexts(files, cache).map((s) => s.text), ['a', 'b', 'target']);
    await Promise.all([writeFile(a, 'a, edited'), writeFile(b, 'b, edited'), writeFile(target, 'target, edited')]);
    reportSourceChanges(cache, [a]);
    // b changed too, but the watcher did not say so: trusted, it is not asked. The link's target is.
    assert.deepEqual(readSourceTexts(files, cache).map((s) => s.text), ['a, edited', 'b', 'target, edited']);
    reportSourceChanges(cache, [b]);
    assert.deepEqual(readSourceTexts(files, cache).map((s) => s.text), ['a, edited', 'b, edited', 'target, edited']);
  });

  it('in watch mode, lists a folder again only after the watcher reported a file added or removed', async (t) => {
    const dir = await tempDir(t, 'texts');
    const [a, b] = [path.join(dir, 'a.md'), path.join(dir, 'b.md')];
    await writeFile(a, 'a');
    const cache = createSourceTextCache();
    let listings = 0;
    const list = () => (listings++, listTree(dir, { root: dir }));
    const names = () => listedSources(cache, dir, list).files.map((f) => f.rel);
    // Without a watcher, every build lists.
    assert.deepEqual(names(), ['a.md']);
    assert.deepEqual(names(), ['a.md']);
    assert.equal(listings, 2);
    reportSourceChanges(cache, []);
    readSourceTexts([own(a)], cache);
    assert.deepEqual(names(), ['a.md']);
    await writeFile(a, 'a, edited');
    reportSourceChanges(cache, [a]);
    assert.deepEqual(names(), ['a.md']);
    assert.equal(listings, 3, 'a change to a listed file keeps the listing');
    await writeFile(b, 'b');
    reportSourceChanges(cache, [b]);
    assert.deepEqual(names(), ['a.md', 'b.md']);
    readSourceTexts([own(a), own(b)], cache);
    await unlink(a);
    reportSourceChanges(cache, [a]);
    assert.deepEqual(names(), ['b.md']);
    assert.equal(listings, 5);
  });

  it('fails, as a read does, for a file that is gone', () => {
    assert.throws(() => readSourceTexts([own('/no/such/docsgen/source.md')], createSourceTextCache()), { code: 'ENOENT' });
  });
});
