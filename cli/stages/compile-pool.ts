/**
 * Worker threads that compile MDX while the main thread evaluates what they return, so
 * a large build uses every core. (A worker heap bounded with resourceLimits made V8
 * collect so often that the build took half again as much CPU, so workers have none.)
 *
 * Workers start on the first document that is not in a cache (loading MDX and Shiki costs
 * each one about a second, which a build served from the cache should not pay) and end
 * with the compile stage that made them. A worker that dies (out of memory on a huge
 * document, a bug) or throws anything but an author's error hands its document back to
 * the main thread, which compiles it as it would without a pool: the result, or the
 * error the author sees, is the same either way.
 */
import type { Worker } from 'node:worker_threads';
import { fromPlainError, type PlainError } from '../errors.ts';
import { startWorkerThread } from '../worker-thread.ts';
import type { DiskEntry } from './compile.ts';

export interface CompileWorkerData {
  /** file -> route of every source, for the links between documents. */
  routes: [string, string][];
  siteUrl: string;
  /** The static folder, where images named from the site's root are measured. */
  staticDir?: string;
}

export interface CompileTask {
  id: number;
  input: { file: string; relFile: string; source: string };
}

export type CompileTaskResult =
  | { id: number; entry: DiskEntry }
  | { id: number; error: PlainError }
  | { id: number; crash: string };

export interface CompilePool {
  /** Compiles in a worker; `onMainThread` is the same work done here, used when no worker can do it. */
  compile(input: CompileTask['input'], onMainThread: () => Promise<DiskEntry>): Promise<DiskEntry>;
  close(): Promise<void>;
}

interface Pending {
  task: CompileTask;
  onMainThread: () => Promise<DiskEntry>;
  resolve: (entry: DiskEntry) => void;
  reject: (error: unknown) => void;
}

export function createCompilePool(options: { size: number; routes: Iterable<[string, string]>; siteUrl: string; staticDir?: string }): CompilePool {
  const data: CompileWorkerData = {
    routes: [...options.routes],
    siteUrl: options.siteUrl,
    staticDir: options.staticDir,
  };
  const queue: Pending[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const workers: Worker[] = [];
  const state = { started: false, closed: false, nextId: 0 };

  const runOnMainThread = (pending: Pending) => pending.onMainThread().then(pending.resolve, pending.reject);

  const next = () => {
    // With no worker left, what is queued is compiled here, in order.
    if (workers.length === 0) {
      for (const pending of queue.splice(0)) void runOnMainThread(pending);
      return;
    }
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const pending = queue.shift()!;
      busy.set(worker, pending);
      worker.postMessage(pending.task);
    }
  };

  const lose = (worker: Worker) => {
    const index = workers.indexOf(worker);
    if (index < 0) return;
    workers.splice(index, 1);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    const pending = busy.get(worker);
    busy.delete(worker);
    if (pending) void runOnMainThread(pending);
    next();
  };

  const start = () => {
    state.started = true;
    for (let i = 0; i < options.size; i++) {
      const worker = startWorkerThread('cli/stages/compile-worker.ts', data);
      worker.on('message', (result: CompileTaskResult) => {
        const pending = busy.get(worker);
        if (!pending) return;
        busy.delete(worker);
        idle.push(worker);
        if ('entry' in result) pending.resolve(result.entry);
        else if ('error' in result) pending.reject(fromPlainError(result.error));
        else void runOnMainThread(pending);
        next();
      });
      worker.on('error', () => lose(worker));
      worker.on('exit', () => lose(worker));
      workers.push(worker);
      idle.push(worker);
    }
  };

  return {
    compile(input, onMainThread) {
      if (state.closed) return onMainThread();
      if (!state.started) start();
      return new Promise<DiskEntry>((resolve, reject) => {
        queue.push({ task: { id: state.nextId++, input }, onMainThread, resolve, reject });
        next();
      });
    },
    async close() {
      state.closed = true;
      const all = workers.splice(0);
      idle.length = 0;
      for (const pending of queue.splice(0)) void runOnMainThread(pending);
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
