import { DATA, type TocItem } from '../shared/index.ts';

interface TocNode extends TocItem {
  children: TocNode[];
}

function nest(items: readonly TocItem[]): TocNode[] {
  const roots: TocNode[] = [];
  const stack: TocNode[] = [];
  for (const item of items) {
    const node: TocNode = { ...item, children: [] };
    while (stack.length && stack[stack.length - 1]!.level >= item.level) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

function TocList({ nodes, className }: { nodes: TocNode[]; className?: string }) {
  return (
    <ul className={className ?? 'toc__list'}>
      {nodes.map((node) => (
        <li key={node.id}>
          <a href={`#${node.id}`} className="toc__link">
            {node.text}
          </a>
          {node.children.length ? <TocList nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** Right-hand table of contents on wide screens. */
export function Toc({ items }: { items: readonly TocItem[] }) {
  if (items.length === 0) return null;
  return (
    <nav className="toc" aria-label="On this page" {...{ [DATA.toc]: '' }}>
      <p className="toc__heading">On this page</p>
      <TocList nodes={nest(items)} />
    </nav>
  );
}

/** The same list as a disclosure above the content on narrow screens. */
export function TocCollapsible({ items }: { items: readonly TocItem[] }) {
  if (items.length === 0) return null;
  return (
    <details className="toc-mobile">
      <summary>On this page</summary>
      <TocList nodes={nest(items)} />
    </details>
  );
}
