/**
 * Stage 2: MDX -> a React component, its headings and its links (with source
 * lines). Code is highlighted here, at build time, so no highlighter ships to browsers.
 * Results are cached by content hash in the build session, so a watch rebuild only
 * recompiles what changed.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { transformerStyleToClass, type ShikiTransformerStyleToClass } from '@shikijs/transformers';
import type { Options as MarkdownOptions } from 'mdast-util-to-markdown';
import type { MDXContent, MDXModule } from 'mdx/types.js';
import * as runtime from 'react/jsx-runtime';
import pMap from 'p-map';
import type { HighlighterGeneric, BundledLanguage, BundledTheme } from 'shiki';
import type { ComponentType } from 'react';
import { siteRootUrl } from '../base-url.ts';
import type { SiteConfig } from '../config.ts';
import type { Progress } from '../log.ts';
import { DocsgenError, DocsgenErrors, codeExcerpt } from '../errors.ts';
import { imageNames, imageSignature } from '../mdx/image-files.ts';
import { locateImportError } from '../mdx/import-errors.ts';
import { locateRuntimeError, type EncodedSourceMap } from '../mdx/runtime-errors.ts';
import type { SourceLink } from '../mdx/remark-links.ts';
import { markdownStyle } from '../markdown/write-markdown.ts';
import type { TocItem } from '../../templates/shared/index.ts';
import { cacheSalt } from '../cache-salt.ts';
import { PACKAGE_ROOT } from '../paths.ts';
import { esbuildError } from '../esbuild-error.ts';
import { signatureOf } from '../file-signature.ts';
import type { Collected, SourceDoc, SourcePage, SourcePost } from './collect.ts';
import { createCompilePool, type CompilePool } from './compile-pool.ts';

export type { SourceLink };

export interface CompiledMdx {
  Content: MDXContent;
  /** Every h2–h6, in order: the table of contents is the levels of them the page asks for (render.ts). */
  headings: TocItem[];
  /** Whether the document has its own `# title`, as its first heading (cli/mdx/remark-content-title.ts). */
  hasContentTitle: boolean;
  links: SourceLink[];
  /**
   * The body of the document's Markdown twin (cli/markdown/), as text: made where the
   * document compiles (a worker thread, on a large site) and cached with it, so a build
   * from the cache does not make it again. As a tree, with a position on every node, it
   * was nine tenths of what a compiled document holds (about 220 MB at 10,000 docs).
   */
  twinBody: string;
  /** The routes compiling it asked for (see RouteDependencies). */
  routes: RouteDependencies;
}

/**
 * The routes a compiled document depends on: the files it asked the route of (its own, for
 * its twin; those its links name, as `./pagamento.mdx`), each with the route it got, null
 * for none. A compiled document is reused only while every one of them still has that
 * route, so adding or moving a document recompiles only those that link to it, not all.
 */
export type RouteDependencies = readonly (readonly [file: string, route: string | null])[];

/** Whether every route `routes` recorded is still what `routeOfFile` gives. */
function routesHold(routes: RouteDependencies | undefined, routeOfFile: (file: string) => string | undefined): boolean {
  return routes !== undefined && routes.every(([file, route]) => (routeOfFile(file) ?? null) === route);
}

export interface CompiledPost {
  post: SourcePost;
  full: CompiledMdx;
  /** The part before the truncate marker, for the blog list; the whole post when there is none. */
  excerpt: CompiledMdx;
  truncated: boolean;
}

export interface PageMeta {
  title: string;
  description: string;
}

export interface CompiledTsxPage {
  page: SourcePage;
  Component: ComponentType;
  meta: PageMeta;
}

export interface CompiledMdxPage {
  page: SourcePage;
  compiled: CompiledMdx;
  meta: PageMeta;
}

export interface CompiledSite {
  /** CSS of the classes that highlighted code uses, in both themes. */
  codeCss: string;
  docs: Map<string, { doc: SourceDoc; compiled: CompiledMdx }>;
  posts: CompiledPost[];
  pages: (CompiledTsxPage | CompiledMdxPage)[];
}

// Every token colour of these two meets WCAG AA (4.5:1) on the code backgrounds of
// templates/styles/main.css, highlighted lines included; github-light and github-dark do not
// (orange, red and green on light, comments on dark). test/quality/contrast.test.ts checks it.
export const THEMES = { light: 'github-light-high-contrast', dark: 'github-dark-default' } as const satisfies Record<string, BundledTheme>;

