/**
 * The real site, built once for the tests that read its output or drive it in a
 * browser. `npm test` builds it before the suite and passes the folder in
 * DOCSGEN_TEST_DIST; a test file run on its own builds it into a temp folder.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../../cli/serve.ts';
import { tempDir } from './temp.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * Where the build of the real site keeps its caches (cli/build.ts's defaultCacheDir()):
 * fixtures built with the same templates reuse its client bundle (helpers/build.ts, copyWatchSite()).
 */
export const realSiteCacheDir = path.join(repoRoot, 'node_modules', '.cache', 'docsgen');

let built: Promise<string> | undefined;

/** Absolute path of a built copy of the real site. */
export function builtSite(): Promise<string> {
  built ??= (async () => {
    const fromEnv = process.env.DOCSGEN_TEST_DIST;
    if (fromEnv && existsSync(path.join(fromEnv, 'index.html'))) return path.resolve(fromEnv);
    // Shared by every test of the file: removed when the test process ends, however it ends.
    const atExit = { after: () => undefined };
    const dir = await tempDir(atExit, 'site');
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const out = path.join(dir, 'dist');
    // Loaded only here: the build's modules take seconds to import, and under `npm test`
    // (DOCSGEN_TEST_DIST set) the many files that only serve the built site never need them.
    const [{ build }, { loadConfig }, { createLogger }] = await Promise.all([import('../../cli/build.ts'), import('../../cli/config.ts'), import('../../cli/log.ts')]);
    const config = await loadConfig(repoRoot);
    await build(config, { outDir: out, logger: createLogger({ level: 'quiet' }) });
    return out;
  })();
  return built;
}

/** Serves the built real site on a free loopback port; close it in after(). */
export async function serveBuiltSite(): Promise<RunningServer> {
  return startServer({ dir: await builtSite(), port: 0, host: '127.0.0.1' });
}
