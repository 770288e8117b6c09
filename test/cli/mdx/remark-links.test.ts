import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createElement, type ReactNode } from 'react';
import remarkLinks, { type SourceLink } from '../../../cli/mdx/remark-links.ts';
import { renderMdx } from './render-mdx.ts';

const DOCS = path.resolve('/site/content/docs');
const ROUTES = new Map([
  [path.join(DOCS, 'guia/pagamento.mdx'), '/docs/guia/pagamento'],
  [path.join(DOCS, 'intro.md'), '/docs/intro'],
  [path.join(DOCS, 'guia/com espaço.mdx'), '/docs/guia/com-espaco'],
]);

async function render(source: string): Promise<{ html: string; links: SourceLink[] }> {
  const links: SourceLink[] = [];
  const options = { file: path.join(DOCS, 'guia/atual.mdx'), routeOfFile: (file: string) => ROUTES.get(file), links };
  const Link = ({ to, children }: { to: string; children?: ReactNode }) => createElement('a', { href: to }, children);
  return { html: await renderMdx(source, { remarkPlugins: [[remarkLinks, options]] }, { Link }), links };
}

describe('remark-links', () => {
  it('rewrites links to .md and .mdx files to their routes, keeping the #fragment', async () => {
    const { html } = await render('[a](./pagamento.mdx#valor) [b](../intro.md) [c](com%20espa%C3%A7o.mdx)\n');
    assert.equal(html, '<p><a href="/docs/guia/pagamento#valor">a</a> <a href="/docs/intro">b</a> <a href="/docs/guia/com-espaco">c</a></p>');
  });

  it('leaves routes, fragments, URLs, other files and unknown .mdx files as written', async () => {
    const hrefs = ['/docs/x', '#secao', 'https://example.com/a.mdx', 'mailto:a@b.example', './imagem.png', './nao-existe.mdx'];
    const { html } = await render(`${hrefs.map((href, i) => `[${i}](${href})`).join(' ')}\n`);
    for (const href of hrefs) assert.ok(html.includes(`href="${href}"`), `${href} in ${html}`);
  });

  it('records every link, image, definition and JSX href/src/to with its line and column', async () => {
    const { html, links } = await render(['Texto [a](./pagamento.mdx).', '', '![imagem](/img/a.png)', '', '[ref]: /docs/ref', '', '<Link to="../intro.md">x</Link>', ''].join('\n'));
    assert.deepEqual(links, [
      { href: '/docs/guia/pagamento', line: 1, column: 7 },
      { href: '/img/a.png', line: 3, column: 1 },
      { href: '/docs/ref', line: 5, column: 1 },
      { href: '/docs/intro', line: 7, column: 1 },
    ]);
    assert.match(html, /<a href="\/docs\/intro">x<\/a>/, 'the JSX attribute is rewritten too');
  });
});
