/**
 * Worker side of parallel compilation: turns MDX into code (the CPU-heavy half) for the
 * main thread, which evaluates it. Errors travel back as plain fields.
 */
import { parentPort } from 'node:worker_threads';
import { DocsgenError } from '../errors.ts';
import { compileCode, createCompileCache, type CompileContext } from './compile.ts';
import type { WorkerReply, WorkerRequest } from './compile-parallel.ts';

const port = parentPort;
if (!port) throw new Error('compile-worker.ts must run in a worker thread.');

let context: CompileContext | undefined;

port.on('message', async (message: WorkerRequest) => {
  if (message.type === 'init') {
    const routes = new Map(message.routes);
    context = { routeOfFile: (file) => routes.get(file), routesKey: message.routesKey, cache: createCompileCache() };
    return;
  }
  if (!context) throw new Error('compile worker received a job before init');
  let reply: WorkerReply;
  try {
    const entry = await compileCode(message.input, { ...context, forExcerpt: message.forExcerpt });
    reply = { id: message.id, entry };
  } catch (error) {
    // The main thread compiles a failed file again itself, to report the error in its own words and order.
    reply = { id: message.id, failed: error instanceof DocsgenError ? error.message : String(error) };
  }
  port.postMessage(reply);
});
