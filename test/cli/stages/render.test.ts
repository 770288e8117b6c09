/**
 * Stage render: compiled documents become complete HTML pages. The stages before it run
 * for real on the minimal fixture; the client bundle is replaced by fixed asset URLs, so
 * what a page links to comes from render alone.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createElement } from 'react';
import { loadConfig, type SiteConfig } from '../../../cli/config.ts';
import { DocsgenErrors, formatAnyError } from '../../../cli/errors.ts';
import { sidebarData } from '../../../cli/sidebar-data.ts';
import { collect } from '../../../cli/stages/collect.ts';
import { compile, createCompileCache } from '../../../cli/stages/compile.ts';
import { render, type RenderInput, type RenderedPage } from '../../../cli/stages/render.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { checkNoTempLeftovers, tempDir, type CleanupOwner } from '../../helpers/temp.ts';

checkNoTempLeftovers();

const ASSETS = {
  styles: ['/assets/styles-TEST.css'],
  script: '/assets/main-TEST.js',
  themeInit: 'window.__themeInit=1',
  islands: { search: { js: '/assets/island-search-TEST.js', css: ['/assets/island-search-TEST.css'] }, 'copy-page': { js: '/assets/island-copy-page-TEST.js', css: [] } },
  feeds: { rss: '/blog/rss.xml', atom: '/blog/atom.xml' },
};

async function renderSite(
  owner: CleanupOwner,
  change?: (root: string) => Promise<void>,
  routes?: ReadonlySet<string>,
  more: Partial<RenderInput> = {},
): Promise<{ config: SiteConfig; pages: RenderedPage[] }> {
  const root = await makeSite(owner);
  await change?.(root);
  const config = await loadConfig(root);
  const collected = await collect(config);
  const compiled = await compile(collected, config, createCompileCache({}));
  const input: RenderInput = { collected, compiled, apis: [], assets: ASSETS, sidebars: { ...sidebarData(collected.sidebars), src: '/assets/sidebars-TEST.json' }, ...more };
  return { config, pages: await render(input, config, { routes }) };
}

const byRoute = (pages: readonly RenderedPage[], route: string) => {
  const page = pages.find((p) => p.route === route);
  assert.ok(page, `a page for ${route}`);
  return page;
};

describe('render', () => {
  it('renders every doc, the docs root, the blog, the pages and the 404 page as whole documents', async (t) => {
    const { pages } = await renderSite(t);
    const routes = pages.map((p) => p.route);
    for (const route of ['/', '/docs', '/docs/intro', '/docs/guia/primeiro-passo', '/blog', '/404']) assert.ok(routes.includes(route), `${route} in ${routes.join(', ')}`);
    assert.equal(new Set(routes).size, routes.length, 'one page per route');
    for (const page of pages) assert.match(page.html, /^<!DOCTYPE html><html[^>]*>.*<\/html>$/s, page.route);
    assert.equal(byRoute(pages, '/404').indexable, false, 'the 404 page is not in the sitemap or search');
    assert.equal(byRoute(pages, '/docs/intro').indexable, true);
  });

  it('titles pages "Title | Site", with the canonical URL, the stylesheets, the router and the theme script', async (t) => {
    const { pages } = await renderSite(t);
    const intro = byRoute(pages, '/docs/intro');
    assert.match(intro.html, new RegExp(`<title>${intro.title} \\| Minimal</title>`));
    assert.match(intro.html, /<link rel="canonical" href="https:\/\/minimal\.example\/docs\/intro"\/>/);
    assert.match(intro.html, /<link rel="stylesheet" href="\/assets\/styles-TEST\.css"\/>/);
    assert.match(intro.html, /<script type="module" src="\/assets\/main-TEST\.js"><\/script>/);
    assert.ok(intro.html.includes('window.__themeInit=1'), 'the theme script is inlined');
    assert.match(byRoute(pages, '/').html, /<title>Minimal<\/title>/, 'the home page has the site title alone');
  });

  it('gives a page only the islands it uses: docs get Copy page, other pages do not', async (t) => {
    const { pages } = await renderSite(t);
    assert.ok(byRoute(pages, '/docs/intro').html.includes('/assets/island-copy-page-TEST.js'));
    assert.ok(!byRoute(pages, '/blog').html.includes('/assets/island-copy-page-TEST.js'));
    for (const page of pages) assert.ok(page.html.includes('/assets/island-search-TEST.js'), `${page.route} has search`);
  });

  it("shows a doc's last change as a date in the site's locale, in UTC", async (t) => {
    const inPortuguese = async (root: string) => {
      const file = path.join(root, 'site.config.ts');
      await writeFile(file, (await readFile(file, 'utf8')).replace("title: 'Minimal',", "title: 'Minimal', locale: { code: 'pt-BR', label: 'Português' },"));
    };
    // Late on the 3rd in UTC is already the 4th east of it: the page must say the 3rd wherever it is built.
    const { pages } = await renderSite(t, inPortuguese, undefined, { lastUpdated: new Map([['content/docs/intro.mdx', '2024-02-03T23:30:00.000Z']]) });
    assert.match(byRoute(pages, '/docs/intro').html, /<time dateTime="2024-02-03T23:30:00.000Z">3 de fevereiro de 2024<\/time>/);
  });

  it('shows the docs version badge only when the config asks for it, keeping the version dropdown', async (t) => {
    // Docusaurus shows "Version: …" only on a site with more than one version; docsgen builds one.
    const { pages } = await renderSite(t, undefined, new Set(['/docs/intro']));
    const intro = byRoute(pages, '/docs/intro').html;
    assert.ok(!intro.includes('doc-version-badge'), 'no badge by default');
    assert.match(intro, /data-version="current"/, 'the navbar still has the version dropdown');
    const withBadge = async (root: string) => {
      const file = path.join(root, 'site.config.ts');
      await writeFile(file, (await readFile(file, 'utf8')).replace("docs: { mainDoc: 'intro' },", "docs: { mainDoc: 'intro', version: { name: 'current', label: 'Next', badge: true } },"));
    };
    const asked = await renderSite(t, withBadge, new Set(['/docs/intro']));
    assert.match(byRoute(asked.pages, '/docs/intro').html, /<span class="badge doc-version-badge">Version: Next<\/span>/);
  });

  it('renders only the routes asked for', async (t) => {
    const { pages } = await renderSite(t, undefined, new Set(['/docs/intro', '/404']));
    assert.deepEqual(pages.map((p) => p.route).sort(), ['/404', '/docs/intro']);
  });

  it('reports every page that throws while rendering, by route and file', async (t) => {
    const broken = (title: string) => `---\ntitle: ${title}\ndescription: Quebra.\n---\n\nValor: {undefined.campo}\n`;
    const error = await renderSite(t, async (root) => {
      await writeFile(path.join(root, 'content/docs/guia/um.mdx'), broken('Um'));
      await writeFile(path.join(root, 'content/docs/guia/dois.mdx'), broken('Dois'));
    }).then(
      () => assert.fail('render should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof DocsgenErrors, String(error));
    assert.match(error.message, /^2 pages failed to render:/);
    const reported = error.errors.map((e) => `${e.file} ${e.message}`).sort();
    assert.deepEqual(reported, [
      "content/docs/guia/dois.mdx Page /docs/guia/dois failed to render: Cannot read properties of undefined (reading 'campo')",
      "content/docs/guia/um.mdx Page /docs/guia/um failed to render: Cannot read properties of undefined (reading 'campo')",
    ]);
  });

  it('reports an error thrown by a template once, at the template line, with the pages it failed', async (t) => {
    // A templates folder of its own, so the test breaks no real layout: its component fails for every doc.
    const templates = path.join(await tempDir(t, 'templates'), 'templates');
    await mkdir(templates);
    const broken = path.join(templates, 'Broken.tsx');
    await writeFile(broken, "type Props = { label: string };\n\nexport function Broken(): string {\n  const props = undefined as unknown as Props;\n  return props.label;\n}\n");
    const { Broken } = (await import(pathToFileURL(broken).href)) as { Broken: () => string };
    const root = await makeSite(t);
    const loaded = await loadConfig(root);
    const config = { ...loaded, dirs: { ...loaded.dirs, templates } };
    const collected = await collect(config);
    const compiled = await compile(collected, config, createCompileCache({}));
    for (const entry of compiled.docs.values()) entry.compiled = { ...entry.compiled, Content: () => createElement(Broken) };
    const input: RenderInput = { collected, compiled, apis: [], assets: ASSETS, sidebars: { ...sidebarData(collected.sidebars), src: '/assets/sidebars-TEST.json' } };
    const error = await render(input, config).then(
      () => assert.fail('render should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof DocsgenErrors, String(error));
    const output = formatAnyError(error);
    assert.equal(error.errors.length, 1, output);
    // Every doc, and the docs root, which shows the first doc.
    const docs = compiled.docs.size + 1;
    assert.match(output, new RegExp(`^${docs} pages failed to render:$`, 'm'));
    assert.match(output, new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:16 {2}A template threw while rendering ${docs} pages: Cannot read properties of undefined \\(reading 'label'\\)$`, 'm'));
    assert.match(output, /^> 5 \|   return props\.label;$/m);
    assert.match(output, /Fix: The error is in the template at this line, not in the pages that use it \(content\/docs\/guia\/primeiro-passo\.mdx, content\/docs\/intro\.mdx\)/);
    assert.doesNotMatch(output, /failed to render: Cannot read/, 'no page is blamed on its own');
  });
});