/** Caches that outlive one build in watch mode. */
export interface CompileCache {
  mdx: Map<string, CompiledMdx>;
  highlighter?: Promise<HighlighterGeneric<BundledLanguage, BundledTheme>>;
  /** Highlighted code by (language, meta, code). */
  code: Map<string, string>;
  /** Turns Shiki's inline token styles into shared classes; its CSS is written once per build. */
  styleToClass: ShikiTransformerStyleToClass;
  /** Folder of compiled MDX kept between processes (node_modules/.cache/docsgen); none disables it. */
  diskDir?: string;
  /** Writes to diskDir still under way: nobody waits for them but flushCompileCache(). */
  writes: Set<Promise<void>>;
  /** Compilations under way by key: a document saved in watch mode starts compiling before its build asks for it. */
  inflight: Map<string, Promise<CompiledMdx>>;
  /** Keys asked for by the build under way; the others are dropped from `mdx` when it ends. */
  used: Set<string>;
  /**
   * The last key of each file, with what it was made from and the images it names: a
   * rebuild asks for the key of every source, and hashing a thousand of them again took
   * 5 ms of every save.
   */
  keys: Map<string, { source: string; context: string; key: string; images: readonly string[] }>;
  /** What the last build knew of routes, for precompile(). */
  last?: { routeOfFile: (file: string) => string | undefined; root: string; siteUrl: string; staticDir?: string };
  /** Loaded .tsx pages by file, with the "mtime:size" of every file their bundle read. */
  tsx: Map<string, { inputs: [file: string, signature: string][]; loaded: CompiledTsxPage }>;
  /** Worker threads a compile stage with at least `poolFrom` sources may use; 0 compiles on the main thread only. */
  workers: number;
  /** The twins' Markdown settings, made once: they keep the escaping patterns they compile. */
  twinStyle: MarkdownOptions;
  poolFrom: number;
}

/**
 * Below this many sources a pool costs more than it saves: each worker loads MDX and
 * Shiki (about a second of CPU) before its first document, and a pool is only started
 * when some document is not in a cache.
 */
export const POOL_MIN_SOURCES = 200;

export function createCompileCache(options: { diskDir?: string; workers?: number; poolFrom?: number } = {}): CompileCache {
  return {
    workers: options.workers ?? availableParallelism(),
    poolFrom: options.poolFrom ?? POOL_MIN_SOURCES,
    twinStyle: markdownStyle(),
    mdx: new Map(),
    code: new Map(),
    styleToClass: transformerStyleToClass({ classPrefix: 'sh-' }),
    diskDir: options.diskDir,
    writes: new Set(),
    inflight: new Map(),
    used: new Set(),
    keys: new Map(),
    tsx: new Map(),
  };
}

/** Lets go of what the cache holds outside the JavaScript heap: Shiki's highlighter and its grammars. */
export async function disposeCompileCache(cache: CompileCache): Promise<void> {
  const highlighter = await cache.highlighter?.catch(() => undefined);
  cache.highlighter = undefined;
  highlighter?.dispose();
}

/** Waits for the compiled documents still being written to the disk cache. */
export async function flushCompileCache(cache: CompileCache): Promise<void> {
  while (cache.writes.size > 0) await Promise.all(cache.writes);
}

/** What a compiled document leaves on disk: everything but the evaluated component. */
export interface DiskEntry {
  code: string;
  /** See CompiledMdx. */
  headings: TocItem[];
  /** See CompiledMdx. */
  hasContentTitle: boolean;
  links: SourceLink[];
  /** See CompiledMdx. */
  twinBody: string;
  /** Highlight classes the code uses, with their declarations, to restore the shared stylesheet. */
  classes: [string, string | Record<string, string>][];
  /** Compiled code -> MDX positions, so an error thrown while the page renders names its line. */
  map?: EncodedSourceMap;
  /** See CompiledMdx. */
  routes: RouteDependencies;
}

/**
 * Cache entries are only valid for the exact compiler that made them: the salt covers
 * docsgen's MDX pipeline and Markdown twin sources and the versions of MDX, Shiki and
 * its transformers. The sources, not the modules running them: the command and the tests
 * share one cache.
 */
export const CACHE_SALT: string = cacheSalt({
  files: ['cli/stages/compile.ts', 'cli/stages/compile-code.ts', ...['cli/mdx', 'cli/markdown'].flatMap((dir) => readdirSync(path.join(PACKAGE_ROOT, dir)).map((f) => `${dir}/${f}`))].sort(),
  packages: ['@mdx-js/mdx', 'shiki', '@shikijs/transformers', 'image-size'],
});

