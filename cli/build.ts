/**
 * The build: a short list of named stages, run in order through task(). Each stage
 * takes plain values and the resolved config and returns a typed value. Nothing is
 * written where the reader looks until every check passed: a failed build leaves the
 * last good output untouched.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { SiteConfig } from './config.ts';
import { createLogger, type Logger, type StageTiming } from './log.ts';
import { bundle, type OutputAsset } from './stages/bundle.ts';
import { checkLinks } from './stages/check-links.ts';
import { collect } from './stages/collect.ts';
import { compile, createCompileCache, type CompileCache } from './stages/compile.ts';
import { loadApiDocuments } from './stages/openapi.ts';
import { render, type RenderedPage } from './stages/render.ts';
import { verify } from './stages/verify.ts';
import { discard, generatedFiles, publish, write } from './stages/write.ts';

/** State kept between builds of one `serve --watch` run, so rebuilds redo only what changed. */
export interface BuildSession {
  compile: CompileCache;
}

export function createBuildSession(): BuildSession {
  return { compile: createCompileCache() };
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
}

export interface BuildResult {
  outDir: string;
  pages: RenderedPage[];
  fileCount: number;
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
  /** API downloads, sitemap, robots.txt, feeds, search index. */
  generated: OutputAsset[];
  linksChecked: number;
}

/**
 * The stages that need no output folder: collect -> openapi -> compile -> bundle ->
 * render -> generated files -> in-memory link check. Throws on the first stage that fails.
 */
export async function buildSite(config: SiteConfig, options: Pick<BuildOptions, 'logger' | 'session'> = {}): Promise<SiteOutput> {
  const logger = options.logger ?? createLogger();
  const session = options.session ?? createBuildSession();
  const { task } = logger;

  const collected = await task('collect', () => collect(config));
  const apis = await task('openapi', () =>
    loadApiDocuments(
      config.apiReferences.map((ref) => ({ id: ref.id, file: path.resolve(config.root, ref.spec) })),
      config.root,
    ),
  );
  const compiled = await task('compile', () => compile(collected, config, session.compile));
  const client = await task('bundle', () => bundle(config));
  const pages = await task('render', () =>
    render(
      {
        collected,
        compiled,
        apis,
        assets: {
          styles: client.styles,
          script: client.script,
          themeInit: client.themeInit,
          islands: client.islands,
          feeds: { rss: `${config.blog.routeBasePath}/rss.xml`, atom: `${config.blog.routeBasePath}/atom.xml` },
        },
      },
      config,
    ),
  );
  const generated = generatedFiles({ apis, posts: compiled.posts, pages }, config);
  const memoryCheck = await task('check-links', () =>
    checkLinks({ pages, files: outputFileSet(config, client.files, generated) }, config),
  );
  return { pages, assets: client.files, generated, linksChecked: memoryCheck.checked };
}

/** A full build: buildSite(), then write to a staging folder, crawl it, and swap it into place. */
export async function build(config: SiteConfig, options: BuildOptions = {}): Promise<BuildResult> {
  const logger = options.logger ?? createLogger();
  const outDir = path.resolve(config.root, options.outDir ?? 'dist');
  const site = await buildSite(config, { logger, session: options.session });
  const written = await logger.task('write', () => write({ pages: site.pages, assets: site.assets, generated: site.generated }, config, outDir));
  try {
    if (!options.skipCrawl) await logger.task('verify', () => verify({ dir: written.dir, checkExternal: options.checkExternal ?? false }, config));
    await logger.task('publish', () => publish(written.dir, outDir));
  } catch (error) {
    await discard(written.dir);
    throw error;
  }
  return {
    outDir,
    pages: site.pages,
    fileCount: written.fileCount,
    bytes: written.bytes,
    timings: logger.timings,
    assets: site.assets.map((f) => ({ path: f.path, bytes: f.contents.byteLength })),
    linksChecked: site.linksChecked,
  };
}

/** URL paths of every non-page file the output will hold, for the in-memory link check. */
function outputFileSet(config: SiteConfig, assets: readonly OutputAsset[], generated: readonly OutputAsset[]): Set<string> {
  const files = new Set<string>();
  for (const f of [...assets, ...generated]) files.add(`/${f.path}`);
  if (existsSync(config.dirs.static)) {
    for (const entry of readdirSync(config.dirs.static, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.add(`/${path.relative(config.dirs.static, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`);
    }
  }
  return files;
}
