/**
 * The scan of the pages a build writes as they are rendered (see scan-pages.ts), on
 * threads of its own for a large site. Reading each page with htmlparser2 was half of the
 * main thread's time in the render stage (11.7 of 25 s at 9,939 docs) while the second
 * core sat mostly idle: now the main thread renders and a thread reads, and what it read
 * is filed under the page as scanPage() would file it. A few pages per thread are in
 * flight at most, so the HTML waiting to be read stays small. A thread that fails hands
 * its pages back to the main thread, which reads them itself: the result is the same.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../worker-thread.ts';
import type { RenderedPage } from './render.ts';
import { keepReading, readingNeeds, scanPage, type PageReading, type ReadingNeeds, type ScanCaches } from './scan-pages.ts';

/** Sources (docs, pages and posts) from which the scan gets threads of its own: below, starting one costs more than it overlaps. */
export const SCAN_THREADS_FROM = 300;
/** Pages handed to one thread and not yet read back: enough that it never waits for the next. */
const IN_FLIGHT_PER_THREAD = 8;

/** Threads for the scan: the cores the main thread does not use, at most three. */
export function defaultScanThreads(): number {
  return Math.min(3, Math.max(1, availableParallelism() - 1));
}

export interface ScanTask {
  id: number;
  html: string;
  title: string;
  needs: ReadingNeeds;
}

export type ScanTaskResult = { id: number; reading: PageReading } | { id: number; crash: string };

export interface PageScanner {
  /** Hands over the HTML of `page`; resolves once the next page may be handed over, not once this one is read. */
  scan(page: RenderedPage, html: string): Promise<void>;
  /** Resolves once every page handed over is read and filed. */
  drain(): Promise<void>;
  /** Ends the threads; pages still in flight are read on this thread. */
  close(): Promise<void>;
}

interface InFlight {
  page: RenderedPage;
  html: string;
  worker: Worker;
}

/** `threads` 0 reads every page on the calling thread, as scanPage() does. */
export function createPageScanner(caches: ScanCaches, options: { threads: number }): PageScanner {
  const workers: Worker[] = [];
  const inFlight = new Map<number, InFlight>();
  /** Called whenever a page comes back or a thread goes: each checks again what it waits for. */
  const waiting = new Set<() => void>();
  const state = { nextId: 0, closed: false };

  const settled = (id: number, reading?: PageReading) => {
    const entry = inFlight.get(id);
    if (!entry) return;
    inFlight.delete(id);
    if (reading) keepReading(entry.page, reading, caches);
    else scanPage(entry.page, entry.html, caches);
    wake();
  };
  const wake = () => {
    for (const resolve of [...waiting]) resolve();
  };
  const until = async (done: () => boolean) => {
    while (!done()) {
      await new Promise<void>((resolve) => {
        const wakeUp = () => {
          waiting.delete(wakeUp);
          resolve();
        };
        waiting.add(wakeUp);
      });
    }
  };
  const lose = (worker: Worker) => {
    const index = workers.indexOf(worker);
    if (index < 0) return;
    workers.splice(index, 1);
    for (const [id, entry] of inFlight) if (entry.worker === worker) settled(id);
    wake();
  };

  for (let i = 0; i < options.threads; i++) {
    const worker = startWorkerThread('cli/stages/scan-worker.ts', {});
    worker.on('message', (result: ScanTaskResult) => settled(result.id, 'reading' in result ? result.reading : undefined));
    worker.on('error', () => lose(worker));
    worker.on('exit', () => lose(worker));
    workers.push(worker);
  }
  /** Pages a thread has and has not sent back. */
  const load = (worker: Worker) => {
    let count = 0;
    for (const entry of inFlight.values()) if (entry.worker === worker) count++;
    return count;
  };

  return {
    async scan(page, html) {
      const needs = readingNeeds(page, caches);
      if (!needs) return;
      await until(() => workers.length === 0 || inFlight.size < workers.length * IN_FLIGHT_PER_THREAD);
      if (workers.length === 0 || state.closed) return scanPage(page, html, caches);
      const worker = workers.reduce((a, b) => (load(b) < load(a) ? b : a));
      const id = state.nextId++;
      inFlight.set(id, { page, html, worker });
      worker.postMessage({ id, html, title: page.title, needs } satisfies ScanTask);
    },
    drain() {
      return until(() => inFlight.size === 0);
    },
    async close() {
      state.closed = true;
      const all = workers.splice(0);
      for (const worker of all) worker.removeAllListeners();
      for (const id of [...inFlight.keys()]) settled(id);
      wake();
      await Promise.all(all.map((worker) => worker.terminate()));
    },
  };
}
