/**
 * Fixture sites built in the test's own process, as `docsgen build` builds them, without
 * starting a CLI per build. Every build of a test file shares one client bundle per
 * templates folder and set of islands: esbuild bundles the client (and Stoplight
 * Elements, for a site with API pages) once per file instead of once per build. Only
 * tests of what the command itself prints or exits with need runCli().
 *
 * The bundle does not depend on the site (see cli/stages/bundle-store.ts), so a fixture
 * with the real site's islands takes the bundle, and its brotli copies, that the build of
 * the real site kept in its cache folder (`npm test` makes that build first): read only,
 * and used only while every file it was made from has the same bytes. Stoplight Elements
 * bundled and compressed at brotli's top quality cost about 5 s of CPU in each process.
 */
import path from 'node:path';
import { build, createBuildSession, defaultCacheDir, type BuildOptions, type BuildResult, type BuildSession } from '../../cli/build.ts';
import { loadConfig, type SiteConfig } from '../../cli/config.ts';
import { formatAnyError, isDocsgenError } from '../../cli/errors.ts';
import { createLogger } from '../../cli/log.ts';
import { createBundleCache, type BundleCache } from '../../cli/stages/bundle.ts';
import { createBundleStore } from '../../cli/stages/bundle-store.ts';
import { createCompileCache, disposeCompileCache, getHighlighter, type CompileCache } from '../../cli/stages/compile.ts';
import { createCompressedAssetCache } from '../../cli/stages/precompress.ts';
import { usedIslands } from '../../cli/stages/render.ts';
import { realSiteCacheDir } from './site.ts';

/**
 * Client bundles by templates folder and islands. A test helper's state, not the
 * generator's: each build still gets a session of its own (createBuildSession), which
 * only borrows the bundle. These caches keep no esbuild context, so none needs disposing.
 */
const bundles = new Map<string, BundleCache>();
/** The client assets' compressed copies, shared the same way: each build of a fixture compressed the same bundle at brotli's top quality. */
const compressedAssets = createCompressedAssetCache({ shelf: path.join(realSiteCacheDir, 'precompressed') });
/**
 * Shiki's highlighter, shared the same way: each build made its own and compiled the
 * grammars of its languages again, about 0.15 s of CPU per build, over a hundred builds.
 * A highlighter's output depends only on the code, language and themes, whatever else
 * it has loaded. Owned by this cache, so a build's disposal leaves it alone; made at the
 * first build that asks (getHighlighter()), so a process that builds nothing loads no Shiki.
 */
const highlighterOwner: CompileCache = createCompileCache();

/**
 * A fresh build session for `config` whose client bundle is shared with the other builds
 * of this test process; with `cache`, it keeps compiled MDX where `docsgen build` does.
 */
export function sessionSharingBundle(config: SiteConfig, options: { cache?: boolean } = {}): BuildSession {
  const key = JSON.stringify([config.dirs.templates, usedIslands(config)]);
  let cache = bundles.get(key);
  if (!cache) bundles.set(key, (cache = createBundleCache({ incremental: false })));
  const session = createBuildSession({ cacheDir: options.cache ? defaultCacheDir(config) : undefined });
  session.compile.highlighter = getHighlighter(highlighterOwner);
  return { ...session, bundle: cache, compressedAssets, bundleStore: session.bundleStore ?? createBundleStore(path.join(realSiteCacheDir, 'bundle'), { readOnly: true }) };
}

const quiet = () => createLogger({ level: 'quiet', write: () => {}, writeError: () => {} });

/**
 * Builds the site in `root` (or a loaded config) like `docsgen build --no-cache` (or,
 * with `cache: true`, like `docsgen build`), into `options.outDir` (default <root>/dist).
 * Throws what the build throws.
 */
export async function buildFixture(root: string | SiteConfig, options: Omit<BuildOptions, 'session'> = {}): Promise<BuildResult> {
  const config = typeof root === 'string' ? await loadConfig(root) : root;
  const cache = options.cache ?? false;
  const session = sessionSharingBundle(config, { cache });
  try {
    return await build(config, { logger: quiet(), ...options, cache, session });
  } finally {
    // The session is this build's alone but for what it borrowed: the bundle and the highlighter stay.
    if (session.compile.highlighter === highlighterOwner.highlighter) session.compile.highlighter = undefined;
    await disposeCompileCache(session.compile);
  }
}

export interface FailedBuild {
  /** The exit status `docsgen build` would end with: 1 for a problem in the site, 2 for a bug. */
  code: 1 | 2;
  /** What `docsgen build` would print on stderr. */
  output: string;
}

/** Builds like buildFixture(); the build must fail. Returns what the command would print and its exit status. */
export async function failingFixtureBuild(root: string, options: Omit<BuildOptions, 'session'> = {}): Promise<FailedBuild> {
  try {
    await buildFixture(root, options);
  } catch (error) {
    return { code: isDocsgenError(error) ? 1 : 2, output: formatAnyError(error) };
  }
  throw new Error(`The build of ${root} was expected to fail, and it succeeded.`);
}
