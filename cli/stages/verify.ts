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

export async function verify(options: VerifyOptions, config: VerifyConfig): Promise<VerifyResult> {
  // Imported here, not at the top: it took a fifth of a second to load, and a large site
  // crawls on a thread of its own (verify-thread.ts), so the build's own thread never needs it.
  const { LinkChecker, LinkState } = await import('linkinator');
  const server = await startCrawlServer(options.dir, { thread: options.serverThread ?? options.routes.length >= SERVER_THREAD_FROM });
  try {
    const local = server.url;
    const ignored = config.links.ignore;
    // The server serves the folder under the base URL its build wrote into it, as the host will.
    const pageUrls = options.routes.map((route) => new URL(withBase(config.baseUrl, route), `${local}/`).href);
    const ledger = createCrawlLedger(pageUrls);
    const pending = options.pending;
    const isPending = pending ? pendingMatcher(pending, config.baseUrl) : () => false;
    /** Status of each broken link (undefined: no response). */
    const broken = new Map<string, number | undefined>();
    let checked = 0;
    let skipped = 0;
    let done = 0;
    await pMap(pageUrls, async (pageUrl) => {
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
          if (!link.startsWith(local) && !options.checkExternal) return true;
          if (!ledger.claim(link, pageUrl)) return true;
          if (isPending(link)) await pending?.written;
          return false;
        },
      });
      for (const link of result.links) {
        if (link.state === LinkState.OK) checked++;
        else if (link.state === LinkState.SKIPPED) skipped++;
        else broken.set(link.url, link.status);
      }
      options.progress?.(++done, pageUrls.length);
    }, { concurrency: PAGES_IN_FLIGHT });
    if (broken.size > 0) throw brokenLinksError(broken, ledger, local);
    return { checked, skipped };
  } finally {
    await server.close();
  }
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

function brokenLinksError(broken: Map<string, number | undefined>, ledger: CrawlLedger, local: string): DocsgenErrors {
  const shortUrl = (url: string) => url.replace(local, '') || '/';
  const errors = [...broken].map(([url, status]) => {
    const parents = ledger.parentsOf(url);
    const pages = parents.shown.map(shortUrl).sort();
    const shown = pages.join(', ') + (parents.count > pages.length ? ` and ${parents.count - pages.length} more` : '');
    return new DocsgenError(`Broken link ${shortUrl(url)} (status ${status || 'no response'}), linked from ${shown || 'the list of written pages'}.`, {
      hint: url.startsWith(local)
        ? 'The page or file does not exist in the output; fix the link or add the file to static/.'
        : 'The external site did not answer with success; fix the URL or add its prefix to links.ignore in site.config.ts with a reason.',
    });
  });
  return new DocsgenErrors(`The crawl of the built site found ${broken.size} broken link${broken.size === 1 ? '' : 's'}:`, errors);
}
