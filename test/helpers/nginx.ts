/**
 * Debian's nginx running deploy/nginx.conf over a built site on a free loopback port,
 * in a temporary prefix of its own: the deployment test and the load benchmark use it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './site.ts';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const MODULES = '/usr/lib/nginx/modules';
export const BROTLI_MODULES = ['ngx_http_brotli_filter_module.so', 'ngx_http_brotli_static_module.so'].map((m) => path.join(MODULES, m));
export const hasBrotli = (): boolean => BROTLI_MODULES.every((m) => existsSync(m));
/** Where deploy/nginx.conf expects the site; replaced by the folder served. */
const DEPLOYED_ROOT = '/var/www/sorrix/dist';

export interface RunningNginx {
  url: string;
  /** What nginx wrote to stderr, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Resolves once this nginx listens. The port answering is not enough: freePort() lets the
 * port go before nginx binds it, and another process of the test run may take it first.
 * nginx writes its pid file only after it has bound its sockets, so the file says the
 * listener is this one; an nginx that could not bind exits (resolves false).
 */
async function waitForListening(child: ChildProcess, pidFile: string, port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    if (existsSync(pidFile)) {
      const ok = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (ok) return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not listen on ${port} within ${timeoutMs} ms`);
}

/**
 * deploy/nginx.conf changed as the README says for a site under a base URL: `dist` lies in
 * a folder named after the base URL, `root` is its parent, and the base URL goes in front
 * of /assets/ and /404.html; the host's root redirects to the site.
 */
function underBaseUrl(serverBlock: string, dist: string, baseUrl: string): string {
  if (!dist.endsWith(baseUrl.replace(/\/$/, ''))) throw new Error(`${dist} must end with the base URL ${baseUrl}`);
  const edits: [string, string][] = [
    [`root ${DEPLOYED_ROOT};`, `root ${dist.slice(0, dist.length - baseUrl.length + 1)};`],
    ['location /assets/ {', `location ${baseUrl}assets/ {`],
    ['error_page 404 /404.html;', `error_page 404 ${baseUrl}404.html;\n    location = / {\n        return 302 ${baseUrl};\n    }`],
  ];
  return edits.reduce((block, [from, to]) => {
    if (!block.includes(from)) throw new Error(`deploy/nginx.conf no longer has "${from}": update the base-URL recipe in the README and here`);
    return block.replace(from, to);
  }, serverBlock);
}

export async function startNginx(dist: string, options: { workers?: number; baseUrl?: string } = {}): Promise<RunningNginx> {
  if (!NGINX) throw new Error('nginx is not installed: run test/setup/ensure-system-deps.sh (npm test does it for you)');
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'docsgen-nginx-'));
  let child: ChildProcess | undefined;
  let log = '';
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
    }
    await rm(prefix, { recursive: true, force: true });
  };
  try {
    const deployed = await readFile(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8');
    const withBrotli = hasBrotli();
    const pidFile = path.join(prefix, 'nginx.pid');
    // A port taken between freePort() and nginx's bind is tried again with another.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const listening = deployed.replace(/listen 80;/, `listen 127.0.0.1:${port};`);
      const serverBlock = (options.baseUrl && options.baseUrl !== '/' ? underBaseUrl(listening, dist, options.baseUrl) : listening).replaceAll(DEPLOYED_ROOT, dist);
      const conf = [
        // Workers must read a build that lives in a private temp folder of this user.
        process.getuid?.() === 0 ? 'user root;' : '',
        ...(withBrotli ? BROTLI_MODULES.map((m) => `load_module ${m};`) : []),
        `worker_processes ${options.workers ?? 1};`,
        `pid ${pidFile};`,
        // To stderr, which log() holds: a failing test can show what nginx said about the request.
        'error_log stderr notice;',
        'events { worker_connections 1024; }',
        'http {',
        '  include /etc/nginx/mime.types;',
        '  default_type application/octet-stream;',
        '  access_log off;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${prefix}/${t};`),
        withBrotli ? serverBlock : serverBlock.replace(/^\s*brotli.*$/gm, ''),
        '}',
      ].join('\n');
      await writeFile(path.join(prefix, 'nginx.conf'), conf);
      const started = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      started.stderr?.on('data', (d: Buffer) => (log += d.toString()));
      const exited = new Promise((resolve) => started.once('exit', resolve));
      const listens = await waitForListening(started, pidFile, port, 10_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${log}`);
      });
      if (listens) return { url: `http://127.0.0.1:${port}`, log: () => log, stop };
      await exited;
      if (attempt === 3 || !/Address already in use/.test(log)) throw new Error(`nginx exited before it listened on ${port}:\n${log}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
}
