/** Runs in the crawl server's thread (crawl-server.ts): serves the folder until the thread is ended. */
import { parentPort, workerData } from 'node:worker_threads';
import { DocsgenError } from '../errors.ts';
import { startServer } from '../serve.ts';
import type { CrawlServerMessage, CrawlServerWorkerData } from './crawl-server.ts';

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('crawl-server-worker.ts runs only as a worker thread of the verify stage.');
  const data = workerData as CrawlServerWorkerData;
  try {
    const server = await startServer({ dir: data.dir, port: 0, host: '127.0.0.1' });
    port.postMessage({ url: server.url } satisfies CrawlServerMessage);
  } catch (error) {
    const message: CrawlServerMessage = error instanceof DocsgenError ? { error: error.message, hint: error.hint } : { error: error instanceof Error ? error.message : String(error) };
    port.postMessage(message);
  }
}

void serve();
