/** The API pages' highlighted code kept between builds: what it gives back, and when it must give nothing. */
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openHighlightStore } from '../../../cli/openapi/highlight-store.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';

checkNoTempLeftovers();

const CLASSES: [string, string][] = [['sh-abc', 'color:#111']];

describe('highlight store', () => {
  it('gives a next build what this one kept, by language and code, with its classes', async (t) => {
    const dir = await tempDir(t, 'highlight-store');
    const first = await openHighlightStore(dir, 'salt-1');
    assert.equal(first.get('json', '{}'), undefined);
    first.keep('json', '{}', '<pre>json</pre>', CLASSES);
    first.keep('bash', '{}', '<pre>bash</pre>', []);
    await first.save();
    const next = await openHighlightStore(dir, 'salt-1');
    assert.deepEqual(next.get('json', '{}'), { html: '<pre>json</pre>', classes: CLASSES });
    assert.deepEqual(next.get('bash', '{}'), { html: '<pre>bash</pre>', classes: [] });
    assert.equal(next.get('json', '{ }'), undefined, 'other code is not found');
    assert.deepEqual(await readdir(dir), ['api-code.json'], 'no temporary file is left');
  });

  it('is empty for another compiler (salt), and when its file is unreadable', async (t) => {
    const dir = await tempDir(t, 'highlight-store');
    const first = await openHighlightStore(dir, 'salt-1');
    first.keep('json', '{}', '<pre>json</pre>', CLASSES);
    await first.save();
    assert.equal((await openHighlightStore(dir, 'salt-2')).get('json', '{}'), undefined);
    await writeFile(path.join(dir, 'api-code.json'), '{"salt":"salt-1","entries":');
    assert.equal((await openHighlightStore(dir, 'salt-1')).get('json', '{}'), undefined);
  });

  it('keeps only what the last build used, and leaves the file alone when nothing changed', async (t) => {
    const dir = await tempDir(t, 'highlight-store');
    const file = path.join(dir, 'api-code.json');
    const first = await openHighlightStore(dir, 'salt-1');
    first.keep('json', 'a', '<pre>a</pre>', []);
    first.keep('json', 'b', '<pre>b</pre>', []);
    await first.save();
    const same = await openHighlightStore(dir, 'salt-1');
    same.keep('json', 'a', '<pre>a</pre>', []);
    same.keep('json', 'b', '<pre>b</pre>', []);
    const before = (await stat(file)).mtimeMs;
    const text = await readFile(file, 'utf8');
    await same.save();
    assert.equal((await stat(file)).mtimeMs, before);
    assert.equal(await readFile(file, 'utf8'), text);
    const fewer = await openHighlightStore(dir, 'salt-1');
    fewer.keep('json', 'a', '<pre>a</pre>', []);
    await fewer.save();
    const last = await openHighlightStore(dir, 'salt-1');
    assert.ok(last.get('json', 'a'));
    assert.equal(last.get('json', 'b'), undefined, 'code no build shows any more is dropped');
  });

  it('without a folder keeps nothing and writes nothing', async () => {
    const store = await openHighlightStore(undefined, 'salt-1');
    store.keep('json', '{}', '<pre>json</pre>', []);
    await store.save();
    assert.equal(store.get('json', '{}'), undefined);
  });
});
