/** Stage bundle: the browser code, split into the router, the islands a site uses, and shared chunks. */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../cli/config.ts';
import { DocsgenError } from '../../../cli/errors.ts';
import { bundle, createBundleCache } from '../../../cli/stages/bundle.ts';
import { usedIslands } from '../../../cli/stages/render.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { checkNoTempLeftovers } from '../../helpers/temp.ts';

checkNoTempLeftovers();

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
    assert.equal(path.resolve(error.file ?? ''), path.join(templates, 'client/main.ts'));
    assert.equal(error.line, 2);
    assert.match(error.excerpt ?? '', /2 \| export const broken = \(;/);
    assert.match(error.hint ?? '', /templates\/client/);
  });
});
