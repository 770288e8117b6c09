/**
 * The previous output, kept for the next build to write into. Publishing swaps the new
 * output into place; the folder it replaces is not deleted but moved into the cache, and
 * the next build takes it as its staging folder: pages, twins and compressed copies whose
 * bytes did not change are left where they are, only what changed is written, and what
 * the site no longer has is removed. At 10,000 docs, deleting the old output took 8 s of
 * every build and writing it again most of the rest of its file system work.
 *
 * What the folder holds is known from a manifest written with each output: every file's
 * path, the hash of its bytes (a compressed copy: its size only) and its size. A kept file
 * is trusted only while it is the one the manifest describes: same size, and not modified
 * since the manifest was written (its mtime), in the very folder the manifest was written
 * for (its inode). Anything else in the folder (a file added to the published output by
 * hand or by another tool, a write cut short) is rewritten or removed, so the result is
 * the output a build into an empty folder gives, byte for byte.
 *
 * A cache entry like the others: `--no-cache` neither takes nor keeps it, and removing
 * node_modules/.cache removes it.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link as linkFile, mkdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import pMap from 'p-map';
import { writeCacheFileInParts } from '../cache-file.ts';
import { DocsgenError } from '../errors.ts';
import { startWorkerThread } from '../worker-thread.ts';
import { shownPath } from '../log.ts';
import { cacheSalt } from '../cache-salt.ts';
import { COPY_HASH, type KeptCheck, type KeptCheckInput, type Manifest } from './kept-output-check.ts';

export { COPY_HASH };

/** The kept output and its manifest, inside the cache folder. */
const KEPT_DIR = 'output';
const KEPT_MANIFEST = 'output.json';
/** The manifest of the published output: the kept one once the next build publishes. */
const PUBLISHED_MANIFEST = 'published.json';
const NEXT_MANIFEST = 'next.json';

/**
 * What makes a kept compressed copy the copy this build would make: the compression rules
 * and the zlib and brotli Node was built with. A kept page is trusted by the hash of its
 * bytes whatever the version; its copies only under the same salt.
 */
const COPY_SALT = cacheSalt({ files: ['cli/stages/precompress.ts'], salts: [process.versions.zlib ?? '', process.versions.brotli ?? ''] });

/** The name a file's bytes have in the ledger and in the compression cache. */
export function contentHash(contents: string | Uint8Array): string {
  return createHash('sha256').update(contents).digest('base64url');
}


/** A kept file as the manifest lists it, and whether the folder still holds it as written. */
interface KeptFile {
  hash: string;
  size: number;
  trusted: boolean;
}

/**
 * What a staging folder holds and what this build put there. The writers (./write.ts, the
 * precompressor) ask it whether a file is there with the bytes they are about to write,
 * and tell it what they wrote or left; the build then sweeps away the rest and saves the
 * manifest for the next build.
 */
export interface OutputLedger {
  /**
   * Whether files may be there before this build writes them (a kept output), or be second
   * names of the published output's files: then they are replaced, never written in place.
   */
  readonly replaces: boolean;
  /** Settles once the kept files are checked against their manifest: every other call waits for it. */
  ready(): Promise<void>;
  /** Whether the folder holds `rel` with bytes of this hash already (kept and trusted, or written by this build). */
  holds(rel: string, hash: string): boolean;
  /** A compressed copy: 'kept' when the folder holds it as the last build wrote it, 'none' when that build made none, else 'unknown'. */
  copy(rel: string): 'kept' | 'none' | 'unknown';
  /**
   * Records that this build's output has `rel` (bytes of `hash`, or COPY_HASH), of `size` bytes:
   * left as it was (or linked), or, with `written`, written by this build.
   */
  produce(rel: string, hash: string, size: number, options?: { written?: boolean }): void;
  /**
   * Makes the file the folder holds at `rel` (holds() said so) this build's: in a kept
   * output it is there already; from the published output, it gets a second name here.
   * False when it could not (then it is written).
   */
  keep(rel: string): Promise<boolean>;
  /** keep() for a compressed copy, which it also records as part of this build's output. */
  keepCopy(rel: string): Promise<boolean>;
  /** Whether `rel` is in this build's output with the bytes the kept folder had (not written by this build). */
  unchanged(rel: string): boolean;
  /** The hash of a file of this build's output. */
  hashOf(rel: string): string | undefined;
  /** The files of this build's output that are not compressed copies, with their sizes. */
  sources(): [rel: string, size: number][];
  /**
   * Removes the files of the folder that are not in this build's output, but those
   * `later` says are still to come (compressed copies, files written after this call),
   * and the folders this empties. Call it again with no `later` once every file is written.
   */
  sweep(later?: (rel: string) => boolean): Promise<void>;
  /** Writes the manifest of this output into the cache, for the build that keeps it. */
  save(): Promise<void>;
}

