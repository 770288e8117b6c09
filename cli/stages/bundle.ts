/**
 * Stage: bundle the browser code of templates/client with esbuild. The router is one
 * small module every page loads; each island is its own entry, loaded only by pages
 * that use it; shared code (React) is split into common chunks. The islands of
 * PREACT_ISLANDS are built apart, on preact/compat. The colour-mode script is built
 * separately to be inlined in <head>.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { API_REFERENCE_SCOPE } from '../../templates/shared/api-reference.ts';
import type { IslandManifest } from '../../templates/shared/index.ts';
import type { SiteConfig } from '../config.ts';
import { DocsgenError } from '../errors.ts';
import { esbuildError } from '../esbuild-error.ts';
import { fileSignature } from '../file-signature.ts';
import { PACKAGE_ROOT } from '../paths.ts';
import { bundleKey, readBundle, saveBundle, type BundleStore } from './bundle-store.ts';

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
  islands: IslandManifest;
}

const ASSET_DIR = 'assets';

/**
 * Islands whose React components run on preact/compat (about 8 KB gzip) instead of React
 * (45.9 KB), in an esbuild build of their own so the two never share a chunk. Search must
 * fetch at most 60 KB gzip for a query's first results, index included, and React took
 * most of that. Islands built on libraries that need React itself (Stoplight Elements)
 * stay out of this list.
 */
const PREACT_ISLANDS: ReadonlySet<string> = new Set(['search']);

const require = createRequire(import.meta.url);

/**
 * What a long-lived build session (serve --watch) keeps between bundles: esbuild
 * contexts, so a rebuild re-reads only the files that changed, and the last result,
 * returned as is while none of the inputs outside node_modules changed.
 */
export interface BundleCache {
  /**
   * Keep esbuild contexts between bundles (serve --watch). Without them only the last
   * result is kept: nothing needs disposing, and builds of other sites that use the same
   * templates and islands reuse it (the result does not depend on the site's folder).
   */
  incremental: boolean;
  signature?: string;
  /** One per client build (the site's, then the preact islands' when the site uses one), and the theme script's. */
  contexts?: { client: esbuild.BuildContext<ClientBuildOptions>[]; themeInit: esbuild.BuildContext<ThemeInitOptions> };
  result?: BundleResult;
  /** "mtime:size" of each input when `result` was made. */
  inputs?: Map<string, string>;
}

export function createBundleCache(options: { incremental?: boolean } = {}): BundleCache {
  return { incremental: options.incremental ?? true };
}

/** Stops the esbuild contexts; without this the process cannot exit. */
export async function disposeBundleCache(cache: BundleCache): Promise<void> {
  const contexts = cache.contexts;
  cache.contexts = undefined;
  cache.result = undefined;
  cache.inputs = undefined;
  cache.signature = undefined;
  if (contexts) await Promise.all([...contexts.client, contexts.themeInit].map((context) => context.dispose()));
}

type ClientBuildOptions = esbuild.BuildOptions & { metafile: true; write: false };
type ThemeInitOptions = esbuild.BuildOptions & { metafile: true; write: false };

export interface BundleOptions {
  cache?: BundleCache;
  /** Islands some page of the site uses (render's usedIslands()); the others are not bundled. Default: all. */
  islands?: readonly string[];
  /** Where the bundle is kept between processes (see bundle-store.ts). */
  store?: BundleStore;
}

