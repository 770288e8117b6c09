/**
 * Static server for a built site. It answers exactly as the production host does:
 * `/x`, `/x/`, `/x.html` and `/x/index.html` are one page, unknown paths get 404.html
 * with status 404, and there is no single-page fallback, so a link that works here
 * works when deployed. It knows nothing about MDX or config; watch mode plugs in
 * through `middleware` and `transformHtml`.
 *
 * `send` does ETags, conditional GET, ranges and HEAD for plain files, and for the
 * brotli/gzip copies the build wrote next to them (`x.br`, `x.gz`), sent as they are
 * when the request accepts them. `compression` is the fallback for text without a
 * copy (small files, watch mode). HTML is read into memory when `transformHtml` changes
 * it (and for the 404 page), so the ETag and compression apply to the transformed body.
 *
 * Every response carries the security headers the build wrote for the site (see
 * stages/security-headers.ts); requests that are not plain HTTP/1.x with one valid
 * Host are refused as nginx refuses them.
 */
import { createHash } from 'node:crypto';
import { promises as fsp, type Stats } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import compression from 'compression';
import fresh from 'fresh';
import mime from 'mime-types';
import Negotiator from 'negotiator';
import send from 'send';
import { readBuiltBaseUrl } from './base-url.ts';
import { DocsgenError } from './errors.ts';
import { fileSignature } from './file-signature.ts';
import { withoutBase } from '../templates/shared/base-url.ts';
import { PRECOMPRESSED_EXTENSIONS } from './stages/precompress.ts';
import { BASELINE_HEADERS, HEADERS_JSON } from './stages/security-headers.ts';
import { pageFileCandidates } from '../templates/shared/routes.ts';

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
  /**
   * The path to serve the site under ('/portal/'), asked for on every request; undefined,
   * or no function, means the base URL the folder was built for (see cli/base-url.ts).
   */
  baseUrl?: () => string | undefined;
}

