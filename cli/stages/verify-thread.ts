/**
 * The verify stage on a thread of its own, for large sites: the crawl then runs while the
 * thread pool compresses the files that are not pages, which the crawl does not ask for
 * (it reads every file uncompressed), and the main thread waits for both instead of for
 * one after the other. Same result and errors as verify() on the calling thread.
 */
import { DocsgenError, fromPlainError, type PlainError } from '../errors.ts';
import { startWorkerThread } from '../worker-thread.ts';
import type { PendingFiles, VerifyConfig, VerifyOptions, VerifyResult } from './verify.ts';

/** Pages from which the crawl gets a thread of its own: below, starting one costs more than it overlaps. */
export const VERIFY_THREAD_FROM = 300;

export interface VerifyWorkerData {
  options: Omit<VerifyOptions, 'progress' | 'pending'> & { pending?: PendingFiles };
  config: VerifyConfig;
}

/** What the build tells the thread: the pending files are written (see VerifyOptions.pending). */
export interface VerifyNotice {
  written: true;
}

/** What the thread says: progress while it crawls, then the result or the error once. */
export type VerifyMessage =
  | { progress: [done: number, total: number] }
  | { result: VerifyResult }
  | { error: PlainError }
  | { crash: string };

export function verifyOnThread(options: VerifyOptions, config: VerifyConfig): Promise<VerifyResult> {
  const { progress, pending, ...rest } = options;
  const data: VerifyWorkerData = {
    options: { ...rest, pending: pending && { files: pending.files, folders: pending.folders } },
    config: { baseUrl: config.baseUrl, links: { ignore: [...config.links.ignore] } },
  };
  const worker = startWorkerThread('cli/stages/verify-worker.ts', data);
  const notice: VerifyNotice = { written: true };
  // A thread that already ended is not told; a failed write settles too, so the crawl never waits forever.
  void pending?.written.finally(() => worker.postMessage(notice)).catch(() => undefined);
  return new Promise<VerifyResult>((resolve, reject) => {
    const died = (cause: unknown) =>
      reject(new DocsgenError(`The crawl of the built site stopped: ${cause instanceof Error ? cause.message : String(cause)}.`, { hint: 'Build again; if it fails the same way, report it with this message.', cause }));
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`its thread ended with code ${code}`)));
    worker.on('message', (message: VerifyMessage) => {
      if ('progress' in message) progress?.(...message.progress);
      else if ('result' in message) resolve(message.result);
      else if ('error' in message) reject(fromPlainError(message.error));
      else reject(new Error(`The crawl of the built site failed:\n${message.crash}`));
    });
  }).finally(() => worker.terminate());
}
