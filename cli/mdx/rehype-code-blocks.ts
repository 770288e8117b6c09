/**
 * Wraps each fenced code block in the markup the CodeBlock styles and the copy button
 * expect, taking `title="..."` from the fence's meta. Runs before Shiki, which then
 * replaces the inner <pre> with highlighted markup in both themes.
 */
import type { Element, Root } from 'hast';
import type { Plugin } from 'unified';
import { visit, SKIP } from 'unist-util-visit';
import { DATA } from '../../templates/shared/index.ts';

/** Parses `key="value"` pairs from a code fence's meta string. */
export function parseMeta(meta: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of meta.matchAll(/([a-zA-Z_][\w-]*)=(?:"([^"]*)"|'([^']*)'|(\S+))/g)) {
    result[match[1]!] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  return result;
}

const rehypeCodeBlocks: Plugin<[], Root> = () => (tree) => {
  visit(tree, 'element', (node: Element, index, parent) => {
    if (node.tagName !== 'pre' || !parent || index === undefined) return;
    const code = node.children[0];
    if (!code || code.type !== 'element' || code.tagName !== 'code') return;
    const meta = String((code.data as { meta?: string } | undefined)?.meta ?? '');
    const { title } = parseMeta(meta);
    const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
    const language = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length);
    const children: Element[] = [];
    if (title) {
      children.push({ type: 'element', tagName: 'div', properties: { className: ['code-block__title'] }, children: [{ type: 'text', value: title }] });
    }
    children.push({
      type: 'element',
      tagName: 'div',
      properties: { className: ['code-block__body'] },
      children: [
        node,
        {
          type: 'element',
          tagName: 'button',
          properties: { type: 'button', className: ['code-block__copy'], [DATA.copy]: '', ariaLabel: 'Copy code to clipboard', title: 'Copy' },
          children: [{ type: 'element', tagName: 'span', properties: { className: ['code-block__copy-label'] }, children: [{ type: 'text', value: 'Copy' }] }],
        },
      ],
    });
    parent.children[index] = {
      type: 'element',
      tagName: 'div',
      properties: { className: ['code-block', ...(language ? [`language-${language}`] : [])] },
      children,
    };
    return SKIP;
  });
};

export default rehypeCodeBlocks;
