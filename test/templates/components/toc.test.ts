/**
 * The table of contents a page holds, beside the content and as the narrow-screen
 * disclosure: the headings of the levels the page asks for, nested as Docusaurus nests
 * them (a listed heading under the nearest listed heading it belongs to).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Toc, TocCollapsible, tocTree } from '../../../templates/components/Toc.tsx';
import type { TocItem } from '../../../templates/shared/index.ts';
import { tocOutline as outline } from '../../helpers/toc-outline.ts';

const heading = (level: number, id: string): TocItem => ({ level, id, text: id });

/** Two h2 sections: the first down to h6, the second with an h4 straight under its h2, then an h3. */
const HEADINGS = [heading(2, 'a'), heading(3, 'a1'), heading(4, 'a1x'), heading(5, 'a1x-i'), heading(6, 'a1x-i-z'), heading(2, 'b'), heading(4, 'b-x'), heading(3, 'b1')];

const render = (min: number, max: number) => {
  const items = tocTree(HEADINGS, { min, max });
  const side = renderToStaticMarkup(createElement(Toc, { items }));
  const mobile = renderToStaticMarkup(createElement(TocCollapsible, { items }));
  assert.deepEqual(outline(mobile), outline(side), 'the disclosure lists what the side list does');
  return { side, lines: outline(side) };
};

describe('Toc', () => {
  it('lists h2 and h3 by default, an h3 under its h2', () => {
    assert.deepEqual(render(2, 3).lines, ['a', 'a > a1', 'b', 'b > b1']);
  });

  it('the same markup as before levels could be chosen', () => {
    assert.equal(
      render(2, 3).side,
      '<nav class="toc" aria-label="On this page" data-toc=""><p class="toc__heading">On this page</p><ul class="toc__list">' +
        '<li><a href="#a" class="toc__link">a</a><ul class="toc__list"><li><a href="#a1" class="toc__link">a1</a></li></ul></li>' +
        '<li><a href="#b" class="toc__link">b</a><ul class="toc__list"><li><a href="#b1" class="toc__link">b1</a></li></ul></li></ul></nav>',
    );
  });

  it('down to h4: each h4 under the heading it follows, an h4 straight under an h2 too', () => {
    assert.deepEqual(render(2, 4).lines, ['a', 'a > a1', 'a > a1 > a1x', 'b', 'b > b-x', 'b > b1']);
  });

  it('from h3: the h2 headings are left out and what they held leads the list, section by section', () => {
    assert.deepEqual(render(3, 5).lines, ['a1', 'a1 > a1x', 'a1 > a1x > a1x-i', 'b-x', 'b1']);
  });

  it('one level lists those headings flat; none of that level, no table of contents at all', () => {
    assert.deepEqual(render(4, 4).lines, ['a1x', 'b-x']);
    assert.deepEqual(render(6, 6).lines, ['a1x-i-z']);
    assert.deepEqual(tocTree([heading(2, 'a'), heading(3, 'b')], { min: 4, max: 6 }), []);
    assert.equal(renderToStaticMarkup(createElement(Toc, { items: [] })), '');
    assert.equal(renderToStaticMarkup(createElement(TocCollapsible, { items: [] })), '');
  });
});
