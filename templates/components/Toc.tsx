import { DATA, type TocItem } from '../shared/index.ts';

/** A heading the table of contents lists, with the ones it lists under it. */
export interface TocNode extends TocItem {
  children: TocNode[];
}

/**
 * The table of contents of a page's headings as Docusaurus makes it: each heading under
 * the last one before it of a higher level (h2 > h3 > h4), then the levels outside
 * `min`..`max` left out, the listed headings under a left-out one taking its place. So a
 * list from h3 starts a new branch for the h4 of a new h2 section instead of hanging it
 * under the h3 of the section before.
 */
export function tocTree(headings: readonly TocItem[], levels: { min: number; max: number }): TocNode[] {
  const roots: TocNode[] = [];
  // The headings the next one may fall under, each with what it became in the list (none when left out).
  const open: { level: number; node?: TocNode }[] = [];
  for (const heading of headings) {
    while (open.length > 0 && open[open.length - 1]!.level >= heading.level) open.pop();
    const listed = heading.level >= levels.min && heading.level <= levels.max;
    const node: TocNode | undefined = listed ? { ...heading, children: [] } : undefined;
    if (node) {
      const parent = open.findLast((candidate) => candidate.node)?.node;
      (parent ? parent.children : roots).push(node);
    }
    open.push({ level: heading.level, node });
  }
  return roots;
}

function TocList({ nodes, className }: { nodes: readonly TocNode[]; className?: string }) {
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
export function Toc({ items }: { items: readonly TocNode[] }) {
  if (items.length === 0) return null;
  return (
    <nav className="toc" aria-label="On this page" {...{ [DATA.toc]: '' }}>
      <p className="toc__heading">On this page</p>
      <TocList nodes={items} />
    </nav>
  );
}

/** The same list as a disclosure above the content on narrow screens. */
export function TocCollapsible({ items }: { items: readonly TocNode[] }) {
  if (items.length === 0) return null;
  return (
    <details className="toc-mobile">
      <summary>On this page</summary>
      <TocList nodes={items} />
    </details>
  );
}