export async function bundle(config: SiteConfig, options: BundleOptions = {}): Promise<BundleResult> {
  const clientDir = path.join(config.dirs.templates, 'client');
  const islandsDir = path.join(clientDir, 'islands');
  const wanted = options.islands && new Set(options.islands);
  // Read at once, as the inputs below: in watch mode this is on the path of every edit, and
  // the thread pool may be busy with the last build's files.
  const islandFiles = existsSync(islandsDir)
    ? readdirSync(islandsDir).filter((f) => /\.(tsx|ts)$/.test(f) && (!wanted || wanted.has(f.replace(/\.tsx?$/, ''))))
    : [];
  const entryPoints: Record<string, string> = {
    main: path.join(clientDir, 'main.ts'),
    styles: path.join(config.dirs.templates, 'styles', 'main.css'),
  };
  const preactEntryPoints: Record<string, string> = {};
  for (const file of islandFiles) {
    const name = file.replace(/\.tsx?$/, '');
    (PREACT_ISLANDS.has(name) ? preactEntryPoints : entryPoints)[`island-${name}`] = path.join(islandsDir, file);
  }

  const cache = options.cache;
  const signature = JSON.stringify([entryPoints, preactEntryPoints]);
  if (cache?.result && cache.signature === signature && cache.inputs && unchanged(cache.inputs)) return cache.result;
  // esbuild names the inputs by their path from its working directory, and those names go
  // into the [hash] of every file. From the folder that holds the templates, the names and
  // the bytes are the generator's alone: the same for every site built with these
  // templates, from whatever folder it is built (`--root`), so one kept bundle serves them all.
  const workDir = path.dirname(config.dirs.templates);
  // Only for a session's first bundle: after that, an esbuild context rebuilds what changed
  // sooner than the kept bundle's inputs can be hashed, and keeping each rebuild would
  // hash them again while the author waits for the page.
  const store = cache?.result ? undefined : options.store;
  const key = bundleKey(signature);
  const kept = store && (await readBundle(store, key));
  if (kept) {
    if (cache) {
      // The contexts of an incremental session are made by its first rebuild that needs them.
      cache.result = kept.result;
      cache.signature = signature;
      cache.inputs = await snapshot(workDir, kept.inputs);
    }
    return kept.result;
  }

  const common = {
    absWorkingDir: workDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    sourcemap: false,
    metafile: true,
    write: false,
    outdir: path.join(workDir, ASSET_DIR),
    outbase: workDir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    jsx: 'automatic',
    legalComments: 'none',
    logLevel: 'silent',
    // Stoplight Elements and its dependencies expect a few Node globals: see elementsPlugin.
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    mainFields: ['browser', 'module', 'main'],
    // esbuild adds 'import' or 'require' per import itself; forcing 'import' would hand ESM
    // helpers to require() calls (Elements' dom-helpers then crash on a namespace object).
    conditions: ['browser', 'module'],
    loader: { '.woff2': 'file', '.woff': 'file', '.svg': 'dataurl', '.png': 'file' },
  } satisfies ClientBuildOptions;
  const clientOptions: ClientBuildOptions[] = [{ ...common, entryPoints, plugins: [elementsPlugin()] }];
  if (Object.keys(preactEntryPoints).length > 0) clientOptions.push({ ...common, entryPoints: preactEntryPoints, alias: preactAliases() });
  const allEntryPoints = Object.entries({ ...entryPoints, ...preactEntryPoints });
  const initOptions: ThemeInitOptions = {
    absWorkingDir: workDir,
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
  let results: esbuild.BuildResult<ClientBuildOptions>[];
  let init: esbuild.BuildResult<ThemeInitOptions>;
  let themeInit: string;
  try {
    if (cache?.incremental) {
      if (!cache.contexts || cache.signature !== signature) {
        await disposeBundleCache(cache);
        const [client, themeInitContext] = await Promise.all([Promise.all(clientOptions.map((o) => esbuild.context(o))), esbuild.context(initOptions)]);
        cache.contexts = { client, themeInit: themeInitContext };
        cache.signature = signature;
      }
      const contexts = cache.contexts;
      [results, init] = await Promise.all([Promise.all(contexts.client.map((context) => context.rebuild())), contexts.themeInit.rebuild()]);
    } else {
      [results, init] = await Promise.all([Promise.all(clientOptions.map((o) => esbuild.build(o))), esbuild.build(initOptions)]);
      if (cache) cache.signature = signature;
    }
    themeInit = init.outputFiles[0]?.text.trim() ?? '';
  } catch (error) {
    throw esbuildError(error, {
      what: 'Client bundle failed',
      hint: 'Browser code in templates/client must not import Node modules or build-time code; fix the error above.',
    });
  }

  const outRoot = path.join(workDir, ASSET_DIR);
  const assetPath = (abs: string) => `${ASSET_DIR}/${path.relative(outRoot, abs).split(path.sep).join('/')}`;
  const urlOf = (abs: string) => `/${assetPath(abs)}`;
  const files = new Map<string, OutputAsset>();
  for (const output of results.flatMap((result) => result.outputFiles)) {
    const file = { path: assetPath(output.path), contents: output.contents };
    const before = files.get(file.path);
    // Same name, same bytes: a chunk both builds made alike. Different bytes would overwrite one of them.
    if (before && !Buffer.from(before.contents).equals(file.contents)) {
      throw new DocsgenError(`Two client builds made different files named ${file.path}.`, { hint: 'Give the builds of cli/stages/bundle.ts different entryNames or chunkNames.' });
    }
    files.set(file.path, file);
  }

  let script = '';
  const styles: string[] = [];
  const islands: BundleResult['islands'] = {};
  for (const [outPath, meta] of results.flatMap((result) => Object.entries(result.metafile.outputs))) {
    if (!meta.entryPoint) continue;
    const url = urlOf(path.resolve(workDir, outPath));
    const entryName = allEntryPoints.find(([, file]) => path.resolve(file) === path.resolve(workDir, meta.entryPoint!))?.[0];
    if (!entryName) continue;
    if (entryName === 'main') script = url;
    else if (entryName === 'styles' && outPath.endsWith('.css')) styles.push(url);
    else if (entryName.startsWith('island-')) {
      const css = meta.cssBundle ? [urlOf(path.resolve(workDir, meta.cssBundle))] : [];
      islands[entryName.slice('island-'.length)] = { js: url, css };
    }
  }
  if (!script) throw new DocsgenError('Client bundle produced no router module.', { hint: 'templates/client/main.ts must exist.' });
  const bundled: BundleResult = { files: [...files.values()], script, styles, themeInit, islands };
  const inputs = [...results, init].flatMap((result) => Object.keys(result.metafile.inputs));
  if (cache) {
    cache.result = bundled;
    cache.inputs = await snapshot(workDir, inputs);
  }
  if (store) saveBundle(store, key, bundled, [...new Set(inputs.filter(isFileInput).map((input) => path.resolve(workDir, input)))]);
  return bundled;
}

/**
 * What the islands of PREACT_ISLANDS import from React, mapped to preact. The island's
 * JSX is compiled for react/jsx-runtime (automatic, not the dev runtime: minify sets no
 * jsxDev). The targets are paths in docsgen's own preact: esbuild resolves an alias from
 * its working directory, not from the importing file, and docsgen may run in a folder
 * where no preact is in reach. The folders are resolved by their package.json "module"
 * field, the file the "browser" export of preact/compat and preact/jsx-runtime names;
 * compat's client module is named with its .mjs, as without it esbuild would take the
 * CommonJS client.js, which requires a second, CommonJS preact.
 */
function preactAliases(): Record<string, string> {
  let preact: string;
  try {
    preact = path.dirname(require.resolve('preact/package.json'));
  } catch (cause) {
    throw new DocsgenError(`The ${[...PREACT_ISLANDS].join(', ')} island needs the npm package 'preact', which is not installed.`, {
      hint: "Run `npm install` in the docsgen folder; 'preact' is one of docsgen's dependencies.",
      cause,
    });
  }
  const compat = path.join(preact, 'compat');
  return {
    react: compat,
    'react-dom': compat,
    'react-dom/client': path.join(compat, 'client.mjs'),
    'react/jsx-runtime': path.join(preact, 'jsx-runtime'),
  };
}

/**
 * Whether a metafile input is a file. The others are named `namespace:path`: modules a
 * plugin makes from files that are inputs themselves, or `(disabled):…` for a module a
 * package's "browser" field replaces with nothing.
 */
function isFileInput(input: string): boolean {
  const colon = input.indexOf(':');
  const separator = input.search(/[\\/]/);
  return colon === -1 || (separator !== -1 && separator < colon) || /^[A-Za-z]:[\\/]/.test(input);
}

/** Inputs outside node_modules with their "mtime:size"; packages change only on install, which restarts watch. */
async function snapshot(workDir: string, inputs: readonly string[]): Promise<Map<string, string>> {
  const entries = await Promise.all(
    inputs
      .filter((input) => !input.split(/[\\/]/).includes('node_modules'))
      .map(async (input) => {
        const file = path.resolve(workDir, input);
        const info = await stat(file).catch(() => undefined);
        return info ? ([file, fileSignature(info)] as const) : undefined;
      }),
  );
  return new Map(entries.filter((e) => e !== undefined));
}

/**
 * Whether every input still has the signature it had. Synchronous: a few dozen stats take a
 * fraction of a millisecond, while the same stats through the thread pool waited behind the
 * last build's writes (15-38 ms of a one-doc rebuild of a 1,023-doc site in watch mode).
 */
function unchanged(inputs: ReadonlyMap<string, string>): boolean {
  for (const [file, before] of inputs) {
    const info = statSync(file, { throwIfNoEntry: false });
    if (info === undefined || fileSignature(info) !== before) return false;
  }
  return true;
}

/** CommonJS modules of Elements' dependencies that read Node's `process` without checking it exists. */
const PROCESS_READERS = /[\\/]node_modules[\\/](?:util|@stoplight[\\/]json-schema-ref-parser)[\\/].*\.c?js$/;
/**
 * Browser stand-ins for the Node built-ins Elements' dependencies use: `buffer`
 * (@stoplight/yaml-ast-parser), `url` (@stoplight/json-schema-ref-parser) and `process`
 * (PROCESS_READERS). Those dependencies import them without declaring them, so the
 * packages are in docsgen's own package.json "dependencies" for this plugin alone: no
 * other code imports them, and a dependency clean-up that removes one breaks the API
 * reference pages. They are resolved from docsgen's folder, by name, so a missing one
 * fails the build with the package to install instead of a bundler error deep in Elements.
 */
const NODE_SHIMS = { buffer: 'buffer/index.js', url: 'url/url.js', process: 'process/browser.js' } as const;
const JOTAI_RESOLVING = Symbol('resolving jotai/utils');
const ELEMENTS_STYLESHEET = /[\\/]node_modules[\\/]@stoplight[\\/]elements(?:-core)?[\\/]styles\.min\.css$/;

/**
 * What Stoplight Elements (the api-reference island) needs from the bundler. It was
 * written for bundlers that gave every module Node's globals; esbuild gives none.
 * - `buffer` and `url` imports resolve to the npm browser packages of NODE_SHIMS; only
 *   Elements' chunk has them.
 * - The few modules that read `process` unguarded get a *local* `process` from the npm
 *   `process` package. A global or esbuild's `inject` would reach every other chunk,
 *   where libraries that test `typeof process` would take it for Node.
 * - Elements' stylesheet resets headings, lists, links and focus outlines for the whole
 *   document; it is rewritten to apply inside the island's container only (scopeCss).
 * - A copy of jotai it bundles warns on every render; see the jotai/utils redirect.
 */
function elementsPlugin(): esbuild.Plugin {
  return {
    name: 'docsgen-stoplight-elements',
    setup(build) {
      const shim = (name: keyof typeof NODE_SHIMS, importer: string): string => {
        try {
          return require.resolve(NODE_SHIMS[name]);
        } catch (cause) {
          throw new DocsgenError(`${importer} needs the npm package '${name}', which is not installed.`, {
            hint: `Run \`npm install\` in the docsgen folder; '${name}' is one of docsgen's dependencies (the API reference pages need it).`,
            cause,
          });
        }
      };
      build.onResolve({ filter: /^(?:buffer|url)$/ }, (args) => ({ path: shim(args.path as 'buffer' | 'url', args.importer) }));
      build.onLoad({ filter: PROCESS_READERS }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!/\bprocess\b/.test(source.replace(/process\.env\.NODE_ENV/g, ''))) return undefined;
        const processShim = shim('process', args.path);
        return { contents: `var process = require(${JSON.stringify(processShim)});\n${source}`, loader: 'js', resolveDir: path.dirname(args.path) };
      });
      // jotai 1.13 (json-schema-viewer's copy) wraps two hooks of jotai/utils in a console.warn
      // on every call, which floods the console on each render; import the same hooks from jotai itself.
      build.onResolve({ filter: /^jotai\/utils$/ }, async (args) => {
        if (args.pluginData === JOTAI_RESOLVING) return undefined;
        const options = { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: JOTAI_RESOLVING };
        const utils = await build.resolve(args.path, options);
        if (utils.errors.length > 0 || !(await readFile(utils.path, 'utf8')).includes('[DEPRECATED]: use `useSetAtom`')) return undefined;
        const jotai = await build.resolve('jotai', options);
        if (jotai.errors.length > 0) return undefined;
        // Relative: esbuild puts the path of a module outside the "file" namespace verbatim
        // into the [hash] of the chunk holding it, so an absolute one named the island
        // differently in every folder the same commit was built in.
        const key = path.relative(PACKAGE_ROOT, utils.path).split(path.sep).join('/');
        return { path: key, namespace: 'docsgen-jotai-utils', pluginData: { utils: utils.path, jotai: jotai.path } };
      });
      build.onLoad({ filter: /.*/, namespace: 'docsgen-jotai-utils' }, (args) => {
        const { utils, jotai } = args.pluginData as { utils: string; jotai: string };
        return {
          contents: `export * from ${JSON.stringify(utils)};\nexport { useAtomValue, useSetAtom as useUpdateAtom } from ${JSON.stringify(jotai)};\n`,
          loader: 'js',
          resolveDir: path.dirname(utils),
        };
      });
      build.onLoad({ filter: ELEMENTS_STYLESHEET }, async (args) => {
        // Imported here: PostCSS is for this one stylesheet, which a bundle kept from the last build or a site without API pages never reads.
        const { scopeCss } = await import('./scope-css.ts');
        return { contents: scopeCss(await readFile(args.path, 'utf8'), API_REFERENCE_SCOPE, args.path), loader: 'css', resolveDir: path.dirname(args.path) };
      });
    },
  };
}
