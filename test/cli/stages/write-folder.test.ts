/**
 * The one writer: a folder written as a diff against what it holds, called as many times
 * as needed (a batch at a time), with static files copied only when they changed.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openOutputFolder, pageOutputFiles, type OutputFile } from '../../../cli/stages/write.ts';
import type { RenderedPage } from '../../../cli/stages/render.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';

checkNoTempLeftovers();

const text = (rel: string, contents: string): OutputFile => ({ path: rel, origin: 'generated', contents });
const page = (route: string, html: string) => ({ route, html }) as RenderedPage;

async function listing(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('the output writer', () => {
  it('writes new and changed files only, and removes what goes with the folders it empties', async (t) => {
    const dir = await tempDir(t, 'write');
    const folder = openOutputFolder(dir);
    const first = await folder.write([...pageOutputFiles([page('/', '<p>home'), page('/docs/a', '<p>a'), page('/404', '<p>lost')]), text('assets/search/x/1.json', '{}')]);
    assert.deepEqual(first.written.sort(), ['404.html', 'assets/search/x/1.json', 'docs/a.html', 'docs/a/index.html', 'index.html']);
    assert.equal(first.bytes, '<p>home'.length + 2 * '<p>a'.length + '<p>lost'.length + 2);
    assert.deepEqual(await listing(dir), first.written.sort());

    // A second batch on the same folder: unchanged files are left alone.
    const second = await folder.write([...pageOutputFiles([page('/docs/a', '<p>a, edited'), page('/', '<p>home')])]);
    assert.deepEqual(second.written.sort(), ['docs/a.html', 'docs/a/index.html']);
    assert.equal(await readFile(path.join(dir, 'docs/a/index.html'), 'utf8'), '<p>a, edited');

    const removed = await folder.remove(['assets/search/x/1.json', 'docs/a.html', 'docs/a/index.html']);
    assert.deepEqual(removed.sort(), ['assets/search/x/1.json', 'docs/a.html', 'docs/a/index.html']);
    assert.deepEqual(await listing(dir), ['404.html', 'index.html']);
    assert.ok(!existsSync(path.join(dir, 'assets')) && !existsSync(path.join(dir, 'docs')), 'emptied folders go too');
  });

  it("writes a page's two names as one file, and a later write of one name leaves the other as it was", async (t) => {
    const dir = await tempDir(t, 'write');
    const folder = openOutputFolder(dir);
    await folder.write([...pageOutputFiles([page('/docs/a', '<p>a'), page('/docs/b', '<p>b')])]);
    const inode = async (rel: string) => (await stat(path.join(dir, rel))).ino;
    assert.equal(await inode('docs/a.html'), await inode('docs/a/index.html'));
    assert.notEqual(await inode('docs/a.html'), await inode('docs/b.html'));
    // Not what a build does, but what must never happen: a write through one name changing the other.
    await folder.write([{ path: 'docs/a.html', origin: 'page', contents: '<p>a, edited' }]);
    assert.equal(await readFile(path.join(dir, 'docs/a/index.html'), 'utf8'), '<p>a');
    await folder.write([...pageOutputFiles([page('/docs/a', '<p>a, edited')])]);
    assert.equal(await readFile(path.join(dir, 'docs/a/index.html'), 'utf8'), '<p>a, edited');
  });

  it('links a new file to the file `sameAs` names when their bytes are equal, and writes it when they are not', async (t) => {
    const dir = await tempDir(t, 'write');
    const folder = openOutputFolder(dir);
    await folder.write([text('assets/search/old/t/1.json', '{"a":1}'), text('assets/search/old/t/2.json', '{"b":2}')]);
    const sameAs = (rel: string) => rel.replace('/new/', '/old/');
    const { written } = await folder.write([text('assets/search/new/t/1.json', '{"a":1}'), text('assets/search/new/t/2.json', '{"b":3}'), text('assets/search/new/t/3.json', '{}')], { sameAs });
    assert.deepEqual(written.sort(), ['assets/search/new/t/1.json', 'assets/search/new/t/2.json', 'assets/search/new/t/3.json']);
    const inode = async (rel: string) => (await stat(path.join(dir, rel))).ino;
    assert.equal(await inode('assets/search/new/t/1.json'), await inode('assets/search/old/t/1.json'), 'equal bytes: one file under two names');
    assert.notEqual(await inode('assets/search/new/t/2.json'), await inode('assets/search/old/t/2.json'));
    assert.equal(await readFile(path.join(dir, 'assets/search/new/t/2.json'), 'utf8'), '{"b":3}');
    // The old folder goes; the new names keep their bytes.
    await folder.remove(['assets/search/old/t/1.json', 'assets/search/old/t/2.json']);
    assert.deepEqual(await listing(dir), ['assets/search/new/t/1.json', 'assets/search/new/t/2.json', 'assets/search/new/t/3.json']);
    assert.equal(await readFile(path.join(dir, 'assets/search/new/t/1.json'), 'utf8'), '{"a":1}');
  });

  it('leaves no temporary file when the file `sameAs` names is already there under the new name too', async (t) => {
    // A write stopped by a newer save can land after the next write has looked: the new
    // name is then a second name of the old file already, which the writer does not know.
    const dir = await tempDir(t, 'write');
    const folder = openOutputFolder(dir);
    await folder.write([text('assets/search/old/t/1.json', '{"a":1}'), text('assets/search/new/t/2.json', '{"b":2}')]);
    await link(path.join(dir, 'assets/search/old/t/1.json'), path.join(dir, 'assets/search/new/t/1.json'));
    await folder.write([text('assets/search/new/t/1.json', '{"a":1}')], { sameAs: (rel) => rel.replace('/new/', '/old/') });
    assert.deepEqual(await listing(dir), ['assets/search/new/t/1.json', 'assets/search/new/t/2.json', 'assets/search/old/t/1.json']);
    assert.equal(await readFile(path.join(dir, 'assets/search/new/t/1.json'), 'utf8'), '{"a":1}');
  });

  it('compares with what a folder already holds when it is opened, ignoring leftovers of an interrupted write', async (t) => {
    const dir = await tempDir(t, 'write');
    await mkdir(path.join(dir, 'docs'), { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<p>home');
    await writeFile(path.join(dir, 'docs', '.a.html.123-4.tmp'), 'half');
    const folder = openOutputFolder(dir);
    assert.deepEqual([...(await folder.files()).keys()], ['index.html']);
    const { written } = await folder.write([{ path: 'index.html', origin: 'page', contents: new TextEncoder().encode('<p>home') }]);
    assert.deepEqual(written, [], 'the same bytes, as a string or as bytes, are not written again');
  });

  it('copies a static file again only when its mtime or size changed', async (t) => {
    const dir = await tempDir(t, 'write');
    const source = path.join(await tempDir(t, 'static'), 'logo.svg');
    await writeFile(source, '<svg/>');
    const file = (signature: string): OutputFile => ({ path: 'img/logo.svg', origin: 'static', source, signature, size: 6 });
    const folder = openOutputFolder(dir);
    assert.deepEqual((await folder.write([file('1:6')])).written, ['img/logo.svg']);
    assert.deepEqual((await folder.write([file('1:6')])).written, []);
    await writeFile(source, '<svg></svg>');
    await utimes(source, new Date(), new Date());
    assert.deepEqual((await folder.write([file('2:11')])).written, ['img/logo.svg']);
    assert.equal(await readFile(path.join(dir, 'img/logo.svg'), 'utf8'), '<svg></svg>');
  });

  it('rewrites every file of a folder that remembers only paths', async (t) => {
    const dir = await tempDir(t, 'write');
    const folder = openOutputFolder(dir, { remember: 'paths' });
    await folder.write([text('a.txt', 'a')]);
    assert.deepEqual((await folder.write([text('a.txt', 'a')])).written, ['a.txt']);
    assert.equal((await folder.files()).get('a.txt')?.contents, undefined, 'no bytes are kept');
  });

  it('accepts files as they are made (an async iterable)', async (t) => {
    const dir = await tempDir(t, 'write');
    async function* made() {
      for (let i = 0; i < 3; i++) yield text(`f${i}.txt`, String(i));
    }
    const { written } = await openOutputFolder(dir).write(made());
    assert.deepEqual(written.sort(), ['f0.txt', 'f1.txt', 'f2.txt']);
  });
});
