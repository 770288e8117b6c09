/**
 * Keeps the served folder equal to the last good build by writing only what changed.
 * `docsgen build` swaps a whole new folder into place, which is right for a deploy but
 * would rewrite every file on every save; here each file is compared with what is
 * already there, replaced atomically (a reader never sees half a page), and the files of
 * pages that disappeared are deleted, in an order that never serves a page whose assets
 * are not written yet.
 */
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SiteOutput } from '../build.ts';
import type { SiteConfig } from '../config.ts';
import { DocsgenError } from '../errors.ts';
import { NOT_FOUND_ROUTE } from '../stages/render.ts';
import { isSearchIndexFile } from '../stages/search-index.ts';
import { listStaticFiles } from '../stages/static-files.ts';
import { pageFiles } from '../stages/write.ts';

type Contents = string | Uint8Array;

interface Entry {
  contents: Contents;
  origin: 'page' | 'asset' | 'generated' | 'static';
  /** For static files: "mtime:size" of the source, so unchanged files are not read again. */
  signature?: string;
}

export interface MirrorChange {
  written: string[];
  deleted: string[];
  /** Routes whose HTML was added, changed or removed. */
  routes: string[];
  /** Old URL -> new URL of each stylesheet, when stylesheets are the only thing that changed. */
  cssSwap?: Record<string, string>;
  /** A file every page may show changed (static/, API downloads): open pages should all reload. */
  reloadAll: boolean;
}

export interface OutputMirror {
  /**
   * Writes what open pages need (pages, client assets, static files, API documents) and
   * deletes the files of removed pages. `finish` then writes the files fetched only on
   * demand (sitemap, feeds, and the search index, made then when the build left it for
   * later: new files before the ones that point at them) and deletes stale files. The
   * caller tells the browsers in between, so a search index of a thousand small files
   * delays no reload.
   */
  sync(site: SiteOutput, config: SiteConfig): Promise<{ change: MirrorChange; finish: () => Promise<void> }>;
  /**
   * Stops the last `finish` from starting more file operations: a file just changed, and
   * the build it starts should find the disk free. The next sync's `finish` does the work
   * again with the newer files.
   */
  interrupt(): void;
}

