/**
 * Stage: the security headers of the site, worked out from what the build wrote. The
 * Content-Security-Policy allows exactly the inline scripts of the pages (by hash) and,
 * for the API references' try-it console, the origins of the servers it sends requests
 * to; everything else must come from the site itself. The headers are written twice
 * into a folder no server publishes: as JSON, which `docsgen serve` sends, and as an
 * nginx snippet that deploy/nginx.conf includes, so both send the same policy.
 */
import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import type { OutputAsset } from './bundle.ts';
import type { LoadedApiDocument } from './openapi.ts';
import type { RenderedPage } from './render.ts';

/** A dot folder: both servers refuse every path with a segment starting with a dot. */
export const HEADERS_DIR = '.docsgen';
export const HEADERS_JSON = `${HEADERS_DIR}/headers.json`;
export const HEADERS_NGINX = `${HEADERS_DIR}/headers.nginx.conf`;

/** Sent by every response, also when a site has no headers file (built before it existed). */
export const BASELINE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Content-Type-Options': 'nosniff',
};

/** Script types a browser runs; JSON data blocks (the islands manifest) need no hash. */
const EXECUTABLE_TYPES = new Set(['', 'text/javascript', 'application/javascript', 'module']);

export function securityHeaders(input: { pages: readonly RenderedPage[]; apis: readonly LoadedApiDocument[] }): Record<string, string> {
  const hashes = new Set<string>();
  for (const page of input.pages) for (const script of inlineScripts(page.html)) hashes.add(`'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`);
  const origins = new Set<string>();
  for (const api of input.apis) for (const url of tryItServers(api)) origins.add(originOf(url));
  origins.delete('');
  const policy = [
    "default-src 'self'",
    `script-src 'self' ${[...hashes].sort().join(' ')}`.trim(),
    // Elements (the API reference island) and the server-rendered code blocks set style
    // attributes; a style cannot run code, and scripts are what the policy guards.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${[...origins].sort().join(' ')}`.trim(),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { ...BASELINE_HEADERS, 'Content-Security-Policy': policy };
}

/** The headers as the output files both servers read. */
export function securityHeaderFiles(headers: Readonly<Record<string, string>>): OutputAsset[] {
  const encoder = new TextEncoder();
  const nginx = [
    '# Written by docsgen build: the headers `docsgen serve` sends. Included by every location of deploy/nginx.conf.',
    ...Object.entries(headers).map(([name, value]) => `add_header ${name} "${value}" always;`),
    '',
  ].join('\n');
  return [
    { path: HEADERS_JSON, contents: encoder.encode(`${JSON.stringify(headers, null, 2)}\n`) },
    { path: HEADERS_NGINX, contents: encoder.encode(nginx) },
  ];
}

/** The text of every inline script a browser would run, exactly as the hash covers it. */
function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  let current: string | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name !== 'script') return;
      const type = (attributes.type ?? '').trim().toLowerCase();
      current = attributes.src === undefined && EXECUTABLE_TYPES.has(type) ? '' : undefined;
    },
    ontext(text) {
      if (current !== undefined) current += text;
    },
    onclosetag(name) {
      if (name !== 'script' || current === undefined) return;
      scripts.push(current);
      current = undefined;
    },
  });
  parser.write(html);
  parser.end();
  return scripts;
}

type ServerList = { url?: unknown; description?: unknown }[] | undefined;

/**
 * The servers try-it calls: at every level a document declares servers, the sandbox one
 * (as the render stage and the island pick it: the URL or description says "sandbox",
 * or the description of the document's sandbox server), else the first.
 */
function tryItServers(api: LoadedApiDocument): string[] {
  const sandbox = api.servers.find((s) => /sandbox/i.test(s.url) || /sandbox/i.test(s.description)) ?? api.servers[0];
  const pick = (list: ServerList): string | undefined => {
    if (!Array.isArray(list) || list.length === 0) return undefined;
    const preferred = list.find((s) => s.url === sandbox?.url || (sandbox !== undefined && s.description === sandbox.description) || (typeof s.url === 'string' && /sandbox/i.test(s.url)));
    const url = (preferred ?? list[0])?.url;
    return typeof url === 'string' ? url : undefined;
  };
  const urls = [sandbox?.url];
  const document = api.document;
  for (const group of [document.paths, document.webhooks]) {
    if (!group || typeof group !== 'object') continue;
    for (const item of Object.values(group as Record<string, unknown>)) {
      if (!item || typeof item !== 'object') continue;
      const pathItem = item as Record<string, unknown>;
      urls.push(pick(pathItem.servers as ServerList));
      for (const operation of Object.values(pathItem)) {
        if (operation && typeof operation === 'object' && !Array.isArray(operation)) urls.push(pick((operation as Record<string, unknown>).servers as ServerList));
      }
    }
  }
  return urls.filter((url): url is string => typeof url === 'string' && url !== '');
}

/** A server URL's origin; relative URLs (the site's own host) are covered by 'self'. */
function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : '';
  } catch {
    return '';
  }
}