async function readDiskEntry(cache: CompileCache, key: string): Promise<DiskEntry | undefined> {
  if (!cache.diskDir) return undefined;
  try {
    return JSON.parse(await readFile(path.join(cache.diskDir, `${key}.json`), 'utf8')) as DiskEntry;
  } catch {
    return undefined;
  }
}

async function writeDiskEntry(cache: CompileCache, key: string, entry: DiskEntry): Promise<void> {
  if (!cache.diskDir) return;
  try {
    await mkdir(cache.diskDir, { recursive: true });
    await writeFile(path.join(cache.diskDir, `${key}.json`), JSON.stringify(entry));
  } catch {
    // A cache that cannot be written only costs speed on the next build.
  }
}

export async function compile(collected: Collected, config: SiteConfig, cache: CompileCache, progress?: Progress): Promise<CompiledSite> {
  const routes = routeMap(collected);
  const routeOfFile = (file: string) => routes.get(file);
  const siteUrl = siteRootUrl(config);
  const staticDir = config.dirs.static;
  cache.last = { routeOfFile, root: config.root, siteUrl, staticDir };
  cache.used = new Set();
  const errors: DocsgenError[] = [];
  const attempt = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof DocsgenError) errors.push(error);
      else if (error instanceof DocsgenErrors) errors.push(...error.errors);
      else throw error;
      return undefined;
    }
  };

  const total = collected.docs.length + collected.posts.length + collected.pages.length;
  // Counted by what this session has not compiled yet, not by the site's size: a rebuild of
  // a large site in watch mode with a document or two to compile would otherwise start the
  // workers, and wait a second for them to load MDX and Shiki. (The disk cache may still
  // hold the ones counted here; the pool starts only when a document is in neither.)
  const mdxSources = [...collected.docs, ...collected.posts, ...collected.pages.filter((page) => page.format === 'mdx')];
  const uncompiled = mdxSources.filter((source) => !routesHold(cache.mdx.get(cacheKey(source, { siteUrl, staticDir, cache }))?.routes, routeOfFile)).length;
  const pool = cache.workers > 0 && uncompiled >= cache.poolFrom ? createCompilePool({ size: cache.workers, routes, siteUrl, staticDir }) : undefined;
  const context: CompileContext = { routeOfFile, siteUrl, staticDir, cache, pool };
  // With a pool, a few sources at a time keep every worker fed while this thread evaluates
  // what they return; results keep the order of the sources (pMap's), so the output does not depend on timing.
  const lanes = pool ? cache.workers * 2 : 1;
  let done = 0;
  /** fn over each source, `lanes` at a time; a source that fails is recorded (attempt()) and left out. */
  const each = async <T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> =>
    (
      await pMap(
        items,
        async (item) => {
          const result = await attempt(() => fn(item));
          progress?.(++done, total);
          return result;
        },
        { concurrency: lanes },
      )
    ).filter((result) => result !== undefined);
  try {
    const docs = new Map<string, { doc: SourceDoc; compiled: CompiledMdx }>();
    for (const entry of await each(collected.docs, async (doc) => ({ doc, compiled: await compileMdx(doc, context) }))) docs.set(entry.doc.id, entry);
    const posts = await each(collected.posts, async (post) => {
      const full = await compileMdx(post, context);
      const cut = findTruncate(post.source);
      const excerpt = cut === undefined ? full : await compileMdx({ ...post, source: post.source.slice(0, cut) }, { ...context, forExcerpt: true });
      return { post, full, excerpt, truncated: cut !== undefined };
    });
    const pages = await each(collected.pages, async (page): Promise<CompiledTsxPage | CompiledMdxPage> => {
      if (page.format === 'tsx') return loadTsxPage(page, cache);
      const compiled = await compileMdx(page, context);
      return { page, compiled, meta: { title: page.frontMatter?.title ?? '', description: page.frontMatter?.description ?? '' } };
    });
    return finish(docs, posts, pages);
  } finally {
    await pool?.close();
  }

  function finish(
    docs: Map<string, { doc: SourceDoc; compiled: CompiledMdx }>,
    posts: CompiledPost[],
    pages: (CompiledTsxPage | CompiledMdxPage)[],
  ): CompiledSite {
    // Earlier versions of edited documents: a long watch session would otherwise keep every one.
    for (const key of cache.mdx.keys()) if (!cache.used.has(key)) cache.mdx.delete(key);
    for (const [slot, known] of cache.keys) if (!cache.used.has(known.key)) cache.keys.delete(slot);
    if (errors.length > 0) {
      // Sources compile a few at a time: the report keeps one order whatever finished first.
      errors.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0));
      throw new DocsgenErrors(`${errors.length} file${errors.length === 1 ? '' : 's'} could not be compiled:`, errors);
    }
    return { codeCss: codeCss(cache), docs, posts, pages };
  }
}

