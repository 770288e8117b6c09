/**
 * The real site, built once for the tests that read its output or drive it in a
 * browser. `npm test` builds it before the suite and passes the folder in
 * DOCSGEN_TEST_DIST; a test file run on its own builds it into a temp folder.
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../../cli/build.ts';
import { loadConfig } from '../../cli/config.ts';
import { createLogger } from '../../cli/log.ts';
import { startServer, type RunningServer } from '../../cli/serve.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let built: Promise<string> | undefined;

/** Absolute path of a built copy of the real site. */
export function builtSite(): Promise<string> {
  built ??= (async () => {
    const fromEnv = process.env.DOCSGEN_TEST_DIST;
    if (fromEnv && existsSync(path.join(fromEnv, 'index.html'))) return path.resolve(fromEnv);
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'docsgen-site-')), 'dist');
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
