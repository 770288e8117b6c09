/**
 * The text of the site's source files (docs, posts, pages) with their modification
 * times. A build session keeps what it read: a file whose "mtime:size" is the one seen
 * last time is not read again. In watch mode every save rebuilds from every source, and
 * at a thousand docs reading them all took 8 ms of the main thread per save while one
 * had changed; asking the file's times costs a third of that, and the times are what the
 * last-updated stage needs anyway.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileSignature } from './file-signature.ts';

export interface SourceText {
  text: string;
  /** When the file was last modified (ms since the epoch), as the read found it. */
  mtimeMs: number;
}

/** What the last reads found, by absolute path. */
export interface SourceTextCache {
  files: Map<string, { signature: string; text: string }>;
}

export function createSourceTextCache(): SourceTextCache {
  return { files: new Map() };
}

/**
 * Read synchronously: a site's sources are small files the disk cache answers in
 * microseconds each, while each asynchronous read or stat waits its turn in Node's pool
 * of four threads.
 *
 * The times are taken before the bytes: a file written between the two is read new and
 * remembered under its old times, so the next read sees new times and reads it again.
 */
export function readSourceTexts(files: readonly string[], cache: SourceTextCache): SourceText[] {
  return files.map((file) => {
    const info = statSync(file);
    const signature = fileSignature(info);
    const known = cache.files.get(file);
    if (known?.signature === signature) return { text: known.text, mtimeMs: info.mtimeMs };
    const text = readFileSync(file, 'utf8');
    cache.files.set(file, { signature, text });
    return { text, mtimeMs: info.mtimeMs };
  });
}

/** Forgets the files not in `files` (removed or renamed since), so a long watch run keeps only what the site has. */
export function pruneSourceTexts(cache: SourceTextCache, files: Iterable<string>): void {
  const keep = new Set(files);
  for (const file of cache.files.keys()) if (!keep.has(file)) cache.files.delete(file);
}