export interface RunningServer {
  /** http://HOST:PORT, with the port actually bound. */
  url: string;
  /** The path the site is served under now ('/' or '/portal/'). */
  baseUrl(): string;
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

/** A compressed copy written by the build, standing in for a file. */
interface Encoded {
  encoding: keyof typeof PRECOMPRESSED_EXTENSIONS;
  copy: Target;
}

/** What Host may hold (RFC 3986 reg-name or IP literal, then a port): nginx refuses the rest with 400 too. */
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d*)?$/;

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const root = await checkSiteDir(options.dir);
  const builtBaseUrl = await readBuiltBaseUrl(root).catch((error: unknown) => {
    throw new DocsgenError(`Cannot serve ${displayPath(options.dir)}: ${error instanceof Error ? error.message : String(error)}.`, { hint: 'Run docsgen build again.', cause: error });
  });
  const baseUrlNow = () => options.baseUrl?.() ?? builtBaseUrl;
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
  // What each response must keep when a failed attempt's headers are cleared.
  const securityHeaders = new WeakMap<http.ServerResponse, Readonly<Record<string, string>>>();
  /** Wraps the response in the compressor once; twice would compress twice. */
  function enableCompression(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (compressing.has(res) || res.headersSent) return;
    compressing.add(res);
    compress(req, res, () => {});
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => failed(req, res, error));
  });
  server.on('clientError', answerUnparsable);

  let answering = 0;
  let whenIdle: (() => void)[] = [];
  const answered = () => {
    if (--answering > 0) return;
    const waiting = whenIdle;
    whenIdle = [];
    for (const resolve of waiting) resolve();
  };

  // The headers file of the site, read again only when it changes (a watch rebuild rewrites it).
  let headersFile: { key: string; headers: Readonly<Record<string, string>> } | undefined;
  async function siteHeaders(): Promise<Readonly<Record<string, string>>> {
    const file = path.join(root, ...HEADERS_JSON.split('/'));
    const stat = await fsp.stat(file).catch(() => undefined);
    if (!stat?.isFile()) return BASELINE_HEADERS;
    const key = fileSignature(stat);
    if (headersFile?.key !== key) {
      let headers: Readonly<Record<string, string>>;
      try {
        headers = parseHeaders(await fsp.readFile(file, 'utf8'));
      } catch (error) {
        process.stderr.write(`docsgen serve: ${HEADERS_JSON} in the site could not be read, so only the baseline security headers are sent (${error instanceof Error ? error.message : String(error)}). Build the site again.\n`);
        headers = BASELINE_HEADERS;
      }
      headersFile = { key, headers };
    }
    return headersFile.headers;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const security = await siteHeaders();
    securityHeaders.set(res, security);
    for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
    const refused = refusal(req);
    if (refused) {
      res.setHeader('Connection', 'close');
      plain(req, res, refused.status, refused.message);
      return;
    }
    ignoreFutureDate(req);
    // The site lives under its base URL, as on the host it is deployed to: the rest of this
    // function, and the middleware, see paths from the site's root.
    const baseUrl = baseUrlNow();
    const outside = baseUrl === '/' ? undefined : underBaseUrl(req, baseUrl);
    if (!outside && options.middleware && (await options.middleware(req, res))) return;
    answering++;
    res.once('close', answered);
    if (outside === 'redirect') {
      // As Docusaurus's server does, the host's root (or the base without its slash) leads to the site.
      plain(req, res, 302, `Found: the site is served under ${baseUrl}`, { Location: baseUrl });
      return;
    }
    if (outside === 'not-found') {
      enableCompression(req, res);
      await notFound(req, res, safePathname(req.url));
      return;
    }

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

    for (const candidate of candidates(parsed.segments, parsed.trailingSlash)) {
      const target = await lookup(root, candidate);
      if (!target) continue;
      const isHtml = target.rel.endsWith('.html');
      // A transformed page is not the file the copies were made from.
      const encoded = isHtml && options.transformHtml ? undefined : await precompressed(req, target);
      if (encoded) return sendFile(req, res, target, parsed.pathname, encoded);
      enableCompression(req, res);
      if (isHtml) await sendHtml(req, res, target, 200, parsed.pathname);
      else await sendFile(req, res, target, parsed.pathname);
      return;
    }
    enableCompression(req, res);
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
      if (preconditionFailed(req, etag, lastModified)) {
        clearHeaders(res, securityHeaders.get(res));
        plain(req, res, 412, 'Precondition Failed: the page changed since the version the request names.');
        return;
      }
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

  /** `encoded`: send the build's compressed copy of the file instead, as that encoding of it. */
  function sendFile(req: http.IncomingMessage, res: http.ServerResponse, target: Target, pathname: string, encoded?: Encoded): Promise<void> {
    const type = contentType(target.file);
    const compressible = isCompressible(type);
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', target.rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    if (compressible) res.setHeader('Vary', 'Accept-Encoding');
    if (encoded) res.setHeader('Content-Encoding', encoded.encoding);
    else identityType.set(res, type);
    const sent = encoded?.copy ?? target;

    return new Promise<void>((resolve) => {
      // The path goes in encoded because send decodes it; it is the real path already
      // checked to lie inside root, so send opens exactly what was checked.
      const stream = send(req, '/' + sent.rel.split('/').map(encodeURIComponent).join('/'), {
        root,
        dotfiles: 'allow',
        index: false,
        extensions: false,
        cacheControl: false,
        etag: true,
        lastModified: true,
        // A byte range of a body that may be compressed on the fly is ill-defined, so
        // ranges are offered only for bytes fixed on disk: types that are never
        // compressed (images, fonts) and the build's compressed copies, whose own ETag
        // names exactly the bytes the range is taken from.
        acceptRanges: !compressible || encoded !== undefined,
      });
      stream.on('error', (error: Error & { status?: number; headers?: Record<string, string> }) => {
        if (res.headersSent) {
          res.destroy();
          resolve();
          return;
        }
        const status = error.status ?? 500;
        clearHeaders(res, securityHeaders.get(res));
        if (encoded && status === 404) {
          // The copy went away (a rebuild): the file itself may still be there.
          sendFile(req, res, target, pathname).then(resolve, (e: unknown) => {
            failed(req, res, e);
            resolve();
          });
          return;
        }
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

  /**
   * The build's compressed copy of `target` in the best encoding the request accepts,
   * if there is one written after the file (watch mode rewrites files and makes none).
   */
  async function precompressed(req: http.IncomingMessage, target: Target): Promise<Encoded | undefined> {
    if (!req.headers['accept-encoding'] || !isCompressible(contentType(target.file))) return undefined;
    const offered = Object.keys(PRECOMPRESSED_EXTENSIONS) as (keyof typeof PRECOMPRESSED_EXTENSIONS)[];
    // negotiator 0.6.4 takes the server's order for ties (br before gzip); its types predate that argument.
    const negotiator = new Negotiator(req) as Negotiator & { encodings(available: readonly string[], preferred: readonly string[]): string[] };
    for (const encoding of negotiator.encodings(offered, offered)) {
      if (encoding === 'identity') return undefined;
      const copy = await lookup(root, target.rel + PRECOMPRESSED_EXTENSIONS[encoding as keyof typeof PRECOMPRESSED_EXTENSIONS]);
      if (copy && copy.stat.mtimeMs >= target.stat.mtimeMs) return { encoding: encoding as keyof typeof PRECOMPRESSED_EXTENSIONS, copy };
    }
    return undefined;
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
    clearHeaders(res, securityHeaders.get(res));
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
    baseUrl: baseUrlNow,
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

/**
 * Maps a request under the base URL to the site's root by rewriting `req.url`
 * ('/portal/docs/x?q' -> '/docs/x?q'); else says how to answer it.
 */
function underBaseUrl(req: http.IncomingMessage, baseUrl: string): 'redirect' | 'not-found' | undefined {
  const url = req.url ?? '/';
  const queryAt = url.search(/[?#]/);
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  if (pathname === '/' || pathname === baseUrl.slice(0, -1)) return 'redirect';
  const route = withoutBase(baseUrl, pathname);
  if (route === undefined) return 'not-found';
  req.url = route + (queryAt === -1 ? '' : url.slice(queryAt));
  return undefined;
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
  out.push(...pageFileCandidates(`/${route.join('/')}`));
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

/** Drops what a failed attempt set (ETag, Content-Range, immutable caching) before answering anew; keeps the security headers. */
function clearHeaders(res: http.ServerResponse, keep: Readonly<Record<string, string>> = BASELINE_HEADERS): void {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  for (const [name, value] of Object.entries(keep)) res.setHeader(name, value);
}

/**
 * What Node answers to a request it cannot parse, except that a version it does not
 * know (HTTP/3.0) gets 505 as from nginx rather than 400. Like Node, it answers only
 * when no response on the connection has started, so a reply never lands inside one.
 */
function answerUnparsable(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own default reads the same field: the response in flight on this connection.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const status = error.code === 'HPE_INVALID_VERSION' ? 505 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }
  socket.destroy(error);
}

/**
 * Requests nginx refuses before looking at the path, refused alike: another HTTP
 * version than 1.x, and a Host header that is missing (HTTP/1.1), repeated, empty or
 * not a host name (spaces, slashes, `..`). Node answers a missing one itself.
 */
function refusal(req: http.IncomingMessage): { status: 400 | 505; message: string } | undefined {
  if (req.httpVersionMajor > 1) return { status: 505, message: 'HTTP Version Not Supported: this server speaks HTTP/1.0 and HTTP/1.1.' };
  if (req.httpVersionMajor < 1) return { status: 400, message: 'Bad Request: HTTP/0.9 is not supported.' };
  const hosts: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts.push(req.rawHeaders[i + 1]!);
  if (hosts.length > 1) return { status: 400, message: 'Bad Request: the request has more than one Host header.' };
  const host = hosts[0];
  if (host === undefined) return req.httpVersionMinor >= 1 ? { status: 400, message: 'Bad Request: an HTTP/1.1 request needs a Host header.' } : undefined;
  if (!VALID_HOST.test(host) || host.includes('..')) return { status: 400, message: 'Bad Request: the Host header is not a valid host name.' };
  return undefined;
}

/** RFC 9110 13.1.3: a date later than the server's clock is invalid, so the condition is ignored. */
function ignoreFutureDate(req: http.IncomingMessage): void {
  const since = req.headers['if-modified-since'];
  if (since !== undefined && Date.parse(since) > Date.now()) delete req.headers['if-modified-since'];
}

/**
 * If-Match and If-Unmodified-Since on a page read into memory, as send does for files:
 * the weak comparison (the same page is sent br, gzip or plain), and the date checked
 * only when there is no If-Match.
 */
function preconditionFailed(req: http.IncomingMessage, etag: string, lastModified: string | undefined): boolean {
  const match = req.headers['if-match'];
  if (match !== undefined) {
    if (match.trim() === '*') return false;
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return !match.split(',').some((tag) => opaque(tag) === opaque(etag));
  }
  const unmodifiedSince = Date.parse(req.headers['if-unmodified-since'] ?? '');
  return lastModified !== undefined && !Number.isNaN(unmodifiedSince) && Date.parse(lastModified) > unmodifiedSince;
}

/** The site's headers file: one object of header names to values. */
function parseHeaders(text: string): Readonly<Record<string, string>> {
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('it is not a JSON object');
  const headers: Record<string, string> = { ...BASELINE_HEADERS };
  for (const [name, header] of Object.entries(value)) {
    if (!/^[A-Za-z0-9-]+$/.test(name) || typeof header !== 'string' || /[\r\n]/.test(header)) throw new Error(`the header ${JSON.stringify(name)} is not a header name with a one-line text value`);
    headers[name] = header;
  }
  return headers;
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
