/**
 * The previous/next links at the foot of a doc. By default the docs around it in its
 * sidebar; front matter changes that as in Docusaurus: `pagination_prev`/`pagination_next`
 * name another doc by id or hide the link with null, and a doc's `pagination_label` is
 * what other docs' links call it.
 */
import type { DocNeighbour } from './sidebar-data.ts';
import type { SourceDoc } from './stages/collect.ts';

export interface DocLink {
  href: string;
  title: string;
}

export type DocPagination = (doc: SourceDoc, sidebar: { previous?: DocNeighbour; next?: DocNeighbour }) => { previous?: DocLink; next?: DocLink };

/** Made once per render: it indexes the docs by id and route. */
export function docPagination(docs: readonly SourceDoc[]): DocPagination {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const byRoute = new Map(docs.map((d) => [d.route, d]));
  const link = (override: string | null | undefined, fromSidebar: DocNeighbour | undefined): DocLink | undefined => {
    if (override === null) return undefined;
    if (override !== undefined) {
      // collect() reported ids that name no doc.
      const target = byId.get(override);
      return target ? { href: target.route, title: target.frontMatter.pagination_label ?? target.frontMatter.sidebar_label ?? target.frontMatter.title } : undefined;
    }
    if (!fromSidebar) return undefined;
    return { href: fromSidebar.route, title: byRoute.get(fromSidebar.route)?.frontMatter.pagination_label ?? fromSidebar.label };
  };
  return (doc, sidebar) => ({
    previous: link(doc.frontMatter.pagination_prev, sidebar.previous),
    next: link(doc.frontMatter.pagination_next, sidebar.next),
  });
}