/** The highlight classes' CSS, sorted so the same site gives the same file (and hash) however it was compiled. */
function codeCss(cache: CompileCache): string {
  return [...cache.styleToClass.getClassRegistry()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, style]) => `.${name}{${typeof style === 'string' ? style : Object.entries(style).map(([k, v]) => `${k}:${v}`).join(';')}}`)
    .join('\n');
}

function routeMap(collected: Collected): Map<string, string> {
  const map = new Map<string, string>();
  // A link to a draft becomes its route, which the link check then reports as a draft's.
  for (const item of [...collected.docs, ...collected.posts, ...collected.pages, ...collected.drafts]) map.set(item.file, item.route);
  return map;
}

const TRUNCATE = /^[ \t]*(?:\{\/\*\s*truncate\s*\*\/\}|<!--\s*truncate\s*-->)[ \t]*$/m;

function findTruncate(source: string): number | undefined {
  const match = TRUNCATE.exec(source);
  return match ? match.index : undefined;
}

export interface CompileContext {
  routeOfFile: (file: string) => string | undefined;
  /** The site's URL with its base URL: the twin's links are absolute. */
  siteUrl: string;
  /** The static folder: Markdown images named from the site's root are measured there (rehype-image-size.ts). */
  staticDir?: string;
  cache: CompileCache;
  forExcerpt?: boolean;
  /** Worker threads to compile in; the main thread when absent. */
  pool?: CompilePool;
}

export function getHighlighter(cache: CompileCache) {
  // Grammars load on first use: a site pays only for the languages its code blocks use.
  // Shiki is imported here, with its first use: a build whose documents all come from the cache never loads it.
  cache.highlighter ??= import('shiki').then(
    ({ createHighlighter }) => createHighlighter({ themes: Object.values(THEMES), langs: [] }) as Promise<HighlighterGeneric<BundledLanguage, BundledTheme>>,
  );
  return cache.highlighter;
}

/** The key of a compiled source; the routes it depends on are checked apart (RouteDependencies). */
function cacheKey(input: { file: string; source: string }, context: Pick<CompileContext, 'siteUrl' | 'staticDir' | 'forExcerpt' | 'cache'>): string {
  const slot = context.forExcerpt ? `${input.file}\0excerpt` : input.file;
  const known = context.cache.keys.get(slot);
  // The images the document names are part of what it compiles to (their width and height).
  // Their files are looked at on every build; the source is searched for them only when it
  // changed (a regular expression over every document took 9 ms of each rebuild at 1,023 docs).
  const names = known && known.source === input.source ? known.images : imageNames(input.source);
  const images = imageSignature(names, context.staticDir);
  const settings = `${context.siteUrl}\0${context.forExcerpt ? 'x' : ''}\0${images}`;
  // An unchanged source is the very string the last build had (see ../source-texts.ts): comparing it costs nothing.
  if (known && known.source === input.source && known.context === settings) return known.key;
  const key = createHash('sha1')
    .update(CACHE_SALT)
    .update(context.siteUrl)
    .update('\0')
    .update(input.file)
    .update('\0')
    .update(input.source)
    .update(context.forExcerpt ? 'x' : '')
    .update('\0')
    .update(images)
    .digest('hex');
  context.cache.keys.set(slot, { source: input.source, context: settings, key, images: names });
  return key;
}

/** Compiles one MDX source. Throws a DocsgenError pointing at the line for syntax and runtime errors. */
export async function compileMdx(
  input: { file: string; relFile: string; source: string },
  context: CompileContext,
): Promise<CompiledMdx> {
  const key = cacheKey(input, context);
  context.cache.used.add(key);
  const cached = context.cache.mdx.get(key);
  if (cached && routesHold(cached.routes, context.routeOfFile)) return cached;
  // Started by precompile() with the routes of the last build: kept if they still hold.
  const started = context.cache.inflight.get(key);
  if (started) {
    const compiled = await started;
    if (routesHold(compiled.routes, context.routeOfFile)) return compiled;
  }
  const compiling = compileUncached(input, context, key);
  context.cache.inflight.set(key, compiling);
  try {
    const compiled = await compiling;
    context.cache.mdx.set(key, compiled);
    return compiled;
  } finally {
    context.cache.inflight.delete(key);
  }
}

