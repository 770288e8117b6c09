/**
 * What a reader's browser actually downloads and runs on each kind of page, recorded in
 * headless Chromium (Resource Timing in the page, bodies fetched again from the server
 * to count raw and gzip bytes), not estimated from the files on disk:
 * - before the load event: what the page needs to be usable;
 * - until the network is idle: that plus what loads afterwards (islands mounted after
 *   load, their data). The API reference's Elements starts only when the reader asks for
 *   the console, which no one does here, so the API pages count what a reader who only reads downloads.
 * Gzip is level 9 of each body on its own, the usual "KB gzip" of bundle-size tools;
 * `transfer` is what `docsgen serve` really sent (brotli when the browser asks for it).
 */
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../test/helpers/browser.ts';

/** `prefetch`: other pages' HTML the router fetched ahead of a click. */
export type ResourceKind = 'html' | 'prefetch' | 'js' | 'css' | 'other';

interface Entry {
  url: string;
  kind: ResourceKind;
  /** ms from navigation start when the response ended. */
  end: number;
  transfer: number;
}

export interface Bytes {
  raw: number;
  gzip: number;
  transfer: number;
}

export interface WeightPhase {
  /** The page itself. */
  html: Bytes;
  /** Pages the router prefetched because their links were visible or hovered. */
  prefetch: Bytes;
  js: Bytes;
  css: Bytes;
  other: Bytes;
  /** Responses, the page itself included. */
  requests: number;
  jsFiles: string[];
}

export interface PageWeight {
  name: string;
  route: string;
  beforeLoad: WeightPhase;
  untilIdle: WeightPhase;
  /** ms from navigation start. */
  loadEventMs: number;
}

function kindOf(url: string, contentType: string): ResourceKind {
  if (/javascript|ecmascript/.test(contentType)) return 'js';
  if (contentType.includes('text/css')) return 'css';
  if (contentType.includes('text/html')) return 'html';
  const pathname = new URL(url).pathname;
  if (pathname.endsWith('.js') || pathname.endsWith('.mjs')) return 'js';
  if (pathname.endsWith('.css')) return 'css';
  return 'other';
}

const emptyBytes = (): Bytes => ({ raw: 0, gzip: 0, transfer: 0 });

export async function benchWeight(baseUrl: string, pages: readonly { name: string; route: string }[]): Promise<PageWeight[]> {
  const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
  // Each URL's body once: the same asset on two pages is measured the same.
  const bodies = new Map<string, Promise<{ raw: number; gzip: number; type: string }>>();
  const body = (url: string) => {
    let promise = bodies.get(url);
    if (!promise) {
      promise = fetch(url, { headers: { 'accept-encoding': 'identity' } }).then(async (res) => {
        const buffer = Buffer.from(await res.arrayBuffer());
        return { raw: buffer.length, gzip: gzipSync(buffer, { level: 9 }).length, type: res.headers.get('content-type') ?? '' };
      });
      bodies.set(url, promise);
    }
    return promise;
  };
  const results: PageWeight[] = [];
  try {
    for (const page of pages) {
      // A fresh page and an empty cache, as for a first visit.
      const tab = await browser.newPage();
      const cdp = await browser.context.newCDPSession(tab);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await tab.addInitScript(() => performance.setResourceTimingBufferSize(10_000));
      const url = new URL(page.route, baseUrl).href;
      const response = await tab.goto(url, { waitUntil: 'networkidle' });
      if (!response || response.status() !== 200) throw new Error(`${page.route} answered ${response?.status() ?? 'nothing'}; the benchmark needs it to be a page.`);
      const timing = await tab.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
          url: r.name,
          end: r.responseEnd,
          transfer: r.transferSize,
          initiator: r.initiatorType,
        }));
        return { load: nav.loadEventStart, navTransfer: nav.transferSize, resources };
      });
      await cdp.detach();
      await tab.close();

      const entries: Entry[] = [{ url, kind: 'html', end: 0, transfer: timing.navTransfer }];
      for (const r of timing.resources) {
        if (!r.url.startsWith(baseUrl)) throw new Error(`${page.route} requested ${r.url}, outside the site: a page must not depend on another host.`);
        const { type } = await body(r.url);
        const kind = kindOf(r.url, type);
        entries.push({ url: r.url, kind: kind === 'html' ? 'prefetch' : kind, end: r.end, transfer: r.transfer });
      }
      const phase = async (limit: number): Promise<WeightPhase> => {
        const out: WeightPhase = { html: emptyBytes(), prefetch: emptyBytes(), js: emptyBytes(), css: emptyBytes(), other: emptyBytes(), requests: 0, jsFiles: [] };
        for (const entry of entries) {
          if (entry.end > limit) continue;
          const sizes = await body(entry.url);
          const bucket = out[entry.kind];
          bucket.raw += sizes.raw;
          bucket.gzip += sizes.gzip;
          bucket.transfer += entry.transfer;
          out.requests++;
          if (entry.kind === 'js') out.jsFiles.push(new URL(entry.url).pathname);
        }
        return out;
      };
      results.push({
        name: page.name,
        route: page.route,
        loadEventMs: timing.load,
        beforeLoad: await phase(timing.load),
        untilIdle: await phase(Number.POSITIVE_INFINITY),
      });
    }
  } finally {
    await browser.close();
  }
  return results;
}
