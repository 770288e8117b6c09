/** Runs in the thread that checks a kept output (kept-output.ts): checks it once and reports back. */
import { parentPort, workerData } from 'node:worker_threads';
import { checkKeptOutput, type KeptCheckInput } from './kept-output-check.ts';

const port = parentPort;
if (!port) throw new Error('kept-output-worker.ts runs only as a worker thread of the build.');
try {
  port.postMessage({ check: checkKeptOutput(workerData as KeptCheckInput) });
} catch (error) {
  port.postMessage({ crash: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
