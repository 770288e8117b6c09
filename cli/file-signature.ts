/**
 * "mtime:size" of a file: how docsgen tells, without reading it, that a file is the one
 * it saw before (static files, bundle inputs, .tsx pages, saves seen by watch).
 */
import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

export function fileSignature(info: Pick<Stats, 'mtimeMs' | 'size'>): string {
  return `${info.mtimeMs}:${info.size}`;
}

/** The file's signature, or undefined when it is gone. */
export async function signatureOf(file: string): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  return info ? fileSignature(info) : undefined;
}

/** signatureOf(), without waiting for the thread pool: for the few files of a save. */
export function signatureOfSync(file: string): string | undefined {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? fileSignature(info) : undefined;
}