export interface KeptOutputOptions {
  /** The staging folder: empty when no kept output could be taken. */
  dir: string;
  /** Cache folder; none: nothing is kept or taken. */
  cacheDir?: string;
  /**
   * The published output: with no kept output (the build after a first one), its files
   * that this build would write as they are become second names in the staging folder
   * instead (hard links), which costs a directory entry instead of a file.
   */
  published?: string;
}

/**
 * Moves the kept output, when the cache has one, into `dir` (the staging folder, which must
 * not exist) and returns the ledger of that folder; with none, `dir` is made empty.
 */
export async function openLedger(options: KeptOutputOptions): Promise<OutputLedger> {
  const { dir, cacheDir, published } = options;
  const moved = cacheDir ? await moveKeptOutput(cacheDir, dir) : false;
  const linking = !moved && cacheDir !== undefined && published !== undefined && existsSync(path.join(cacheDir, PUBLISHED_MANIFEST)) && existsSync(published);
  // The files are checked while the build goes on: only the first write waits for it.
  const taken =
    cacheDir && moved
      ? readKeptOutput({ dir, manifestFile: path.join(cacheDir, KEPT_MANIFEST), salt: COPY_SALT })
      : cacheDir && linking && published
        ? readKeptOutput({ dir: published, manifestFile: path.join(cacheDir, PUBLISHED_MANIFEST), salt: COPY_SALT, published: true })
        : Promise.resolve(undefined);
  taken.catch(() => undefined);
  return createLedger(dir, { moved, base: linking ? published : undefined }, taken, cacheDir);
}

/** Moves the kept output to `dir`; false when there is none to take. */
async function moveKeptOutput(cacheDir: string, dir: string): Promise<boolean> {
  const keptDir = path.join(cacheDir, KEPT_DIR);
  try {
    await rename(keptDir, dir);
    return true;
  } catch (error) {
    // None kept, or kept on another file system than the output (then it is of no use).
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') await rm(keptDir, { recursive: true, force: true });
    return false;
  }
}

interface Taken {
  /** The kept files the manifest lists; undefined without a manifest for this folder. */
  files: Map<string, KeptFile> | undefined;
  /** Whether the manifest's copies were made under this build's rules (see COPY_SALT). */
  copiesKnown: boolean;
  /** What the folder held when it was taken. */
  listing: string[];
}

async function readKeptOutput(input: KeptCheckInput): Promise<Taken> {
  const worker = startWorkerThread('cli/stages/kept-output-worker.ts', input);
  const check = await new Promise<KeptCheck>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`The check of the kept output stopped: its thread ended with code ${code}.`)));
    worker.on('message', (message: { check: KeptCheck } | { crash: string }) => {
      if ('check' in message) resolve(message.check);
      else reject(new Error(message.crash));
    });
  })
    .catch((cause: unknown) => {
      throw new DocsgenError(`Could not read the output the last build left in ${shownPath(input.dir, process.cwd())}: ${cause instanceof Error ? cause.message : String(cause)}`, {
        hint: 'Remove node_modules/.cache/docsgen/output (the next build then writes every file) and build again.',
        cause,
      });
    })
    .finally(() => worker.terminate());
  const found = check.files;
  const files = found && new Map(found.rels.map((rel, i): [string, KeptFile] => [rel, { hash: found.hashes[i]!, size: found.sizes[i]!, trusted: found.trusted[i]! }]));
  return { files, copiesKnown: check.copiesKnown, listing: check.listing };
}

