/**
 * Wraps each Markdown table in a box that scrolls sideways on its own when the table is
 * wider than the column, instead of widening the page. The box is a labelled region
 * that takes keyboard focus, so keyboard users can scroll it (WCAG 2.1.1) and screen
 * readers name what it holds: "Table 2: Campo, Tipo, Descrição". The number keeps the
 * names of a page's regions distinct.
 */
import type { Element, ElementContent, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import type { Plugin } from 'unified';
import { SKIP, visit } from 'unist-util-visit';

function headings(table: Element): string[] {
  const found: string[] = [];
  visit(table, 'element', (node: Element) => {
    if (node.tagName === 'tr' && found.length === 0) {
      for (const cell of node.children) if (cell.type === 'element' && cell.tagName === 'th') found.push(toString(cell).trim());
      return SKIP;
    }
    return undefined;
  });
  return found.filter(Boolean);
}

const rehypeTableScroll: Plugin<[], Root> = () => (tree) => {
  let count = 0;
  visit(tree, 'element', (node: Element, index, parent) => {
    if (node.tagName !== 'table' || !parent || index === undefined) return undefined;
    count++;
    const columns = headings(node);
    const wrapper: ElementContent = {
      type: 'element',
      tagName: 'div',
      properties: { className: ['table-wrapper'], tabIndex: 0, role: 'region', ariaLabel: `Table ${count}${columns.length ? `: ${columns.join(', ')}` : ''}` },
      children: [node],
    };
    parent.children[index] = wrapper;
    return SKIP;
  });
};

export default rehypeTableScroll;
