/**
 * Gives every h2–h6 an id, appends the "Direct link to" anchor, and collects h2–h3
 * for the table of contents (spec: TOC levels 2 to 3).
 */
import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import type { Plugin } from 'unified';
import { visit } from 'unist-util-visit';
import type { TocItem } from '../../templates/shared/index.ts';
import { createSlugger } from './slug.ts';

export interface RehypeHeadingsOptions {
  toc: TocItem[];
  minLevel?: number;
  maxLevel?: number;
}

const rehypeHeadings: Plugin<[RehypeHeadingsOptions], Root> = (options) => (tree) => {
  const slug = createSlugger();
  const min = options.minLevel ?? 2;
  const max = options.maxLevel ?? 3;
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
    if (level >= min && level <= max) options.toc.push({ level, id, text });
  });
};

export default rehypeHeadings;
