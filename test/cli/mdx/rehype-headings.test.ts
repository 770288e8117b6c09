import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import rehypeHeadings from '../../../cli/mdx/rehype-headings.ts';
import type { TocItem } from '../../../templates/shared/index.ts';
import { renderMdx } from './render-mdx.ts';

async function render(source: string, levels: { minLevel?: number; maxLevel?: number } = {}): Promise<{ html: string; toc: TocItem[] }> {
  const toc: TocItem[] = [];
  return { html: await renderMdx(source, { rehypePlugins: [[rehypeHeadings, { toc, ...levels }]] }), toc };
}

describe('rehype-headings', () => {
  it('gives h2–h6 an id from their text, unique on the page, and a direct link', async () => {
    const { html } = await render('# Título\n\n## Visão geral\n\n### Códigos de erro\n\n## Visão geral\n');
    assert.equal(
      html,
      [
        '<h1>Título</h1>',
        '<h2 id="visao-geral" class="anchor">Visão geral<a href="#visao-geral" class="hash-link" aria-label="Direct link to Visão geral" title="Direct link to Visão geral">#</a></h2>',
        '<h3 id="codigos-de-erro" class="anchor">Códigos de erro<a href="#codigos-de-erro" class="hash-link" aria-label="Direct link to Códigos de erro" title="Direct link to Códigos de erro">#</a></h3>',
        '<h2 id="visao-geral-1" class="anchor">Visão geral<a href="#visao-geral-1" class="hash-link" aria-label="Direct link to Visão geral" title="Direct link to Visão geral">#</a></h2>',
      ].join('\n'),
    );
  });

  it('collects h2–h3 for the table of contents, or the levels asked for', async () => {
    const source = '## Um\n\n### Dois\n\n#### Três\n';
    assert.deepEqual((await render(source)).toc, [
      { level: 2, id: 'um', text: 'Um' },
      { level: 3, id: 'dois', text: 'Dois' },
    ]);
    assert.deepEqual((await render(source, { minLevel: 3, maxLevel: 4 })).toc.map((item) => item.id), ['dois', 'tres']);
  });
});
