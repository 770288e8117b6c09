import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import remarkGfm from 'remark-gfm';
import rehypeTableScroll from '../../../cli/mdx/rehype-table-scroll.ts';
import { renderMdx } from './render-mdx.ts';

const render = (source: string) => renderMdx(source, { remarkPlugins: [remarkGfm], rehypePlugins: [rehypeTableScroll] });

describe('rehype-table-scroll', () => {
  it('wraps each table in a focusable region named by its number and its column headings', async () => {
    const html = await render('| Campo | Tipo |\n|---|---|\n| id | string |\n\nTexto.\n\n| Código |\n|---|\n| 200 |\n');
    const wrappers = [...html.matchAll(/<div class="table-wrapper" tabindex="0" role="region" aria-label="([^"]*)"><table>/g)].map((m) => m[1]);
    assert.deepEqual(wrappers, ['Table 1: Campo, Tipo', 'Table 2: Código']);
    assert.equal(html.match(/<\/table><\/div>/g)?.length, 2, 'each table is closed inside its wrapper');
  });

  it('names a table without headings by its number alone', async () => {
    const html = await render('|  |  |\n|---|---|\n| a | b |\n');
    assert.match(html, /^<div class="table-wrapper" tabindex="0" role="region" aria-label="Table 1"><table>/);
  });
});
