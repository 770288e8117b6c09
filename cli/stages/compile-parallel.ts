/**
 * Compiles many MDX files to code on every core before the main thread evaluates them one
 * by one. Highlighting and MDX parsing are CPU-bound, so on a clean build of a real site
 * this is where the spare cores pay off; small or cached builds never start a worker.
 */
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT, TSCONFIG } from '../paths.ts';
import type { Collected } from './collect.ts';
import { cacheKey, compileCode, readDiskEntry, writeDiskEntry, type CompileContext, type DiskEntry } from './compile.ts';

export interface PrecompileJob {
  input: { file: string; relFile: string; source: string };
  forExcerpt: boolean;
}

export type WorkerRequest =
  | { type: 'init'; routes: [string, string][]; routesKey: string }
  | { type: 'job'; id: number; input: PrecompileJob['input']; forExcerpt: boolean };

export type WorkerReply = { id: number; entry: DiskEntry } | { id: number; failed: string };

/** Below this many files to compile, starting a worker costs more than it saves. */
const MIN_JOBS_PER_WORKER = 8;

export async function precompile(jobs: readonly PrecompileJob[], context: CompileContext, collected: Collected): Promise<void> {
  const { cache } = context;
  const pending: { job: PrecompileJob; key: string }[] = [];
  for (const job of jobs) {
    const key = cacheKey(job.input, { routesKey: context.routesKey, forExcerpt: job.forExcerpt });
    if (cache.mdx.has(key) || cache.precompiled.has(key)) continue;
    const fromDisk = await readDiskEntry(cache, key);
    if (fromDisk) cache.precompiled.set(key, fromDisk);
    else pending.push({ job, key });
  }
  const workerCount = Math.min(os.availableParallelism() - 1, 3, Math.floor(pending.length / MIN_JOBS_PER_WORKER));
  if (workerCount < 1) return;

  const routes: [string, string][] = [...collected.docs, ...collected.posts, ...collected.pages].map((i) => [i.file, i.route]);
  const queue = [...pending];
  const store = async (key: string, entry: DiskEntry) => {
    cache.precompiled.set(key, entry);
    await writeDiskEntry(cache, key, entry);
  };

  const runWorker = () =>
    new Promise<void>((resolve) => {
      const worker = new Worker(path.join(PACKAGE_ROOT, 'cli/worker-bootstrap.mjs'), {
        workerData: { tsconfig: TSCONFIG, entry: new URL('./compile-worker.ts', import.meta.url).href },
      });
      const inFlight = new Map<number, string>();
      let nextId = 0;
      const finish = () => {
        void worker.terminate();
        resolve();
      };
      const sendNext = () => {
        const item = queue.shift();
        if (!item) return finish();
        const id = nextId++;
        inFlight.set(id, item.key);
        worker.postMessage({ type: 'job', id, input: item.job.input, forExcerpt: item.job.forExcerpt } satisfies WorkerRequest);
      };
      worker.on('message', (reply: WorkerReply) => {
        const key = inFlight.get(reply.id);
        inFlight.delete(reply.id);
        if (key && 'entry' in reply) void store(key, reply.entry);
        sendNext();
      });
      // A worker that cannot start or crashes leaves its files to the main thread.
      worker.on('error', finish);
      worker.postMessage({ type: 'init', routes, routesKey: context.routesKey ?? '' } satisfies WorkerRequest);
      sendNext();
    });

  const runLocal = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      try {
        await store(item.key, await compileCode(item.job.input, { ...context, forExcerpt: item.job.forExcerpt }));
      } catch {
        // Reported when the file is compiled again in order, with every other error.
      }
      // Let worker replies in between, so the queue keeps every core busy.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  await Promise.all([runLocal(), ...Array.from({ length: workerCount }, runWorker)]);
}
