import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import rehypeHeadings from '../../../cli/mdx/rehype-headings.ts';
import type { TocItem } from '../../../templates/shared/index.ts';
import { renderMdx } from './render-mdx.ts';

async function render(source: string): Promise<{ html: string; headings: TocItem[] }> {
  const headings: TocItem[] = [];
  return { html: await renderMdx(source, { rehypePlugins: [[rehypeHeadings, { headings }]] }), headings };
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

  it('records every h2–h6 with its level, for the table of contents to pick its levels from', async () => {
    const { html, headings } = await render('# Título\n\n## Um\n\n### Dois\n\n#### Três\n\n##### Quatro\n\n###### Cinco\n');
    assert.deepEqual(headings, [
      { level: 2, id: 'um', text: 'Um' },
      { level: 3, id: 'dois', text: 'Dois' },
      { level: 4, id: 'tres', text: 'Três' },
      { level: 5, id: 'quatro', text: 'Quatro' },
      { level: 6, id: 'cinco', text: 'Cinco' },
    ]);
    // Every one of them can be linked to, whether or not a table of contents lists it.
    for (const id of ['um', 'dois', 'tres', 'quatro', 'cinco']) assert.match(html, new RegExp(`<h[2-6] id="${id}" class="anchor">[^<]*<a href="#${id}" class="hash-link"`));
    assert.match(html, /^<h1>Título<\/h1>/);
  });
});
