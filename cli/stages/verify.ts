/**
 * Stage: crawl the written site with linkinator through docsgen's own server on a
 * loopback port, so links are checked exactly as a production host resolves them
 * (both page aliases, 404s, assets). External links are only fetched on request.
 *
 * linkinator is driven page by page, not recursively: a recursive crawl keeps one queue
 * item per link seen (every sidebar link of every page) and takes items with
 * Array.shift(), which is quadratic in the site, and its `concurrency` does not bound
 * how many requests it starts. Here each written page is fetched once as the root of
 * its own non-recursive check, a few pages at a time, and every other URL is requested
 * once for the whole site: the links every page shares (navbar, footer, assets) are
 * checked by the first page that has them and skipped by the others. `cleanUrls` keeps
 * linkinator from reading `/x` as the folder `/x/`, which made every table-of-contents
 * `#id` link fetch the page a second time under another name.
 *
 * `#id` links are not checked here: the check-links stage checks every one in memory,
 * on the HTML that is then written byte for byte, and names the source file and line.
 * linkinator's own fragment check parsed every page a second time, a fifth of the crawl.
 */
import pMap from 'p-map';
import type { SiteConfig } from '../config.ts';
import { DocsgenError, DocsgenErrors } from '../errors.ts';
import { withBase, withoutBase } from '../../templates/shared/base-url.ts';
import { SERVER_THREAD_FROM, startCrawlServer } from './crawl-server.ts';

export interface VerifyOptions {
  dir: string;
  checkExternal: boolean;
  /** Routes of the written pages ('/docs/x'): each is fetched once and its links checked. */
  routes: readonly string[];
  /** Called after each page is checked. */
  progress?: (done: number, total: number) => void;
  /** Serve from a thread of its own (default: from SERVER_THREAD_FROM pages on). */
  serverThread?: boolean;
  /**
   * Files still being written when the crawl starts (the search index, which no page needs
   * but an author may link to): a link to one of them is requested once `written` settles.
   */
  pending?: PendingFiles & { written: Promise<void> };
}

/** Paths inside the output ('search/index.json'), and folders whose every file is pending. */
export interface PendingFiles {
  files: readonly string[];
  folders: readonly string[];
}

export interface VerifyResult {
  checked: number;
  skipped: number;
}

/**
 * Pages checked at once, and requests each page's check may have in flight: at most their
 * product in flight. Most pages request nothing but themselves (the links they share were
 * claimed by an earlier page), so 16 pages keep the crawl and its server busy: with 4, a
 * 1,023-doc site's crawl took 4.3-4.4 s against 3.9-4.2 s, and 32 gained nothing more.
 */
export const PAGES_IN_FLIGHT = 16;
export const REQUESTS_PER_PAGE = 8;
/** Linking pages kept per URL for the report; the others are counted. */
const PARENTS_SHOWN = 3;

export interface CrawlLedger {
  /**
   * Records that `parent` links to `url` and says whether this page's check must request
   * it: only the first page that links to a URL does, and never for a written page,
   * which is fetched as the root of its own check.
   */
  claim(url: string, parent: string): boolean;
  /** A few pages linking to `url`, and how many in all. */
  parentsOf(url: string): { shown: string[]; count: number };
}

export function createCrawlLedger(pageUrls: Iterable<string>): CrawlLedger {
  const pages = new Set(pageUrls);
  const seen = new Map<string, { shown: string[]; count: number }>();
  return {
    claim(url, parent) {
      const entry = seen.get(url);
      if (entry) {
        if (!entry.shown.includes(parent)) {
          entry.count++;
          if (entry.shown.length < PARENTS_SHOWN) entry.shown.push(parent);
        }
        return false;
      }
      seen.set(url, { shown: [parent], count: 1 });
      return !pages.has(url);
    },
    parentsOf(url) {
      return seen.get(url) ?? { shown: [], count: 0 };
    },
  };
}

/** What the crawl reads of the site's config: plain data, so a thread of its own can be handed it. */
export interface VerifyConfig {
  baseUrl: SiteConfig['baseUrl'];
  links: { ignore: readonly string[] };
}

/** What a crawl of some of the pages found: what verify() reports, once the crawls of all are put together. */
export interface CrawlOutcome {
  /** Pages fetched and served. */
  pages: number;
  /** Other URLs requested and served: a path for the site's own (each crawl has a server of its own), else the URL. */
  served: string[];
  skipped: number;
  /** By path or URL as in `served`, with the pages (paths) that link to it. */
  broken: { url: string; local: boolean; status: number | undefined; shown: string[]; count: number }[];
}

export interface CrawlShare {
  /** Origin of the server that serves the folder. */
  origin: string;
  /** Routes of every written page: a link to one is not requested (it is fetched as a page). */
  routes: readonly string[];
  /** The routes of the pages this crawl fetches, as they are handed to it; default all. */
  mine?: Iterable<string> | AsyncIterable<string>;
  checkExternal: boolean;
  pending?: VerifyOptions['pending'];
  /** Called after each of this crawl's pages. */
  progress?: (done: number) => void;
}

export async function verify(options: VerifyOptions, config: VerifyConfig): Promise<VerifyResult> {
  const server = await startCrawlServer(options.dir, { thread: options.serverThread ?? options.routes.length >= SERVER_THREAD_FROM });
  try {
    const total = options.routes.length;
    const outcome = await crawlPages({ ...options, origin: server.url, progress: (done) => options.progress?.(done, total) }, config);
    return verifyResult([outcome]);
  } finally {
    await server.close();
  }
}