/**
 * Starts compiling a document that was just saved, with the routes of the last build,
 * while watch mode waits for the save to settle and reads the other sources: the build
 * that follows finds it done or under way. A failure is left for that build to report
 * (it compiles the same text); a file that is not a known document is left to the build.
 */
export function precompile(cache: CompileCache, file: string, source: string): void {
  const last = cache.last;
  if (!last || last.routeOfFile(file) === undefined) return;
  const relFile = path.relative(last.root, file).split(path.sep).join('/');
  compileMdx({ file, relFile, source }, { routeOfFile: last.routeOfFile, siteUrl: last.siteUrl, staticDir: last.staticDir, cache }).catch(() => undefined);
}

async function compileUncached(input: { file: string; relFile: string; source: string }, context: CompileContext, key: string): Promise<CompiledMdx> {
  const kept = await readDiskEntry(context.cache, key);
  let entry = kept && routesHold(kept.routes, context.routeOfFile) ? kept : undefined;
  if (entry) {
    restoreClasses(context.cache, entry.classes);
  } else {
    // Imported with the first document this thread compiles itself, not one a worker compiles: see compile-code.ts.
    const compileHere = async () => (await import('./compile-code.ts')).compileCode(input, context);
    if (context.pool) {
      entry = await context.pool.compile(input, compileHere);
      // A worker's highlight classes are in its own registry; the stylesheet is made from this one.
      restoreClasses(context.cache, entry.classes);
    } else {
      entry = await compileHere();
    }
    // Written while the build goes on: an edit in watch mode should not wait for the disk.
    const writing = writeDiskEntry(context.cache, key, entry).finally(() => context.cache.writes.delete(writing));
    context.cache.writes.add(writing);
  }
  return {
    Content: await evaluate(entry.code, input, entry.map),
    headings: entry.headings,
    hasContentTitle: entry.hasContentTitle,
    links: entry.links,
    twinBody: entry.twinBody,
    routes: entry.routes,
  };
}

/** Puts highlight classes kept on disk back in the registry the code stylesheet is made from. */
export function restoreClasses(cache: CompileCache, classes: DiskEntry['classes']): void {
  const registry = cache.styleToClass.getClassRegistry();
  for (const [name, style] of classes) registry.set(name, style);
}

/** The highlight classes `code` (HTML or compiled MDX) uses, with their declarations, to keep beside it on disk. */
export function usedClasses(cache: CompileCache, code: string): DiskEntry['classes'] {
  const registry = cache.styleToClass.getClassRegistry();
  return [...new Set(code.match(/\bsh-[a-z0-9]+/g) ?? [])].flatMap((name): DiskEntry['classes'] => {
    const style = registry.get(name);
    return style === undefined ? [] : [[name, style]];
  });
}

/**
 * @mdx-js/mdx's run(), which calls the compiled function body with the JSX runtime. Written
 * here because importing it from @mdx-js/mdx loads the whole compiler, which a build from
 * the cache does not otherwise need (compile-code.ts).
 */
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (body: string) => (options: object) => Promise<MDXModule>;
function run(code: string, options: object): Promise<MDXModule> {
  return new AsyncFunction(code)(options);
}

async function evaluate(code: string, input: { file: string; relFile: string; source: string }, map: EncodedSourceMap | undefined): Promise<MDXContent> {
  try {
    const mod = await run(code, { ...runtime, baseUrl: pathToFileURL(input.file).href });
    const Content = mod.default;
    if (!map) return Content;
    // Expressions run when the page renders, inside this call: an error there gets its MDX line.
    return (props) => {
      try {
        return Content(props);
      } catch (error) {
        const at = locateRuntimeError(error, map) ?? locateMissingComponent(error, input.source);
        if (!at) throw error;
        throw new DocsgenError(error instanceof Error ? error.message : String(error), {
          file: input.relFile,
          ...at,
          excerpt: codeExcerpt(input.source, at.line, at.column),
          cause: error,
        });
      }
    };
  } catch (error) {
    const failedImport = locateImportError(input.source, input.file, error);
    if (failedImport) {
      const { line, column, message, hint } = failedImport;
      throw new DocsgenError(message, { file: input.relFile, line, column, excerpt: codeExcerpt(input.source, line, column), hint, cause: error });
    }
    throw new DocsgenError(`MDX could not be evaluated: ${error instanceof Error ? error.message : String(error)}`, {
      file: input.relFile,
      hint: 'An expression or import in the file fails when run. Built-in components (Tabs, TabItem, ...) need no import.',
      cause: error,
    });
  }
}

