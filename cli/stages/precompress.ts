/**
 * Stage: compress the text files of the written output once, at build time, so no
 * server compresses them again for every request. Each file gets a brotli copy (`x.br`)
 * and a gzip copy (`x.gz`) next to it, the
 * names nginx's `brotli_static` and `gzip_static` and `docsgen serve` look for. A copy is
 * written only when it is smaller than the file. zlib's asynchronous API runs in libuv's
 * thread pool, so a few files at a time keep every core busy while memory stays flat.
 *
 * With a cache folder, the copies are also kept there by the hash of the file's bytes,
 * so the next build copies what did not change (the 2 MB API reference bundle alone
 * costs seconds at brotli's top quality) and compresses only what did. The cache holds
 * what the last build used and nothing more.
 *
 * Brotli's top quality (11) and gzip's (9) are kept for the hashed files under assets/:
 * they are large, downloaded on every first visit, and cached here by their bytes, so
 * they are paid once per version. Pages, twins and data files change with every build and
 * grow with the site; quality 11 took 60 ms for a 86 KB page against 1 ms at quality 6 for
 * a copy 10% larger, and made precompression half of a 1,000-doc build, so they get
 * brotli 6 and gzip's default level 6 (on 33 KB pages, level 9 took 2.6 ms against 0.9 ms
 * for a copy 0.3% smaller: more than the brotli copy costs, for bytes no reader sees). So
 * does the search index under assets/search/: it is named by content like the assets,
 * but changes with every edit of any page, grows with the site (at quality 11 its
 * shards cost as much as all the pages of a 1,000-doc site), and no first visit loads it.
 *
 * A cache entry is one file holding both copies (the brotli copy's length, then the
 * two), so a build writes and reads one file per distinct content, not two.
 */
import { availableParallelism } from 'node:os';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isCacheWriteUnderWay, writeCacheFile } from '../cache-file.ts';
import { COPY_HASH, contentHash, type OutputLedger } from './kept-output.ts';
import { writeAsLink } from '../linked-file.ts';
import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';
import pMap from 'p-map';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats the build writes; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.map', '.json', '.xml', '.svg', '.txt', '.md', '.yaml', '.yml', '.webmanifest', '.ico']);
/** Files whose size is asked for at once: enough to keep libuv's threads busy. */
const STAT_LANES = 16;
/** Below this a compressed copy saves less than the headers it costs. */
export const PRECOMPRESS_MIN_BYTES = 1024;
export const PRECOMPRESSED_EXTENSIONS = { br: '.br', gzip: '.gz' } as const;

export interface PrecompressResult {
  /** Files that got at least one compressed copy. */
  files: number;
  /** Compressed copies written. */
  copies: number;
  /** Distinct contents whose copies came from the cache. */
  reused: number;
}

/**
 * Compresses files of a folder being written. A build hands over each page as it writes it
 * (add()), so pages are compressed on the thread pool while the next ones render, and
 * finish() then does every other file the folder holds.
 */
export interface Precompressor {
  /**
   * Writes the copies of `contents` beside each of `rels` (paths inside the folder, `/`
   * separated, the files already written there): one page under both its names is
   * compressed once.
   */
  add(rels: readonly string[], contents: Buffer): Promise<void>;
  /**
   * Starts compressing the bytes of a file that will be written at `rel` later (a client
   * bundle, known long before the pages are rendered), so finish() finds its copies made:
   * the API reference's 2 MB bundle takes seconds at brotli's top quality, which then pass
   * while the documents compile instead of at the end of the build.
   */
  prepare(rel: string, contents: Uint8Array): void;
  /** Compresses every compressible file not handed to add(), and keeps in the cache only what this build used. */
  finish(): Promise<PrecompressResult>;
}

/**
 * Copies of the hashed assets kept in memory by a build session for its next builds (a
 * process that builds sites one after another, as the tests do): made at brotli's top
 * quality, they cost tenths of a second each for a few hundred kilobytes, and the same
 * client bundle is compressed again by every build that has no cache folder. Pages are
 * not kept: they are many, cheap to compress and differ from build to build.
 */
export interface CompressedAssetCache {
  copies: LRUCache<string, Compressed>;
  /** Copies being made, so a build that starts meanwhile (the 2 MB bundle takes seconds) waits for them instead of making them too. */
  making: Map<string, Promise<Compressed>>;
  /**
   * The cache folder of another build, whose copies are taken when this cache has none:
   * read, never written nor pruned. Processes that build many sites with the same client
   * bundle (the tests) take the copies one build of the real site made.
   */
  shelf?: string;
}