/** `moved`: the folder is the kept output; `base`: the published output, whose files are linked. */
function createLedger(dir: string, from: { moved: boolean; base?: string }, taken: Promise<Taken | undefined>, cacheDir: string | undefined): OutputLedger {
  const { base } = from;
  /** What this build's output has: hash, size, and whether this build wrote it. */
  const output = new Map<string, { hash: string; size: number; written: boolean }>();
  /** Folders made for links, so each is made once. */
  const made = new Set<string>();
  /** A second name, at `rel` here, of the published output's file at `rel`. */
  const link = async (rel: string): Promise<boolean> => {
    // In a kept output, or written by this build already.
    if (!base || output.has(rel)) return true;
    const to = path.join(dir, ...rel.split('/'));
    const folder = path.dirname(to);
    try {
      if (!made.has(folder)) {
        await mkdir(folder, { recursive: true });
        made.add(folder);
      }
      await linkFile(path.join(base, ...rel.split('/')), to);
      return true;
    } catch {
      // Another device, too many links, a file gone since it was checked: it is written.
      return false;
    }
  };
  let previous: Map<string, KeptFile> | undefined;
  let copiesKnown = false;
  let listing: string[] = [];
  const ready = taken.then((found) => {
    previous = found?.files;
    copiesKnown = found?.copiesKnown ?? false;
    listing = found?.listing ?? [];
  });
  // Thrown where it is awaited (the first write); a build that fails before must not report it as unhandled.
  ready.catch(() => undefined);
  return {
    replaces: from.moved || base !== undefined,
    ready: () => ready,
    holds(rel, hash) {
      const now = output.get(rel);
      if (now) return now.hash === hash;
      const before = previous?.get(rel);
      return before !== undefined && before.trusted && before.hash === hash;
    },
    copy(rel) {
      if (!previous || !copiesKnown) return 'unknown';
      const before = previous.get(rel);
      if (!before) return 'none';
      return before.trusted && before.hash === COPY_HASH ? 'kept' : 'unknown';
    },
    produce(rel, hash, size, options = {}) {
      const before = previous?.get(rel);
      const left = !options.written && !output.has(rel) && before !== undefined && before.trusted && before.hash === hash && hash !== COPY_HASH;
      output.set(rel, { hash, size, written: !left });
    },
    keep: link,
    async keepCopy(rel) {
      const before = previous?.get(rel);
      if (!before) throw new Error(`${rel} is not a kept copy`);
      if (!(await link(rel))) return false;
      output.set(rel, { hash: COPY_HASH, size: before.size, written: false });
      return true;
    },
    unchanged(rel) {
      const now = output.get(rel);
      return now !== undefined && !now.written;
    },
    hashOf(rel) {
      return output.get(rel)?.hash;
    },
    sources() {
      const found: [string, number][] = [];
      for (const [rel, file] of output) if (file.hash !== COPY_HASH) found.push([rel, file.size]);
      return found;
    },
    async sweep(later) {
      await ready;
      const going = listing.filter((rel) => !output.has(rel) && !later?.(rel));
      await pMap(going, (rel) => unlink(path.join(dir, ...rel.split('/'))).catch(() => undefined), { concurrency: 64 });
      // Gone, so no longer held: a copy of a file written after this sweep is made again.
      for (const rel of going) {
        const before = previous?.get(rel);
        if (before) before.trusted = false;
      }
      // Swept once: a file listed is either in the output or gone now.
      listing = listing.filter((rel) => output.has(rel) || later?.(rel));
      // The folders this emptied, deepest first; one that still holds something stays.
      const folders = new Set<string>();
      for (const rel of going) for (let d = path.posix.dirname(rel); d !== '.'; d = path.posix.dirname(d)) folders.add(d);
      for (const folder of [...folders].sort((a, b) => b.length - a.length)) await rmdir(path.join(dir, ...folder.split('/'))).catch(() => undefined);
    },
    async save() {
      if (!cacheDir) return;
      await mkdir(cacheDir, { recursive: true });
      const head: Omit<Manifest, 'files'> = { salt: COPY_SALT, folder: (await stat(dir)).ino };
      // Written a few thousand files at a time: made whole, the 120,000 entries of a 9,933-doc
      // site and their text were the build's last 70 MiB of memory, and its peak.
      await writeCacheFileInParts(path.join(cacheDir, NEXT_MANIFEST), async function* () {
        yield `${JSON.stringify(head).slice(0, -1)},"files":[`;
        let part: string[] = [];
        let separator = '';
        for (const [rel, file] of output) {
          part.push(JSON.stringify([rel, file.hash, file.size]));
          if (part.length < 4096) continue;
          yield separator + part.join(',');
          separator = ',';
          part = [];
        }
        yield `${part.length > 0 ? separator + part.join(',') : ''}]}`;
      });
    },
  };
}

/**
 * After publishing: `previous` (the output that was in place until now) goes into the
 * cache with the manifest written for it, and the manifest of the new output waits for
 * the next publish. Without a cache, or where the move fails, the previous output is
 * removed as before.
 */
export async function keepPreviousOutput(previous: string, cacheDir: string | undefined): Promise<void> {
  if (!cacheDir) {
    await rm(previous, { recursive: true, force: true });
    return;
  }
  const moved = await rename(previous, path.join(cacheDir, KEPT_DIR)).then(
    () => true,
    () => false,
  );
  if (moved) await rename(path.join(cacheDir, PUBLISHED_MANIFEST), path.join(cacheDir, KEPT_MANIFEST)).catch(() => undefined);
  else await rm(previous, { recursive: true, force: true });
  await rename(path.join(cacheDir, NEXT_MANIFEST), path.join(cacheDir, PUBLISHED_MANIFEST)).catch(() => undefined);
}

/** After publishing into a place that held nothing: the new output's manifest is the published one. */
export async function publishedManifest(cacheDir: string | undefined): Promise<void> {
  if (cacheDir) await rename(path.join(cacheDir, NEXT_MANIFEST), path.join(cacheDir, PUBLISHED_MANIFEST)).catch(() => undefined);
}
