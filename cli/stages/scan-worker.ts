/** Runs in a thread of the page scan (scan-pool.ts): reads each page it is sent and answers with what it read. */
import { parentPort } from 'node:worker_threads';
import type { ScanTask, ScanTaskResult } from './scan-pool.ts';
import { readPage } from './scan-pages.ts';

function serve(): void {
  const port = parentPort;
  if (!port) throw new Error('scan-worker.ts runs only as a worker thread of the page scan.');
  port.on('message', (task: ScanTask) => {
    let result: ScanTaskResult;
    try {
      // Sent as a copy, so the main thread keeps no slice of the page's HTML.
      result = { id: task.id, reading: readPage(task.html, task.title, task.needs) };
    } catch (error) {
      result = { id: task.id, crash: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    port.postMessage(result);
  });
}

serve();