/** Enough for the API reference's bundle and its stylesheet several times over. */
const ASSET_CACHE_BYTES = 32 * 1024 * 1024;

export function createCompressedAssetCache(options: { shelf?: string } = {}): CompressedAssetCache {
  return {
    copies: new LRUCache<string, Compressed>({ maxSize: ASSET_CACHE_BYTES, sizeCalculation: (c) => Math.max(1, c.br.length + c.gz.length) }),
    making: new Map(),
    shelf: options.shelf,
  };
}

export interface PrecompressOptions {
  cacheDir?: string;
  /** Copies of the hashed assets made by the session's earlier builds, looked up before the cache folder. */
  assets?: CompressedAssetCache;
  /**
   * What the folder holds and what the build wrote (see ./kept-output.ts): a file left as it
   * was keeps the copies the last build made of it, and finish() compresses the files it
   * lists instead of reading the folder.
   */
  ledger?: OutputLedger;
}

export function createPrecompressor(dir: string, options: PrecompressOptions = {}): Precompressor {
  const result: PrecompressResult = { files: 0, copies: 0, reused: 0 };
  const { ledger } = options;
  const cache = options.cacheDir;
  const cacheReady = cache ? mkdir(cache, { recursive: true }) : Promise.resolve(undefined);
  const used = new Set<string>();
  const added = new Set<string>();
  /** Copies started by prepare(), by key: finish() takes them and lets them go. */
  const prepared = new Map<string, Promise<Compressed>>();
  const compressKeyed = async (key: string, contents: Uint8Array, level: Level): Promise<Compressed> => {
    used.add(key);
    const memory = level === ASSET_LEVEL ? options.assets : undefined;
    await cacheReady;
    const onDisk = cache ? await fromCache(cache, key) : undefined;
    const inFlight = memory?.making.get(key);
    const cached =
      onDisk ?? memory?.copies.get(key) ?? (inFlight && (await inFlight.catch(() => undefined))) ?? (memory?.shelf ? await fromCache(memory.shelf, key) : undefined);
    if (cached) {
      result.reused++;
      memory?.copies.set(key, cached);
      // The cache folder holds what its last build used, whichever cache it came from.
      if (cache && !onDisk) await toCache(cache, key, cached).catch(() => undefined);
      return cached;
    }
    const making = compress(contents, level);
    memory?.making.set(key, making);
    const compressed = await making.finally(() => memory?.making.delete(key));
    memory?.copies.set(key, compressed);
    // A cache that cannot be written costs the next build time, not this build its output.
    if (cache) await toCache(cache, key, compressed).catch(() => undefined);
    return compressed;
  };
  // `w`: brotli's window fitted to the file (see compress()); copies made with its default window are not reused.
  // The hash is the ledger's when it has one: a page is then hashed once.
  const keyFor = (level: Level, hash: string) => `${level.brotli}.${level.gzip}w-${hash}`;
  const keyOf = (contents: Uint8Array, level: Level, hash?: string) => keyFor(level, hash ?? contentHash(contents));
  /** The ledger's hash of a file's bytes. */
  const hashOf = (rel: string): string | undefined => ledger?.hashOf(rel);
  const relOf = (file: string) => path.relative(dir, file).split(path.sep).join('/');
  /**
   * Whether the copies the last build made of `rels` (equal files, all left as they were)
   * are this build's copies, as they are: then they are kept, and nothing is compressed.
   */
  const keepsCopies = async (rels: readonly string[]): Promise<boolean> => {
    if (!ledger?.replaces || !rels.every((rel) => ledger.unchanged(rel))) return false;
    const hash = hashOf(rels[0]!);
    if (!hash) return false;
    const suffixes = Object.values(PRECOMPRESSED_EXTENSIONS);
    const states = suffixes.map((suffix) => rels.map((rel) => ledger.copy(rel + suffix)));
    // A copy in doubt, or made beside one name of the file and not another: made again.
    if (states.some((forSuffix) => forSuffix.some((state) => state === 'unknown' || state !== forSuffix[0]))) return false;
    const kept = suffixes.filter((_, i) => states[i]![0] === 'kept').flatMap((suffix) => rels.map((rel) => rel + suffix));
    // One that cannot be linked is made again, and replaces the others.
    if (!(await Promise.all(kept.map((rel) => ledger.keepCopy(rel)))).every(Boolean)) return false;
    if (kept.length > 0) result.files += rels.length;
    result.copies += kept.length;
    result.reused++;
    // Its cache entry stays, for a build without the kept output.
    used.add(keyFor(levelOf(rels[0]!.split('/')), hash));
    return true;
  };
  /**
   * Writes the copies smaller than `contents` beside each of `files` (equal files): beside
   * the first, and as second names of those beside the others (see ../linked-file.ts).
   */
  const writeCopies = async (files: readonly string[], contents: Buffer, compressed: Compressed) => {
    const copies = [
      { suffix: PRECOMPRESSED_EXTENSIONS.br, bytes: compressed.br },
      { suffix: PRECOMPRESSED_EXTENSIONS.gzip, bytes: compressed.gz },
    ].filter((copy) => copy.bytes.length < contents.length);
    const [first, ...others] = files;
    if (first === undefined || copies.length === 0) return;
    // A kept output may hold the copies of an earlier version: replaced, never changed in
    // place, since a page's two names share their copies (see ../linked-file.ts).
    const replace = async (file: string, write: (to: string) => Promise<void>) => {
      if (!ledger?.replaces) return write(file);
      const temp = `${path.join(path.dirname(file), `.${path.basename(file)}`)}.${process.pid}-copy.tmp`;
      await write(temp);
      await rename(temp, file);
    };
    await Promise.all(
      copies.map(async (copy) => {
        await replace(first + copy.suffix, (to) => writeFile(to, copy.bytes));
        await Promise.all(others.map((file) => replace(file + copy.suffix, (to) => writeAsLink(first + copy.suffix, to, copy.bytes))));
        for (const file of files) ledger?.produce(relOf(file) + copy.suffix, COPY_HASH, copy.bytes.length);
      }),
    );
    result.files += files.length;
    result.copies += copies.length * files.length;
  };

  return {
    async add(rels, contents) {
      const eligible = rels.filter((rel) => compressible(rel.split('/')));
      for (const rel of rels) added.add(path.join(dir, ...rel.split('/')));
      if (eligible.length === 0 || contents.length < PRECOMPRESS_MIN_BYTES) return;
      if (await keepsCopies(eligible)) return;
      const level = levelOf(eligible[0]!.split('/'));
      const compressed = await compressKeyed(keyOf(contents, level, hashOf(eligible[0]!)), contents, level);
      await writeCopies(eligible.map((rel) => path.join(dir, ...rel.split('/'))), contents, compressed);
    },
    prepare(rel, contents) {
      const segments = rel.split('/');
      if (!compressible(segments) || contents.byteLength < PRECOMPRESS_MIN_BYTES) return;
      const level = levelOf(segments);
      const key = keyOf(contents, level);
      if (prepared.has(key)) return;
      const pending = compressKeyed(key, contents, level);
      // Awaited by finish(); a build that fails before it must not report this as unhandled.
      pending.catch(() => undefined);
      prepared.set(key, pending);
    },
    async finish() {
      // With a ledger, the files it lists (the folder may hold others, removed before publishing) and their sizes.
      const listed = ledger?.sources().map(([rel, size]) => [path.join(dir, ...rel.split('/')), size] as const);
      const files = (
        listed?.map(([file]) => file) ??
        (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name))
      ).filter((file) => !added.has(file) && compressible(path.relative(dir, file).split(path.sep)));
      // A few at a time: a stat of every file at once (200,000 at 10,000 docs) held a request
      // and its result per file, and was most of a large build's peak memory.
      const sizes = listed ? new Map(listed) : new Map(await pMap(files, async (file) => [file, (await stat(file)).size] as const, { concurrency: STAT_LANES }));
      // Largest first: one big bundle takes seconds at brotli's top quality and cannot be
      // split, so it starts at once and the small files fill the other threads meanwhile.
      const targets = files.filter((file) => sizes.get(file)! >= PRECOMPRESS_MIN_BYTES).sort((a, b) => sizes.get(b)! - sizes.get(a)!);
      // By the hash of the bytes: equal files are compressed once.
      // Files come largest first and equal bytes have equal sizes, so an entry for a size
      // larger than the file at hand will not be asked for again: it is dropped, and the map
      // never holds more than the copies of one size.
      const made = new Map<string, { size: number; pending: Promise<Compressed> }>();
      const compressOnce = (key: string, contents: Buffer, level: Level) => {
        for (const [k, entry] of made) if (entry.size > contents.length) made.delete(k);
        let pending = made.get(key)?.pending;
        if (!pending) {
          pending = prepared.get(key) ?? compressKeyed(key, contents, level);
          made.set(key, { size: contents.length, pending });
        }
        return pending;
      };
      // One more file in flight than cores: while one is being read or written, the others compress.
      await pMap(
        targets,
        async (file) => {
          const rel = relOf(file);
          if (await keepsCopies([rel])) return;
          const contents = await readFile(file);
          const level = levelOf(rel.split('/'));
          await writeCopies([file], contents, await compressOnce(keyOf(contents, level, hashOf(rel)), contents, level));
        },
        { concurrency: availableParallelism() + 1 },
      );
      prepared.clear();
      if (cache) await prune(cache, used);
      return { ...result };
    },
  };
}

