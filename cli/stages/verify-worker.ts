/** Runs in a crawling thread of the verify stage (verify-thread.ts): crawls its share of the pages once and reports back. */
import { parentPort, workerData } from 'node:worker_threads';
import { isDocsgenError, toPlainError } from '../errors.ts';
import { crawlFetch } from './crawl-fetch.ts';
import { startCrawlServer } from './crawl-server.ts';
import { crawlPages } from './verify.ts';
import type { VerifyMessage, VerifyNotice, VerifyWorkerData } from './verify-thread.ts';

async function crawl(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('verify-worker.ts runs only as a worker thread of the verify stage.');
  const { config, pending, dir, ...share } = workerData as VerifyWorkerData;
  const send = (message: VerifyMessage) => port.postMessage(message);
  let wrote = () => undefined as void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  /** Routes handed over and not crawled yet, and what waits for the next handout. */
  const queue: string[] = [];
  let handedOut: ((routes: string[]) => void) | undefined;
  port.on('message', (notice: VerifyNotice) => {
    if ('written' in notice) wrote();
    else handedOut?.(notice.routes);
  });
  async function* routes(): AsyncGenerator<string> {
    for (;;) {
      if (queue.length === 0) {
        const batch = await new Promise<string[]>((resolve) => {
          handedOut = resolve;
          send({ want: true });
        });
        if (batch.length === 0) return;
        queue.push(...batch);
      }
      yield queue.shift()!;
    }
  }
  // This thread runs nothing but the crawl, and linkinator takes no fetch but the global one.
  // A type assertion: linkinator reads only the part of a response crawlFetch gives.
  globalThis.fetch = crawlFetch(globalThis.fetch) as typeof fetch;
  try {
    // Served from this thread: each crawling thread serves its own requests, so no thread waits for another's.
    const server = await startCrawlServer(dir, { thread: false });
    try {
      send({ outcome: await crawlPages({ ...share, mine: routes(), origin: server.url, pending: pending && { ...pending, written }, progress: (done) => send({ done }) }, config) });
    } finally {
      await server.close();
    }
  } catch (error) {
    send(isDocsgenError(error) ? { error: toPlainError(error) } : { crash: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

void crawl();
