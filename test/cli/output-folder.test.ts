/**
 * The output folders a build refuses before it starts: a build replaces its output folder
 * as a whole and watch mode deletes what the build does not produce there, so a folder
 * holding the sources, lying inside them, or holding files no build wrote is refused with
 * what is there and the fix, and nothing in it is touched.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DocsgenError } from '../../cli/errors.ts';
import { checkOutputFolder, makeOutputFolder } from '../../cli/output-folder.ts';
import { checkNoTempLeftovers, tempDir } from '../helpers/temp.ts';

checkNoTempLeftovers();

const refusal = (pattern: RegExp, hint: RegExp) => (error: unknown) =>
  error instanceof DocsgenError && pattern.test(error.message) && hint.test(error.hint ?? '') ? true : assert.fail(`unexpected: ${String(error)}`);

describe('the output folder', () => {
  it('refuses the site itself, a folder holding it, a source folder, a folder inside one and a folder holding one', async (t) => {
    const parent = await tempDir(t, 'out-folder');
    const root = path.join(parent, 'site');
    const content = path.join(root, 'content');
    const spec = path.join(root, 'openapi', 'api.yaml');
    await mkdir(path.dirname(spec), { recursive: true });
    await writeFile(spec, 'openapi: 3.1.0\n');
    const check = { root, sources: [content, spec], option: '--out' };
    const fix = /Pass a folder of its own with --out/;
    assert.throws(() => checkOutputFolder(root, check), refusal(/holds the site itself/, fix));
    assert.throws(() => checkOutputFolder(parent, check), refusal(/holds the site itself/, fix));
    assert.throws(() => checkOutputFolder(content, check), refusal(/is one the build reads its sources from/, fix));
    assert.throws(() => checkOutputFolder(path.join(content, 'out'), check), refusal(/content\/, which the build reads/, fix));
    assert.throws(() => checkOutputFolder(path.join(root, 'openapi'), check), refusal(/holds \S*api\.yaml, which the build reads/, fix));
    assert.doesNotThrow(() => checkOutputFolder(path.join(root, 'dist'), check), 'a folder that does not exist yet');
  });

  it('refuses a folder holding files no build wrote, names them, and leaves them be', async (t) => {
    const root = await tempDir(t, 'out-folder');
    const publicDir = path.join(root, 'public');
    await mkdir(publicDir);
    for (const name of ['NOTES.md', 'a.txt', 'b.txt', 'c.txt']) await writeFile(path.join(publicDir, name), name);
    assert.throws(
      () => checkOutputFolder(publicDir, { root, sources: [], option: '--dir' }),
      refusal(/public\/ holds files no docsgen build wrote \(NOTES\.md, a\.txt, b\.txt and 1 more\)/, /Pass a new or empty folder with --dir, or move those files out first/),
    );
    assert.deepEqual((await readdir(publicDir)).sort(), ['NOTES.md', 'a.txt', 'b.txt', 'c.txt']);
  });

  it("accepts an empty folder, one an earlier build wrote, and watch mode's placeholder folder", async (t) => {
    const root = await tempDir(t, 'out-folder');
    const check = { root, sources: [], option: '--out' };
    const empty = path.join(root, 'empty');
    await mkdir(empty);
    assert.doesNotThrow(() => checkOutputFolder(empty, check));
    const built = path.join(root, 'dist');
    await mkdir(path.join(built, '.docsgen'), { recursive: true });
    await writeFile(path.join(built, 'index.html'), '<!DOCTYPE html>');
    await writeFile(path.join(built, 'stray.html'), 'left in an earlier output');
    assert.doesNotThrow(() => checkOutputFolder(built, check));
    const placeholder = path.join(root, 'served');
    await makeOutputFolder(placeholder);
    await writeFile(path.join(placeholder, 'index.html'), '<!DOCTYPE html><title>Building…</title>');
    assert.doesNotThrow(() => checkOutputFolder(placeholder, check));
  });
});
