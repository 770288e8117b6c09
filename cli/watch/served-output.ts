/**
 * Keeps the folder `serve --watch` serves equal to the last good build, through the one
 * writer (../stages/write.ts), in an order open pages can follow: what pages load comes
 * before the pages, a removed page disappears before browsers are told, and the files
 * fetched only on demand (sitemap, feeds, Markdown twins, the search index) are written
 * afterwards, in the background, where the next save may stop them. `docsgen build`
 * swaps a whole new folder into place instead, which is right for a deploy but would
 * rewrite every file on every save.
 */
import type { SiteOutput } from '../build.ts';
import type { SiteConfig } from '../config.ts';
import { isSearchIndexFile, placeInSearchFolder } from '../stages/search-index.ts';
import { openOutputFolder, siteFiles, type KnownFile, type OutputFile } from '../stages/write.ts';
import { routeOfFile } from '../../templates/shared/routes.ts';
import { cssSwapOf } from './css-swap.ts';

export interface OutputChange {
  written: string[];
  deleted: string[];
  /** Routes whose HTML was added, changed or removed. */
  routes: string[];
  /** Old URL -> new URL of each stylesheet, when stylesheets are the only thing that changed. */
  cssSwap?: Record<string, string>;
  /** A file every page may show changed (static/, API downloads): open pages should all reload. */
  reloadAll: boolean;
}

export interface ServedOutput {
  /**
   * Writes what open pages need (pages, client assets, static files, API documents) and
   * deletes the files of removed pages. `finish` then writes the files fetched only on
   * demand (sitemap, feeds, Markdown twins and the search index, the last two made then
   * when the build left them for later: new files before the ones that point at them) and
   * deletes stale files. The caller tells the browsers in between, so a search index of a
   * thousand small files delays no reload.
   */
  sync(site: SiteOutput, config: SiteConfig): Promise<{ change: OutputChange; finish: () => Promise<void> }>;
  /**
   * Stops the last `finish` from starting more file operations: a file just changed, and
   * the build it starts should find the disk free. The next sync's `finish` does the work
   * again with the newer files.
   */
  interrupt(): void;
}

/** File operations in flight at once for what open pages wait for. */
const FAST = 32;
/**
 * For the files written after the browsers were told: Node runs file operations on a
 * pool of four threads, shared with the server reading the pages browsers load. Three at
 * a time leaves the server a thread however many search-index files are queued.
 */
const GENTLE = 3;

