/**
 * What the docs pages need from the sidebars, worked out once per build rather than once
 * per doc: the sidebar JSON every page shares (written as one content-hashed file and
 * loaded by the browser when a reader expands a category that is not in the page), and
 * for each doc its place in its sidebar, its neighbours and its breadcrumb trail.
 */
import type { SidebarEntry, SidebarJson } from '../templates/shared/index.ts';
import type { ResolvedSidebarItem } from './stages/collect.ts';
import { withBase } from '../templates/shared/base-url.ts';

export interface DocNeighbour {
  route: string;
  label: string;
}

export interface DocPlace {
  /** Name of the sidebar the doc is in. */
  sidebar: string;
  /** Item indexes from the sidebar's top down to the doc. */
  path: number[];
  previous?: DocNeighbour;
  next?: DocNeighbour;
  /** The categories leading to the doc, outermost first. */
  trail: { label: string; href?: string }[];
}

export interface SidebarData {
  /** Every sidebar by name, as pages render it and the browser loads it. */
  entries: SidebarJson;
  /** `entries` serialized, with their links under the base URL (the browser uses them as they are): the shared file's contents. */
  json: string;
  /**
   * By doc route; a doc listed twice takes its first place, as in reading order. A doc
   * that is a category's own page has the category's place and no neighbours.
   */
  places: Map<string, DocPlace>;
}

export function sidebarData(sidebars: Readonly<Record<string, readonly ResolvedSidebarItem[]>>, baseUrl = '/'): SidebarData {
  const entries: SidebarJson = {};
  const places = new Map<string, DocPlace>();
  for (const [name, items] of Object.entries(sidebars)) {
    entries[name] = items.map(toEntry);
    const inOrder: (DocNeighbour & { path: number[]; trail: DocPlace['trail']; unlisted?: boolean })[] = [];
    const categoryPages: { route: string; path: number[]; trail: DocPlace['trail'] }[] = [];
    const walk = (list: readonly ResolvedSidebarItem[], path: number[], trail: DocPlace['trail']) => {
      list.forEach((item, index) => {
        if (item.type === 'doc') inOrder.push({ route: item.route, label: item.label, path: [...path, index], trail, unlisted: item.unlisted });
        else if (item.type === 'category') {
          if (item.route) categoryPages.push({ route: item.route, path: [...path, index], trail });
          walk(item.items, [...path, index], [...trail, { label: item.label, href: item.route }]);
        }
      });
    };
    walk(items, [], []);
    const neighbour = (other: DocNeighbour | undefined) => (other ? { route: other.route, label: other.label } : undefined);
    // An unlisted doc is nobody's neighbour, as in Docusaurus; its own page still links to the listed docs around it.
    const before: (DocNeighbour | undefined)[] = [];
    const after: (DocNeighbour | undefined)[] = [];
    for (let i = 0, last: DocNeighbour | undefined; i < inOrder.length; i++) {
      before[i] = last;
      if (!inOrder[i]!.unlisted) last = inOrder[i];
    }
    for (let i = inOrder.length - 1, last: DocNeighbour | undefined; i >= 0; i--) {
      after[i] = last;
      if (!inOrder[i]!.unlisted) last = inOrder[i];
    }
    inOrder.forEach((doc, index) => {
      if (places.has(doc.route)) return;
      places.set(doc.route, { sidebar: name, path: doc.path, previous: neighbour(before[index]), next: neighbour(after[index]), trail: doc.trail });
    });
    for (const page of categoryPages) if (!places.has(page.route)) places.set(page.route, { sidebar: name, path: page.path, trail: page.trail });
  }
  // The pages' copies of these links are put under the base URL with the rest of the page (html-base-url.ts).
  const json = JSON.stringify(entries, (key, value: unknown) => (key === 'href' && typeof value === 'string' ? withBase(baseUrl, value) : value));
  return { entries, json, places };
}

function toEntry(item: ResolvedSidebarItem): SidebarEntry {
  if (item.type === 'doc') return { type: 'doc', label: item.label, href: item.route, ...(item.className ? { className: item.className } : {}), ...(item.unlisted ? { unlisted: true } : {}) };
  if (item.type === 'link') return { type: 'link', label: item.label, href: item.href };
  const items = item.items.map(toEntry);
  return { type: 'category', label: item.label, href: item.route ?? items.find((child) => child.href && !child.unlisted)?.href, items };
}