/**
 * MDX checks that every component a document uses is defined before it renders any, in
 * code it made itself, which the source map does not cover: the place is where the
 * document first writes the tag, outside code (where `<Foo` is only text).
 */
function locateMissingComponent(error: unknown, source: string): { line: number; column: number } | undefined {
  const name = error instanceof Error ? /^Expected component `([\w.]+)` to be defined/.exec(error.message)?.[1] : undefined;
  if (!name) return undefined;
  const tag = new RegExp(`<${name.replace(/\./g, '\\.')}(?![\\w.-])`);
  let fence: string | undefined;
  for (const [index, text] of source.split(/\r?\n/).entries()) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    // Inline code spans are blanked out, keeping the columns of what follows them.
    const outsideCode = text.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
    const found = tag.exec(outsideCode);
    if (found) return { line: index + 1, column: found.index + 1 };
  }
  return undefined;
}

/**
 * Loads a .tsx page compiled by esbuild with React's JSX runtime, whatever folder the site
 * is in (a site need not have a tsconfig). The module is written next to docsgen's own
 * node_modules so its `react` import resolves to the same React that renders it.
 */
async function importPage(page: SourcePage): Promise<{ module: unknown; inputs: string[] }> {
  let code: string;
  let inputs: string[];
  try {
    const result = await esbuild.build({
      entryPoints: [page.file],
      absWorkingDir: process.cwd(),
      metafile: true,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      jsx: 'automatic',
      write: false,
      logLevel: 'silent',
    });
    code = result.outputFiles[0]?.text ?? '';
    inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(process.cwd(), input));
  } catch (error) {
    throw esbuildError(error, { what: 'Page could not be compiled', file: page.relFile, hint: 'Fix the TypeScript or JSX error at this position.' });
  }
  const dir = path.join(PACKAGE_ROOT, 'node_modules', '.cache', 'docsgen', 'pages');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${hash(page.file + code)}.mjs`);
  await writeFile(file, code);
  return { module: await import(pathToFileURL(file).href), inputs };
}


/**
 * A .tsx page, bundled and imported again only when a file its bundle read changed:
 * bundling it is a good part of a rebuild that only changed a doc.
 */
async function loadTsxPage(page: SourcePage, cache: CompileCache): Promise<CompiledTsxPage> {
  const known = cache.tsx.get(page.file);
  if (known) {
    const now = await Promise.all(known.inputs.map(async ([file]) => (await signatureOf(file)) ?? ''));
    if (now.every((signature, i) => signature === known.inputs[i]![1])) return { ...known.loaded, page };
  }
  const loaded = await importTsxPage(page);
  cache.tsx.set(page.file, { inputs: await Promise.all(loaded.inputs.map(async (file): Promise<[string, string]> => [file, (await signatureOf(file)) ?? ''])), loaded: loaded.page });
  return loaded.page;
}

async function importTsxPage(page: SourcePage): Promise<{ page: CompiledTsxPage; inputs: string[] }> {
  let mod: { default?: unknown; meta?: Partial<PageMeta> };
  let inputs: string[];
  try {
    const imported = await importPage(page);
    mod = imported.module as typeof mod;
    inputs = imported.inputs;
  } catch (error) {
    if (error instanceof DocsgenError) throw error;
    throw new DocsgenError(`Page could not be loaded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, {
      file: page.relFile,
      hint: 'Fix the error in the page module; pages run in Node at build time, without window or document.',
      cause: error,
    });
  }
  if (typeof mod.default !== 'function') {
    throw new DocsgenError('Page component has no default export.', {
      file: page.relFile,
      hint: 'Export the page component as the default export: `export default function Page() { ... }`.',
    });
  }
  if (!mod.meta?.title || !mod.meta.description) {
    throw new DocsgenError('Page has no `meta` export with a title and a description.', {
      file: page.relFile,
      hint: "Add `export const meta = { title: '...', description: '...' };` for the <title> and meta description.",
    });
  }
  return { page: { page, Component: mod.default as ComponentType, meta: { title: mod.meta.title, description: mod.meta.description } }, inputs };
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 10);
}
