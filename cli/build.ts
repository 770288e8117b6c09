/**
 * The build: a short list of named stages, run in order through task(). Each stage
 * takes plain values and the resolved config and returns a typed value. Nothing is
 * written where the reader looks until every check passed: a failed build leaves the
 * last good output untouched.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { siteRootUrl } from './base-url.ts';
import type { SiteConfig } from './config.ts';
import { createFrontMatterCache, type FrontMatterCache } from './frontmatter.ts';
import { boundHeapGrowth, collectGarbageNow } from './heap-growth.ts';
import { createLogger, type Logger, type Progress, type StageTiming } from './log.ts';
import { sidebarData } from './sidebar-data.ts';
import { bundle, createBundleCache, disposeBundleCache, type BundleCache, type OutputAsset } from './stages/bundle.ts';
import { createBundleStore, flushBundleStore, type BundleStore } from './stages/bundle-store.ts';
import { checkLinks, createLinkCheckCache, type LinkCheckCache } from './stages/check-links.ts';
import { collect, movedDocs } from './stages/collect.ts';
import { createSourceTextCache, type SourceTextCache } from './source-texts.ts';
import { compile, createCompileCache, disposeCompileCache, flushCompileCache, type CompileCache } from './stages/compile.ts';
import { commitDates, lastUpdated, type LastUpdated } from './stages/last-updated.ts';
import { createTwinCache, planMarkdownTwins, type TwinCache } from './markdown/twins.ts';
import { loadApiDocuments, type LoadedApiDocument } from './stages/openapi.ts';
import type { ApiExamples } from './openapi/reference-examples.ts';
import { compressedCopySource, createCompressedAssetCache, createPrecompressor, type CompressedAssetCache } from './stages/precompress.ts';
import { createRenderCache, render, usedIslands, type RenderCache, type RenderedPage, type RenderInput } from './stages/render.ts';
import { buildSearchIndex, createSearchIndexCache, isSearchIndexFile, SEARCH_INDEX_PATHS, type SearchIndexCache, type SearchIndexOptions } from './stages/search-index.ts';
import { scanPages } from './stages/scan-pages.ts';
import { createPageScanner, defaultScanThreads, SCAN_THREADS_FROM, type PageScanner } from './stages/scan-pool.ts';
import { createPageWriter, type PageWriter } from './stages/write-pages.ts';
import { createHeaderSourcesCache, securityHeaderFiles, securityHeaders, type HeaderSourcesCache } from './stages/security-headers.ts';
import { checkOutputPaths } from './stages/output-paths.ts';
import { listStaticFiles, type StaticFile } from './stages/static-files.ts';
import { verify, type VerifyOptions } from './stages/verify.ts';
import { VERIFY_THREAD_FROM, verifyOnThread } from './stages/verify-thread.ts';
import { SEARCH_META_PATH } from '../templates/shared/search-format.ts';
import { DocsgenErrors, isDocsgenError, type DocsgenError } from './errors.ts';
import { checkOutputFolder } from './output-folder.ts';
import { discard, publish, recoverInterruptedPublish, removeOnSignal, stagingDir } from './stages/publish.ts';
import { generatedFiles, openStagingFolder, siteFiles, type OutputFile } from './stages/write.ts';

/**
 * State kept between builds of one `serve --watch` run, so rebuilds redo only what
 * changed. Every cache a stage keeps lives here, made by its stage's createXCache(): none
 * is a module global, so two sessions share nothing and disposing one frees its memory.
 */
export interface BuildSession {
  compile: CompileCache;
  frontMatter: FrontMatterCache;
  /** The sources' texts, read again only when a file's times change. */
  sourceTexts: SourceTextCache;
  renderCache: RenderCache;
  links: LinkCheckCache;
  searchIndex: SearchIndexCache;
  headers: HeaderSourcesCache;
  /** esbuild contexts and the last client bundle; only in incremental sessions, which must be disposed. */
  bundle?: BundleCache;
  /** The client bundle kept between processes, with a cache folder. */
  bundleStore?: BundleStore;
  /** API documents, reused while the files of their folders are unchanged. */
  openapi?: { key: string; apis: LoadedApiDocument[] };
  /** Request samples and examples of the API pages, made again only when the documents or their settings change. */
  apiExamples?: { apis: readonly LoadedApiDocument[]; refs: string; examples: ApiExamples };
  /** Render stage to use instead of the built-in one: watch mode loads templates afresh after they change. */
  render?: typeof render;
  /** Markdown twins by what they were made from, so a rebuild writes again only the changed ones. */
  markdown: TwinCache;
  /** The last render, so a rebuild after a body-only edit renders only the pages of the edited file. */
  lastRender?: LastRender;
  /** Compressed copies of the hashed client assets, for the next build's precompress stage. */
  compressedAssets: CompressedAssetCache;
  /** Threads that read the pages a build writes as it renders them, from how many pages on (see scan-pool.ts). */
  scan: { threads: number; from: number };
}

