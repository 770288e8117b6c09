/**
 * Worker threads that run one of docsgen's modules in the form this process runs them: its
 * JavaScript copy (the command), or its TypeScript source (tests) through ts-worker.mjs,
 * since a new thread lacks the loader its parent registered.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT, TSCONFIG, runtimeModuleUrl } from './paths.ts';

/** `source` is the module's file inside docsgen's folder, e.g. 'cli/stages/compile-worker.ts'. */
export function startWorkerThread(source: string, workerData: object): Worker {
  const module = runtimeModuleUrl(path.join(PACKAGE_ROOT, source));
  // The parent's own --import of a TypeScript loader is not passed on: ts-worker.mjs registers one if needed.
  if (!module.endsWith('.ts')) return new Worker(new URL(module), { workerData, execArgv: [] });
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { ...workerData, module, tsconfig: TSCONFIG }, execArgv: [] });
}