export function createServedOutput(outDir: string): ServedOutput {
  const folder = openOutputFolder(outDir, { remember: 'contents' });
  /** The last sync's `finish` while it runs: the next sync stops it and takes over its work. */
  let background: AbortController | undefined;

  return {
    interrupt() {
      background?.abort();
      background = undefined;
    },
    async sync(site, config) {
      // The last build's search index and clean-up are superseded by this build's. Its file
      // operations in flight still record themselves as they complete, so this build need not wait for them.
      background?.abort();
      background = undefined;
      const previous = new Map(await folder.files());
      const wanted = siteFiles(site, config);
      const changed: string[] = [];
      for (const file of wanted.values()) if (await folder.differs(file)) changed.push(file.path);
      // The last search index and Markdown twins are replaced when the next ones are made, in `finish`.
      const laterTwins = new Set(site.markdown?.paths);
      const gone = [...previous.keys()].filter((rel) => !wanted.has(rel) && !laterTwins.has(rel) && !(site.searchIndex && isSearchIndexFile(rel)));

      const isPage = (rel: string) => rel.endsWith('.html');
      const onDemand = (rel: string) => wanted.get(rel)?.origin === 'generated' && !rel.startsWith('openapi/');
      const pick = (rels: readonly string[]) => rels.map((rel) => wanted.get(rel)!);
      const urgent = { urgent: true, concurrency: FAST };
      await folder.write(pick(changed.filter((r) => !isPage(r) && !onDemand(r))), urgent);
      await folder.write(pick(changed.filter(isPage)), urgent);
      // A removed page's Markdown twin goes with it, so the folder it leaves is empty at once.
      const goneRoutes = new Set(gone.filter(isPage).map(routeOfFile));
      const isTwinOfGonePage = (rel: string) => rel.endsWith('.md') && goneRoutes.has(rel === 'index.md' ? '/' : `/${rel.slice(0, -'.md'.length)}`);
      await folder.remove(gone.filter((rel) => isPage(rel) || isTwinOfGonePage(rel)), { concurrency: FAST });

      const originOf = (rel: string) => (wanted.get(rel) ?? previous.get(rel))?.origin;
      const change: OutputChange = {
        written: changed,
        deleted: gone,
        routes: [...new Set([...changed, ...gone].filter(isPage).map(routeOfFile))],
        reloadAll: [...changed, ...gone].some((rel) => originOf(rel) === 'static' || rel.startsWith('openapi/')),
        // Files written in the background (Markdown twins, llms.txt, sitemap, search index) are
        // no part of what an open page shows, so they do not stop a stylesheet swap.
        cssSwap: cssSwapOf(
          changed.filter((rel) => !onDemand(rel)),
          gone,
          (rel) => textOf(previous.get(rel)),
          (rel) => textOf(wanted.get(rel)),
          [...wanted.keys()].filter((rel) => rel.endsWith('.css') && previous.has(rel) && !changed.includes(rel)),
        ),
      };

      const later = async (signal: AbortSignal) => {
        // A turn first, for the server: the caller has just told the open pages.
        if (site.markdown) await new Promise((resolve) => setImmediate(resolve));
        if (signal.aborted) return;
        for (const file of site.markdown?.make() ?? []) wanted.set(file.path, { path: file.path, origin: 'generated', contents: file.contents });
        // A search index that fails to build leaves the last one served; the error is the caller's to show.
        const index = site.searchIndex ? await site.searchIndex({ signal }) : [];
        for (const file of index) wanted.set(file.path, { path: file.path, origin: 'generated', contents: file.contents });
        const due = [...wanted.values()].filter((file) => onDemand(file.path));
        const present = await folder.files();
        // The new index is in a folder of its own, named by its contents, but a save changes
        // few of its files (one of 1,536 when a doc of a 1,023-doc site gains a sentence): a
        // file with the bytes of the one at its place in the last index's folder is linked to
        // it. Writing them all again was about a seventh of the CPU time each save cost there.
        const lastIndex = new Map<string, string>();
        for (const rel of present.keys()) {
          const place = placeInSearchFolder(rel);
          if (place !== undefined) lastIndex.set(place, rel);
        }
        const sameAs = (rel: string) => {
          const place = placeInSearchFolder(rel);
          return place === undefined ? undefined : lastIndex.get(place);
        };
        // New files before the files that point at them (the search index's entry point, the sitemap).
        await folder.write(due.filter((file) => !present.has(file.path)), { concurrency: GENTLE, signal, sameAs });
        await folder.write(due, { concurrency: GENTLE, signal });
        if (signal.aborted) return;
        const now = await folder.files();
        await folder.remove([...now.keys()].filter((rel) => !wanted.has(rel) && !isPage(rel)), { concurrency: GENTLE, signal });
      };
      const finish = () => {
        const stop = new AbortController();
        // Stopped by the next sync: that one's `finish` does the same work with newer files.
        const done = later(stop.signal).catch((error: unknown) => {
          if (!stop.signal.aborted) throw error;
        });
        background = stop;
        return done;
      };
      return { change, finish };
    },
  };
}

function textOf(file: KnownFile | OutputFile | undefined): string | undefined {
  if (!file || !('contents' in file) || file.contents === undefined) return undefined;
  const { contents } = file;
  return typeof contents === 'string' ? contents : Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength).toString('utf8');
}