export function createOutputMirror(outDir: string): OutputMirror {
  /**
   * What is in the folder, kept file by file as each write or deletion completes;
   * undefined until the first sync reads the folder, and after a failure.
   */
  let onDisk: Map<string, Entry> | undefined;
  /** The last sync's `finish` while it runs: the next sync stops it and takes over its work. */
  let background: { stop: AbortController } | undefined;
  let tempCounter = 0;

  /**
   * Writes one file. `fresh`: the file is in a folder no served file is in (a new search
   * index folder, named by its contents), so nothing can read it half-written and it is
   * written in place; otherwise it is written under a dot name and renamed over the old one.
   */
  async function put(disk: Map<string, Entry>, rel: string, entry: Entry, fresh?: { dirs: Set<string> }): Promise<void> {
    const target = path.join(outDir, ...rel.split('/'));
    const dir = path.dirname(target);
    if (!fresh?.dirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      fresh?.dirs.add(dir);
    }
    if (fresh) {
      await writeFile(target, entry.contents);
    } else {
      // A dot name: the server never serves it, so the half-written file is never seen.
      const temp = path.join(dir, `.${path.basename(target)}.${process.pid}-${tempCounter++}.tmp`);
      await writeFile(temp, entry.contents);
      await rename(temp, target);
    }
    disk.set(rel, entry);
  }

  /**
   * The files browsers wait for. The few of an edit (a page and its alias) are written
   * synchronously: an asynchronous write waits its turn in Node's pool of four threads,
   * which the last build's search index may still be using.
   */
  async function writeNow(disk: Map<string, Entry>, rels: readonly string[], wanted: Map<string, Entry>): Promise<void> {
    if (rels.length > WRITE_NOW) return inParallel(rels, FAST, (rel) => put(disk, rel, wanted.get(rel)!));
    for (const rel of rels) {
      const target = path.join(outDir, ...rel.split('/'));
      mkdirSync(path.dirname(target), { recursive: true });
      const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${tempCounter++}.tmp`);
      writeFileSync(temp, wanted.get(rel)!.contents);
      renameSync(temp, target);
      disk.set(rel, wanted.get(rel)!);
    }
  }

  /** Deletes files, and a whole folder at once where every file in it goes (the last search index). */
  async function remove(disk: Map<string, Entry>, rels: readonly string[], limit?: number, signal?: AbortSignal): Promise<void> {
    const going = new Set(rels);
    const folders = wholeFolders(going, [...disk.keys()]);
    const inFolder = (rel: string) => folders.some((folder) => rel.startsWith(`${folder}/`));
    const removed: string[] = [];
    await inParallel(
      [...folders.map((folder) => ({ folder })), ...rels.filter((rel) => !inFolder(rel)).map((rel) => ({ rel }))],
      limit,
      async (item) => {
        if ('folder' in item) {
          await rm(path.join(outDir, ...item.folder.split('/')), { recursive: true, force: true });
          for (const rel of rels) if (rel.startsWith(`${item.folder}/`)) disk.delete(rel);
          removed.push(`${item.folder}/.`);
          return;
        }
        await unlink(path.join(outDir, ...item.rel.split('/'))).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        disk.delete(item.rel);
        removed.push(item.rel);
      },
      signal,
    );
    // Drop the folders the deletions left empty, deepest first, up to the output folder itself.
    const dirs = new Set<string>();
    for (const rel of removed) {
      const target = path.join(outDir, ...rel.split('/'));
      for (let dir = path.dirname(target); dir.length > outDir.length && dir.startsWith(outDir + path.sep); dir = path.dirname(dir)) dirs.add(dir);
    }
    for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => undefined);
  }

  const failed = (error: unknown): never => {
    // An operation may have half happened: read the folder again next time rather than trust memory.
    onDisk = undefined;
    const message = error instanceof Error ? error.message : String(error);
    throw new DocsgenError(`Could not update ${path.relative(process.cwd(), outDir) || outDir}: ${message}`, {
      hint: 'Check the free disk space and the permissions of the output folder, then save again.',
      cause: error,
    });
  };

  return {
    interrupt() {
      background?.stop.abort();
      background = undefined;
    },
    async sync(site, config) {
      // The last build's search index and clean-up are superseded by this build's. Its file
      // operations in flight still record themselves in `disk` as they complete, so this
      // build need not wait for them.
      background?.stop.abort();
      background = undefined;
      const disk = onDisk ?? (await readOutputFolder(outDir));
      onDisk = disk;
      const previous = new Map(disk);
      const wanted = new Map<string, Entry>();
      // Same precedence as write(): static files first, build output over them.
      for (const [rel, entry] of await staticEntries(config, previous)) wanted.set(rel, entry);
      for (const asset of site.assets) wanted.set(asset.path, { contents: asset.contents, origin: 'asset' });
      for (const file of site.generated) wanted.set(file.path, { contents: file.contents, origin: 'generated' });
      for (const page of site.pages) for (const file of pageFiles(page.route)) wanted.set(file, { contents: page.html, origin: 'page' });

      const changed: string[] = [];
      for (const [rel, entry] of wanted) {
        const before = previous.get(rel);
        if (!before || !sameContents(before.contents, entry.contents)) changed.push(rel);
        // The same bytes, in the form the next build will compare with (the same string, usually).
        else if (before !== entry) disk.set(rel, entry);
      }
      // The last search index is replaced when the next one is made, in `finish`.
      const gone = [...previous.keys()].filter((rel) => !wanted.has(rel) && !(site.searchIndex && isSearchIndexFile(rel)));

      const isPage = (rel: string) => rel.endsWith('.html');
      const onDemand = (rel: string) => wanted.get(rel)?.origin === 'generated' && !rel.startsWith('openapi/');
      try {
        // What pages load comes before the pages; a removed page disappears before browsers are told.
        await writeNow(disk, changed.filter((r) => !isPage(r) && !onDemand(r)), wanted);
        await writeNow(disk, changed.filter(isPage), wanted);
        // A removed page's Markdown twin goes with it, so the folder it leaves is empty at once.
        const goneRoutes = new Set(gone.filter(isPage).map(routeOfFile));
        const isTwinOfGonePage = (rel: string) => rel.endsWith('.md') && goneRoutes.has(rel === 'index.md' ? '/' : `/${rel.slice(0, -'.md'.length)}`);
        await remove(disk, gone.filter((rel) => isPage(rel) || isTwinOfGonePage(rel)));
      } catch (error) {
        failed(error);
      }

      const routes = [...new Set([...changed, ...gone].filter(isPage).map(routeOfFile))];
      const touched = [...changed, ...gone];
      const originOf = (rel: string) => (wanted.get(rel) ?? previous.get(rel))?.origin;
      const reloadAll = touched.some((rel) => originOf(rel) === 'static' || rel.startsWith('openapi/'));
      // Files written in the background (Markdown twins, llms.txt, sitemap, search index) are
      // no part of what an open page shows, so they do not stop a stylesheet swap.
      const cssSwap = cssOnly(changed.filter((rel) => !onDemand(rel)), gone, previous, wanted);
      const change: MirrorChange = { written: changed, deleted: gone, routes, cssSwap, reloadAll };

      const later = async (signal: AbortSignal) => {
        // A search index that fails to build leaves the last one served; the error is the caller's to show.
        const files = site.searchIndex ? await site.searchIndex({ signal }) : [];
        for (const file of files) wanted.set(file.path, { contents: file.contents, origin: 'generated' });
        const due = [...wanted].filter(([rel, entry]) => onDemand(rel) && !(disk.has(rel) && sameContents(disk.get(rel)!.contents, entry.contents)));
        // Folders that hold no served file yet: their files can be written without the rename dance.
        const servedDirs = new Set([...disk.keys()].map((rel) => path.dirname(path.join(outDir, ...rel.split('/')))));
        const fresh = (rel: string) => !servedDirs.has(path.dirname(path.join(outDir, ...rel.split('/'))));
        const made = { dirs: new Set<string>() };
        try {
          // New files before the files that point at them (the search index's entry point, the sitemap).
          await inParallel(due.filter(([rel]) => !disk.has(rel)), GENTLE, ([rel, entry]) => put(disk, rel, entry, fresh(rel) ? made : undefined), signal);
          await inParallel(due.filter(([rel]) => disk.has(rel)), GENTLE, ([rel, entry]) => put(disk, rel, entry), signal);
          await remove(disk, [...disk.keys()].filter((rel) => !wanted.has(rel) && !isPage(rel)), GENTLE, signal);
        } catch (error) {
          failed(error);
        }
      };
      const finish = () => {
        const stop = new AbortController();
        // Stopped by the next sync: that one's `finish` does the same work with newer files.
        const done = later(stop.signal).catch((error: unknown) => {
          if (!stop.signal.aborted) throw error;
        });
        background = { stop };
        return done;
      };
      return { change, finish };
    },
  };
}

/**
 * The highest folders (other than the output folder itself) all of whose files are
 * going: deleting each at once is one operation instead of a thousand.
 */
function wholeFolders(going: ReadonlySet<string>, present: readonly string[]): string[] {
  const candidates = new Set<string>();
  for (const rel of going) for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) candidates.add(dir);
  const whole = [...candidates].filter((dir) => present.every((rel) => !rel.startsWith(`${dir}/`) || going.has(rel)));
  return whole.filter((dir) => !whole.some((other) => other !== dir && dir.startsWith(`${other}/`)));
}

/** What put() and writeNow() write before renaming: `.name.PID-N.tmp`. */
const TEMP_FILE = /^\..+\.\d+-\d+\.tmp$/;

/** Up to this many files, what open pages wait for is written synchronously. */
const WRITE_NOW = 8;
/** File operations in flight at once for what open pages wait for. */
const FAST = 32;
/**
 * For the files written after the browsers were told: Node runs file operations on a
 * pool of four threads, shared with the server reading the pages browsers load. Three at
 * a time leaves the server a thread however many search-index files are queued.
 */
const GENTLE = 3;

/** Runs `fn` over `items`, `limit` at a time: a rebuild can replace a thousand small search-index files. Stops taking items once `signal` aborts. */
async function inParallel<T>(items: readonly T[], limit = FAST, fn: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** '/a/b' from 'a/b/index.html' or 'a/b.html'; '/' from index.html; the 404 route from 404.html. */
export function routeOfFile(rel: string): string {
  if (rel === 'index.html') return '/';
  if (rel === '404.html') return NOT_FOUND_ROUTE;
  return `/${rel.replace(/\/index\.html$/, '').replace(/\.html$/, '')}`;
}

function sameContents(a: Contents, b: Contents): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') return false;
  const bufA = typeof a === 'string' ? Buffer.from(a, 'utf8') : Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const bufB = typeof b === 'string' ? Buffer.from(b, 'utf8') : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return bufA.equals(bufB);
}

function textOf(contents: Contents): string {
  return typeof contents === 'string' ? contents : Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength).toString('utf8');
}

/**
 * When the only changes are hashed stylesheets replaced by new ones, and pages differ
 * from before only by those URLs, open pages can swap the stylesheets and keep their
 * state instead of reloading.
 */
function cssOnly(changed: string[], gone: string[], previous: Map<string, Entry>, wanted: Map<string, Entry>): Record<string, string> | undefined {
  const added = changed.filter((rel) => !rel.endsWith('.html'));
  if (added.length === 0 || gone.some((rel) => rel.endsWith('.html'))) return undefined;
  if (![...added, ...gone].every((rel) => rel.startsWith('assets/') && rel.endsWith('.css'))) return undefined;
  const stem = (rel: string) => rel.replace(/-[A-Za-z0-9]+\.css$/, '');
  const swap: Record<string, string> = {};
  for (const rel of added) {
    if (previous.has(rel)) return undefined;
    const old = gone.filter((g) => stem(g) === stem(rel));
    if (old.length !== 1) return undefined;
    swap[`/${old[0]}`] = `/${rel}`;
  }
  for (const rel of changed.filter((r) => r.endsWith('.html'))) {
    const before = previous.get(rel);
    if (!before) return undefined;
    let html = textOf(wanted.get(rel)!.contents);
    for (const [from, to] of Object.entries(swap)) html = html.split(to).join(from);
    if (html !== textOf(before.contents)) return undefined;
  }
  return swap;
}

/** The files already in the output folder (but the temporary files of put(), which are not the build's). */
async function readOutputFolder(outDir: string): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  if (!existsSync(outDir)) return entries;
  const rels = (await readdir(outDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(outDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((rel) => !TEMP_FILE.test(path.posix.basename(rel)))
    .sort();
  await inParallel(rels, FAST, async (rel) => {
    entries.set(rel, { contents: await readFile(path.join(outDir, rel)), origin: rel.endsWith('.html') ? 'page' : 'asset' });
  });
  return entries;
}

/** static/ as output entries; a file whose mtime and size did not change is not read again. */
async function staticEntries(config: SiteConfig, previous: Map<string, Entry>): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  // Listed and looked at synchronously, as the collect stage reads sources: a handful of
  // metadata calls, quicker than queueing each behind the thread pool on every save.
  for (const { rel, real } of listStaticFiles(config)) {
    const info = statSync(real, { throwIfNoEntry: false });
    if (!info) continue;
    const signature = `${info.mtimeMs}:${info.size}`;
    const before = previous.get(rel);
    const contents = before?.origin === 'static' && before.signature === signature ? before.contents : await readFile(real);
    entries.set(rel, { contents, origin: 'static', signature });
  }
  return entries;
}
