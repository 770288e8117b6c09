/**
 * Stage: read each rendered page once. One htmlparser2 pass over a page gives what
 * the link check needs (its ids and links), what search needs (its text by section) and
 * what the security headers need (its inline scripts and other hosts);
 * both are kept under the page in the build session's caches, where the check-links and
 * search-index stages find them instead of parsing the page again. A page kept from the
 * last build of a watch session is not read again at all.
 *
 * The pass itself (readPage) takes and returns plain data, so a thread of its own can
 * make it (scan-pool.ts); keepReading() then files what it read under the page.
 */
import { Parser, type Handler } from 'htmlparser2';
import type { Progress } from '../log.ts';
import { anchorsReader, sharedLinks, type LinkCheckCache, type PageAnchors } from './check-links.ts';
import type { RenderedPage } from './render.ts';
import { hasSearchText, recordsReader, type SearchIndexCache, type SearchRecord } from './search-index.ts';
import { sharedSources, sourcesReader, type HeaderSourcesCache, type PageSources } from './security-headers.ts';

export type ScanCaches = { links: LinkCheckCache; searchIndex: SearchIndexCache; headers: HeaderSourcesCache };

/** Which readers a page still needs: what the caches already hold for it is not read again. */
export interface ReadingNeeds {
  anchors: boolean;
  records: boolean;
  sources: boolean;
}

/** What one pass over a page read, for the readers it was asked for. */
export interface PageReading {
  anchors?: PageAnchors;
  records?: SearchRecord[];
  sources?: PageSources;
}

export function scanPages(pages: readonly RenderedPage[], caches: ScanCaches, progress?: Progress): void {
  for (const [index, page] of pages.entries()) {
    progress?.(index + 1, pages.length);
    scanPage(page, page.html, caches);
  }
}

/**
 * Reads `html` as the HTML of `page`, under which the caches keep what they need: a build
 * that writes pages as they come keeps `page` without its HTML, and every later stage
 * finds what it needs here.
 */
export function scanPage(page: RenderedPage, html: string, caches: ScanCaches): void {
  const needs = readingNeeds(page, caches);
  if (!needs) return;
  // A copy: the strings the parser hands out are slices of the page's HTML, and V8 keeps
  // a whole string alive while any slice of it lives, so kept slices would keep every
  // page's HTML for the rest of the build.
  keepReading(page, structuredClone(readPage(html, page.title, needs)), caches);
}

/** What `page` still needs read, or undefined when the caches hold all of it. */
export function readingNeeds(page: RenderedPage, caches: ScanCaches): ReadingNeeds | undefined {
  const needs: ReadingNeeds = {
    anchors: !caches.links.anchorsOfPage.has(page),
    records: hasSearchText(page) && !caches.searchIndex.recordsOfPage.has(page),
    sources: !caches.headers.sourcesOfPage.has(page),
  };
  return needs.anchors || needs.records || needs.sources ? needs : undefined;
}

/** One pass over `html` with the readers in `needs`. The strings it returns are slices of `html`. */
export function readPage(html: string, title: string, needs: ReadingNeeds): PageReading {
  const anchors = needs.anchors ? anchorsReader() : undefined;
  const records = needs.records ? recordsReader(html, title) : undefined;
  const sources = needs.sources ? sourcesReader() : undefined;
  const parser = new Parser(tee([anchors?.handler, records?.handler, sources?.handler]), { decodeEntities: true });
  parser.write(html);
  parser.end();
  return { anchors: anchors?.result, records: records?.records(), sources: sources?.result };
}

/** Files what was read of `page` in the caches, with the strings every page shares kept once. */
export function keepReading(page: RenderedPage, reading: PageReading, caches: ScanCaches): void {
  if (reading.anchors) caches.links.anchorsOfPage.set(page, sharedLinks(reading.anchors, caches.links));
  if (reading.records) caches.searchIndex.recordsOfPage.set(page, reading.records);
  if (reading.sources) caches.headers.sourcesOfPage.set(page, sharedSources(reading.sources, caches.headers));
}

/** One handler that hands every event the readers use to each of them. */
function tee(readers: (Partial<Handler> | undefined)[]): Partial<Handler> {
  const handlers = readers.filter((h) => h !== undefined);
  return {
    onopentag: (name, attributes, implied) => handlers.forEach((h) => h.onopentag?.(name, attributes, implied)),
    ontext: (text) => handlers.forEach((h) => h.ontext?.(text)),
    onclosetag: (name, implied) => handlers.forEach((h) => h.onclosetag?.(name, implied)),
  };
}
