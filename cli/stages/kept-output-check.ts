/**
 * What a kept output holds that its manifest vouches for (see ./kept-output.ts): read on a
 * thread of its own (kept-output-worker.ts) while the build compiles. Synchronous calls:
 * asking for the state of 120,000 files through promises cost the build's own thread 1.5 s
 * of processor time at 9,933 docs, one after the other here 0.4 s, on a thread that does
 * nothing else.
 */
import { lstatSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** A compressed copy has no hash of its own: it is valid while its source is unchanged. */
export const COPY_HASH = '';

export interface Manifest {
  salt: string;
  /** Inode of the folder it describes: a manifest paired with another folder is not used. */
  folder: number;
  /** Path inside the folder, hash of the bytes (COPY_HASH for a compressed copy), size. */
  files: [rel: string, hash: string, size: number][];
}

/** The kept files as the manifest lists them, as lists a thread can hand over. */
export interface KeptCheck {
  /** Undefined without a manifest written for this folder. */
  files?: { rels: string[]; hashes: string[]; sizes: number[]; trusted: boolean[] };
  /** Whether the manifest's copies were made under this build's rules (its salt). */
  copiesKnown: boolean;
  /** Every file the folder held when it was taken. */
  listing: string[];
}

export interface KeptCheckInput {
  /** The kept folder, now the staging folder, or the published output. */
  dir: string;
  /** Its manifest: a kept folder's is removed once read, since it describes nothing in the cache any more. */
  manifestFile: string;
  /** The published output's: its manifest stays, and its files are not listed (nothing of it is removed). */
  published?: boolean;
  /** The salt of this build's compression rules. */
  salt: string;
}

export function checkKeptOutput({ dir, manifestFile, salt, published }: KeptCheckInput): KeptCheck {
  const listing = published
    ? []
    : readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => !entry.isDirectory())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  let manifest: Manifest | undefined;
  let written = 0;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    written = statSync(manifestFile).mtimeMs;
  } catch {
    manifest = undefined;
  }
  if (!published) rmSync(manifestFile, { force: true });
  // A manifest of another folder, or one that is not what this module writes (cut short, edited): nothing is trusted.
  if (!manifest || manifest.folder !== statSync(dir).ino || !Array.isArray(manifest.files) || !manifest.files.every(isEntry)) return { copiesKnown: false, listing };
  const copiesKnown = manifest.salt === salt;
  const files: NonNullable<KeptCheck['files']> = { rels: [], hashes: [], sizes: [], trusted: [] };
  for (const [rel, hash, size] of manifest.files) {
    // Copies made under other compression rules are not this build's copies.
    if (hash === COPY_HASH && !copiesKnown) continue;
    let info: ReturnType<typeof lstatSync>;
    try {
      info = lstatSync(path.join(dir, ...rel.split('/')), { throwIfNoEntry: false });
    } catch {
      // Unreadable: not trusted, so written again.
      info = undefined;
    }
    files.rels.push(rel);
    files.hashes.push(hash);
    files.sizes.push(size);
    // Trusted while it is the file the manifest describes: not changed since, nor of another size.
    files.trusted.push(info !== undefined && info.isFile() && info.size === size && info.mtimeMs <= written);
  }
  return { files, copiesKnown, listing };
}

function isEntry(entry: unknown): entry is Manifest['files'][number] {
  if (!Array.isArray(entry) || entry.length !== 3) return false;
  const [rel, hash, size] = entry as unknown[];
  return typeof rel === 'string' && rel !== '' && !rel.split('/').includes('..') && typeof hash === 'string' && typeof size === 'number';
}