/** The file a path of the output would be the compressed copy of, by its name (a static file may be named so too). */
export function compressedCopySource(rel: string): string | undefined {
  const suffix = Object.values(PRECOMPRESSED_EXTENSIONS).find((s) => rel.endsWith(s));
  return suffix ? rel.slice(0, -suffix.length) : undefined;
}

/** A text file a server publishes: dot folders hold files none does (the headers of the site). */
function compressible(segments: readonly string[]): boolean {
  return COMPRESSIBLE.has(path.extname(segments[segments.length - 1] ?? '').toLowerCase()) && !segments.some((part) => part.startsWith('.'));
}

/** Compresses every compressible file of `dir` (see createPrecompressor). */
export async function precompress(dir: string, options: { cacheDir?: string } = {}): Promise<PrecompressResult> {
  return createPrecompressor(dir, options).finish();
}

export interface Compressed {
  br: Buffer;
  gz: Buffer;
}

/** Brotli quality and gzip level. */
interface Level {
  brotli: number;
  gzip: number;
}

/** By file: see the top of this file. */
const ASSET_LEVEL: Level = { brotli: zlib.constants.BROTLI_MAX_QUALITY, gzip: zlib.constants.Z_BEST_COMPRESSION };
const PAGE_LEVEL: Level = { brotli: 6, gzip: zlib.constants.Z_DEFAULT_LEVEL };

