/**
 * Static server for a built site. It answers exactly as the production host does:
 * `/x`, `/x/`, `/x.html` and `/x/index.html` are one page, unknown paths get 404.html
 * with status 404, and there is no single-page fallback, so a link that works here
 * works when deployed. It knows nothing about MDX or config; watch mode plugs in
 * through `middleware` and `transformHtml`.
 *
 * `send` does ETags, conditional GET, ranges and HEAD for plain files; `compression`
 * negotiates brotli/gzip. HTML is read into memory instead, so `transformHtml` can
 * change it and the ETag and compression apply to the transformed body.
 */
import { createHash } from 'node:crypto';
import { promises as fsp, type Stats } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import compression from 'compression';
import fresh from 'fresh';
import mime from 'mime-types';
import send from 'send';
import { DocsgenError } from './errors.ts';

export interface ServeOptions {
  /** Absolute path of the built site. */
  dir: string;
  /** 0 = any free port. */
  port: number;
  /** The CLI passes 127.0.0.1 unless told otherwise. */
  host: string;
  /** Tried before static files; return true when it handled the request (watch mode uses it for its live-reload endpoint). */
  middleware?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean | Promise<boolean>;
  /** Applied to every HTML response body before sending (watch mode injects its client script). */
  transformHtml?: (html: string, pathname: string) => string;
}

