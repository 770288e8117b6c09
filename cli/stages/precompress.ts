/**
 * Stage: compress the text files of the written output once, at build time, so no
 * server compresses them again for every request. Each file gets a brotli copy at the
 * highest quality (`x.br`) and a gzip copy at the highest level (`x.gz`) next to it, the
 * names nginx's `brotli_static` and `gzip_static` and `docsgen serve` look for. A copy is
 * written only when it is smaller than the file. zlib's asynchronous API runs in libuv's
 * thread pool, so a few files at a time keep every core busy while memory stays flat.
 */
import { availableParallelism } from 'node:os';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats the build writes; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.map', '.json', '.xml', '.svg', '.txt', '.md', '.yaml', '.yml', '.webmanifest', '.ico']);
/** Below this a compressed copy saves less than the headers it costs. */
export const PRECOMPRESS_MIN_BYTES = 1024;
export const PRECOMPRESSED_EXTENSIONS = { br: '.br', gzip: '.gz' } as const;

export interface PrecompressResult {
  /** Files that got at least one compressed copy. */
  files: number;
  /** Compressed copies written. */
  copies: number;
}

export async function precompress(dir: string): Promise<PrecompressResult> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && COMPRESSIBLE.has(path.extname(entry.name).toLowerCase()))
    .map((entry) => path.join(entry.parentPath, entry.name))
    // Dot folders hold files no server publishes (the headers of the site).
    .filter((file) => !path.relative(dir, file).split(path.sep).some((part) => part.startsWith('.')));
  const sizes = new Map(await Promise.all(files.map(async (file) => [file, (await stat(file)).size] as const)));
  // Largest first: one big bundle takes seconds at brotli's top quality and cannot be
  // split, so it starts at once and the small files fill the other threads meanwhile.
  const targets = files.filter((file) => sizes.get(file)! >= PRECOMPRESS_MIN_BYTES).sort((a, b) => sizes.get(b)! - sizes.get(a)!);
  const result: PrecompressResult = { files: 0, copies: 0 };
  let next = 0;
  // One more file in flight than cores: while one is being read or written, the others compress.
  const workers = Array.from({ length: Math.min(targets.length, availableParallelism() + 1) }, async () => {
    while (next < targets.length) {
      const copies = await compressFile(targets[next++]!);
      if (copies > 0) result.files++;
      result.copies += copies;
    }
  });
  await Promise.all(workers);
  return result;
}

async function compressFile(file: string): Promise<number> {
  const contents = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(contents, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: contents.length,
      },
    }),
    gzip(contents, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  const copies = [
    { suffix: PRECOMPRESSED_EXTENSIONS.br, bytes: br },
    { suffix: PRECOMPRESSED_EXTENSIONS.gzip, bytes: gz },
  ].filter((copy) => copy.bytes.length < contents.length);
  await Promise.all(copies.map((copy) => writeFile(file + copy.suffix, copy.bytes)));
  return copies.length;
}
