/**
 * Stage: write a site into a folder as a diff against what the folder holds: new and
 * changed files are written, files no longer produced are removed, the others are left
 * alone. The rules of what the output holds are here and only here: every page under
 * both of its names (templates/shared/routes.ts), 404.html, the client assets, static/,
 * the API documents, sitemap, robots.txt and the blog feeds, the build's output over a
 * static file of the same path.
 *
 * `docsgen build` writes into a fresh staging folder, swapped into place only after every
 * check passed (see ./publish.ts); `serve --watch` writes into the folder it serves, in
 * the order open pages can follow (see ../watch/served-output.ts).
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, readdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Feed } from 'feed';
import pMap from 'p-map';
import type { SiteConfig } from '../config.ts';
import { DocsgenError } from '../errors.ts';
import { fileSignature } from '../file-signature.ts';
import { writeAsLink } from '../linked-file.ts';
import { pageFiles } from '../../templates/shared/routes.ts';
import type { OutputAsset } from './bundle.ts';
import type { CompiledPost } from './compile.ts';
import type { LoadedApiDocument } from './openapi.ts';
import type { RenderedPage } from './render.ts';
import { contentHash, openLedger, type OutputLedger } from './kept-output.ts';
import { stagingDir } from './publish.ts';
import { listStaticFiles } from './static-files.ts';
import { baseUrlFile, siteRootUrl } from '../base-url.ts';

/** Output files other than pages, as (path inside the output, contents). */
export function generatedFiles(input: { apis: readonly LoadedApiDocument[]; posts: readonly CompiledPost[]; pages: readonly RenderedPage[] }, config: SiteConfig): OutputAsset[] {
  const encoder = new TextEncoder();
  const text = (p: string, body: string): OutputAsset => ({ path: p, contents: encoder.encode(body) });
  const files: OutputAsset[] = [];
  for (const api of input.apis) {
    files.push(text(`openapi/${api.id}.yaml`, api.yamlText));
    files.push(text(`openapi/${api.id}.json`, api.jsonText));
    files.push(text(`openapi/${api.id}.reference.json`, api.referenceJsonText ?? api.jsonText));
    files.push(text(`openapi/${api.id}.postman_collection.json`, api.postman.collection));
    files.push(text(`openapi/${api.id}.postman_environment.json`, api.postman.environment));
  }
  files.push(text('sitemap.xml', sitemap(input.pages, config)));
  if (!existsSync(path.join(config.dirs.static, 'robots.txt'))) {
    files.push(text('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${siteRootUrl(config)}/sitemap.xml\n`));
  }
  files.push(baseUrlFile(config.baseUrl));
  if (config.blog.enabled) {
    const feed = blogFeed(input.posts.filter((entry) => !entry.post.frontMatter.unlisted), config);
    files.push(text(`${config.blog.routeBasePath.slice(1)}/rss.xml`, feed.rss2()));
    files.push(text(`${config.blog.routeBasePath.slice(1)}/atom.xml`, feed.atom1()));
  }
  return files;
}

export type FileContents = string | Uint8Array;

/** Where a file of the output comes from: watch mode tells open pages different things for each. */
export type FileOrigin = 'page' | 'asset' | 'generated' | 'static';

/** One file of the output: its bytes, or (a static file) the file to copy them from. */
export type OutputFile =
  | { path: string; origin: Exclude<FileOrigin, 'static'>; contents: FileContents }
  | {
      path: string;
      origin: 'static';
      /** The file to copy: static files are never held in memory. */
      source: string;
      /** "mtime:size" of `source`: an unchanged static file is not copied again. */
      signature: string;
      size: number;
    };

/** What a folder is known to hold at a path: the bytes when the folder remembers them. */
export interface KnownFile {
  origin: FileOrigin;
  contents?: FileContents;
  signature?: string;
}

/** The files of pages: each page under every name it is served by. */
export function* pageOutputFiles(pages: Iterable<RenderedPage>): Generator<OutputFile> {
  for (const page of pages) for (const rel of pageFiles(page.route)) yield { path: rel, origin: 'page', contents: page.html };
}

export interface WriteInput {
  pages: readonly RenderedPage[];
  assets: readonly OutputAsset[];
  generated: readonly OutputAsset[];
}

/**
 * Every file of a site output, by path. Static files are listed, not read; the build's
 * files come after them and win a shared path (the output-paths check reports such a
 * clash before anything is written).
 */
export function siteFiles(input: WriteInput, config: SiteConfig): Map<string, OutputFile> {
  const files = new Map<string, OutputFile>();
  for (const { rel, real } of listStaticFiles(config)) {
    const info = statSync(real, { throwIfNoEntry: false });
    // Gone since it was listed: the next build sees what is there.
    if (info) files.set(rel, { path: rel, origin: 'static', source: real, signature: fileSignature(info), size: info.size });
  }
  for (const asset of input.assets) files.set(asset.path, { path: asset.path, origin: 'asset', contents: asset.contents });
  for (const file of input.generated) files.set(file.path, { path: file.path, origin: 'generated', contents: file.contents });
  for (const file of pageOutputFiles(input.pages)) files.set(file.path, file);
  return files;
}

export interface FolderWriteOptions {
  /** File operations in flight at once (default 64; watch writes gently behind the server). */
  concurrency?: number;
  /** Stops taking more files once aborted; what was written stays recorded. */
  signal?: AbortSignal;
  /** A handful of files a browser waits for: written synchronously, not queued behind the thread pool. */
  urgent?: boolean;
  /**
   * For a file to write, a file the folder holds that may have the same bytes. When it
   * has, the file is made a second name of it (../linked-file.ts), not written again.
   */
  sameAs?: (rel: string) => string | undefined;
}

export interface OutputFolder {
  readonly dir: string;
  /** What the folder holds, as far as this writer knows: read from the disk on first use and after a failure. */
  files(): Promise<ReadonlyMap<string, KnownFile>>;
  /** Whether writing `file` would change the folder. */
  differs(file: OutputFile): Promise<boolean>;
  /**
   * Writes the files that are new or differ from what the folder holds, and returns
   * their paths. May be called any number of times (a batch of pages at a time). A file
   * in a folder that holds no other file yet is written in place; one that replaces or
   * joins served files is written under a dot name and renamed, so no reader sees half of it.
   */
  write(files: Iterable<OutputFile> | AsyncIterable<OutputFile>, options?: FolderWriteOptions): Promise<{ written: string[]; bytes: number }>;
  /** Deletes files (a whole folder in one go when all its files go) and the folders they leave empty. */
  remove(rels: Iterable<string>, options?: FolderWriteOptions): Promise<string[]>;
}

/**
 * `remember: 'contents'` keeps the bytes of every file to compare the next write with
 * (watch mode, which writes the same site again after every save); `'paths'` keeps only
 * which files exist, for a folder written once (the build's staging folder), so a large
 * site is not held in memory twice.
 */
export function openOutputFolder(dir: string, options: { remember?: 'contents' | 'paths'; ledger?: OutputLedger } = {}): OutputFolder {
  const remember = options.remember ?? 'contents';
  const { ledger } = options;
  /** What is in the folder, kept file by file as each write or deletion completes. */
  let known: Map<string, KnownFile> | undefined;
  let tempCounter = 0;

  // With a ledger, it knows what the folder holds: the folder is not read.
  const load = async () => (known ??= ledger ? (await ledger.ready(), new Map()) : await readFolder(dir, remember));
  const target = (rel: string) => path.join(dir, ...rel.split('/'));
  const tempFor = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${tempCounter++}.tmp`);
  const record = (disk: Map<string, KnownFile>, file: OutputFile) =>
    disk.set(file.path, file.origin === 'static' ? { origin: 'static', signature: file.signature } : { origin: file.origin, contents: remember === 'contents' ? file.contents : undefined });

  const failed = (error: unknown): never => {
    // An operation may have half happened: read the folder again next time rather than trust memory.
    known = undefined;
    if (error instanceof DocsgenError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new DocsgenError(`Could not write ${path.relative(process.cwd(), dir) || dir}: ${message}`, {
      hint: 'Check the free disk space and the permissions of the output folder, then build (or save) again.',
      cause: error,
    });
  };

  async function differs(disk: Map<string, KnownFile>, file: OutputFile): Promise<boolean> {
    const before = disk.get(file.path);
    if (!before) return true;
    if (file.origin === 'static') {
      if (before.signature !== undefined) return before.origin !== 'static' || before.signature !== file.signature;
      // Read from the disk at start: the bytes tell.
      return before.contents === undefined || !sameContents(before.contents, await readFile(file.source));
    }
    if (before.contents === undefined || !sameContents(before.contents, file.contents)) return true;
    // Equal bytes: keep the new value, so the next comparison of an unchanged page is one of
    // identity (a kept page's HTML is the same string from one rebuild to the next). Compared
    // with the bytes read from the disk at start, every page was encoded again on every save:
    // 60 ms of a save's rebuild at 1,000 docs.
    if (before.contents !== file.contents) disk.set(file.path, { ...before, contents: file.contents });
    return false;
  }

  return {
    dir,
    files: load,
    async differs(file) {
      return differs(await load(), file);
    },
    async write(files, writeOptions = {}) {
      const disk = await load();
      const written: string[] = [];
      let bytes = 0;
      // Folders that hold a file already: what goes there replaces or joins served files.
      const served = new Set([...disk.keys()].map((rel) => path.posix.dirname(rel)));
      const made = new Set<string>();
      /** Hashes of this write's files, for the ledger: a page's two names share their bytes and one hash. */
      const hashes = new Map<FileContents | string, Promise<string>>();
      const hashOf = (file: OutputFile): Promise<string> => {
        const key = file.origin === 'static' ? file.source : file.contents;
        let hash = hashes.get(key);
        // A static file by its bytes too: two files of the same size and time swapped keep their signatures.
        if (hash === undefined) hashes.set(key, (hash = file.origin === 'static' ? readFile(file.source).then(contentHash) : Promise.resolve(contentHash(file.contents))));
        return hash;
      };
      /**
       * Writes `file`; with `same`, the promise of a file of this write with the same bytes,
       * as a second name of that file (see ../linked-file.ts): a page under both its names.
       */
      const put = async (file: OutputFile, same?: Promise<string>) => {
        const to = target(file.path);
        // A kept output may hold the file, or a second name of a published one (see
        // ./kept-output.ts): it is replaced, never changed in place.
        const temp = ledger?.replaces || served.has(path.posix.dirname(file.path)) ? tempFor(to) : undefined;
        if (file.origin === 'static') await copyFile(file.source, temp ?? to);
        else if (same) await writeAsLink(await same, temp ?? to, file.contents);
        else await writeFile(temp ?? to, file.contents);
        if (temp) await renameOver(temp, to, ledger?.replaces ?? false);
        record(disk, file);
        if (ledger) ledger.produce(file.path, await hashOf(file), sizeOf(file), { written: true });
        written.push(file.path);
        bytes += sizeOf(file);
      };
      /** Writes the files that differ, a chunk at a time: files made as they are written are never all held at once. */
      const flush = async (chunk: readonly OutputFile[]) => {
        const due: OutputFile[] = [];
        const held: OutputFile[] = [];
        for (const file of chunk) {
          if (ledger) (ledger.holds(file.path, await hashOf(file)) ? held : due).push(file);
          else if (await differs(disk, file)) due.push(file);
        }
        // Left as they are when the folder holds these bytes there already (or linked to the published file that does).
        await inParallel(held, writeOptions.concurrency, async (file) => {
          if (await ledger!.keep(file.path)) ledger!.produce(file.path, await hashOf(file), sizeOf(file));
          else due.push(file);
        });
        // Folders first, once each, then the files: a write that lands after the build was
        // stopped (and its folder removed) then fails instead of making the folder again.
        for (const parent of new Set(due.map((file) => path.dirname(target(file.path))))) {
          if (made.has(parent)) continue;
          await makeFolder(dir, parent, ledger?.replaces ?? false);
          made.add(parent);
        }
        // The first file of some bytes is written, the others wait for it and link to it. It
        // comes first in `due`, so it has started before any file that waits for it.
        const firsts = new Map<FileContents, Promise<string>>();
        const linkable = (file: OutputFile & { contents: FileContents }): Promise<string> | undefined => {
          // Not into a folder readers see already, where a file is written aside and renamed:
          // should the name be a second name of that file already (a write a newer one stopped,
          // landing late), rename() would do nothing and leave the aside name behind.
          if (served.has(path.posix.dirname(file.path))) return undefined;
          const rel = writeOptions.sameAs?.(file.path);
          const known = rel === undefined ? undefined : disk.get(rel);
          return known?.contents !== undefined && sameContents(known.contents, file.contents) ? Promise.resolve(target(rel!)) : undefined;
        };
        await inParallel(
          due,
          writeOptions.concurrency,
          async (file) => {
            if (file.origin === 'static') return put(file);
            const first = firsts.get(file.contents) ?? linkable(file);
            if (first) return put(file, first);
            const written = put(file).then(() => target(file.path));
            // A failed first write fails the write through its own call; its followers then write their own bytes.
            firsts.set(file.contents, written.catch(() => ''));
            await written;
          },
          writeOptions.signal,
        );
      };
      try {
        if (writeOptions.urgent && Array.isArray(files) && files.length <= URGENT_FILES) {
          for (const file of files as readonly OutputFile[]) {
            if (!(await differs(disk, file))) continue;
            const to = target(file.path);
            mkdirSync(path.dirname(to), { recursive: true });
            const temp = tempFor(to);
            if (file.origin === 'static') copyFileSync(file.source, temp);
            else writeFileSync(temp, file.contents);
            renameSync(temp, to);
            record(disk, file);
            written.push(file.path);
            bytes += sizeOf(file);
          }
        } else {
          let chunk: OutputFile[] = [];
          for await (const file of files) {
            chunk.push(file);
            if (chunk.length < CHUNK_FILES) continue;
            await flush(chunk);
            chunk = [];
            if (writeOptions.signal?.aborted) break;
          }
          await flush(chunk);
        }
      } catch (error) {
        failed(error);
      }
      return { written, bytes };
    },
    async remove(rels, removeOptions = {}) {
      const disk = await load();
      const going = new Set(rels);
      const folders = wholeFolders(going, [...disk.keys()]);
      const inFolder = (rel: string) => folders.some((folder) => rel.startsWith(`${folder}/`));
      const removed: string[] = [];
      try {
        await inParallel(
          [...folders.map((folder) => ({ folder })), ...[...going].filter((rel) => !inFolder(rel)).map((rel) => ({ rel }))],
          removeOptions.concurrency,
          async (item) => {
            if ('folder' in item) {
              await rm(target(item.folder), { recursive: true, force: true });
              for (const rel of going) {
                if (!rel.startsWith(`${item.folder}/`)) continue;
                disk.delete(rel);
                removed.push(rel);
              }
              return;
            }
            await unlink(target(item.rel)).catch((error: NodeJS.ErrnoException) => {
              if (error.code !== 'ENOENT') throw error;
            });
            disk.delete(item.rel);
            removed.push(item.rel);
          },
          removeOptions.signal,
        );
        // Drop the folders the deletions left empty, deepest first, up to the output folder itself.
        const dirs = new Set<string>();
        for (const rel of removed) for (let d = path.posix.dirname(rel); d !== '.'; d = path.posix.dirname(d)) dirs.add(d);
        for (const d of [...dirs].sort((a, b) => b.length - a.length)) await rmdir(target(d)).catch(() => undefined);
      } catch (error) {
        failed(error);
      }
      return removed;
    },
  };
}

export interface WriteResult {
  dir: string;
  fileCount: number;
  bytes: number;
}

/**
 * The build's staging folder next to `outDir`, emptied, to write into: call its write()
 * as often as needed (a batch of pages at a time: pageOutputFiles(pages)).
 */
export async function openStagingFolder(outDir: string, options: { cacheDir?: string } = {}): Promise<OutputFolder & { ledger: OutputLedger }> {
  const staging = stagingDir(outDir);
  await rm(staging, { recursive: true, force: true });
  // The last build's output, when the cache kept one, becomes the staging folder (see ./kept-output.ts).
  // Without one, the published output's unchanged files are linked into it.
  const ledger = await openLedger({ dir: staging, cacheDir: options.cacheDir, published: outDir });
  await mkdir(staging, { recursive: true });
  return Object.assign(openOutputFolder(staging, { remember: 'paths', ledger }), { ledger });
}

/** The build's write: the whole site into a fresh staging folder (see openStagingFolder). */
export async function write(input: WriteInput, config: SiteConfig, outDir: string): Promise<WriteResult> {
  const folder = await openStagingFolder(outDir);
  const { written, bytes } = await folder.write(siteFiles(input, config).values());
  return { dir: folder.dir, fileCount: written.length, bytes };
}

/** Files compared and written together when files come one by one (an iterable of a whole site). */
const CHUNK_FILES = 1024;
/** Up to this many files, an urgent write is synchronous. */
const URGENT_FILES = 8;
/** File operations in flight at once: a site has thousands of small search shards. */
const CONCURRENCY = 64;

/** What put() writes before renaming: `.name.PID-N.tmp`; never the build's. */
const TEMP_FILE = /^\..+\.\d+-\d+\.tmp$/;

/**
 * Makes `folder` (inside `root`); in a kept output, a file of the last build where this
 * build has a folder (a static file replaced by a folder of the same name) is removed first.
 */
async function makeFolder(root: string, folder: string, kept: boolean): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!kept || (code !== 'EEXIST' && code !== 'ENOTDIR')) throw error;
    for (let d = folder; d !== root && d.startsWith(root); d = path.dirname(d)) {
      const info = await lstat(d).catch(() => undefined);
      if (info && !info.isDirectory()) await unlink(d);
    }
    await mkdir(folder, { recursive: true });
  }
}

/** Renames `from` over `to`; in a kept output, a folder of the last build where this build has a file is removed first. */
async function renameOver(from: string, to: string, kept: boolean): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!kept || (code !== 'EISDIR' && code !== 'ENOTEMPTY' && code !== 'EEXIST')) throw error;
    await rm(to, { recursive: true, force: true });
    await rename(from, to);
  }
}

function sizeOf(file: OutputFile): number {
  if (file.origin === 'static') return file.size;
  return typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.byteLength;
}

/** Runs `fn` over `items`, `limit` at a time. Stops taking items once `signal` aborts, and waits for those under way. */
async function inParallel<T>(items: readonly T[], limit = CONCURRENCY, fn: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  await pMap(items, (item) => (signal?.aborted ? undefined : fn(item)), { concurrency: limit });
}

/**
 * The highest folders (other than the output folder itself) all of whose files are
 * going: deleting each at once is one operation instead of a thousand.
 */
function wholeFolders(going: ReadonlySet<string>, present: readonly string[]): string[] {
  const candidates = new Set<string>();
  for (const rel of going) for (let d = path.posix.dirname(rel); d !== '.'; d = path.posix.dirname(d)) candidates.add(d);
  const whole = [...candidates].filter((d) => present.every((rel) => !rel.startsWith(`${d}/`) || going.has(rel)));
  return whole.filter((d) => !whole.some((other) => other !== d && d.startsWith(`${other}/`)));
}

function sameContents(a: FileContents, b: FileContents): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') return false;
  const bufA = typeof a === 'string' ? Buffer.from(a, 'utf8') : Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const bufB = typeof b === 'string' ? Buffer.from(b, 'utf8') : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return bufA.equals(bufB);
}

/** The files already in the folder (but temporary files of an interrupted write, which are not the build's). */
async function readFolder(dir: string, remember: 'contents' | 'paths'): Promise<Map<string, KnownFile>> {
  const files = new Map<string, KnownFile>();
  if (!existsSync(dir)) return files;
  const rels = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((rel) => !TEMP_FILE.test(path.posix.basename(rel)))
    .sort();
  await inParallel(rels, CONCURRENCY, async (rel) => {
    const origin: FileOrigin = rel.endsWith('.html') ? 'page' : 'asset';
    files.set(rel, { origin, contents: remember === 'contents' ? await readFile(path.join(dir, rel)) : undefined });
  });
  return files;
}

function sitemap(pages: readonly RenderedPage[], config: SiteConfig): string {
  const origin = siteRootUrl(config);
  const urls = pages
    .filter((p) => p.indexable)
    .map((p) => p.route)
    .sort()
    .map((route) => `  <url><loc>${escapeXml(origin + encodeRoute(route))}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A route as a URL path: each segment percent-encoded ('/docs/My Doc' -> '/docs/My%20Doc'), as sitemaps and feeds require. */
function encodeRoute(route: string): string {
  return route.split('/').map(encodeURIComponent).join('/') || '/';
}

/**
 * The feed library writes titles and summaries as `type="html"` (Atom) and CDATA (RSS),
 * which readers render as HTML: front matter is plain text, so its markup is escaped
 * and a title such as `<img onerror=…>` shows as written instead of running.
 */
function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function blogFeed(posts: readonly CompiledPost[], config: SiteConfig): Feed {
  const origin = siteRootUrl(config);
  const blogUrl = origin + config.blog.routeBasePath;
  const feed = new Feed({
    title: `${config.title} ${config.blog.title}`,
    description: config.blog.description,
    id: blogUrl,
    link: blogUrl,
    language: config.contentLanguage ?? config.locale.code,
    favicon: `${origin}/favicon.ico`,
    copyright: `Copyright © ${config.copyright.year} ${config.copyright.holder}`,
    updated: posts[0] ? new Date(`${posts[0].post.date}T00:00:00Z`) : new Date(`${config.copyright.year}-01-01T00:00:00Z`),
    feedLinks: { rss: `${blogUrl}/rss.xml`, atom: `${blogUrl}/atom.xml` },
  });
  for (const { post } of posts) {
    feed.addItem({
      title: escapeHtml(post.frontMatter.title),
      id: origin + encodeRoute(post.route),
      link: origin + encodeRoute(post.route),
      description: escapeHtml(post.frontMatter.description),
      date: new Date(`${post.date}T00:00:00Z`),
      author: post.authors.map((a) => ({ name: a.name, link: a.url })),
      category: post.tags.map((t) => ({ name: t.label, domain: origin + encodeRoute(t.route) })),
    });
  }
  return feed;
}