interface LastRender {
  /** Everything besides page bodies that every page shows: sidebars, titles, positions, tags, assets. */
  key: string;
  config: SiteConfig;
  stage: typeof render;
  apis: readonly LoadedApiDocument[];
  /** Source text by file, for docs and pages. */
  sources: Map<string, string>;
  lastUpdated?: LastUpdated;
  pages: RenderedPage[];
}

/**
 * `incremental` keeps esbuild running between builds: call disposeBuildSession() when done.
 * `compileWorkers` threads compile MDX when a site has at least `compilePoolFrom` sources
 * (defaults: one per core, from 200 sources; 0 workers compiles on the main thread only).
 * `scanThreads` threads read the written pages of a site of at least `scanThreadsFrom`
 * sources (defaults: the other cores, at most three, from 300 sources; 0 reads them here).
 */
export function createBuildSession(
  options: { incremental?: boolean; cacheDir?: string; compileWorkers?: number; compilePoolFrom?: number; scanThreads?: number; scanThreadsFrom?: number } = {},
): BuildSession {
  return {
    compile: createCompileCache({
      diskDir: options.cacheDir ? path.join(options.cacheDir, 'mdx') : undefined,
      workers: options.compileWorkers,
      poolFrom: options.compilePoolFrom,
    }),
    frontMatter: createFrontMatterCache(),
    sourceTexts: createSourceTextCache(),
    renderCache: createRenderCache(),
    links: createLinkCheckCache(),
    searchIndex: createSearchIndexCache(),
    headers: createHeaderSourcesCache(),
    markdown: createTwinCache(),
    compressedAssets: createCompressedAssetCache(),
    bundle: options.incremental ? createBundleCache() : undefined,
    bundleStore: options.cacheDir ? createBundleStore(path.join(options.cacheDir, 'bundle')) : undefined,
    scan: { threads: options.scanThreads ?? defaultScanThreads(), from: options.scanThreadsFrom ?? SCAN_THREADS_FROM },
  };
}

/** Where compiled MDX is kept between builds, as other tools keep theirs (node_modules/.cache). */
/** What a build reads from the site: its output folder may hold none of it (see output-folder.ts). */
function siteSources(config: SiteConfig): string[] {
  return [...Object.values(config.dirs), config.configFile, ...config.apiReferences.map((ref) => path.resolve(config.root, ref.spec))];
}

export function defaultCacheDir(config: SiteConfig): string {
  return path.join(config.root, 'node_modules', '.cache', 'docsgen');
}

export async function disposeBuildSession(session: BuildSession): Promise<void> {
  if (session.bundle) await disposeBundleCache(session.bundle);
  await flushBundleStore(session.bundleStore);
  await flushCompileCache(session.compile);
  const compiled = session.compile;
  session.compile = createCompileCache({ diskDir: compiled.diskDir, workers: compiled.workers, poolFrom: compiled.poolFrom });
  await disposeCompileCache(compiled);
  session.frontMatter = createFrontMatterCache();
  session.renderCache = createRenderCache();
  session.links = createLinkCheckCache();
  session.searchIndex = createSearchIndexCache();
  session.headers = createHeaderSourcesCache();
  session.markdown = createTwinCache();
  session.compressedAssets = createCompressedAssetCache();
  session.openapi = undefined;
  session.apiExamples = undefined;
  session.lastRender = undefined;
}

export interface BuildOptions {
  /** Output folder; default <root>/dist. */
  outDir?: string;
  /** Also fetch external links. */
  checkExternal?: boolean;
  /** Skip the crawl of the written output (watch mode checks links in memory only, for speed). */
  skipCrawl?: boolean;
  logger?: Logger;
  session?: BuildSession;
  /** Keep compiled MDX on disk between builds (default true). */
  cache?: boolean;
  /** Build `draft: true` docs, posts and pages, as `serve --watch` does (default false: drafts are left out). */
  drafts?: boolean;
}

