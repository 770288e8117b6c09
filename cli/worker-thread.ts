/**
 * Worker threads that run one of docsgen's modules from its JavaScript copy: directly when
 * this process runs the copy (the command), through copy-worker.mjs when it runs the
 * TypeScript sources (tests).
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT, runtimeModuleUrl } from './paths.ts';

/** `source` is the module's file inside docsgen's folder, e.g. 'cli/stages/compile-worker.ts'. */
export function startWorkerThread(source: string, workerData: object): Worker {
  const module = runtimeModuleUrl(path.join(PACKAGE_ROOT, source));
  // The parent's own --import of a TypeScript loader is not passed on: the thread needs none.
  if (!module.endsWith('.ts')) return new Worker(new URL(module), { workerData, execArgv: [] });
  return new Worker(new URL('./copy-worker.mjs', import.meta.url), { workerData: { ...workerData, module }, execArgv: [] });
}
