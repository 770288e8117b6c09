/**
 * Fixture sites: test/fixtures/sites/minimal is a tiny complete site; every other folder
 * there holds only the files a case changes, laid over a copy of minimal in a temp folder.
 */
import { spawn } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { realSiteCacheDir, repoRoot } from './site.ts';
import { tempDir, type CleanupOwner } from './temp.ts';

const sitesDir = path.join(repoRoot, 'test/fixtures/sites');

/** A copy of the minimal site with `overlay` laid over it, removed when `owner` (a test's `t`) ends. */
export async function makeSite(owner: CleanupOwner, overlay?: string): Promise<string> {
  const dir = await tempDir(owner, overlay ?? 'minimal');
  await cp(path.join(sitesDir, 'minimal'), dir, { recursive: true });
  if (overlay) await cp(path.join(sitesDir, overlay), dir, { recursive: true, force: true });
  return dir;
}

/**
 * test/fixtures/sites/watch copied into `dir`. Without `api`, openapi/ is left out, and
 * the site's config leaves its API reference page out with it: a test that does not
 * exercise that page then does not pay for Stoplight Elements on every start. With it,
 * the site's cache folder gets the client bundle the build of the real site kept (the
 * same islands, and the bundle does not depend on the site: see
 * cli/stages/bundle-store.ts), as a site built before has its own: watch mode starts from
 * it instead of bundling Elements again (about 1.5 CPU seconds). It is used only while
 * every file it was made from has the same bytes, and without it the session bundles.
 */
export async function copyWatchSite(dir: string, options: { api: boolean }): Promise<void> {
  await cp(path.join(sitesDir, 'watch'), dir, { recursive: true });
  if (!options.api) await rm(path.join(dir, 'openapi'), { recursive: true });
  else await cp(path.join(realSiteCacheDir, 'bundle'), path.join(dir, 'node_modules/.cache/docsgen/bundle'), { recursive: true }).catch(() => undefined);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the docsgen CLI as a user would, in `cwd`. */
export function runCli(args: string[], cwd: string, timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'cli/bin.mjs'), ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`docsgen ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
