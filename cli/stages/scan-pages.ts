/**
 * Stage: read each rendered page once. One htmlparser2 pass over a page gives what
 * the link check needs (its ids and links), what search needs (its text by section) and
 * what the security headers need (its inline scripts and other hosts);
 * both are kept under the page in the build session's caches, where the check-links and
 * search-index stages find them instead of parsing the page again. A page kept from the
 * last build of a watch session is not read again at all.
 */
import { Parser, type Handler } from 'htmlparser2';
import type { Progress } from '../log.ts';
import { anchorsReader, sharedLinks, type LinkCheckCache } from './check-links.ts';
import type { RenderedPage } from './render.ts';
import { hasSearchText, recordsReader, type SearchIndexCache } from './search-index.ts';
import { sharedSources, sourcesReader, type HeaderSourcesCache } from './security-headers.ts';

type ScanCaches = { links: LinkCheckCache; searchIndex: SearchIndexCache; headers: HeaderSourcesCache };

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
  const { anchorsOfPage } = caches.links;
  const { recordsOfPage } = caches.searchIndex;
  const { sourcesOfPage } = caches.headers;
  const needsAnchors = !anchorsOfPage.has(page);
  const needsRecords = hasSearchText(page) && !recordsOfPage.has(page);
  const needsSources = !sourcesOfPage.has(page);
  if (!needsAnchors && !needsRecords && !needsSources) return;
  const anchors = needsAnchors ? anchorsReader() : undefined;
  const records = needsRecords ? recordsReader(html, page.title) : undefined;
  const sources = needsSources ? sourcesReader() : undefined;
  const parser = new Parser(tee([anchors?.handler, records?.handler, sources?.handler]), { decodeEntities: true });
  parser.write(html);
  parser.end();
  // Copies: the strings the parser hands out are slices of the page's HTML, and V8 keeps
  // a whole string alive while any slice of it lives, so kept slices would keep every
  // page's HTML for the rest of the build.
  if (anchors) anchorsOfPage.set(page, sharedLinks(structuredClone(anchors.result), caches.links));
  if (records) recordsOfPage.set(page, structuredClone(records.records()));
  if (sources) sourcesOfPage.set(page, sharedSources(structuredClone(sources.result), caches.headers));
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
