/** Runs in the verify stage's thread (verify-thread.ts): crawls once and reports back. */
import { parentPort, workerData } from 'node:worker_threads';
import { isDocsgenError, toPlainError } from '../errors.ts';
import { crawlFetch } from './crawl-fetch.ts';
import { verify } from './verify.ts';
import type { VerifyMessage, VerifyNotice, VerifyWorkerData } from './verify-thread.ts';

async function crawl(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('verify-worker.ts runs only as a worker thread of the verify stage.');
  const { options, config } = workerData as VerifyWorkerData;
  const send = (message: VerifyMessage) => port.postMessage(message);
  const written = new Promise<void>((resolve) => port.once('message', (notice: VerifyNotice) => notice.written && resolve()));
  const pending = options.pending && { ...options.pending, written };
  // This thread runs nothing but the crawl, and linkinator takes no fetch but the global one.
  // A type assertion: linkinator reads only the part of a response crawlFetch gives.
  globalThis.fetch = crawlFetch(globalThis.fetch) as typeof fetch;
  try {
    send({ result: await verify({ ...options, pending, progress: (done, total) => send({ progress: [done, total] }) }, config) });
  } catch (error) {
    send(isDocsgenError(error) ? { error: toPlainError(error) } : { crash: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

void crawl();
