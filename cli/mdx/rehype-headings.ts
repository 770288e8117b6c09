/**
 * Gives every h2–h6 an id, appends the "Direct link to" anchor, and records each of them
 * with its level. Which levels the table of contents lists is the page's choice
 * (`toc_min_heading_level`/`toc_max_heading_level`, 2 to 3 by default), made when it
 * renders: the compiled document, which is cached, stays the same whatever it chooses.
 */
import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import type { Plugin } from 'unified';
import { visit } from 'unist-util-visit';
import type { TocItem } from '../../templates/shared/index.ts';
import { createSlugger } from './slug.ts';

export interface RehypeHeadingsOptions {
  /** Filled with every h2–h6 of the document, in order. */
  headings: TocItem[];
}

const rehypeHeadings: Plugin<[RehypeHeadingsOptions], Root> = (options) => (tree) => {
  const slug = createSlugger();
  visit(tree, 'element', (node: Element) => {
    const match = /^h([2-6])$/.exec(node.tagName);
    if (!match) return;
    const level = Number(match[1]);
    const text = toString(node).trim();
    const id = typeof node.properties.id === 'string' ? node.properties.id : slug(text);
    node.properties.id = id;
    node.properties.className = ['anchor'];
    node.children.push({
      type: 'element',
      tagName: 'a',
      properties: { href: `#${id}`, className: ['hash-link'], ariaLabel: `Direct link to ${text}`, title: `Direct link to ${text}` },
      children: [{ type: 'text', value: '#' }],
    });
    options.headings.push({ level, id, text });
  });
};

export default rehypeHeadings;