export interface BuildResult {
  outDir: string;
  pages: RenderedPage[];
  /** Files of the output (compressed copies aside), and their bytes. */
  fileCount: number;
  /** Of those, the files this build wrote: the others were left as the kept output had them (see stages/kept-output.ts). */
  filesWritten: number;
  bytes: number;
  timings: StageTiming[];
  /** Client assets with their sizes, for the summary. */
  assets: { path: string; bytes: number }[];
  linksChecked: number;
}

/** Everything a build produces, still in memory: what watch mode diffs and writes itself. */
export interface SiteOutput {
  pages: RenderedPage[];
  /** Hashed client assets. */
  assets: OutputAsset[];
  /** API downloads, sitemap, robots.txt, feeds, Markdown twins, search index. */
  generated: OutputAsset[];
  /** Paths of the generated files the build handed to `writeGenerated` as soon as they were made, which `generated` then does not hold. */
  generatedWritten: string[];
  linksChecked: number;
  /**
   * Set when the build was asked to leave the search index for later (watch mode, so an
   * edit reaches the browser without waiting for it): makes the index's files, which
   * `generated` then does not hold.
   */
  searchIndex?: (options?: SearchIndexOptions) => Promise<Iterable<OutputAsset>>;
  /**
   * Set when the build was asked to leave the Markdown twins for later (watch mode): the
   * paths they will have, which the link check counted, and what makes them. `generated`
   * then does not hold them.
   */
  markdown?: { paths: readonly string[]; make: () => OutputAsset[] };
}

/**
 * The stages that need no output folder: bundle -> collect -> openapi -> compile ->
 * render -> scan (each page parsed once) -> generated files -> in-memory link check ->
 * search index. Collect, openapi and compile all run even when one of them fails, and
 * their problems are thrown together; from render on, the first stage that fails throws.
 */
