/**
 * Files of docsgen's caches (compiled documents' highlighted code, the client bundle,
 * compressed copies): written under a temporary name of their own and renamed, with
 * write-file-atomic, so a build reading at the same time, in this process or another,
 * finds the whole file or none. Not flushed to the disk: a cache lost in a crash only
 * costs the work again.
 */
import writeFileAtomic from 'write-file-atomic';

export function writeCacheFile(file: string, data: string | Uint8Array): Promise<void> {
  return writeFileAtomic(file, typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength), { fsync: false });
}

/** Whether a name in a cache folder is a write under way (write-file-atomic's `<name>.<number>`): not to be pruned. */
export function isCacheWriteUnderWay(name: string): boolean {
  return /\.\d+$/.test(name);
}
