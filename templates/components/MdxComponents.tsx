import { Children, cloneElement, isValidElement, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import type { MDXComponents } from 'mdx/types.js';
import { Admonition } from './Admonition.tsx';
import { SequenceDiagram } from './SequenceDiagram.tsx';
import { Slide, SlideDeck } from './SlideDeck.tsx';
import { TabItem, Tabs } from './Tabs.tsx';

/** Code highlighted at build time arrives as one HTML string (see cli/mdx/rehype-highlight.ts). */
function CodeHtml({ html }: { html: string }) {
  return <div className="code-block__pre" dangerouslySetInnerHTML={{ __html: html }} />;
}

const isList = (node: ReactNode): boolean => isValidElement(node) && (node.type === 'ul' || node.type === 'ol');

/**
 * Puts a task's checkbox and its text in one <label>, so the checkbox is named by the
 * task (GFM writes a bare `<input type="checkbox" disabled>` before the text). A nested
 * list stays outside the label; in a loose list the label goes inside the paragraph.
 */
function labelTask(children: ReactNode): ReactNode {
  const nodes = Children.toArray(children);
  if (nodes.some((n) => isValidElement(n) && n.type === 'input')) {
    return [
      <label key="task">{nodes.filter((n) => !isList(n))}</label>,
      ...nodes.filter(isList),
    ];
  }
  return nodes.map((n) => {
    if (!isValidElement(n) || n.type !== 'p') return n;
    const paragraph = n as ReactElement<{ children?: ReactNode }>;
    return cloneElement(paragraph, {}, labelTask(paragraph.props.children));
  });
}

function ListItem({ className, children, ...props }: ComponentProps<'li'>) {
  const task = typeof className === 'string' && className.split(' ').includes('task-list-item');
  return (
    <li className={className} {...props}>
      {task ? labelTask(children) : children}
    </li>
  );
}

/** Components every MDX document can use without importing them. */
export const mdxComponents: MDXComponents = {
  CodeHtml,
  Admonition,
  Tabs,
  TabItem,
  SequenceDiagram,
  SlideDeck,
  Slide,
  // Tables are wrapped in a focusable scroll box at compile time (cli/mdx/rehype-table-scroll.ts).
  img: (props) => <img loading="lazy" decoding="async" {...props} />,
  li: ListItem,
};
