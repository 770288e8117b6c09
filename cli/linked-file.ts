/**
 * A file written as a second name of a file with the same bytes (a hard link), where the
 * file system allows it. Every page of the output is written under two names, and so is
 * each of its compressed copies: at 1,000 docs that is 3,000 files that need no inode
 * of their own and no second copy of their bytes. On ext4 without a journal, making a
 * file can be mostly the search for a free inode, which passes over every inode freed in
 * the last minute (a build's previous output), while a second name costs a directory entry.
 *
 * Safe because no writer of the output changes a file in place: what replaces a file is
 * written aside and renamed over it (./stages/write.ts), which gives that name a file of
 * its own and leaves the other name as it was.
 */
import { link, writeFile } from 'node:fs/promises';

/**
 * Makes `target` a second name of `existing`, which holds `contents`; where links cannot
 * be made (another device, a file system without them, too many links), writes the bytes.
 */
export async function writeAsLink(existing: string, target: string, contents: string | Uint8Array): Promise<void> {
  try {
    await link(existing, target);
  } catch {
    await writeFile(target, contents);
  }
}
