/**
 * The client bundle kept between builds, beside the compile cache. esbuild keeps nothing
 * between processes, and bundling the client with the API reference island (Stoplight
 * Elements: about 1,500 files read) took 0.7 s of every build of the real site, a fifth of
 * a build whose documents all came from the compile cache.
 *
 * An entry is the bundle's result (file names and bytes, the router's URL, the islands)
 * with the hash of every file esbuild read to make it. It is used only while each of
 * those files has the same bytes: installed packages keep the mtime npm gives every file
 * it unpacks and often the size across versions, so neither can say a file is unchanged.
 * Its name hashes what else decides the output: docsgen's bundling code, the versions of
 * esbuild and of the CSS tools, and the entry points. Not the site's folder: esbuild works
 * from the templates' folder, so every site built with the same templates gets the same bundle.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isCacheWriteUnderWay, writeCacheFile } from '../cache-file.ts';
import pMap from 'p-map';
import { cacheSalt } from '../cache-salt.ts';
import type { BundleResult } from './bundle.ts';

/** Where entries go, and the writes still under way (a build waits for them before it ends). */
export interface BundleStore {
  dir: string;
  writes: Set<Promise<void>>;
  /** Entries are read, never written nor removed: the folder is another build's (see createBundleStore). */
  readOnly: boolean;
}

/**
 * With `readOnly`, a build takes the bundle another build kept in `dir` (the same
 * templates give the same bundle) and leaves that build's folder as it is.
 */
export function createBundleStore(dir: string, options: { readOnly?: boolean } = {}): BundleStore {
  return { dir, writes: new Set(), readOnly: options.readOnly ?? false };
}

export async function flushBundleStore(store: BundleStore | undefined): Promise<void> {
  while (store && store.writes.size > 0) await Promise.all(store.writes);
}

interface Manifest {
  /** Files esbuild read (absolute paths) with the hash of their bytes. */
  inputs: [file: string, hash: string][];
  result: Omit<BundleResult, 'files'>;
  /** The output files in the order of the bytes in the entry's .bin file. */
  files: { path: string; length: number }[];
}

/** Files hashed at once: enough to keep the thread pool busy. */
const READ_LANES = 32;

const SALT = cacheSalt({
  files: ['bundle.ts', 'bundle-store.ts', 'scope-css.ts'].map((file) => `cli/stages/${file}`),
  packages: ['esbuild', 'postcss', 'postcss-prefix-selector'],
});

/** The name of the entry for a bundle made with these entry points. */
export function bundleKey(signature: string): string {
  return createHash('sha1').update(SALT).update('\0').update(signature).digest('hex');
}

const hashOf = async (file: string) => createHash('sha1').update(await readFile(file)).digest('base64url');

/** The kept bundle, if every file it was made from still has the same bytes. */
export async function readBundle(store: BundleStore, key: string): Promise<{ result: BundleResult; inputs: string[] } | undefined> {
  try {
    const manifest = JSON.parse(await readFile(path.join(store.dir, `${key}.json`), 'utf8')) as Manifest;
    const same = await pMap(manifest.inputs, async ([file, hash]) => (await hashOf(file).catch(() => undefined)) === hash, { concurrency: READ_LANES });
    if (!same.every(Boolean)) return undefined;
    const bytes = await readFile(path.join(store.dir, `${key}.bin`));
    let offset = 0;
    const files = manifest.files.map((file) => {
      const contents = new Uint8Array(bytes.buffer, bytes.byteOffset + offset, file.length);
      offset += file.length;
      return { path: file.path, contents };
    });
    if (offset !== bytes.length) return undefined;
    return { result: { ...manifest.result, files }, inputs: manifest.inputs.map(([file]) => file) };
  } catch {
    return undefined;
  }
}

/**
 * Keeps `result`, made from the files `inputs`, under `key`, in the background (see
 * flushBundleStore); the other entries go, so the folder holds one bundle per site.
 */
export function saveBundle(store: BundleStore, key: string, result: BundleResult, inputs: readonly string[]): void {
  if (store.readOnly) return;
  const writing = (async () => {
    try {
      const manifest: Manifest = {
        inputs: await pMap(inputs, async (file) => [file, await hashOf(file)] as [string, string], { concurrency: READ_LANES }),
        result: { script: result.script, styles: result.styles, themeInit: result.themeInit, islands: result.islands },
        files: result.files.map((file) => ({ path: file.path, length: file.contents.byteLength })),
      };
      await mkdir(store.dir, { recursive: true });
      // Bytes first, then the manifest that makes the entry, each written aside and renamed: a
      // build reading meanwhile (in this process or another) finds no entry, or a whole one.
      await writeCacheFile(path.join(store.dir, `${key}.bin`), Buffer.concat(result.files.map((file) => file.contents)));
      await writeCacheFile(path.join(store.dir, `${key}.json`), JSON.stringify(manifest));
      const stale = (await readdir(store.dir)).filter((name) => name !== `${key}.bin` && name !== `${key}.json` && !isCacheWriteUnderWay(name));
      await Promise.all(stale.map((name) => rm(path.join(store.dir, name), { force: true })));
    } catch {
      // A bundle that cannot be kept only costs the next build its time; an input that
      // vanished meanwhile (watch mode) leaves no entry, which is right.
    }
  })();
  store.writes.add(writing);
  void writing.finally(() => store.writes.delete(writing));
}
