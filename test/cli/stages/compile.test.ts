/** MDX compilation: what each unified plugin does to the HTML a reader gets. */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DocsgenError } from '../../../cli/errors.ts';
import { compileMdx, createCompileCache, flushCompileCache, precompile } from '../../../cli/stages/compile.ts';
import { mdxComponents } from '../../../templates/components/MdxComponents.tsx';
import { tempDir } from '../../helpers/temp.ts';

const cache = createCompileCache();

async function compileToHtml(body: string, options: { file?: string; routes?: Record<string, string> } = {}) {
  const source = `---\ntitle: T\ndescription: D\n---\n\n${body}\n`;
  const file = options.file ?? '/site/content/docs/a/b.mdx';
  const compiled = await compileMdx(
    { file, relFile: 'content/docs/a/b.mdx', source },
    { routeOfFile: (f) => options.routes?.[f], siteUrl: 'https://docs.example', cache },
  );
  return { ...compiled, html: renderToStaticMarkup(createElement(compiled.Content, { components: mdxComponents })) };
}

describe('compile', () => {
  it('gives headings ASCII ids without accents and an anchor link, and records every h2-h6 for the TOC to choose from', async () => {
    const { html, headings } = await compileToHtml('## Códigos de erro\n\n### Criar um pagamento (POST)\n\n#### Detalhe\n\n##### Campo\n\n###### Valor\n\n## Códigos de erro');
    assert.match(html, /<h2 id="codigos-de-erro" class="anchor">Códigos de erro<a href="#codigos-de-erro" class="hash-link" aria-label="Direct link to Códigos de erro"/);
    assert.match(html, /<h3 id="criar-um-pagamento-post"/);
    assert.match(html, /<h4 id="detalhe" class="anchor">Detalhe<a href="#detalhe" class="hash-link"/);
    assert.match(html, /<h5 id="campo"/);
    assert.match(html, /<h6 id="valor"/);
    assert.deepEqual(
      headings.map((t) => [t.level, t.id]),
      [
        [2, 'codigos-de-erro'],
        [3, 'criar-um-pagamento-post'],
        [4, 'detalhe'],
        [5, 'campo'],
        [6, 'valor'],
        [2, 'codigos-de-erro-1'],
      ],
    );
  });

  it('notes a document whose first heading is its own # title, as Docusaurus does', async () => {
    assert.equal((await compileToHtml('# Meu título\n\nTexto.\n\n## Seção')).hasContentTitle, true);
    assert.equal((await compileToHtml('Texto antes.\n\n# Meu título')).hasContentTitle, true);
    assert.equal((await compileToHtml('## Seção\n\n# Depois')).hasContentTitle, false);
    assert.equal((await compileToHtml('Só texto.')).hasContentTitle, false);
  });

  it('turns :::type[Title] into admonitions, with default titles', async () => {
    const { html } = await compileToHtml(':::warning[Atenção]\nTexto **forte**.\n:::\n\n:::tip\nDica.\n:::');
    assert.match(html, /<div class="admonition admonition--warning">.*Atenção.*<strong>forte<\/strong>/s);
    assert.match(html, /<div class="admonition admonition--tip">.*Tip<\/p>/s);
  });

  it('leaves prose with colons alone (unknown text directives are restored)', async () => {
    const { html } = await compileToHtml('O status:approved e a hora 10:30 ficam como estão.');
    assert.match(html, /O status:approved e a hora 10:30 ficam como estão\./);
  });

  it('highlights code at build time in both themes, with the title, highlighted lines and a copy button', async () => {
    const { html } = await compileToHtml('```ts title="pagamento.ts" {2}\nconst a = 1;\nconst b = 2;\n```');
    assert.match(html, /<div class="code-block__title">pagamento\.ts<\/div>/);
    assert.match(html, /class="shiki shiki-themes github-light-high-contrast github-dark-default/);
    assert.match(html, /<span class="sh-[a-z0-9]+">const<\/span>/);
    assert.match(cache.styleToClass.getCSS(), /\.sh-[a-z0-9]+ *\{[^}]*color: *#[0-9a-f]{6};[^}]*--shiki-dark: *#[0-9a-f]{6}/i);
    assert.equal(html.match(/class="line highlighted"/g)?.length, 1);
    assert.match(html, /<button type="button" class="code-block__copy" data-copy="" aria-label="Copy code to clipboard"/);
  });

  it('falls back to plain text for an unknown language instead of failing', async () => {
    const { html } = await compileToHtml('```cobol\nDISPLAY "OI".\n```');
    assert.match(html, /DISPLAY/);
  });

  it('supports GFM: tables, task lists, footnotes, autolinks, strikethrough', async () => {
    const { html } = await compileToHtml('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] feito\n- [ ] a fazer\n\nTexto[^1] ~~velho~~ https://sorrix.example\n\n[^1]: Nota.');
    assert.match(html, /<div class="table-wrapper" tabindex="0" role="region" aria-label="Table 1: a, b"><table>/);
    assert.match(html, /<input type="checkbox" disabled="" checked=""/);
    assert.match(html, /<del>velho<\/del>/);
    assert.match(html, /<a href="https:\/\/sorrix\.example">/);
    assert.match(html, /data-footnotes/);
  });

  it('renders Tabs with every panel in the HTML and only the first visible', async () => {
    const { html } = await compileToHtml('<Tabs groupId="linguagem">\n<TabItem value="curl" label="curl">\n\nA\n\n</TabItem>\n<TabItem value="node" label="Node.js">\n\nB\n\n</TabItem>\n</Tabs>');
    assert.match(html, /data-tab-group="linguagem"/);
    assert.equal(html.match(/role="tab"/g)?.length, 2);
    assert.match(html, /aria-selected="true"[^>]*data-tab-value="curl"/);
    assert.match(html, /role="tabpanel"[^>]*data-tab-value="node"[^>]*hidden=""|role="tabpanel"[^>]*hidden=""[^>]*data-tab-value="node"/);
  });

  it('rewrites links to .mdx files to their routes and records every link with its line', async () => {
    const { html, links } = await compileToHtml('Veja [o pagamento](../api/pagamento.mdx#erros).\n\nE [externo](https://sorrix.example).', {
      routes: { '/site/content/docs/api/pagamento.mdx': '/docs/api/pagamento' },
    });
    assert.match(html, /href="\/docs\/api\/pagamento#erros"/);
    assert.deepEqual(
      links.map((l) => [l.href, l.line]),
      [
        ['/docs/api/pagamento#erros', 6],
        ['https://sorrix.example', 8],
      ],
    );
  });

  it('drops Docusaurus @theme imports, as the components are built in', async () => {
    const { html } = await compileToHtml("import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n<Tabs><TabItem value=\"a\">\n\nA\n\n</TabItem></Tabs>");
    assert.match(html, /role="tablist"/);
  });

  it('draws a SequenceDiagram as accessible SVG with a text version', async () => {
    const { html } = await compileToHtml(
      "<SequenceDiagram title=\"Fluxo\" participants={[{ id: 'a', label: 'App' }, { id: 'b', label: 'API' }]} messages={[{ from: 'a', to: 'b', text: 'POST /v1/payments' }, { from: 'b', to: 'a', text: '201', kind: 'reply' }]} />",
    );
    assert.match(html, /<svg class="seq__svg"[^>]*role="img"/);
    assert.match(html, /<title id="[^"]+-title">Fluxo<\/title>/);
    assert.match(html, /<li><strong>App<\/strong> → <strong>API<\/strong>: POST \/v1\/payments<\/li>/);
  });

  it("gives a local Markdown image its file's width and height and a link to it, again when the file changes", async () => {
    const staticDir = await tempDir({ after }, 'static');
    await mkdir(path.join(staticDir, 'img'));
    const svg = (width: number, height: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"></svg>`;
    await writeFile(path.join(staticDir, 'img/d.svg'), svg(840, 230));
    const source = '---\ntitle: T\ndescription: D\n---\n\n![Diagrama](/img/d.svg)\n\n[![Logo](/img/d.svg)](https://example.com)\n\n![Fora](https://example.com/x.png)\n';
    const html = async () => {
      const compiled = await compileMdx({ file: '/site/content/docs/img.mdx', relFile: 'content/docs/img.mdx', source }, { routeOfFile: () => undefined, siteUrl: 'https://docs.example', staticDir, cache });
      return renderToStaticMarkup(createElement(compiled.Content, { components: mdxComponents }));
    };
    const first = await html();
    assert.match(first, /<a href="\/img\/d\.svg" class="markdown-image-link"><img [^>]*src="\/img\/d\.svg" alt="Diagrama" width="840" height="230"\/><\/a>/);
    assert.match(first, /<a href="https:\/\/example\.com"><img [^>]*alt="Logo" width="840" height="230"\/><\/a>/, 'an image already in a link keeps that link');
    assert.match(first, /<img [^>]*src="https:\/\/example\.com\/x\.png" alt="Fora"\/>/, 'a remote image is left as written');
    // The same text, a redrawn image: the cached compilation must not be reused.
    await writeFile(path.join(staticDir, 'img/d.svg'), svg(1200, 400));
    assert.match(await html(), /alt="Diagrama" width="1200" height="400"/);
  });

  it('reports a syntax error with file, line, column and the offending line', async () => {
    await assert.rejects(compileToHtml('Texto\n\n<div>sem fechar'), (error: unknown) => {
      assert.ok(error instanceof DocsgenError);
      assert.equal(error.file, 'content/docs/a/b.mdx');
      assert.equal(error.line, 8);
      assert.match(error.message, /^MDX syntax error: /);
      assert.match(error.excerpt ?? '', /> 8 \| <div>sem fechar/);
      return true;
    });
  });

  it('reuses a compiled document while the routes it links to stay, and compiles it again when one moves', async (t) => {
    const diskDir = await tempDir(t, 'compile-routes');
    const file = '/site/content/docs/a.mdx';
    const source = '---\ntitle: T\ndescription: D\n---\n\nVeja [B](./b.mdx#x).\n';
    const input = { file, relFile: 'content/docs/a.mdx', source };
    const compileWith = (own: ReturnType<typeof createCompileCache>, routes: Record<string, string>) =>
      compileMdx(input, { routeOfFile: (f) => routes[f], siteUrl: 'https://docs.example', cache: own });
    const hrefOf = (compiled: Awaited<ReturnType<typeof compileWith>>) => /href="([^"]+)"/.exec(renderToStaticMarkup(createElement(compiled.Content, { components: mdxComponents })))?.[1];
    const routes = { [file]: '/docs/a', '/site/content/docs/b.mdx': '/docs/b' };
    const own = createCompileCache({ diskDir });
    const first = await compileWith(own, routes);
    assert.equal(hrefOf(first), '/docs/b#x');
    assert.equal(await compileWith(own, { ...routes, '/site/content/docs/c.mdx': '/docs/c' }), first, 'a document added elsewhere does not compile it again');
    const moved = { ...routes, '/site/content/docs/b.mdx': '/docs/outro/b' };
    const again = await compileWith(own, moved);
    assert.notEqual(again, first);
    assert.equal(hrefOf(again), '/docs/outro/b#x', 'the link follows the document it names');
    // The disk cache of another process checks the same routes.
    await flushCompileCache(own);
    assert.equal(hrefOf(await compileWith(createCompileCache({ diskDir }), routes)), '/docs/b#x');
    assert.equal(hrefOf(await compileWith(createCompileCache({ diskDir }), { ...moved, [file]: '/docs/renomeado' })), '/docs/outro/b#x');
  });

  it('lets a build join the compilation a save started, and leaves unknown files to the build', async () => {
    const own = createCompileCache();
    const file = '/site/content/docs/salvo.mdx';
    const source = '---\ntitle: T\ndescription: D\n---\n\nTexto salvo.\n';
    const routeOfFile = (f: string) => (f === file ? '/docs/salvo' : undefined);
    precompile(own, file, source);
    assert.equal(own.inflight.size, 0, 'before any build there are no routes to compile with');
    own.last = { routeOfFile, root: '/site', siteUrl: 'https://docs.example' };
    precompile(own, '/site/content/docs/novo.mdx', source);
    assert.equal(own.inflight.size, 0, 'a file the last build did not know waits for the build');
    precompile(own, file, source);
    const started = [...own.inflight.values()];
    assert.equal(started.length, 1);
    const compiled = await compileMdx({ file, relFile: 'content/docs/salvo.mdx', source }, { routeOfFile, siteUrl: 'https://docs.example', cache: own });
    assert.equal(compiled, await started[0], 'the build got the compilation already under way');
    assert.equal(own.inflight.size, 0);
    assert.equal(own.mdx.get([...own.mdx.keys()][0]!), compiled);
  });
});
