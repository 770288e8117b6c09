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
import { anchorsReader, type LinkCheckCache } from './check-links.ts';
import type { RenderedPage } from './render.ts';
import { hasSearchText, recordsReader, type SearchIndexCache } from './search-index.ts';
import { sourcesReader, type HeaderSourcesCache } from './security-headers.ts';

export function scanPages(pages: readonly RenderedPage[], caches: { links: LinkCheckCache; searchIndex: SearchIndexCache; headers: HeaderSourcesCache }, progress?: Progress): void {
  const { anchorsOfPage } = caches.links;
  const { recordsOfPage } = caches.searchIndex;
  const { sourcesOfPage } = caches.headers;
  for (const [index, page] of pages.entries()) {
    progress?.(index + 1, pages.length);
    const needsAnchors = !anchorsOfPage.has(page);
    const needsRecords = hasSearchText(page) && !recordsOfPage.has(page);
    const needsSources = !sourcesOfPage.has(page);
    if (!needsAnchors && !needsRecords && !needsSources) continue;
    const anchors = needsAnchors ? anchorsReader() : undefined;
    const records = needsRecords ? recordsReader(page.html, page.title) : undefined;
    const sources = needsSources ? sourcesReader() : undefined;
    const parser = new Parser(tee([anchors?.handler, records?.handler, sources?.handler]), { decodeEntities: true });
    parser.write(page.html);
    parser.end();
    if (anchors) anchorsOfPage.set(page, anchors.result);
    if (records) recordsOfPage.set(page, records.records());
    if (sources) sourcesOfPage.set(page, sources.result);
  }
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
