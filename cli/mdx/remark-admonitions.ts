/**
 * `:::note[Title]` containers become <Admonition type="note" title="Title">, the
 * Docusaurus syntax authors know. Text and leaf directives that are not ours are put
 * back as the text they were, so prose like "status:approved" survives intact.
 */
import type { Paragraph, PhrasingContent, Root, RootContent, Text } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import type { MdxJsxFlowElement } from 'mdast-util-mdx-jsx';
import { toString } from 'mdast-util-to-string';
import type { Plugin } from 'unified';
import { visit, SKIP } from 'unist-util-visit';
import { ADMONITION_TYPES, type AdmonitionType } from '../../templates/shared/index.ts';

const remarkAdmonitions: Plugin<[], Root> = () => (tree) => {
  visit(tree, (node, index, parent) => {
    if (!parent || index === undefined) return;
    if (node.type === 'containerDirective') {
      const directive = node as ContainerDirective;
      if (!(ADMONITION_TYPES as readonly string[]).includes(directive.name)) {
        parent.children.splice(index, 1, ...(directive.children as RootContent[]) as never[]);
        return [SKIP, index];
      }
      const [first, ...rest] = directive.children;
      const hasLabel = first?.type === 'paragraph' && (first.data as { directiveLabel?: boolean } | undefined)?.directiveLabel;
      const title = hasLabel ? toString(first) : undefined;
      const element: MdxJsxFlowElement = {
        type: 'mdxJsxFlowElement',
        name: 'Admonition',
        attributes: [
          { type: 'mdxJsxAttribute', name: 'type', value: directive.name as AdmonitionType },
          ...(title ? [{ type: 'mdxJsxAttribute' as const, name: 'title', value: title }] : []),
        ],
        children: (hasLabel ? rest : directive.children) as MdxJsxFlowElement['children'],
        position: directive.position,
      };
      parent.children.splice(index, 1, element as never);
      return;
    }
    if (node.type === 'textDirective' || node.type === 'leafDirective') {
      const directive = node as TextDirective | LeafDirective;
      const marker = directive.type === 'textDirective' ? ':' : '::';
      const label = directive.children as PhrasingContent[];
      const text: Text = { type: 'text', value: `${marker}${directive.name}` };
      const restored: PhrasingContent[] = label.length ? [text, { type: 'text', value: '[' }, ...label, { type: 'text', value: ']' }] : [text];
      if (directive.type === 'leafDirective') {
        const paragraph: Paragraph = { type: 'paragraph', children: restored };
        parent.children.splice(index, 1, paragraph as never);
      } else {
        parent.children.splice(index, 1, ...(restored as never[]));
      }
      return [SKIP, index + 1];
    }
    return;
  });
};

export default remarkAdmonitions;