function levelOf(segments: readonly string[]): Level {
  return segments[0] === 'assets' && segments[1] !== 'search' ? ASSET_LEVEL : PAGE_LEVEL;
}

/**
 * Brotli's window fitted to the file: the smallest that holds it whole, so the copy is as
 * small as with the default 4 MB window. An encoder made for the default window allocates
 * and frees megabytes for every file: on 400 pages of 33 KB at quality 6, that was 450-580 ms
 * of CPU against 240-320 ms with the fitted window, for copies 0.3% smaller.
 */
export function brotliWindowBits(size: number): number {
  const { BROTLI_MIN_WINDOW_BITS, BROTLI_DEFAULT_WINDOW } = zlib.constants;
  // The window holds 16 bytes less than its power of two.
  return Math.min(BROTLI_DEFAULT_WINDOW, Math.max(BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size + 16))));
}

async function compress(contents: Uint8Array, level: Level): Promise<Compressed> {
  const [br, gz] = await Promise.all([
    brotli(contents, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: level.brotli,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: contents.length,
        [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(contents.length),
      },
    }),
    gzip(contents, { level: level.gzip }),
  ]);
  return { br, gz };
}

/** Both copies of a file with these bytes, or undefined when the entry is missing or cut short (then both are made again). */
async function fromCache(cache: string, key: string): Promise<Compressed | undefined> {
  try {
    const entry = await readFile(path.join(cache, key));
    const brLength = entry.length >= 4 ? entry.readUInt32LE(0) : -1;
    if (brLength < 0 || 4 + brLength > entry.length) return undefined;
    return { br: entry.subarray(4, 4 + brLength), gz: entry.subarray(4 + brLength) };
  } catch {
    return undefined;
  }
}

/** Written aside and renamed (see ../cache-file.ts): a build running at the same time never reads half an entry. */
async function toCache(cache: string, key: string, compressed: Compressed): Promise<void> {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(compressed.br.length, 0);
  await writeCacheFile(path.join(cache, key), Buffer.concat([length, compressed.br, compressed.gz]));
}

/** Keeps only the copies this build used, so the cache does not grow with every edit. */
async function prune(cache: string, used: ReadonlySet<string>): Promise<void> {
  // Entries of the earlier layout (two files, x.br and x.gz) are not used, so they go too.
  const stale = (await readdir(cache)).filter((name) => !isCacheWriteUnderWay(name) && !used.has(name));
  await Promise.all(stale.map((name) => rm(path.join(cache, name), { force: true })));
}
