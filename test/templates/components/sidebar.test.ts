/**
 * The sidebar a doc page holds, from the sidebar data the build derives once: nested
 * categories open only along the current doc's path, labels that link to a doc, a
 * category's own page marked current, neighbours and breadcrumbs, and long lists cut to
 * a window with "more" links that lead to the items they stand for.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { parseDocument } from 'htmlparser2';
import { selectAll } from 'css-select';
import { getAttributeValue, textContent } from 'domutils';
import type { Element } from 'domhandler';
import { sidebarData } from '../../../cli/sidebar-data.ts';
import type { ResolvedSidebarItem } from '../../../cli/stages/collect.ts';
import { Sidebar } from '../../../templates/components/Sidebar.tsx';
import { SIDEBAR_WINDOW } from '../../../templates/shared/index.ts';

const doc = (id: string): ResolvedSidebarItem => ({ type: 'doc', id, label: id, route: `/docs/${id}` });
const category = (label: string, items: ResolvedSidebarItem[], route?: string): ResolvedSidebarItem => ({ type: 'category', label, items, collapsed: false, route });

const NESTED: ResolvedSidebarItem[] = [
  doc('intro'),
  category('Guia', [doc('guia/a'), category('Avançado', [doc('guia/avancado/x'), doc('guia/avancado/y')]), category('Outro', [doc('guia/outro/z')])]),
  category('Referência', [category('Vazia por fora', [doc('ref/deep')])], '/docs/ref'),
  { type: 'link', label: 'Externo', href: 'https://example.com' },
];

function renderFor(items: ResolvedSidebarItem[], route: string) {
  const data = sidebarData({ docs: items });
  const place = data.places.get(route);
  assert.ok(place, `${route} has a place`);
  const html = renderToStaticMarkup(createElement(Sidebar, { sidebar: { name: 'docs', src: '/assets/sidebars-X.json', items: data.entries.docs!, current: place.path } }));
  const root = parseDocument(html).children;
  const attr = (el: unknown, name: string) => getAttributeValue(el as Element, name);
  return {
    place,
    html,
    links: selectAll('a.menu__link', root).map((a) => attr(a, 'href')),
    labels: selectAll('a.menu__caret', root).map((a) => ({ text: textContent(a as Element), href: attr(a, 'href'), expanded: attr(a, 'aria-expanded') })),
    current: selectAll('[aria-current="page"]', root).map((a) => attr(a, 'href')),
    more: selectAll('a.menu__more', root).map((a) => ({ href: attr(a, 'href') ?? '', range: attr(a, 'data-sidebar-more') ?? '', text: textContent(a as Element) })),
  };
}

describe('sidebar data and the sidebar a page holds', () => {
  it('opens the categories along the current doc only; other categories are closed labels linking to a doc inside them', () => {
    const { links, labels, current, place } = renderFor(NESTED, '/docs/guia/avancado/y');
    assert.deepEqual(current, ['/docs/guia/avancado/y']);
    assert.deepEqual(links, ['/docs/intro', '/docs/guia/a', '/docs/guia/avancado/x', '/docs/guia/avancado/y', 'https://example.com']);
    assert.deepEqual(labels, [
      { text: 'Guia', href: '/docs/guia/a', expanded: 'true' },
      { text: 'Avançado', href: '/docs/guia/avancado/x', expanded: 'true' },
      { text: 'Outro', href: '/docs/guia/outro/z', expanded: 'false' },
      { text: 'Referência', href: '/docs/ref', expanded: 'false' },
    ]);
    assert.deepEqual(place.trail.map((t) => t.label), ['Guia', 'Avançado']);
    assert.deepEqual([place.previous?.route, place.next?.route], ['/docs/guia/avancado/x', '/docs/guia/outro/z']);
  });

  it("marks a category's own page current, opening that category", () => {
    const { labels, current, place } = renderFor(NESTED, '/docs/ref');
    assert.deepEqual(current, ['/docs/ref']);
    assert.deepEqual(labels.find((l) => l.text === 'Referência'), { text: 'Referência', href: '/docs/ref', expanded: 'true' });
    assert.deepEqual(labels.find((l) => l.text === 'Vazia por fora'), { text: 'Vazia por fora', href: '/docs/ref/deep', expanded: 'false' });
    assert.equal(place.next, undefined);
  });

  it('writes every item into the shared JSON, categories with the doc their label links to', () => {
    const data = sidebarData({ docs: NESTED });
    assert.deepEqual(JSON.parse(data.json), data.entries);
    const guia = data.entries.docs![1]!;
    assert.equal(guia.href, '/docs/guia/a');
    assert.deepEqual(guia.items?.[1]?.items?.map((i) => i.href), ['/docs/guia/avancado/x', '/docs/guia/avancado/y']);
  });

  it('cuts a long list to a window around the current doc, with "more" links on both sides that lead into what they stand for', () => {
    const many = Array.from({ length: 3 * SIDEBAR_WINDOW }, (_, i) => doc(`d${i}`));
    const middle = renderFor(many, `/docs/d${Math.floor(1.5 * SIDEBAR_WINDOW)}`);
    assert.equal(middle.links.length, SIDEBAR_WINDOW);
    assert.ok(middle.links.includes(`/docs/d${Math.floor(1.5 * SIDEBAR_WINDOW)}`));
    assert.equal(middle.more.length, 2);
    const [before, after] = middle.more;
    const first = Number(/d(\d+)$/.exec(middle.links[0]!)![1]);
    assert.equal(before!.range, `:0-${first}`);
    assert.equal(before!.text, `${first} more…`);
    assert.equal(after!.range, `:${first + SIDEBAR_WINDOW}-${many.length}`);
    for (const link of [before!, after!]) {
      const target = Number(/d(\d+)$/.exec(link.href)![1]);
      const [from, to] = link.range.slice(1).split('-').map(Number);
      assert.ok(target >= from! && target < to!, `${link.href} lies in ${link.range}`);
    }
    const start = renderFor(many, '/docs/d0');
    assert.deepEqual(start.more.map((m) => m.range), [`:${SIDEBAR_WINDOW}-${many.length}`], 'at the start, only a "more" after');
  });
});
