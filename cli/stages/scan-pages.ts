/**
 * Stage: read each rendered page once. One htmlparser2 pass over a page gives both what
 * the link check needs (its ids and links) and what search needs (its text by section);
 * both are kept under the page in the build session's caches, where the check-links and
 * search-index stages find them instead of parsing the page again. A page kept from the
 * last build of a watch session is not read again at all.
 */
import { Parser, type Handler } from 'htmlparser2';
import type { Progress } from '../log.ts';
import { anchorsReader, type LinkCheckCache } from './check-links.ts';
import type { RenderedPage } from './render.ts';
import { hasSearchText, recordsReader, type SearchIndexCache } from './search-index.ts';

export function scanPages(pages: readonly RenderedPage[], caches: { links: LinkCheckCache; searchIndex: SearchIndexCache }, progress?: Progress): void {
  const { anchorsOfPage } = caches.links;
  const { recordsOfPage } = caches.searchIndex;
  for (const [index, page] of pages.entries()) {
    progress?.(index + 1, pages.length);
    const needsAnchors = !anchorsOfPage.has(page);
    const needsRecords = hasSearchText(page) && !recordsOfPage.has(page);
    if (!needsAnchors && !needsRecords) continue;
    const anchors = needsAnchors ? anchorsReader() : undefined;
    const records = needsRecords ? recordsReader(page.html, page.title) : undefined;
    const parser = new Parser(tee([anchors?.handler, records?.handler]), { decodeEntities: true });
    parser.write(page.html);
    parser.end();
    if (anchors) anchorsOfPage.set(page, anchors.result);
    if (records) recordsOfPage.set(page, records.records());
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