/** The crawls' outcomes together: the counts, or the broken links with the pages that link to them. */
export function verifyResult(outcomes: readonly CrawlOutcome[]): VerifyResult {
  const broken = new Map<string, CrawlOutcome['broken'][number]>();
  for (const found of outcomes.flatMap((o) => o.broken)) {
    const known = broken.get(found.url);
    if (!known) broken.set(found.url, { ...found, shown: [...found.shown] });
    else {
      known.count += found.count;
      known.shown = [...new Set([...known.shown, ...found.shown])].slice(0, PARENTS_SHOWN);
    }
  }
  if (broken.size > 0) throw brokenLinksError([...broken.values()]);
  // A link every crawl shares (the stylesheet) is served to each: counted once.
  const served = new Set(outcomes.flatMap((o) => o.served));
  return { checked: outcomes.reduce((sum, o) => sum + o.pages, 0) + served.size, skipped: outcomes.reduce((sum, o) => sum + o.skipped, 0) };
}

/** Fetches this crawl's pages, and once each the URLs they link to that are not pages. */
export async function crawlPages(share: CrawlShare, config: VerifyConfig): Promise<CrawlOutcome> {
  // Imported here, not at the top: it took a fifth of a second to load, and a large site
  // crawls on threads of its own (verify-thread.ts), so the build's own thread never needs it.
  const { LinkChecker, LinkState } = await import('linkinator');
  const local = share.origin;
  const shown = (url: string) => (url.startsWith(`${local}/`) ? url.slice(local.length) : url === local ? '/' : url);
  const ignored = config.links.ignore;
  // The server serves the folder under the base URL its build wrote into it, as the host will.
  const urlOf = (route: string) => new URL(withBase(config.baseUrl, route), `${local}/`).href;
  const ledger = createCrawlLedger(share.routes.map(urlOf));
  const pending = share.pending;
  const isPending = pending ? pendingMatcher(pending, config.baseUrl) : () => false;
  const mine = share.mine ?? share.routes;
  const outcome: CrawlOutcome = { pages: 0, served: [], skipped: 0, broken: [] };
  /** Status of each broken link (undefined: no response). */
  const broken = new Map<string, number | undefined>();
  let done = 0;
  await pMap(
    mine,
    async (route) => {
      const pageUrl = urlOf(route);
      const result = await new LinkChecker().check({
        path: pageUrl,
        recurse: false,
        cleanUrls: true,
        concurrency: REQUESTS_PER_PAGE,
        timeout: 20_000,
        // The server on loopback would otherwise compress every page (or send its brotli copy)
        // for a reader that only parses it. Spelled as linkinator spells its default header:
        // its headers are merged as an object, so another case would add a second value.
        headers: { 'Accept-Encoding': 'identity' },
        linksToSkip: async (link: string) => {
          if (link === pageUrl) return false;
          if (ignored.some((prefix) => link.startsWith(prefix))) return true;
          if (!link.startsWith(local) && !share.checkExternal) return true;
          if (!ledger.claim(link, pageUrl)) return true;
          if (isPending(link)) await pending?.written;
          return false;
        },
      });
      for (const link of result.links) {
        if (link.state === LinkState.OK) {
          if (link.url === pageUrl) outcome.pages++;
          else outcome.served.push(shown(link.url));
        } else if (link.state === LinkState.SKIPPED) outcome.skipped++;
        else broken.set(link.url, link.status);
      }
      share.progress?.(++done);
    },
    { concurrency: PAGES_IN_FLIGHT },
  );
  outcome.broken = [...broken].map(([url, status]) => {
    const parents = ledger.parentsOf(url);
    return { url: shown(url), local: url.startsWith(local), status, shown: parents.shown.map(shown), count: parents.count };
  });
  return outcome;
}

/** Whether a URL of the crawl names one of the pending files. */
function pendingMatcher(pending: PendingFiles, baseUrl: string): (link: string) => boolean {
  const files = new Set(pending.files);
  return (link) => {
    let rel: string | undefined;
    try {
      rel = withoutBase(baseUrl, decodeURI(new URL(link).pathname))?.slice(1);
    } catch {
      return false;
    }
    return rel !== undefined && (files.has(rel) || pending.folders.some((folder) => rel.startsWith(`${folder}/`)));
  };
}

function brokenLinksError(broken: readonly CrawlOutcome['broken'][number][]): DocsgenErrors {
  const errors = broken.map(({ url, local, status, ...parents }) => {
    const pages = [...parents.shown].sort();
    const shown = pages.join(', ') + (parents.count > pages.length ? ` and ${parents.count - pages.length} more` : '');
    return new DocsgenError(`Broken link ${url} (status ${status || 'no response'}), linked from ${shown || 'the list of written pages'}.`, {
      hint: local
        ? 'The page or file does not exist in the output; fix the link or add the file to static/.'
        : 'The external site did not answer with success; fix the URL or add its prefix to links.ignore in site.config.ts with a reason.',
    });
  });
  return new DocsgenErrors(`The crawl of the built site found ${broken.length} broken link${broken.length === 1 ? '' : 's'}:`, errors);
}
