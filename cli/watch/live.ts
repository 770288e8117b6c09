/**
 * The browser side of watch mode, as seen from the server: a Server-Sent Events stream
 * that tells open pages to reload, swap a stylesheet or show the error overlay, the
 * overlay's payload as JSON, and the client script itself. All of it lives under one
 * path prefix answered by the server's middleware, and reaches pages only through
 * transformHtml, so nothing of it is ever written to the output folder.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import path from 'node:path';
import * as esbuild from 'esbuild';
import {
  CLIENT_PATH,
  ERRORS_PATH,
  EVENTS_PATH,
  HELLO_EVENT,
  LIVE_PREFIX,
  type LiveHello,
  type LiveMessage,
  type OverlayPayload,
} from '../../templates/shared/live-reload.ts';
import { withBase } from '../../templates/shared/base-url.ts';
import { TEMPLATES_DIR } from '../paths.ts';

// The protocol is shared with the browser script; the server's users import it from here.
export {
  CLIENT_PATH,
  ERRORS_PATH,
  EVENTS_PATH,
  LIVE_PREFIX,
  PLACEHOLDER_ATTRIBUTE,
  PLACEHOLDER_TEXT,
  type LiveMessage,
  type OverlayError,
  type OverlayPayload,
  type PlaceholderState,
} from '../../templates/shared/live-reload.ts';

export interface LiveReload {
  middleware(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
  transformHtml(html: string): string;
  send(message: LiveMessage): void;
  /** The overlay state that pages opened from now on receive first. */
  setErrors(payload: OverlayPayload | undefined): void;
  /** The served folder holds a build, no longer the placeholder: pages that connect from now on are told (LiveHello.built). */
  setBuilt(): void;
  /** Number of pages listening, for tests. */
  readonly clients: number;
  close(): void;
}

const HEARTBEAT_MS = 20_000;
/** How soon a page reconnects after the stream drops (watch restarted): quick, it is local. */
const RETRY_MS = 1000;

const clientEntry = path.join(TEMPLATES_DIR, 'client', 'live-reload.ts');

/** Bundles templates/client/live-reload.ts on its own, in memory: `docsgen build` never sees it. */
export async function bundleLiveReloadClient(): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [clientEntry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * `clientScript` may still be bundling: the server starts meanwhile and the script is served once it is ready.
 * `host`: the name or address the server was told to listen on, accepted in the Host header besides localhost.
 * `baseUrl`: the path the site is served under, for the script tag pages get; the server maps it back to LIVE_PREFIX.
 */
export function createLiveReload(clientScript: Promise<string>, options: { host?: string; baseUrl?: () => string | undefined } = {}): LiveReload {
  /** Changes with every start, so a page that reconnects to a restarted watch reloads. */
  const serverId = randomUUID();
  // A failed bundle is reported when a page asks for the script (a 500 and the stack in the terminal).
  clientScript.catch(() => undefined);
  const streams = new Set<http.ServerResponse>();
  let overlay: OverlayPayload | undefined;
  let built = false;
  const heartbeat = setInterval(() => {
    for (const res of streams) res.write(': ping\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

  function reply(req: http.IncomingMessage, res: http.ServerResponse, status: number, type: string, body: string): void {
    const bytes = Buffer.from(body, 'utf8');
    res.statusCode = status;
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', bytes.length);
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'HEAD') res.end();
    else res.end(bytes);
  }

  return {
    get clients() {
      return streams.size;
    },
    async middleware(req, res) {
      const pathname = (req.url ?? '/').split(/[?#]/)[0] ?? '/';
      if (!pathname.startsWith(LIVE_PREFIX)) return false;
      if (!isOwnHost(req, options.host)) {
        // A page of another site whose name was made to resolve to this machine (DNS rebinding) must not read the overlay or the stream.
        reply(req, res, 403, 'text/plain; charset=utf-8', `Forbidden: ${LIVE_PREFIX} answers only requests addressed to this server by localhost, 127.0.0.1 or the address it listens on, with its port.\n`);
        return true;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        reply(req, res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed.\n');
        return true;
      }
      if (pathname === EVENTS_PATH) {
        if (req.method === 'HEAD') {
          res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
          res.end();
          return true;
        }
        res.writeHead(200, {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
        });
        res.write(`retry: ${RETRY_MS}\n\n`);
        res.write(frame(HELLO_EVENT, { id: serverId, errors: overlay ?? { errors: [] }, built } satisfies LiveHello));
        streams.add(res);
        const drop = () => streams.delete(res);
        req.on('close', drop);
        res.on('error', drop);
        return true;
      }
      if (pathname === ERRORS_PATH) {
        reply(req, res, 200, 'application/json; charset=utf-8', `${JSON.stringify(overlay ?? { errors: [] })}\n`);
        return true;
      }
      if (pathname === CLIENT_PATH) {
        reply(req, res, 200, 'text/javascript; charset=utf-8', await clientScript);
        return true;
      }
      reply(req, res, 404, 'text/plain; charset=utf-8', `Not Found: ${LIVE_PREFIX} holds only events, errors and live-reload.js.\n`);
      return true;
    },
    transformHtml(html) {
      const tag = `<script type="module" src="${withBase(options.baseUrl?.() ?? '/', CLIENT_PATH)}"></script>`;
      const head = html.indexOf('</head>');
      if (head !== -1) return `${html.slice(0, head)}${tag}${html.slice(head)}`;
      const body = html.lastIndexOf('</body>');
      if (body !== -1) return `${html.slice(0, body)}${tag}${html.slice(body)}`;
      return html + tag;
    },
    send(message) {
      const text = frame(message.type, message);
      for (const res of streams) res.write(text);
    },
    setErrors(payload) {
      overlay = payload && payload.errors.length > 0 ? payload : undefined;
    },
    setBuilt() {
      built = true;
    },
    close() {
      clearInterval(heartbeat);
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}

/**
 * Whether the Host header names this server: localhost, a loopback address, the address
 * the connection came in on or the host it was started with, and the port it came in on.
 */
function isOwnHost(req: http.IncomingMessage, startedOn: string | undefined): boolean {
  const header = req.headers.host?.toLowerCase();
  const port = req.socket.localPort;
  if (!header || port === undefined) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(header);
  if (!match) return false;
  const [, name, hostPort] = match;
  if (hostPort === undefined ? port !== 80 : Number(hostPort) !== port) return false;
  const bracket = (address: string) => (address.includes(':') ? `[${address}]` : address);
  const local = req.socket.localAddress?.replace(/^::ffff:/, '');
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (local) names.add(bracket(local).toLowerCase());
  if (startedOn && startedOn !== '0.0.0.0' && startedOn !== '::') names.add(bracket(startedOn).toLowerCase());
  return names.has(name!);
}
