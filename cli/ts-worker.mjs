// Entry of docsgen's worker threads when docsgen runs from its TypeScript sources (tests):
// a thread starts without the TypeScript loader its parent registered (register() applies
// to the thread that calls it), so it registers it with docsgen's tsconfig, then runs the
// module named in workerData. The command runs JavaScript and needs none (worker-thread.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register({ tsconfig: workerData.tsconfig });
await import(workerData.module);
