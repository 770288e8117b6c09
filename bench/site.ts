/**
 * The real site as a reader gets it: built by the CLI into a temporary folder and
 * served by `docsgen serve` in its own process, so the load generator, the browser and
 * the server do not share one event loop and the server is measured as shipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'cli/bin.mjs');

/** The pages the benchmark looks at, one of each kind a reader lands on. */
export const PAGES = [
  { name: 'home', route: '/' },
  { name: 'doc', route: '/docs/api/pagamento' },
  { name: 'blog post', route: '/blog/2019/05/28/hola' },
  { name: 'api-reference', route: '/api-reference' },
  { name: 'onboarding-api', route: '/onboarding-api-reference' },
] as const;

export interface BenchSite {
  dir: string;
  url: string;
  stop(): Promise<void>;
}

/** Builds the site with the CLI and serves it with `docsgen serve` on a free loopback port. */
export async function buildAndServe(): Promise<BenchSite> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'docsgen-bench-site-'));
  const dir = path.join(tmp, 'dist');
  const built = spawnSync(process.execPath, [bin, 'build', '--quiet', '--out', dir], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) {
    await rm(tmp, { recursive: true, force: true });
    throw new Error(`docsgen build failed, so there is no site to measure:\n${built.stderr}`);
  }
  let child: ChildProcess | undefined;
  try {
    child = spawn(process.execPath, [bin, 'serve', '--dir', dir, '--port', '0', '--host', '127.0.0.1'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const port = await announcedPort(child);
    const server = child;
    return {
      dir,
      url: `http://127.0.0.1:${port}`,
      async stop() {
        if (server.exitCode === null && server.signalCode === null) {
          const exited = new Promise((resolve) => server.once('exit', resolve));
          server.kill('SIGTERM');
          await exited;
        }
        await rm(tmp, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.kill('SIGKILL');
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** Waits for the "Serving … at http://localhost:PORT" line and returns the port. */
function announcedPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`docsgen serve did not start within 30 s.\n${out}${err}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /at http:\/\/[^\s:]+:(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`docsgen serve exited with code ${code} before it was ready.\n${out}${err}`));
    });
  });
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
