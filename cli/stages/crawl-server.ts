/**
 * The server the verify stage crawls. On a large site it runs on a thread of its own: the
 * crawl (linkinator parsing every page) and the server (finding, reading and sending each
 * file) then use a core each instead of sharing the main thread. Starting the thread costs
 * loading the server's modules there, which a small site's crawl would not win back.
 */
import { DocsgenError } from '../errors.ts';
import { startServer } from '../serve.ts';
import { startWorkerThread } from '../worker-thread.ts';

export interface CrawlServer {
  /** Origin of the server, e.g. http://127.0.0.1:41234. */
  url: string;
  close(): Promise<void>;
}

export interface CrawlServerWorkerData {
  dir: string;
}

/** What the thread says once: where it listens, or why it could not start. */
export type CrawlServerMessage = { url: string } | { error: string; hint?: string };

/** Pages from which the server gets a thread of its own. */
export const SERVER_THREAD_FROM = 300;

export async function startCrawlServer(dir: string, options: { thread: boolean }): Promise<CrawlServer> {
  if (!options.thread) return startServer({ dir, port: 0, host: '127.0.0.1' });
  const data: CrawlServerWorkerData = { dir };
  const worker = startWorkerThread('cli/stages/crawl-server-worker.ts', data);
  const url = await new Promise<string>((resolve, reject) => {
    const failed = (cause: unknown) =>
      reject(new DocsgenError(`The server for the link check could not start: ${cause instanceof Error ? cause.message : String(cause)}.`, { hint: 'Build again; if it fails the same way, report it with this message.', cause }));
    worker.once('error', failed);
    worker.once('exit', (code) => failed(new Error(`its thread ended with code ${code}`)));
    worker.once('message', (message: CrawlServerMessage) => {
      if ('url' in message) resolve(message.url);
      else reject(new DocsgenError(message.error, { hint: message.hint }));
    });
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  worker.removeAllListeners();
  // A thread that dies after starting fails the requests in flight, which the crawl reports.
  worker.on('error', () => undefined);
  return {
    url,
    async close() {
      await worker.terminate();
    },
  };
}
