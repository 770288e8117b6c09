/**
 * Files of docsgen's caches (compiled documents' highlighted code, the client bundle,
 * compressed copies): written under a temporary name of their own and renamed, so a
 * build reading at the same time, in this process or another, finds the whole file or
 * none. Not flushed to the disk: a cache lost in a crash only costs the work again.
 *
 * Written by hand, not with write-file-atomic: for each file that library also resolves
 * the real path, asks the old file's mode and owner, removes a temporary file that is
 * already gone and registers an exit handler, which made the cache writes of a
 * 9,933-doc build's last compression (10,000 files) take 11-13 s instead of 7 s.
 */
import { randomInt } from 'node:crypto';
import { open, rename, rm, writeFile } from 'node:fs/promises';

/** The name a write of `file` uses until it is renamed: digits at the end (see isCacheWriteUnderWay()). */
export function temporaryCacheName(file: string): string {
  return `${file}.${randomInt(2 ** 47)}`;
}

export async function writeCacheFile(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryCacheName(file);
  try {
    // 'wx': fails rather than write into the temporary file of another write.
    await writeFile(temporary, data, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    // A temporary file that was there already is that other write's, not this one's to remove.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(temporary, { force: true });
    throw error;
  }
}

/** writeCacheFile() for a file made part by part, so it is never whole in memory. */
export async function writeCacheFileInParts(file: string, parts: () => AsyncIterable<string>): Promise<void> {
  const temporary = temporaryCacheName(file);
  try {
    const handle = await open(temporary, 'wx');
    try {
      for await (const part of parts()) await handle.write(part);
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(temporary, { force: true });
    throw error;
  }
}

/** Whether a name in a cache folder is a write under way (`<name>.<digits>`): not to be pruned. */
export function isCacheWriteUnderWay(name: string): boolean {
  return /\.\d+$/.test(name);
}
