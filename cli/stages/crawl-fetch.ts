/**
 * The `fetch` the crawl's own thread gives linkinator (verify-worker.ts), which calls the
 * global one and offers no option for another. Requests to the loopback server go
 * through undici's `request()`, whose body is a Node stream: linkinator then parses it as
 * it comes. The built-in fetch hands it a web stream that linkinator turns back into a Node
 * stream, and those adapters, with fetch's own bookkeeping, were a third of the crawl's
 * CPU: a 1,023-doc site's crawl took about 3.2-4.5 s with this, against 4.4-5.6 s without,
 * alternated on one machine. Every other URL (external links, with --check-external) keeps
 * the built-in fetch, with its proxy support and decompression.
 *
 * Only what linkinator reads of a response is given: status, headers, body and the final
 * URL. Redirects are followed as fetch follows them ("manual" returns the redirect itself).
 */
import type { Readable } from 'node:stream';
import { request } from 'undici';

/** What linkinator reads of a fetch response. */
export interface CrawlResponse {
  status: number;
  headers: Headers;
  body: Readable | null;
  url: string;
}

type FetchInit = { method?: string; headers?: Record<string, string>; redirect?: 'follow' | 'manual'; signal?: AbortSignal };

/** The statuses fetch follows (not 300, 304 or 305). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** fetch's own limit. */
const MAX_REDIRECTS = 20;

/** Whether `url` names the crawl's server: docsgen serves the crawl on 127.0.0.1 (crawl-server.ts). */
function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && url.hostname === '127.0.0.1';
}

/** A fetch that sends loopback requests through undici's request() and every other one to `fallback`. */
export function crawlFetch(fallback: typeof fetch): (input: string | URL, init?: FetchInit) => Promise<CrawlResponse | Response> {
  return async (input, init = {}) => {
    let url = new URL(input);
    if (!isLoopback(url)) return fallback(url, init);
    const method = (init.method ?? 'GET').toUpperCase() as 'GET' | 'HEAD';
    for (let redirects = 0; ; redirects++) {
      // `reset: false`: undici closes the connection after a HEAD request unless told not to,
      // in case the server sends a body anyway; docsgen's server does not, and the crawl asks
      // for every file it does not parse with HEAD, so without it every page cost a connection.
      const response = await request(url, { method, headers: init.headers, signal: init.signal, reset: false });
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string' && init.redirect !== 'manual') {
        // The body of a redirect is never read: dropping it frees the connection for the next request.
        await response.body.dump();
        if (redirects === MAX_REDIRECTS) throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects from ${url.href}`);
        url = new URL(location, url);
        if (!isLoopback(url)) return fallback(url, init);
        continue;
      }
      // linkinator leaves the body of a broken link unread: when the server then closes the
      // connection, that body's error must not end the thread (a reader of it still gets it).
      response.body.on('error', () => undefined);
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      if (method === 'HEAD') await response.body.dump();
      return { status: response.statusCode, headers, body: method === 'HEAD' ? null : response.body, url: url.href };
    }
  };
}
