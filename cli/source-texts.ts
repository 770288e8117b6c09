/**
 * The text of the site's source files (docs, posts, pages) with their modification
 * times. A build session keeps what it read: a file whose "mtime:size" is the one seen
 * last time is not read again. In watch mode every save rebuilds from every source, and
 * at a thousand docs reading them all took 8 ms of the main thread per save while one
 * had changed; asking the file's times costs a third of that, and the times are what the
 * last-updated stage needs anyway.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { DocsgenError } from './errors.ts';
import { fileSignature } from './file-signature.ts';
import type { TreeFile } from './source-tree.ts';

export interface SourceText {
  text: string;
  /** When the file was last modified (ms since the epoch), as the read found it. */
  mtimeMs: number;
}

/** What the last reads found, by absolute path. */
export interface SourceTextCache {
  files: Map<string, { signature: string; text: string; mtimeMs: number }>;
  /**
   * Watch mode only, where a file watcher reports every change (see reportSourceChanges()):
   * the paths reported since they were last read. A known file that is not among them is
   * taken as it was read, without asking its times, and a folder is listed again only
   * after a file or folder was added or removed. At a thousand docs, asking every file's
   * times and listing the folders were 7 ms of every save. Files reached through a
   * symbolic link are asked every time: the watcher reports the change under the path
   * of the link's target, not under theirs.
   */
  reported?: Set<string>;
  /** Watch mode: the listings of the source folders, by folder and extensions. */
  listings: Map<string, { files: TreeFile[]; errors: DocsgenError[] }>;
}

export function createSourceTextCache(): SourceTextCache {
  return { files: new Map(), listings: new Map() };
}

/**
 * Tells the cache what the file watcher saw change (files and folders, added, changed
 * or removed): from the first call on, the cache trusts that nothing else changed.
 */
export function reportSourceChanges(cache: SourceTextCache, changed: Iterable<string>): void {
  cache.reported ??= new Set();
  for (const reported of changed) {
    const file = path.resolve(reported);
    cache.reported.add(file);
    // A file added or removed, or a folder: the listings may have changed.
    if (!cache.files.has(file) || !existsSync(file)) cache.listings.clear();
  }
}

/** A folder's listing as the last build made it, while the watcher reported nothing added or removed (see `reported`). */
export function listedSources(cache: SourceTextCache, key: string, list: () => { files: TreeFile[]; errors: DocsgenError[] }): { files: TreeFile[]; errors: DocsgenError[] } {
  if (!cache.reported) return list();
  const known = cache.listings.get(key);
  if (known) return known;
  const listing = list();
  cache.listings.set(key, listing);
  return listing;
}

/**
 * Read synchronously: a site's sources are small files the disk cache answers in
 * microseconds each, while each asynchronous read or stat waits its turn in Node's pool
 * of four threads.
 *
 * The times are taken before the bytes: a file written between the two is read new and
 * remembered under its old times, so the next read sees new times and reads it again.
 */
export function readSourceTexts(files: readonly Pick<TreeFile, 'file' | 'real'>[], cache: SourceTextCache): SourceText[] {
  const reported = cache.reported;
  return files.map(({ file, real }) => {
    const known = cache.files.get(file);
    if (known && reported && !reported.has(file) && file === real) return { text: known.text, mtimeMs: known.mtimeMs };
    reported?.delete(file);
    const info = statSync(file);
    const signature = fileSignature(info);
    if (known?.signature === signature) return { text: known.text, mtimeMs: info.mtimeMs };
    const text = readFileSync(file, 'utf8');
    cache.files.set(file, { signature, text, mtimeMs: info.mtimeMs });
    return { text, mtimeMs: info.mtimeMs };
  });
}

/** Forgets the files not in `files` (removed or renamed since), so a long watch run keeps only what the site has. */
export function pruneSourceTexts(cache: SourceTextCache, files: Iterable<string>): void {
  const keep = new Set(files);
  for (const file of cache.files.keys()) if (!keep.has(file)) cache.files.delete(file);
  if (cache.reported) for (const file of cache.reported) if (!keep.has(file)) cache.reported.delete(file);
}
