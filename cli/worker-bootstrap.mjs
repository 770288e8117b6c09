// Starts a worker thread that runs TypeScript: registers tsx with docsgen's tsconfig in
// this thread (loader hooks are per thread), then loads the module named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register({ tsconfig: workerData.tsconfig });
await import(workerData.entry);
