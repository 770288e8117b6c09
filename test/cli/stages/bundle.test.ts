/** Stage bundle: the browser code, split into the router, the islands a site uses, and shared chunks. */
import assert from 'node:assert/strict';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../../../cli/config.ts';
import { DocsgenError } from '../../../cli/errors.ts';
import { bundle, createBundleCache, disposeBundleCache, type BundleResult } from '../../../cli/stages/bundle.ts';
import { usedIslands } from '../../../cli/stages/render.ts';
import { withStaticImports } from '../../helpers/esm.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { repoRoot } from '../../helpers/site.ts';
import { checkNoTempLeftovers } from '../../helpers/temp.ts';

checkNoTempLeftovers();

/** Set by react-dom on the element it renders into; preact has no such key. */
const REACT_DOM = '__reactContainer$';

const contents = (result: BundleResult, file: string): Uint8Array => result.files.find((f) => f.path === file)!.contents;
const text = (result: BundleResult, files: string[]): string => files.map((file) => new TextDecoder().decode(contents(result, file))).join('\n');

describe('bundle', () => {
  it('bundles the router, the styles, the theme script and only the islands asked for, under hashed names', async (t) => {
    const config = await loadConfig(await makeSite(t));
    const islands = usedIslands(config);
    assert.ok(!islands.includes('api-reference'), 'a site without API reference pages does not use the Elements island');
    const result = await bundle(config, { islands });
    const paths = result.files.map((f) => f.path);
    assert.deepEqual(Object.keys(result.islands).sort(), [...islands].sort());
    assert.ok(!paths.some((p) => p.includes('api-reference')), paths.join(', '));
    assert.match(result.script, /^\/assets\/main-[A-Z0-9]{8}\.js$/);
    assert.deepEqual(result.styles.map((s) => /^\/assets\/styles-[A-Z0-9]{8}\.css$/.test(s)), [true]);
    for (const url of [result.script, ...result.styles, ...Object.values(result.islands).flatMap((i) => [i.js, ...i.css])]) {
      assert.ok(paths.includes(url.slice(1)), `${url} is one of the files`);
    }
    assert.match(result.themeInit, /^("use strict";)?\(\(\)=>\{.*\}\)\(\);$/s, 'the theme script is an inline IIFE');
    const router = new TextDecoder().decode(result.files.find((f) => `/${f.path}` === result.script)!.contents);
    assert.doesNotMatch(router, /node:|process\.env/, 'no build-time code in the router');
  });

  it('a site with API reference pages uses the Elements island', async (t) => {
    const config = await loadConfig(await makeSite(t, 'bad-openapi'));
    assert.ok(usedIslands(config).includes('api-reference'));
  });

  it('a cache without esbuild contexts reuses its result for another site with the same templates and islands', async (t) => {
    const [first, second] = await Promise.all([makeSite(t), makeSite(t)].map(async (dir) => loadConfig(await dir)));
    const cache = createBundleCache({ incremental: false });
    const one = await bundle(first!, { cache, islands: ['search'] });
    assert.equal(await bundle(second!, { cache, islands: ['search'] }), one, 'the same result, not a new bundle');
    const other = await bundle(second!, { cache, islands: ['search', 'copy-page'] });
    assert.notEqual(other, one);
    assert.deepEqual(Object.keys(other.islands).sort(), ['copy-page', 'search']);
    assert.equal(cache.contexts, undefined, 'nothing to dispose');
  });

  it('gives sites in different folders the same files, names and bytes: the bundle is the templates\' alone', async (t) => {
    // Fresh bundles, no cache: what a kept bundle of one site may be handed to another for (see bundle-store.ts).
    // The second one deeper: esbuild names inputs by their path from its working folder, the same from two sibling folders.
    const deeper = path.join(await makeSite(t), 'nested', 'site');
    await cp(await makeSite(t), deeper, { recursive: true });
    const [first, second] = await Promise.all([makeSite(t), deeper].map(async (dir) => loadConfig(await dir)));
    const [one, two] = await Promise.all([bundle(first!, { islands: ['copy-page'] }), bundle(second!, { islands: ['copy-page'] })]);
    const files = (result: BundleResult) => result.files.map((f) => [f.path, Buffer.from(f.contents).toString('base64')]).sort();
    assert.deepEqual(files(two!), files(one!));
    assert.deepEqual({ ...two!, files: [] }, { ...one!, files: [] });
  });

  it('builds the search island apart on preact/compat, with no React, while the API reference island keeps React', async (t) => {
    const config = await loadConfig(await makeSite(t, 'bad-openapi'));
    const result = await bundle(config, { islands: usedIslands(config) });
    const paths = result.files.map((f) => f.path);
    assert.equal(new Set(paths).size, paths.length, 'no file is made twice');
    const read = (file: string) => text(result, [file]);
    const search = await withStaticImports([result.islands.search!.js], read);
    const reference = await withStaticImports([result.islands['api-reference']!.js], read);
    assert.ok(!text(result, search).includes(REACT_DOM), `no react-dom in ${search.join(', ')}`);
    assert.ok(text(result, reference).includes(REACT_DOM), 'the API reference island runs on React');
    assert.deepEqual(search.filter((file) => reference.includes(file)), [], 'the two islands share no chunk');
    assert.deepEqual(result.islands.search!.css.map((url) => /^\/assets\/island-search-[A-Z0-9]{8}\.css$/.test(url)), [true], 'its own stylesheet');
    const gzip = search.reduce((sum, file) => sum + gzipSync(contents(result, file)).byteLength, 0);
    t.diagnostic(`search island with its static imports: ${search.join(', ')}; ${gzip} bytes gzip`);
  });

  it('an incremental cache rebuilds the preact islands when their sources change, and disposes their esbuild context', async (t) => {
    const root = await makeSite(t);
    // The site's own templates re-export docsgen's, so a test can change an island's source.
    const templates = path.join(root, 'templates');
    const reexport = async (file: string, extra = '') => {
      await mkdir(path.dirname(path.join(templates, file)), { recursive: true });
      const target = path.relative(path.dirname(path.join(templates, file)), path.join(repoRoot, 'templates', file)).split(path.sep).join('/');
      const line = file.endsWith('.css') ? `@import '${target}';` : file.includes('islands/') ? `export { mount } from '${target}';` : `import '${target}';`;
      await writeFile(path.join(templates, file), `${line}\n${extra}`);
    };
    await Promise.all(['client/main.ts', 'client/theme-init.ts', 'styles/main.css', 'client/islands/search.tsx'].map((file) => reexport(file)));
    const loaded = await loadConfig(root);
    const config = { ...loaded, dirs: { ...loaded.dirs, templates } };
    const cache = createBundleCache();
    try {
      const first = await bundle(config, { cache, islands: ['search'] });
      assert.equal(cache.contexts?.client.length, 2, 'one esbuild context per client build');
      assert.ok(cache.inputs?.has(path.join(repoRoot, 'templates/client/island-root.tsx')), 'the inputs of the preact build are watched');
      assert.equal(await bundle(config, { cache, islands: ['search'] }), first, 'nothing changed: the same result');
      await reexport('client/islands/search.tsx', 'export const edited = true;\n');
      const second = await bundle(config, { cache, islands: ['search'] });
      assert.notEqual(second.islands.search!.js, first.islands.search!.js);
      assert.equal(second.script, first.script, 'the router did not change');
    } finally {
      await disposeBundleCache(cache);
    }
    assert.equal(cache.contexts, undefined);
  });

  it('reports a syntax error in the client code with its file, line and a fix', async (t) => {
    const root = await makeSite(t);
    const templates = path.join(root, 'templates');
    await mkdir(path.join(templates, 'client'), { recursive: true });
    await mkdir(path.join(templates, 'styles'), { recursive: true });
    await writeFile(path.join(templates, 'client/main.ts'), 'const ok = 1;\nexport const broken = (;\n');
    await writeFile(path.join(templates, 'client/theme-init.ts'), 'document.documentElement.dataset.theme = "light";\n');
    await writeFile(path.join(templates, 'styles/main.css'), 'body { margin: 0; }\n');
    const loaded = await loadConfig(root);
    const config = { ...loaded, dirs: { ...loaded.dirs, templates } };
    const error = await bundle(config, { islands: [] }).then(
      () => assert.fail('the bundle should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof DocsgenError, String(error));
    assert.match(error.message, /^Client bundle failed: /);
    // Named from the site's folder, as the author knows it, wherever the command was started.
    assert.equal(error.file, path.join('templates', 'client', 'main.ts'));
    assert.equal(error.line, 2);
    assert.match(error.excerpt ?? '', /2 \| export const broken = \(;/);
    assert.match(error.hint ?? '', /templates\/client/);
  });
});