export async function buildSite(
  config: SiteConfig,
  options: Pick<BuildOptions, 'logger' | 'session' | 'cache' | 'drafts'> & {
    searchIndex?: 'now' | 'later';
    /** 'later': the Markdown twins and llms*.txt are made by the output's `markdown.make()`, not by the build. */
    markdown?: 'now' | 'later';
    /**
     * Takes each page as soon as it is rendered and read (see scanPage): the pages of the
     * returned output then have no HTML. build() writes them so; watch mode keeps them whole.
     */
    writePage?: (page: RenderedPage) => Promise<void>;
    /**
     * Takes the Markdown twins (and llms-full.txt) as soon as they are made: at 10,000 docs
     * they are a hundred megabytes that would otherwise be held through the link check.
     * The returned output then lists their paths only (`generatedWritten`).
     */
    writeGenerated?: (files: readonly OutputAsset[]) => Promise<void>;
    /** Takes the client bundle's files as soon as they are made, long before the pages (build() starts compressing them). */
    bundled?: (files: readonly OutputAsset[]) => void;
    /**
     * The session is this build's alone (build() without one): what its caches keep for a
     * next build is let go as soon as the last stage that reads it is done, so a large
     * site's peak memory does not hold the compiled documents and parsed pages to the end.
     * Such a build also bounds how far the process's heap grows past what is live (heap-growth.ts).
     */
    release?: boolean;
  } = {},
): Promise<SiteOutput> {
  const logger = options.logger ?? createLogger();
  const session = options.session ?? createBuildSession({ cacheDir: options.cache === false ? undefined : defaultCacheDir(config) });
  const { task } = logger;

  // First, as it depends on the config alone: its files (the API reference's 2 MB bundle)
  // are then compressed on other threads while the documents compile. Side by side with
  // the stages below, esbuild saved no time on a large site and raised its peak memory.
  // Started first, awaited once the docs are known: git runs while the main thread bundles and collects.
  const commits = commitDates(config.root, [config.dirs.docs]);
  const client = await task('bundle', () => bundle(config, { cache: session.bundle, islands: usedIslands(config), store: session.bundleStore }));
  options.bundled?.(client.files);
  // The documents and the API documents are read and compiled even when the other failed,
  // so one run reports the problems of both (the stages after need them all).
  const failures: AuthorError[] = [];
  const collected = await unlessItFails(failures, () => task('collect', () => collect(config, session.frontMatter, { drafts: options.drafts, texts: session.sourceTexts })));
  const apis = await unlessItFails(failures, () => task('openapi', () => loadApis(config, session)));
  // Before compile, which writes the stylesheet of every highlight class used so far.
  const apiExamples = apis && (await task('api-examples', () => loadApiExamples(apis, config, session)));
  const compiled = collected && (await unlessItFails(failures, () => task('compile', (progress) => compile(collected, config, session.compile, progress))));
  if (!collected || !apis || !apiExamples || !compiled) throw togetherAs(failures);
  const updated = await task('last-updated', async () => lastUpdated(collected.docs, await commits));
  // Not before: the setting holds for the whole process, and the compile workers were slower with it.
  if (options.release) boundHeapGrowth();
  const codeCss = hashedAsset('code', 'css', compiled.codeCss);
  const sidebars = sidebarData(collected.sidebars, config.baseUrl);
  const sidebarsJson = hashedAsset('sidebars', 'json', sidebars.json);
  // Pages written as they are rendered are read meanwhile, on threads of their own on a large site.
  const sources = collected.docs.length + collected.pages.length + collected.posts.length;
  const scanner = createPageScanner(session, { threads: options.writePage && sources >= session.scan.from ? session.scan.threads : 0 });
  let pages: RenderedPage[];
  try {
    pages = await task('render', (progress) =>
      renderPages(
        {
          collected,
          compiled,
          apis,
          apiExamples,
          assets: {
            styles: [...client.styles, `/${codeCss.path}`],
            script: client.script,
            themeInit: client.themeInit,
            islands: client.islands,
            feeds: config.blog.enabled ? { rss: `${config.blog.routeBasePath}/rss.xml`, atom: `${config.blog.routeBasePath}/atom.xml` } : undefined,
          },
          lastUpdated: updated,
          sidebars: { ...sidebars, src: `/${sidebarsJson.path}` },
        },
        config,
        session,
        { progress, writePage: options.writePage, scanner },
      ),
    );
    await task('scan', async (progress) => {
      await scanner.drain();
      scanPages(pages, session, progress);
    });
  } finally {
    await scanner.close();
  }
  // The samples the API pages show, for their twins: made once, in the api-examples stage.
  const samplesFor = (apiId: string, operationId: string) =>
    (apiExamples.get(apiId)?.get(operationId)?.samples ?? []).map((s) => ({ language: s.language ?? s.id, label: s.label, code: s.code }));
  const generatedWritten: string[] = [];
  let markdownLater: SiteOutput['markdown'];
  const twins = await task('markdown', async () => {
    const planned = planMarkdownTwins({ collected, compiled, apis, samplesFor }, config, session.markdown);
    if (options.markdown === 'later') {
      markdownLater = planned;
      return [];
    }
    const made = planned.make();
    if (!options.writeGenerated) return made;
    await options.writeGenerated(made);
    generatedWritten.push(...made.map((file) => file.path));
    return [];
  });
  const generated = [...generatedFiles({ apis, posts: compiled.posts, pages }, config), ...twins, ...securityHeaderFiles(securityHeaders({ pages, apis, sandboxOf: (id) => config.apiReferences.find((r) => r.id === id)?.sandboxServer }, session.headers))];
  if (options.release) {
    // No stage after this one reads the compiled documents (code, components, Markdown trees) or what the caches made of them.
    session.compile.mdx.clear();
    session.compile.keys.clear();
    session.sourceTexts.files.clear();
    compiled.docs.clear();
    session.markdown = createTwinCache();
    session.headers = createHeaderSourcesCache();
  }
  const memoryCheck = await task('check-links', (progress) => {
    const statics = listStaticFiles(config);
    const written = [...generatedWritten, ...(markdownLater?.paths ?? [])].map((rel) => ({ path: rel }));
    checkOutputPaths({ pages, files: [...client.files, codeCss, sidebarsJson, ...generated, ...written], statics }, config);
    const omitted = new Map(collected.drafts.map((d) => [d.route, d.relFile]));
    const moved = movedDocs(collected.docs, config);
    return checkLinks({ pages, files: outputFileSet(statics, [...client.files, codeCss, sidebarsJson], [...generated, ...written]), omitted, moved }, config, session.links, progress);
  });
  if (options.release) session.links = createLinkCheckCache();
  const site: SiteOutput = { pages, assets: [...client.files, codeCss, sidebarsJson], generated, generatedWritten, linksChecked: memoryCheck.checked, ...(markdownLater && { markdown: markdownLater }) };
  const searchIndex = async (indexOptions?: SearchIndexOptions) => (await buildSearchIndex({ pages, apis }, config, { cache: session.searchIndex, warn: (message) => logger.warn(message), ...indexOptions })).files;
  if (options.searchIndex === 'later') return { ...site, searchIndex };
  return { ...site, generated: [...generated, ...(await task('search-index', async (progress) => [...(await searchIndex({ progress }))]))] };
}

