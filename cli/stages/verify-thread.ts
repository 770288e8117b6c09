/**
 * The verify stage on threads of its own, for large sites: the crawl then runs while the
 * thread pool compresses the files that are not pages, which the crawl does not ask for
 * (it reads every file uncompressed), and the main thread waits for both instead of for
 * one after the other. Parsing every page is most of a crawl, and one thread's work: the
 * pages are handed out, a batch at a time, to a few crawling threads (one per core, up to
 * CRAWL_THREADS), each serving its own requests. The first starts at once; the others
 * join when the build's own thread is done (the search index made, the files compressed),
 * whose memory would otherwise be held beside theirs: at 9,933 docs, two from the start
 * took a build from the cache to a peak of 945-985 MiB instead of about 885 MiB, and
 * joining beside a clean build's compression to 990 MiB. Same result and errors as
 * verify() on the calling thread.
 */
import { availableParallelism } from 'node:os';
import { DocsgenError, fromPlainError, type PlainError } from '../errors.ts';
import { startWorkerThread } from '../worker-thread.ts';
import { verifyResult, type CrawlOutcome, type PendingFiles, type VerifyConfig, type VerifyOptions, type VerifyResult } from './verify.ts';

/** Pages from which the crawl gets threads of its own: below, starting them costs more than they overlap. */
export const VERIFY_THREAD_FROM = 300;
/**
 * Crawling threads at most. On 2 cores, a 9,933-doc site's crawl alone took 14.3 s with
 * two against 17.7 s with one: each page costs about 3 ms of CPU (parsing it is most of
 * that), so the cores, not the threads, bound it.
 */
const CRAWL_THREADS = 4;

export interface VerifyWorkerData {
  dir: string;
  routes: readonly string[];
  checkExternal: boolean;
  pending?: PendingFiles;
  config: VerifyConfig;
}

/** What the build tells a thread: the pending files are written (see VerifyOptions.pending), or the next pages to crawl (none: no more). */
export type VerifyNotice = { written: true } | { routes: string[] };

/** What a thread says: it wants pages, it finished some, then its outcome or the error once. */
export type VerifyMessage = { want: true } | { done: number } | { outcome: CrawlOutcome } | { error: PlainError } | { crash: string };

/** Routes handed to a thread at a time: it asks for more before it runs out. */
export const ROUTES_PER_HANDOUT = 64;

export interface ThreadOptions {
  /** Crawling threads at most (default one per core, up to CRAWL_THREADS). */
  threads?: number;
  /**
   * The threads after the first join once this settles: until then the build's own thread
   * works beside the crawl (the search index, the compression), and a second crawl's memory
   * would add to its.
   */
  joinAfter?: Promise<unknown>;
}

export async function verifyOnThread(options: VerifyOptions, config: VerifyConfig, threadOptions: ThreadOptions = {}): Promise<VerifyResult> {
  const { progress, pending, routes } = options;
  const threads = Math.max(1, threadOptions.threads ?? Math.min(CRAWL_THREADS, availableParallelism()));
  let next = 0;
  /** Set when a crawl failed: the others get no more pages, finish theirs and end. */
  let failed = false;
  /** The next routes for a thread that asks: each page goes to one thread, as the threads are ready for it. */
  const handOut = () => {
    if (failed) return [];
    const batch = routes.slice(next, next + ROUTES_PER_HANDOUT);
    next += batch.length;
    return batch;
  };
  const done: number[] = [];
  const data: VerifyWorkerData = {
    dir: options.dir,
    routes,
    checkExternal: options.checkExternal,
    pending: pending && { files: pending.files, folders: pending.folders },
    config: { baseUrl: config.baseUrl, links: { ignore: [...config.links.ignore] } },
  };
  const started: Promise<CrawlOutcome>[] = [];
  const crawl = (i: number) => {
    const crawling = crawlOnThread(data, pending?.written, handOut, (count) => {
      done[i] = count;
      progress?.(
        done.reduce((a, b) => a + b, 0),
        routes.length,
      );
    });
    started.push(crawling);
    // Thrown by Promise.all below.
    crawling.catch(() => (failed = true));
    return crawling;
  };
  const first = crawl(0);
  const joining = (async () => {
    const settled = () => true;
    // Whichever comes first: a crawl that ended needs no help, and one that waited for ever would not end.
    const join = await Promise.race([threadOptions.joinAfter?.then(settled, settled) ?? true, first.then(() => false, () => false)]);
    // None joins a crawl that has less than a third left: a thread costs half a second to
    // start and 70-100 MiB, and a clean 9,933-doc build, whose compression ends when the
    // crawl is nearly done, peaked at 1,000 MiB for a second thread in its last 3 seconds.
    if (!join || failed || routes.length - next < Math.max(ROUTES_PER_HANDOUT * 2, routes.length / 3)) return [];
    return Promise.all(Array.from({ length: threads - 1 }, (_, i) => crawl(i + 1)));
  })();
  try {
    const [own, others] = await Promise.all([first, joining]);
    return verifyResult([own, ...others]);
  } catch (error) {
    // Every thread ends before the build removes the folder they read.
    failed = true;
    await joining.catch(() => undefined);
    await Promise.allSettled(started);
    throw error;
  }
}

function crawlOnThread(data: VerifyWorkerData, written: Promise<void> | undefined, handOut: () => string[], progress: (done: number) => void): Promise<CrawlOutcome> {
  const worker = startWorkerThread('cli/stages/verify-worker.ts', data);
  // A thread that already ended is not told; a failed write settles too, so the crawl never waits forever.
  void written?.finally(() => worker.postMessage({ written: true } satisfies VerifyNotice)).catch(() => undefined);
  return new Promise<CrawlOutcome>((resolve, reject) => {
    const died = (cause: unknown) =>
      reject(new DocsgenError(`The crawl of the built site stopped: ${cause instanceof Error ? cause.message : String(cause)}.`, { hint: 'Build again; if it fails the same way, report it with this message.', cause }));
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`its thread ended with code ${code}`)));
    worker.on('message', (message: VerifyMessage) => {
      if ('want' in message) worker.postMessage({ routes: handOut() } satisfies VerifyNotice);
      else if ('done' in message) progress(message.done);
      else if ('outcome' in message) resolve(message.outcome);
      else if ('error' in message) reject(fromPlainError(message.error));
      else reject(new Error(`The crawl of the built site failed:\n${message.crash}`));
    });
  }).finally(() => worker.terminate());
}
