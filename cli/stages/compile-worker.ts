/**
 * Runs in a worker thread of the compile pool (compile-pool.ts): compiles the MDX it is
 * sent with its own highlighter and answers with the same DiskEntry the main thread
 * would have made, or with the author's error, field by field (an Error loses its own
 * fields on the way between threads).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DocsgenError, toPlainError } from '../errors.ts';
import { compileCode } from './compile-code.ts';
import { createCompileCache } from './compile.ts';
import type { CompileTask, CompileTaskResult, CompileWorkerData } from './compile-pool.ts';

function serve(): void {
  const port = parentPort;
  if (!port) throw new Error('compile-worker.ts runs only as a worker thread of the compile pool.');
  const data = workerData as CompileWorkerData;
  const routes = new Map(data.routes);
  const cache = createCompileCache();
  const context = { routeOfFile: (file: string) => routes.get(file), siteUrl: data.siteUrl, staticDir: data.staticDir, cache };
  port.on('message', (task: CompileTask) => {
    compileCode(task.input, context).then(
      (entry) => port.postMessage({ id: task.id, entry } satisfies CompileTaskResult),
      (error: unknown) => {
        const result: CompileTaskResult =
          error instanceof DocsgenError
            ? { id: task.id, error: toPlainError(error) }
            : { id: task.id, crash: error instanceof Error ? (error.stack ?? error.message) : String(error) };
        port.postMessage(result);
      },
    );
  });
}

serve();
