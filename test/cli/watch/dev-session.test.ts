/**
 * The dev session on its own, without a server or a browser: the first build fills the
 * served folder, an edit rewrites only its page and says which route changed, a broken
 * file is an outcome (not a crash) that leaves the last good page served, and the fix
 * recovers.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DocsgenError, DocsgenErrors } from '../../../cli/errors.ts';
import { TEMPLATES_DIR } from '../../../cli/paths.ts';
import { createCompileCache, disposeCompileCache, getHighlighter } from '../../../cli/stages/compile.ts';
import { createDevSession, warmGrammars } from '../../../cli/watch/dev-session.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { checkNoTempLeftovers } from '../../helpers/temp.ts';

checkNoTempLeftovers();

describe('dev session', () => {
  it('builds, rebuilds an edit, survives a broken file and recovers', async (t) => {
    const root = await makeSite(t);
    const outDir = path.join(root, 'dist');
    const dev = createDevSession({ root, outDir, templatesDir: TEMPLATES_DIR, level: 'quiet', write: () => undefined, writeError: () => undefined, serverIdle: async () => undefined });
    t.after(() => dev.dispose());
    const served = (rel: string) => readFile(path.join(outDir, rel), 'utf8');

    const first = await dev.rebuild(new Set());
    assert.ok(first.ok, 'the first build succeeds');
    await first.finish();
    assert.match(await served('docs/intro.html'), /Admonitions work\./);
    assert.equal(await served('docs/intro.html'), await served('docs/intro/index.html'), 'a page under both of its names');
    assert.match(await served('sitemap.xml'), /<loc>https:\/\/minimal\.example\/docs\/intro<\/loc>/);
    assert.equal(dev.config?.title, 'Minimal');

    const doc = path.join(root, 'content/docs/intro.mdx');
    const original = await readFile(doc, 'utf8');
    await writeFile(doc, original.replace('Admonitions work.', 'Admonitions still work.'));
    const edited = await dev.rebuild(new Set([doc]));
    assert.ok(edited.ok);
    // The docs root shows the main doc (intro) too.
    assert.deepEqual(edited.change.routes.sort(), ['/docs', '/docs/intro']);
    const pagesWritten = edited.change.written.filter((rel) => rel.endsWith('.html')).sort();
    assert.deepEqual(pagesWritten, ['docs.html', 'docs/index.html', 'docs/intro.html', 'docs/intro/index.html'], 'only the pages of the edited doc are rewritten');
    await edited.finish();
    assert.match(await served('docs/intro.html'), /Admonitions still work\./);

    await writeFile(doc, original.replace('## Visão geral', '## Visão <geral'));
    const broken = await dev.rebuild(new Set([doc]));
    assert.ok(!broken.ok && 'error' in broken, 'a broken file is an outcome');
    const error = broken.error instanceof DocsgenErrors ? broken.error.errors[0] : broken.error;
    assert.ok(error instanceof DocsgenError, String(broken.error));
    assert.equal(error.file, 'content/docs/intro.mdx');
    assert.match(await served('docs/intro.html'), /Admonitions still work\./, 'the last good page stays served');

    await writeFile(doc, original);
    const fixed = await dev.rebuild(new Set([doc]));
    assert.ok(fixed.ok);
    await fixed.finish();
    assert.match(await served('docs/intro.html'), /Admonitions work\./);
  });

  it("warms the grammar of each language the documents' code blocks use, and leaves the site's token classes alone", async (t) => {
    const cache = createCompileCache();
    t.after(() => disposeCompileCache(cache));
    const sources = [
      '# A\n\n```python\nprint("x")\n```\n\n```http title="Resposta"\nHTTP/1.1 200 OK\n```\n',
      '# B\n\n~~~swift\nlet x = 1\n~~~\n\n```text\nplain\n```\n\n```no-such-language\nx\n```\n',
    ];
    await warmGrammars(cache, sources, () => false);
    const loaded = (await getHighlighter(cache)).getLoadedLanguages();
    for (const language of ['python', 'http', 'swift']) assert.ok(loaded.includes(language), `${language} is loaded`);
    assert.equal(cache.styleToClass.getClassRegistry().size, 0, 'no token class was added to the stylesheet');
  });

  it('warms nothing once it is told to stop', async (t) => {
    const cache = createCompileCache();
    t.after(() => disposeCompileCache(cache));
    await warmGrammars(cache, ['```python\nx\n```\n'], () => true);
    assert.equal(cache.highlighter, undefined, 'the highlighter was not even made');
  });
});