type AuthorError = DocsgenError | DocsgenErrors;

/** `run`'s result, or undefined once its author's error is kept in `failures`; any other error goes on. */
async function unlessItFails<T>(failures: AuthorError[], run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (!isDocsgenError(error)) throw error;
    failures.push(error);
    return undefined;
  }
}

/** One stage's failure as it was reported; several, as one list. */
function togetherAs(failures: readonly AuthorError[]): AuthorError {
  const [first] = failures;
  if (!first) throw new Error('a stage gave no result and no error');
  if (failures.length === 1) return first;
  const errors = failures.flatMap((failure) => (failure instanceof DocsgenErrors ? failure.errors : [failure]));
  return new DocsgenErrors(`${errors.length} problems:`, errors);
}

/** A full build: buildSite(), then write to a staging folder, crawl it, and swap it into place. */
export async function build(config: SiteConfig, options: BuildOptions = {}): Promise<BuildResult> {
  const logger = options.logger ?? createLogger();
  const outDir = path.resolve(config.root, options.outDir ?? 'dist');
  checkOutputFolder(outDir, { root: config.root, sources: siteSources(config), option: '--out' });
  const session = options.session ?? createBuildSession({ cacheDir: options.cache === false ? undefined : defaultCacheDir(config) });
  for (const note of await recoverInterruptedPublish(outDir)) logger.warn(`${note}.`);
  const staging = removeOnSignal(stagingDir(outDir));
  let pageWriter: PageWriter | undefined;
  try {
    // Pages are written as they are rendered, the rest once every page is.
    const cacheDir = options.cache === false ? undefined : defaultCacheDir(config);
    const folder = await openStagingFolder(outDir, { cacheDir });
    const { ledger } = folder;
    const precompressor = createPrecompressor(folder.dir, { cacheDir: cacheDir && path.join(cacheDir, 'precompressed'), ledger, assets: session.compressedAssets });
    const writer = (pageWriter = createPageWriter(folder, { precompressor }));
    const early = { written: 0, bytes: 0 };
    const writeGenerated = async (files: readonly OutputAsset[]) => {
      const { written, bytes } = await folder.write(asGenerated(files));
      early.written += written.length;
      early.bytes += bytes;
    };
    const bundled = (files: readonly OutputAsset[]) => {
      for (const file of files) precompressor.prepare(file.path, file.contents);
    };
    const site = await buildSite(config, { logger, session, drafts: options.drafts, writePage: (page) => writer.add(page), writeGenerated, bundled, release: !options.session, searchIndex: 'later' });
    const pagesWritten = await writer.finish();
    // The next build reads what this one compiled and bundled.
    await Promise.all([flushCompileCache(session.compile), flushBundleStore(session.bundleStore)]);
    // The other files are written (and let go: splice empties the list the output keeps)
    // before the search index is made, so a large site's twins are not held beside the index.
    const rest = await logger.task('write', async () => {
      const written = await folder.write(siteFiles({ pages: [], assets: site.assets, generated: site.generated.splice(0) }, config).values());
      // What a kept output holds that this site no longer has goes before the crawl sees it;
      // the search index and the compressed copies of the files it has are still to come.
      await ledger.sweep((rel) => {
        const source = compressedCopySource(rel);
        return isSearchIndexFile(rel) || (source !== undefined && (ledger.hashOf(source) !== undefined || isSearchIndexFile(source)));
      });
      return written;
    });
    // Every file a page needs is written now but the search index, which the client's
    // script fetches and no page links to (an author may, and a link to it waits for it).
    // So the crawl runs beside the search index (on a large site, on threads of its own),
    // then beside the compression of the files that are not pages (it reads every file
    // uncompressed). Its two threads start on top of the main thread's heap: without a
    // collection first, that heap's garbage took the bench's 9,933-doc build from 918 MiB
    // to 1,026 MiB at its peak (one build each, in a row).
    if (!options.session) collectGarbageNow();
    const indexing = logger.task('search-index', async (progress) => folder.write(asGenerated(await site.searchIndex!({ progress }))));
    // Awaited below, after the crawl has started; a failure is thrown there.
    indexing.catch(() => undefined);
    const crawlOptions = {
      dir: folder.dir,
      checkExternal: options.checkExternal ?? false,
      routes: site.pages.map((p) => p.route),
      // Settled however the index ends, so the crawl never waits forever.
      pending: { ...SEARCH_INDEX_PATHS, written: indexing.then(() => undefined, () => undefined) },
    };
    // More crawling threads join once this thread has nothing else to do: the index made and
    // the files compressed. Beside the compression of a clean build's files, they took the
    // peak of a 9,933-doc build from about 890 to 990 MiB, for little time (the cores were busy).
    let mainIdle = () => undefined as void;
    const mainDone = new Promise<void>((resolve) => (mainIdle = resolve));
    const crawlWith = site.pages.length >= VERIFY_THREAD_FROM ? (o: VerifyOptions, c: SiteConfig) => verifyOnThread(o, c, { joinAfter: mainDone }) : verify;
    const crawl = options.skipCrawl ? undefined : logger.task('verify', (progress) => crawlWith({ ...crawlOptions, progress }, config));
    // Awaited below; a crawl that fails first must not be reported as unhandled meanwhile.
    crawl?.catch(() => undefined);
    const index = await settleFirst(crawl, () => indexing);
    // A build that made its own session keeps nothing for a next one: what its stages cached
    // (compiled documents, parsed pages, search records) goes before the site is compressed.
    if (!options.session) await disposeBuildSession(session);
    // Pages were compressed as they were written; the rest is done here.
    await settleFirst(crawl, () => logger.task('precompress', () => precompressor.finish())).finally(() => {
      // The garbage of the compression goes before another thread adds its heap (this thread has nothing else to do).
      if (!options.session) collectGarbageNow();
      mainIdle();
    });
    await crawl;
    await logger.task('publish', async () => {
      await ledger.sweep();
      await ledger.save();
      await publish(folder.dir, outDir, { cacheDir });
    });
    const output = ledger.sources();
    return {
      outDir,
      pages: site.pages,
      fileCount: output.length,
      filesWritten: early.written + rest.written.length + index.written.length + pagesWritten.fileCount,
      bytes: output.reduce((sum, [, size]) => sum + size, 0),
      timings: logger.timings,
      assets: site.assets.map((f) => ({ path: f.path, bytes: f.contents.byteLength })),
      linksChecked: site.linksChecked,
    };
  } catch (error) {
    // Pages still being written would land in the folder after it is removed.
    await pageWriter?.finish().catch(() => undefined);
    await discard(stagingDir(outDir));
    throw error;
  } finally {
    staging.dispose();
  }
}

