/**
 * Stage: bundle the browser code of templates/client with esbuild. The router is one
 * small module every page loads; each island is its own entry, loaded only by pages
 * that use it; shared code (React) is split into common chunks. The colour-mode
 * script is built separately to be inlined in <head>.
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { SiteConfig } from '../config.ts';
import { DocsgenError } from '../errors.ts';

export interface OutputAsset {
  /** Path inside the output folder, posix, e.g. 'assets/main-7KQ2M4ZB.js'. */
  path: string;
  contents: Uint8Array;
}

export interface BundleResult {
  files: OutputAsset[];
  /** URL of the router module. */
  script: string;
  styles: string[];
  themeInit: string;
  islands: Record<string, { js: string; css: string[] }>;
}

const ASSET_DIR = 'assets';

/**
 * What a long-lived build session (serve --watch) keeps between bundles: esbuild
 * contexts, so a rebuild re-reads only the files that changed, and the last result,
 * returned as is while none of the inputs outside node_modules changed.
 */
export interface BundleCache {
  signature?: string;
  contexts?: { site: esbuild.BuildContext<SiteBuildOptions>; themeInit: esbuild.BuildContext<ThemeInitOptions> };
  result?: BundleResult;
  /** "mtime:size" of each input when `result` was made. */
  inputs?: Map<string, string>;
}

export function createBundleCache(): BundleCache {
  return {};
}

/** Stops the esbuild contexts; without this the process cannot exit. */
export async function disposeBundleCache(cache: BundleCache): Promise<void> {
  const contexts = cache.contexts;
  cache.contexts = undefined;
  cache.result = undefined;
  cache.inputs = undefined;
  cache.signature = undefined;
  if (contexts) await Promise.all([contexts.site.dispose(), contexts.themeInit.dispose()]);
}

type SiteBuildOptions = esbuild.BuildOptions & { metafile: true; write: false };
type ThemeInitOptions = esbuild.BuildOptions & { metafile: true; write: false };

export async function bundle(config: SiteConfig, options: { minify?: boolean; cache?: BundleCache } = {}): Promise<BundleResult> {
  const clientDir = path.join(config.dirs.templates, 'client');
  const islandsDir = path.join(clientDir, 'islands');
  const islandFiles = existsSync(islandsDir) ? (await readdir(islandsDir)).filter((f) => /\.(tsx|ts)$/.test(f)) : [];
  const entryPoints: Record<string, string> = {
    main: path.join(clientDir, 'main.ts'),
    styles: path.join(config.dirs.templates, 'styles', 'main.css'),
  };
  for (const file of islandFiles) entryPoints[`island-${file.replace(/\.tsx?$/, '')}`] = path.join(islandsDir, file);

  const minify = options.minify ?? true;
  const cache = options.cache;
  const signature = JSON.stringify([entryPoints, minify]);
  if (cache?.result && cache.signature === signature && cache.inputs && (await unchanged(cache.inputs))) return cache.result;

  const siteOptions: SiteBuildOptions = {
    entryPoints,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify,
    sourcemap: false,
    metafile: true,
    write: false,
    outdir: path.join(config.root, ASSET_DIR),
    outbase: config.root,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    jsx: 'automatic',
    legalComments: 'none',
    logLevel: 'silent',
    // Stoplight Elements and its dependencies expect a few Node globals; the shims are aliased in the island itself.
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    mainFields: ['browser', 'module', 'main'],
    conditions: ['browser', 'import', 'module', 'default'],
    loader: { '.woff2': 'file', '.woff': 'file', '.svg': 'dataurl', '.png': 'file' },
  };
  const initOptions: ThemeInitOptions = {
    entryPoints: [path.join(clientDir, 'theme-init.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2017'],
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  };
  let result: esbuild.BuildResult<SiteBuildOptions>;
  let init: esbuild.BuildResult<ThemeInitOptions>;
  let themeInit: string;
  try {
    if (cache) {
      if (!cache.contexts || cache.signature !== signature) {
        await disposeBundleCache(cache);
        cache.contexts = { site: await esbuild.context(siteOptions), themeInit: await esbuild.context(initOptions) };
        cache.signature = signature;
      }
      [result, init] = await Promise.all([cache.contexts.site.rebuild(), cache.contexts.themeInit.rebuild()]);
    } else {
      result = await esbuild.build(siteOptions);
      init = await esbuild.build(initOptions);
    }
    themeInit = init.outputFiles[0]?.text.trim() ?? '';
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    const first = failure.errors?.[0];
    throw new DocsgenError(`Client bundle failed: ${first?.text ?? String(error)}`, {
      file: first?.location?.file,
      line: first?.location?.line,
      column: first?.location ? first.location.column + 1 : undefined,
      excerpt: first?.location?.lineText ? `  ${first.location.line} | ${first.location.lineText}` : undefined,
      hint: 'Browser code in templates/client must not import Node modules or build-time code; fix the error above.',
      cause: error,
    });
  }

  const outRoot = path.join(config.root, ASSET_DIR);
  const urlOf = (abs: string) => `/${ASSET_DIR}/${path.relative(outRoot, abs).split(path.sep).join('/')}`;
  const files: OutputAsset[] = result.outputFiles.map((f) => ({ path: `${ASSET_DIR}/${path.relative(outRoot, f.path).split(path.sep).join('/')}`, contents: f.contents }));

  let script = '';
  const styles: string[] = [];
  const islands: BundleResult['islands'] = {};
  for (const [outPath, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const abs = path.resolve(process.cwd(), outPath);
    const url = urlOf(abs);
    const entryName = Object.entries(entryPoints).find(([, file]) => path.resolve(file) === path.resolve(process.cwd(), meta.entryPoint!))?.[0];
    if (!entryName) continue;
    if (entryName === 'main') script = url;
    else if (entryName === 'styles' && outPath.endsWith('.css')) styles.push(url);
    else if (entryName.startsWith('island-')) {
      const css = meta.cssBundle ? [urlOf(path.resolve(process.cwd(), meta.cssBundle))] : [];
      islands[entryName.slice('island-'.length)] = { js: url, css };
    }
  }
  if (!script) throw new DocsgenError('Client bundle produced no router module.', { hint: 'templates/client/main.ts must exist.' });
  const bundled: BundleResult = { files, script, styles, themeInit, islands };
  if (cache) {
    cache.result = bundled;
    cache.inputs = await snapshot([...Object.keys(result.metafile.inputs), ...Object.keys(init.metafile.inputs)]);
  }
  return bundled;
}

/** Inputs outside node_modules with their "mtime:size"; packages change only on install, which restarts watch. */
async function snapshot(inputs: readonly string[]): Promise<Map<string, string>> {
  const entries = await Promise.all(
    inputs
      .filter((input) => !input.split(/[\\/]/).includes('node_modules'))
      .map(async (input) => {
        const file = path.resolve(process.cwd(), input);
        const info = await stat(file).catch(() => undefined);
        return info ? ([file, `${info.mtimeMs}:${info.size}`] as const) : undefined;
      }),
  );
  return new Map(entries.filter((e) => e !== undefined));
}

async function unchanged(inputs: ReadonlyMap<string, string>): Promise<boolean> {
  const checks = await Promise.all(
    [...inputs].map(async ([file, before]) => {
      const info = await stat(file).catch(() => undefined);
      return info !== undefined && `${info.mtimeMs}:${info.size}` === before;
    }),
  );
  return checks.every(Boolean);
}
