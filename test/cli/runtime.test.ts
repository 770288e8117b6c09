/**
 * The JavaScript copy of docsgen that the command runs (cli/runtime.mjs), made from a small
 * stand-in of docsgen's folders: it runs, it points at its sources, it is made again exactly
 * when a source changes, and browser code is left out.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { prepareRuntime } from '../../cli/runtime.mjs';

describe('the JavaScript copy the command runs', () => {
  let root: string;
  const write = async (rel: string, text: string) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  };

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'docsgen-runtime-'));
    await write('tsconfig.json', JSON.stringify({ compilerOptions: { jsx: 'react-jsx', allowImportingTsExtensions: true } }));
    await write('cli/index.ts', "import { word } from './lib/word.ts';\nexport const said: string = `${word} from ${(import.meta as { docsgenRoot?: string }).docsgenRoot}`;\n");
    await write('cli/lib/word.ts', "export const word: string = 'hello';\n");
    await write('templates/components/Bold.tsx', 'export const Bold = ({ text }: { text: string }) => <b>{text}</b>;\n');
    await write('templates/client/main.ts', "document.title = 'browser only';\n");
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('runs, each module importing the copy of its neighbour, and knows the folder of its sources', async () => {
    const runtime = await prepareRuntime(root);
    assert.ok(runtime.dir.startsWith(path.join(root, 'node_modules', '.cache', 'docsgen', 'runtime') + path.sep));
    assert.equal(runtime.url, pathToFileURL(path.join(runtime.dir, 'cli', 'index.mjs')).href);
    const { said } = (await import(runtime.url)) as { said: string };
    assert.equal(said, `hello from ${root}`);
    assert.match(await readFile(path.join(runtime.dir, 'cli', 'index.mjs'), 'utf8'), /from "\.\/lib\/word\.mjs"/);
    assert.match(await readFile(path.join(runtime.dir, 'templates', 'components', 'Bold.mjs'), 'utf8'), /react\/jsx-runtime/);
  });

  it('leaves out the browser code, which is bundled from its sources', async () => {
    const runtime = await prepareRuntime(root);
    assert.equal(existsSync(path.join(runtime.dir, 'templates', 'client')), false);
  });

  it('reuses the copy while the sources are unchanged, and makes a new one when one changes', async () => {
    const first = await prepareRuntime(root);
    const made = statSync(path.join(first.dir, 'cli', 'index.mjs')).mtimeMs;
    const again = await prepareRuntime(root);
    assert.equal(again.dir, first.dir);
    assert.equal(statSync(path.join(again.dir, 'cli', 'index.mjs')).mtimeMs, made, 'the copy was not written again');

    await write('cli/lib/word.ts', "export const word: string = 'olá';\n");
    const changed = await prepareRuntime(root);
    assert.notEqual(changed.dir, first.dir);
    assert.equal(((await import(changed.url)) as { said: string }).said, `olá from ${root}`);
  });

  it('gives commands started together the same complete copy', async () => {
    await write('cli/lib/word.ts', "export const word: string = 'together';\n");
    const copies = await Promise.all([prepareRuntime(root), prepareRuntime(root), prepareRuntime(root)]);
    assert.equal(new Set(copies.map((c) => c.dir)).size, 1);
    assert.equal(((await import(copies[0]!.url)) as { said: string }).said, `together from ${root}`);
    const leftovers = readdirSync(path.dirname(copies[0]!.dir)).filter((name) => name.endsWith('.tmp'));
    assert.deepEqual(leftovers, []);
  });
});
