// Entry of docsgen's worker threads when docsgen runs from its TypeScript sources (tests):
// the thread runs the JavaScript copy of the module named in workerData (cli/runtime.mjs),
// as the threads of the command do. A thread starts without the TypeScript loader its
// parent registered, and registering one in each of the 39 threads the unit tests' process
// starts cost that process 10 of its 65 CPU seconds (Node 20 runs loader hooks on a thread
// of their own, and every import makes a round trip to it). The copy is made from the same
// sources, and threads share nothing with their parent but messages.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';
import { prepareRuntime } from './runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runtime = await prepareRuntime(root, path.relative(root, fileURLToPath(workerData.module)));
await import(runtime.url);