export interface RunningServer {
  /** http://HOST:PORT, with the port actually bound. */
  url: string;
  port: number;
  /**
   * Resolves when no file request is being answered (the middleware's long-lived streams
   * do not count): watch mode does its background work in the gaps, so pages come first.
   */
  idle(): Promise<void>;
  /** Stops listening and ends open connections; safe to call more than once. */
  close(): Promise<void>;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** Bodies smaller than this gain too little from compression to pay for it. */
const COMPRESSION_THRESHOLD = 1024;
/** Long-lived responses (a live-reload event stream) would otherwise hold close() open forever. */
const CLOSE_GRACE_MS = 500;

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

/** A request path split into decoded segments, or the status that refuses it. */
type ParsedPath =
  | { ok: true; segments: string[]; trailingSlash: boolean; pathname: string }
  | { ok: false; status: 400 | 404 };

interface Target {
  /** Real path of the file, inside the site folder. */
  file: string;
  /** The same path relative to the site folder, with forward slashes. */
  rel: string;
  stat: Stats;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const root = await checkSiteDir(options.dir);
  // The identity content type of each response, for the compression filter: send
  // removes Content-Type from a 304, yet the 304 must still say it varies.
  const identityType = new WeakMap<http.ServerResponse, string>();
  // @types/compression types the handler with express's request and response, which
  // only extend Node's; this server passes Node's own objects, which is what it reads.
  const compress = compression({
    threshold: COMPRESSION_THRESHOLD,
    filter: (_req: http.IncomingMessage, res: http.ServerResponse) => {
      const type = identityType.get(res);
      return type !== undefined && isCompressible(type) && (res.statusCode === 200 || res.statusCode === 404);
    },
  }) as unknown as NodeHandler;
  const compressing = new WeakSet<http.ServerResponse>();
  /** Wraps the response in the compressor once; twice would compress twice. */
  function enableCompression(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (compressing.has(res) || res.headersSent) return;
    compressing.add(res);
    compress(req, res, () => {});
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => failed(req, res, error));
  });

  let answering = 0;
  let whenIdle: (() => void)[] = [];
  const answered = () => {
    if (--answering > 0) return;
    const waiting = whenIdle;
    whenIdle = [];
    for (const resolve of waiting) resolve();
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (options.middleware && (await options.middleware(req, res))) return;
    answering++;
    res.once('close', answered);

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(req, res, 405, 'Method Not Allowed: this server only answers GET and HEAD.', { Allow: 'GET, HEAD' });
      return;
    }

    const parsed = parseRequestPath(req.url ?? '/');
    if (!parsed.ok) {
      if (parsed.status === 400) plain(req, res, 400, 'Bad Request: the URL path is not valid.');
      else await notFound(req, res, safePathname(req.url));
      return;
    }

    enableCompression(req, res);
    for (const candidate of candidates(parsed.segments, parsed.trailingSlash)) {
      const target = await lookup(root, candidate);
      if (!target) continue;
      if (target.rel.endsWith('.html')) await sendHtml(req, res, target, 200, parsed.pathname);
      else await sendFile(req, res, target, parsed.pathname);
      return;
    }
    await notFound(req, res, parsed.pathname);
  }

  async function sendHtml(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    target: Target,
    status: 200 | 404,
    pathname: string,
  ): Promise<void> {
    let html: string;
    try {
      html = await fsp.readFile(target.file, 'utf8');
    } catch (error) {
      // Deleted between lookup and read (a rebuild in progress): answer as the host would.
      if (!isMissing(error)) throw error;
      if (status === 200) return notFound(req, res, pathname);
      return plain(req, res, 404, 'Not Found.');
    }
    if (options.transformHtml) html = options.transformHtml(html, pathname);
    const body = Buffer.from(html, 'utf8');
    const type = 'text/html; charset=utf-8';

    identityType.set(res, type);
    res.statusCode = status;
    res.setHeader('Cache-Control', REVALIDATE);
    res.setHeader('Vary', 'Accept-Encoding');
    if (status === 200) {
      // Weak because the same page is sent br, gzip or plain: equal in meaning, not in bytes.
      const etag = `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
      res.setHeader('ETag', etag);
      // The transformed body can change without the file changing, so then only the ETag validates it.
      const lastModified = options.transformHtml ? undefined : target.stat.mtime.toUTCString();
      if (lastModified) res.setHeader('Last-Modified', lastModified);
      if (fresh(req.headers, { etag, 'last-modified': lastModified })) {
        res.statusCode = 304;
        res.end();
        return;
      }
    }
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', body.length);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  }

  function sendFile(req: http.IncomingMessage, res: http.ServerResponse, target: Target, pathname: string): Promise<void> {
    const type = contentType(target.file);
    const compressible = isCompressible(type);
    identityType.set(res, type);
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', target.rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    if (compressible) res.setHeader('Vary', 'Accept-Encoding');

    return new Promise<void>((resolve) => {
      // The path goes in encoded because send decodes it; it is the real path already
      // checked to lie inside root, so send opens exactly what was checked.
      const stream = send(req, '/' + target.rel.split('/').map(encodeURIComponent).join('/'), {
        root,
        dotfiles: 'allow',
        index: false,
        extensions: false,
        cacheControl: false,
        etag: true,
        lastModified: true,
        // A byte range of a body that may be sent compressed is ill-defined, so
        // ranges are offered only for types that are never compressed (images, fonts).
        acceptRanges: !compressible,
      });
      stream.on('error', (error: Error & { status?: number; headers?: Record<string, string> }) => {
        if (res.headersSent) {
          res.destroy();
          resolve();
          return;
        }
        const status = error.status ?? 500;
        clearHeaders(res);
        if (status === 404 || status === 403) {
          notFound(req, res, pathname).then(resolve, (e: unknown) => {
            failed(req, res, e);
            resolve();
          });
          return;
        }
        if (status >= 500) failed(req, res, error);
        else plain(req, res, status, `${http.STATUS_CODES[status] ?? 'Error'}.`, error.headers);
        resolve();
      });
      stream.on('end', () => resolve());
      // 304, 412 and HEAD end without the 'end' event.
      res.on('finish', () => resolve());
      res.on('close', () => resolve());
      stream.pipe(res);
    });
  }

  async function notFound(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<void> {
    const page = await lookup(root, '404.html');
    if (!page) {
      plain(req, res, 404, 'Not Found.');
      return;
    }
    enableCompression(req, res);
    await sendHtml(req, res, page, 404, pathname);
  }

  function failed(req: http.IncomingMessage, res: http.ServerResponse, error: unknown): void {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`docsgen serve: ${req.method ?? '?'} ${req.url ?? '?'} failed:\n${detail}\n`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    clearHeaders(res);
    plain(req, res, 500, 'Internal Server Error: see the terminal running docsgen serve.');
  }

  await listen(server, options.port, options.host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostInUrl}:${port}`,
    port,
    idle() {
      return answering === 0 ? Promise.resolve() : new Promise((resolve) => whenIdle.push(resolve));
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        server.close((error) => {
          clearTimeout(force);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

/** Resolves `dir` to its real path, or explains why it is not a built site. */
async function checkSiteDir(dir: string): Promise<string> {
  const shown = displayPath(dir);
  let stat: Stats;
  try {
    stat = await fsp.stat(dir);
  } catch (error) {
    if (!isMissing(error)) throw error;
    throw new DocsgenError(`Cannot serve ${shown}: the folder does not exist.`, {
      hint: 'Run docsgen build first, or point serve at the folder the build wrote.',
      cause: error,
    });
  }
  if (!stat.isDirectory()) {
    throw new DocsgenError(`Cannot serve ${shown}: it is a file, not a folder.`, {
      hint: 'Point serve at the folder the build wrote (dist by default).',
    });
  }
  const root = await fsp.realpath(dir);
  const index = await fsp.stat(path.join(root, 'index.html')).catch(() => undefined);
  if (!index?.isFile()) {
    throw new DocsgenError(`Cannot serve ${shown}: it has no index.html, so it is not a built site.`, {
      hint: 'Run docsgen build first.',
    });
  }
  return root;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(listenError(error, port, host));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new DocsgenError(`Port ${port} on ${host} is already in use.`, {
        hint: `Stop the program using it, or pick another port: docsgen serve --port ${port + 1}`,
        cause: error,
      });
    case 'EACCES':
      return new DocsgenError(`Port ${port} on ${host} needs privileges this user does not have.`, {
        hint: 'Pick a port above 1023: docsgen serve --port 3000',
        cause: error,
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new DocsgenError(`Cannot listen on ${host}: it is not an address of this machine.`, {
        hint: 'Use 127.0.0.1 for this machine only, or 0.0.0.0 for every network interface.',
        cause: error,
      });
    default:
      return error;
  }
}

/**
 * Splits the raw request target into decoded segments. Refused: anything that could
 * climb out of the folder or name something other than a plain file in it, in any
 * spelling (`..`, `%2e%2e`, encoded slashes, backslashes, NUL), and dotfiles.
 */
function parseRequestPath(url: string): ParsedPath {
  const end = url.search(/[?#]/);
  const raw = end === -1 ? url : url.slice(0, end);
  if (!raw.startsWith('/')) return { ok: false, status: 400 };
  if (raw.includes('\\')) return { ok: false, status: 404 };

  const parts = raw.slice(1).split('/');
  const trailingSlash = parts.length > 1 && parts[parts.length - 1] === '';
  if (parts[parts.length - 1] === '') parts.pop();

  const segments: string[] = [];
  for (const part of parts) {
    if (part === '') return { ok: false, status: 404 };
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { ok: false, status: 400 };
    }
    if (segment.includes('\0')) return { ok: false, status: 400 };
    // Control characters are never part of a file name the build writes.
    if (/[\\/\u0000-\u001f\u007f]/.test(segment)) return { ok: false, status: 404 };
    // Covers ".", ".." and dotfiles alike.
    if (segment.startsWith('.')) return { ok: false, status: 404 };
    segments.push(segment);
  }
  const pathname = '/' + segments.join('/') + (trailingSlash ? '/' : '');
  return { ok: true, segments, trailingSlash, pathname };
}

/**
 * The files a path may name, in order. A path that is a file answers as itself;
 * otherwise `.html` and `/index.html` endings are dropped and the page is looked up
 * as `x.html`, then `x/index.html`, the two spellings the generator writes.
 */
function candidates(segments: readonly string[], trailingSlash: boolean): string[] {
  const out: string[] = [];
  const last = segments[segments.length - 1];
  let route = [...segments];
  if (last !== undefined && !trailingSlash) {
    if (last === 'index.html') route = segments.slice(0, -1);
    else if (last.endsWith('.html')) route = [...segments.slice(0, -1), last.slice(0, -'.html'.length)];
    else out.push(segments.join('/'));
  }
  if (route.length === 0) out.push('index.html');
  else out.push(`${route.join('/')}.html`, `${route.join('/')}/index.html`);
  return out;
}

/** Finds `rel` under root, following symlinks only while they stay inside it. */
async function lookup(root: string, rel: string): Promise<Target | undefined> {
  const logical = path.join(root, ...rel.split('/'));
  if (!isInside(root, logical)) return undefined;
  let real: string;
  try {
    real = await fsp.realpath(logical);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  if (!isInside(root, real) || real === root) return undefined;
  const realRel = path.relative(root, real).split(path.sep);
  // A symlink inside the site may still point at a dotfile.
  if (realRel.some((part) => part.startsWith('.'))) return undefined;
  const stat = await fsp.stat(real);
  if (!stat.isFile()) return undefined;
  return { file: real, rel: realRel.join('/'), stat };
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP';
}

/** MIME type from the extension, with charset=utf-8 on every textual type (the build writes UTF-8). */
function contentType(file: string): string {
  const type = mime.lookup(file) || 'application/octet-stream';
  return isTextual(type) ? `${type}; charset=utf-8` : type;
}

function isTextual(type: string): boolean {
  return (
    type.startsWith('text/') ||
    /\+(json|xml)$/.test(type) ||
    ['application/json', 'application/xml', 'application/javascript', 'application/yaml', 'application/x-yaml'].includes(type)
  );
}

/** Text compresses well; images, fonts and archives are already compressed. */
function isCompressible(typeWithParams: string): boolean {
  const type = typeWithParams.split(';')[0]!.trim().toLowerCase();
  return isTextual(type) || type === 'application/wasm' || type === 'image/vnd.microsoft.icon' || type === 'image/x-icon';
}

function plain(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(`${message}\n`, 'utf8');
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.setHeader('Cache-Control', REVALIDATE);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** Drops what a failed attempt set (ETag, Content-Range, immutable caching) before answering anew. */
function clearHeaders(res: http.ServerResponse): void {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/** The path for messages and transformHtml when the URL itself was refused. */
function safePathname(url: string | undefined): string {
  const raw = (url ?? '/').split(/[?#]/)[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function displayPath(dir: string): string {
  const rel = path.relative(process.cwd(), dir);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : dir;
}