/**
 * Runs `work`; if it fails while `running` is still under way, waits for that to end
 * before throwing, so nothing is left reading the folder the failed build then removes.
 */
async function settleFirst<T>(running: Promise<unknown> | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await running?.catch(() => undefined);
    throw error;
  }
}

/** An asset named like esbuild's output (name-HASH.ext), so the server caches it as immutable. */
function hashedAsset(name: string, ext: string, text: string): OutputAsset {
  const contents = new TextEncoder().encode(text);
  const hash = createHash('sha256').update(contents).digest('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, 8).toUpperCase();
  return { path: `assets/${name}-${hash}.${ext}`, contents };
}

/**
 * URL paths of every non-page file the output will hold, for the in-memory link check.
 * Of the search index only its fixed entry point counts: the rest lives in a folder named
 * by its contents, which no page can link to.
 */
function outputFileSet(statics: readonly StaticFile[], assets: readonly OutputAsset[], generated: readonly Pick<OutputAsset, 'path'>[]): Set<string> {
  const files = new Set<string>([`/${SEARCH_META_PATH}`]);
  for (const f of [...assets, ...generated]) files.add(`/${f.path}`);
  for (const file of statics) files.add(`/${file.rel}`);
  return files;
}

/** highlightApiExamples(), skipped while the API documents and their settings are the ones it last saw. */
async function loadApiExamples(apis: readonly LoadedApiDocument[], config: SiteConfig, session: BuildSession): Promise<ApiExamples> {
  const refs = JSON.stringify(config.apiReferences);
  if (session.apiExamples?.apis === apis && session.apiExamples.refs === refs) return session.apiExamples.examples;
  // Imported only for a site with API documents: its request-sample writers and Shiki are a tenth of a second to load.
  const examples: ApiExamples = apis.length === 0 ? new Map() : await (await import('./openapi/reference-examples.ts')).highlightApiExamples(apis, config, session.compile);
  session.apiExamples = { apis, refs, examples };
  return examples;
}

/** loadApiDocuments(), skipped while no file in the folders of the API documents changed. */
async function loadApis(config: SiteConfig, session: BuildSession): Promise<LoadedApiDocument[]> {
  const specs = config.apiReferences.map((ref) => ({ id: ref.id, file: path.resolve(config.root, ref.spec), sandboxServer: ref.sandboxServer }));
  const hash = createHash('sha1').update(JSON.stringify([config.root, siteRootUrl(config), specs, config.postman]));
  // A document may not $ref other files (the openapi stage rejects it), so its own text is all it depends on.
  for (const spec of specs) hash.update(`\0${spec.file}\0`).update(await readFile(spec.file).catch(() => ''));
  const key = hash.digest('hex');
  if (session.openapi?.key === key) return session.openapi.apis;
  // Links to the site in descriptions are shown from its root, like the links authors write, and put under the base URL with the page.
  const apis = await loadApiDocuments(specs, config.root, { siteUrl: siteRootUrl(config), baseUrl: config.baseUrl, postmanTexts: config.postman });
  session.openapi = { key, apis };
  return apis;
}

/**
 * The render stage, or only part of it: when nothing that several pages show changed
 * (config, templates, assets, API documents, the list of docs with their titles,
 * sidebar positions and tags, any blog post), only the pages of the files whose text
 * changed are rendered again and the others are taken from the last render.
 */
async function renderPages(
  input: RenderInput,
  config: SiteConfig,
  session: BuildSession,
  options: { progress?: Progress; writePage?: (page: RenderedPage) => Promise<void>; scanner: PageScanner },
): Promise<RenderedPage[]> {
  const { progress, writePage, scanner } = options;
  const stage = session.render ?? render;
  if (writePage) {
    // Pages kept without their HTML cannot be reused by a next render.
    session.lastRender = undefined;
    const onPage = async (page: RenderedPage): Promise<RenderedPage> => {
      const kept: RenderedPage = { ...page, html: '' };
      await scanner.scan(kept, page.html);
      await writePage(page);
      return kept;
    };
    return stage(input, config, { cache: session.renderCache, progress, onPage });
  }
  const key = renderKey(input);
  const sources = new Map<string, string>();
  for (const source of [...input.collected.docs, ...input.collected.pages]) sources.set(source.relFile, source.source);
  const last = session.lastRender;
  let pages: RenderedPage[];
  if (last && last.key === key && last.config === config && last.stage === stage && last.apis === input.apis) {
    const changed = new Set([...sources].filter(([file, text]) => last.sources.get(file) !== text || last.lastUpdated?.get(file) !== input.lastUpdated?.get(file)).map(([file]) => file));
    const routes = new Set(last.pages.filter((p) => p.sourceFile !== undefined && changed.has(p.sourceFile)).map((p) => p.route));
    const fresh = new Map(routes.size > 0 ? (await stage(input, config, { routes, cache: session.renderCache, progress })).map((p) => [p.route, p]) : []);
    pages = last.pages.map((p) => fresh.get(p.route) ?? p);
  } else {
    pages = await stage(input, config, { cache: session.renderCache, progress });
  }
  session.lastRender = { key, config, stage, apis: input.apis, sources, pages, lastUpdated: input.lastUpdated };
  return pages;
}

function renderKey(input: RenderInput): string {
  const { collected } = input;
  return JSON.stringify([
    input.assets,
    collected.docs.map((d) => {
      // Shown only on the doc's own page, which is rendered again when its file changes.
      const { description, keywords, hide_table_of_contents, ...shared } = d.frontMatter ?? {};
      void [description, keywords, hide_table_of_contents];
      return [d.id, d.route, d.relFile, d.sidebar, shared];
    }),
    collected.posts.map((p) => [p.relFile, p.source, p.authors, p.tags]),
    collected.pages.map((p) => [p.route, p.relFile, p.format]),
    collected.sidebars,
    collected.tags,
  ]);
}

/** Output assets as generated files, one at a time as the writer takes them. */
function* asGenerated(files: Iterable<OutputAsset>): Generator<OutputFile> {
  for (const file of files) yield { ...file, origin: 'generated' };
}
