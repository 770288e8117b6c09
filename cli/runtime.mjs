// The `docsgen` command runs a JavaScript copy of docsgen's TypeScript, made by esbuild
// once per change of the sources. Loading the sources through a TypeScript loader instead
// cost every process and every worker thread about a second of CPU and 40 MB: Node 20
// runs loader hooks on a thread of their own, and every import, of every package, makes
// a round trip to it. The tests import the sources themselves (through tsx), and
// cli/paths.ts maps a source file to the module that runs it in either form.
//
// The copy keeps the folders of the sources, one .mjs per module, every relative import
// pointing at the .mjs beside it and packages left to Node, so each module is imported
// once and is the same instance wherever it is imported from. It lives in
// node_modules/.cache/docsgen/runtime/<hash of the sources>/: a changed source gives a
// new folder, and a folder is complete or absent (written aside, then renamed), so
// commands started together never read half of one.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The folders whose modules run in Node. templates/client/ runs in the browser, bundled from its sources. */
const NODE_SOURCES = ['cli', 'templates'];
const BROWSER_ONLY = path.join('templates', 'client');
const TYPESCRIPT = /\.tsx?$/;
/**
 * Older copies are removed once this old: a command started before the change may still
 * start workers from one (`serve --watch` starts compile workers as it goes; one that
 * cannot start leaves its documents to the main thread).
 */
const STALE_MS = 60 * 60 * 1000;
/**
 * Read from its package.json: esbuild itself is imported only when a copy is made. Every
 * process and test worker thread that starts from here asks for the copy, which is almost
 * always there, and importing esbuild took 29 ms of each.
 */
const ESBUILD_VERSION = createRequire(import.meta.url)('esbuild/package.json').version;

/** docsgen's TypeScript files that run in Node, relative to `root`, sorted. */
function nodeSources(root) {
  return NODE_SOURCES.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && TYPESCRIPT.test(entry.name) && !entry.name.endsWith('.d.ts'))
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .filter((file) => !file.startsWith(BROWSER_ONLY + path.sep)),
  ).sort();
}

/** Relative imports are left as imports of the .mjs the same source becomes. */
const keepModulesApart = {
  name: 'docsgen-runtime-modules',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      return { path: args.path.replace(TYPESCRIPT, '.mjs'), external: true };
    });
  },
};

/**
 * The folder of the JavaScript copy of docsgen under `root`, made first if the sources
 * changed since the last one. Returns it with the URL of the module `entry` (a source
 * path such as 'cli/index.ts') becomes.
 */
export async function prepareRuntime(root = PACKAGE_ROOT, entry = 'cli/index.ts') {
  const files = nodeSources(root);
  const hash = createHash('sha256');
  // What the copy is made with is part of what it is, and so is the folder it stands for.
  hash.update(`${ESBUILD_VERSION}\0${readFileSync(fileURLToPath(import.meta.url))}\0${root}\0`);
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(path.join(root, file))).update('\0');
  const base = path.join(root, 'node_modules', '.cache', 'docsgen', 'runtime');
  const dir = path.join(base, hash.digest('hex').slice(0, 16));
  const url = pathToFileURL(path.join(dir, entry.replace(TYPESCRIPT, '.mjs'))).href;
  if (existsSync(dir)) return { dir, url };

  const aside = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: files,
    outdir: aside,
    outbase: root,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    plugins: [keepModulesApart],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    // Where the sources are (cli/paths.ts): not found from the copy's own place, which may be
    // reached through a linked node_modules (Node imports a module by its real path).
    define: { 'import.meta.docsgenRoot': JSON.stringify(root) },
    // `NODE_OPTIONS=--enable-source-maps docsgen …` makes a stack trace name the TypeScript lines.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
  });
  try {
    renameSync(aside, dir);
  } catch (error) {
    // Another command made the same copy first: use that one.
    rmSync(aside, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  removeStaleCopies(base, dir);
  return { dir, url };
}

function removeStaleCopies(base, keep) {
  const now = Date.now();
  for (const name of readdirSync(base)) {
    const dir = path.join(base, name);
    if (dir === keep) continue;
    try {
      if (now - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another command meanwhile.
    }
  }
}
