/**
 * Keeps the served folder equal to the last good build by writing only what changed.
 * `docsgen build` swaps a whole new folder into place, which is right for a deploy but
 * would rewrite every file on every save; here each file is compared with what is
 * already there, replaced atomically (a reader never sees half a page), and the files of
 * pages that disappeared are deleted, in an order that never serves a page whose assets
 * are not written yet.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SiteOutput } from '../build.ts';
import type { SiteConfig } from '../config.ts';
import { DocsgenError } from '../errors.ts';
import { NOT_FOUND_ROUTE } from '../stages/render.ts';
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
   * demand (search index, sitemap, feeds: new files before the ones that point at them)
   * and deletes stale files: the caller tells the browsers in between, so a search index
   * of a thousand small files does not delay the reload.
   */
  sync(site: SiteOutput, config: SiteConfig): Promise<{ change: MirrorChange; finish: () => Promise<void> }>;
}

export function createOutputMirror(outDir: string): OutputMirror {
  /** What this mirror knows to be in the folder; undefined until the first sync reads it. */
  let onDisk: Map<string, Entry> | undefined;
  let tempCounter = 0;

  async function put(rel: string, contents: Contents): Promise<void> {
    const target = path.join(outDir, ...rel.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    // A dot name: the server never serves it, so the half-written file is never seen.
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${tempCounter++}.tmp`);
    await writeFile(temp, contents);
    await rename(temp, target);
  }

  async function remove(rels: readonly string[], limit?: number): Promise<void> {
    const targets = rels.map((rel) => path.join(outDir, ...rel.split('/')));
    await inParallel(targets, limit, (target) =>
      unlink(target).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      }),
    );
    // Drop the folders the deletions left empty, deepest first, up to the output folder itself.
    const dirs = new Set<string>();
    for (const target of targets) {
      for (let dir = path.dirname(target); dir.length > outDir.length && dir.startsWith(outDir + path.sep); dir = path.dirname(dir)) dirs.add(dir);
    }
    for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => undefined);
  }

  return {
    async sync(site, config) {
      const previous = onDisk ?? (await readOutputFolder(outDir));
      const wanted = new Map<string, Entry>();
      // Same precedence as write(): static files first, build output over them.
      for (const [rel, entry] of await staticEntries(config.dirs.static, previous)) wanted.set(rel, entry);
      for (const asset of site.assets) wanted.set(asset.path, { contents: asset.contents, origin: 'asset' });
      for (const file of site.generated) wanted.set(file.path, { contents: file.contents, origin: 'generated' });
      for (const page of site.pages) for (const file of pageFiles(page.route)) wanted.set(file, { contents: page.html, origin: 'page' });

      const changed: string[] = [];
      for (const [rel, entry] of wanted) {
        const before = previous.get(rel);
        if (!before || !sameContents(before.contents, entry.contents)) changed.push(rel);
      }
      const gone = [...previous.keys()].filter((rel) => !wanted.has(rel));

      const isPage = (rel: string) => rel.endsWith('.html');
      const onDemand = (rel: string) => wanted.get(rel)?.origin === 'generated' && !rel.startsWith('openapi/');
      const failed = (error: unknown): never => {
        // The folder is now partly updated: read it again next time rather than trust memory.
        onDisk = undefined;
        const message = error instanceof Error ? error.message : String(error);
        throw new DocsgenError(`Could not update ${path.relative(process.cwd(), outDir) || outDir}: ${message}`, {
          hint: 'Check the free disk space and the permissions of the output folder, then save again.',
          cause: error,
        });
      };
      try {
        // What pages load comes before the pages; a removed page disappears before browsers are told.
        await inParallel(changed.filter((r) => !isPage(r) && !onDemand(r)), FAST, (rel) => put(rel, wanted.get(rel)!.contents));
        await inParallel(changed.filter(isPage), FAST, (rel) => put(rel, wanted.get(rel)!.contents));
        await remove(gone.filter(isPage));
      } catch (error) {
        failed(error);
      }
      onDisk = wanted;

      const routes = [...new Set([...changed, ...gone].filter(isPage).map(routeOfFile))];
      const touched = [...changed, ...gone];
      const originOf = (rel: string) => (wanted.get(rel) ?? previous.get(rel))?.origin;
      const reloadAll = touched.some((rel) => originOf(rel) === 'static' || rel.startsWith('openapi/'));
      const change: MirrorChange = { written: changed, deleted: gone, routes, cssSwap: cssOnly(changed, gone, previous, wanted), reloadAll };
      const finish = async () => {
        try {
          const later = changed.filter(onDemand);
          await inParallel(later.filter((rel) => !previous.has(rel)), GENTLE, (rel) => put(rel, wanted.get(rel)!.contents));
          await inParallel(later.filter((rel) => previous.has(rel)), GENTLE, (rel) => put(rel, wanted.get(rel)!.contents));
          await remove(gone.filter((rel) => !isPage(rel)), GENTLE);
        } catch (error) {
          failed(error);
        }
      };
      return { change, finish };
    },
  };
}

/** File operations in flight at once for what open pages wait for. */
const FAST = 32;
/**
 * For the files written after the browsers were told: Node runs file operations on a
 * pool of four threads, shared with the server reading the pages those browsers are
 * reloading. A thousand queued search-index writes would make every reload wait.
 */
const GENTLE = 2;

/** Runs `fn` over `items`, `limit` at a time: a rebuild can replace a thousand small search-index files. */
async function inParallel<T>(items: readonly T[], limit = FAST, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
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

/** The files already in the output folder (dot names excluded: they are not the build's). */
async function readOutputFolder(outDir: string): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  if (!existsSync(outDir)) return entries;
  for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(outDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (rel.split('/').some((part) => part.startsWith('.'))) continue;
    entries.set(rel, { contents: await readFile(path.join(outDir, rel)), origin: rel.endsWith('.html') ? 'page' : 'asset' });
  }
  return entries;
}

/** static/ as output entries; a file whose mtime and size did not change is not read again. */
async function staticEntries(dir: string, previous: Map<string, Entry>): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  if (!existsSync(dir)) return entries;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, file).split(path.sep).join('/');
    const info = await stat(file).catch(() => undefined);
    if (!info) continue;
    const signature = `${info.mtimeMs}:${info.size}`;
    const before = previous.get(rel);
    const contents = before?.origin === 'static' && before.signature === signature ? before.contents : await readFile(file);
    entries.set(rel, { contents, origin: 'static', signature });
  }
  return entries;
}
