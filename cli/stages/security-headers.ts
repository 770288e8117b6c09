/**
 * Stage: the security headers of the site, worked out from what the build wrote. The
 * Content-Security-Policy allows exactly the inline scripts of the pages (by hash) and,
 * for the API references' try-it console, the origins of the servers it sends requests
 * to; everything else must come from the site itself. The headers are written twice
 * into a folder no server publishes: as JSON, which `docsgen serve` sends, and as an
 * nginx snippet that deploy/nginx.conf includes, so both send the same policy.
 */
import { createHash } from 'node:crypto';
import { Parser, type Handler } from 'htmlparser2';
import type { OutputAsset } from './bundle.ts';
import { asObject } from '../json.ts';
import { pickServer } from '../openapi/servers.ts';
import type { LoadedApiDocument } from './openapi.ts';
import type { RenderedPage } from './render.ts';
import { shared, type StringPool } from '../shared-strings.ts';

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

/** Directives that list the other origins the pages load from, and what goes into each. */
type SourceDirective = 'script-src' | 'style-src' | 'img-src' | 'media-src' | 'frame-src' | 'connect-src';

/** What a page runs inline and loads from other hosts. */
export interface PageSources {
  inlineScripts: string[];
  external: [SourceDirective, string][];
}

/** The sources of each page, read by the scan stage's one pass over it (see scan-pages.ts). */
export interface HeaderSourcesCache {
  sourcesOfPage: WeakMap<RenderedPage, PageSources>;
  /**
   * One copy of each inline script kept: most are on every page (the theme's), and at
   * thousands of pages their copies were tens of megabytes.
   */
  scripts: StringPool;
}

export function createHeaderSourcesCache(): HeaderSourcesCache {
  return { sourcesOfPage: new WeakMap(), scripts: new Map() };
}

/** `sources` with each inline script replaced by the copy the cache keeps. */
export function sharedSources(sources: PageSources, cache: HeaderSourcesCache): PageSources {
  return { inlineScripts: sources.inlineScripts.map((script) => shared(cache.scripts, script)), external: sources.external };
}

export function securityHeaders(
  input: { pages: readonly RenderedPage[]; apis: readonly LoadedApiDocument[]; sandboxOf?: (apiId: string) => string | undefined },
  cache = createHeaderSourcesCache()): Record<string, string> {
  const sources: Record<SourceDirective, Set<string>> = {
    'script-src': new Set(),
    'style-src': new Set(),
    'img-src': new Set(),
    'media-src': new Set(),
    'frame-src': new Set(),
    'connect-src': new Set(),
  };
  // Every page carries the same few inline scripts: each is hashed once, not once a page.
  const hashes = new Map<string, string>();
  const hashOf = (script: string) => {
    let hash = hashes.get(script);
    if (hash === undefined) hashes.set(script, (hash = `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`));
    return hash;
  };
  for (const page of input.pages) {
    const found = cache.sourcesOfPage.get(page) ?? scanPage(page.html);
    for (const script of found.inlineScripts) sources['script-src'].add(hashOf(script));
    for (const [directive, url] of found.external) sources[directive].add(originOf(url));
  }
  for (const api of input.apis) for (const url of tryItServers(api, input.sandboxOf?.(api.id))) sources['connect-src'].add(originOf(url));
  const list = (directive: SourceDirective, ...fixed: string[]) => {
    const extra = [...sources[directive]].filter((source) => source !== '').sort();
    return [directive, ...fixed, ...extra].join(' ');
  };
  const policy = [
    "default-src 'self'",
    list('script-src', "'self'"),
    // Elements (the API reference island) and the server-rendered code blocks set style
    // attributes; a style cannot run code, and scripts are what the policy guards.
    list('style-src', "'self'", "'unsafe-inline'"),
    list('img-src', "'self'", 'data:'),
    "font-src 'self' data:",
    ...(sources['media-src'].size > 0 ? [list('media-src', "'self'")] : []),
    ...(sources['frame-src'].size > 0 ? [list('frame-src', "'self'")] : []),
    list('connect-src', "'self'"),
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

/**
 * The text of every inline script a browser would run, exactly as the hash covers it,
 * and the URLs of what the page loads from other hosts (an image or a video an author
 * linked to), by the directive that must allow them.
 */
function scanPage(html: string): PageSources {
  const reader = sourcesReader();
  const parser = new Parser(reader.handler);
  parser.write(html);
  parser.end();
  return reader.result;
}

/** Parser events that collect a page's sources, so the scan stage's one parse can feed them too. */
export function sourcesReader(): { handler: Partial<Handler>; result: PageSources } {
  const scripts: string[] = [];
  const external: [SourceDirective, string][] = [];
  const add = (directive: SourceDirective, url: string | undefined) => {
    if (url !== undefined && /^(https?:)?\/\//i.test(url.trim())) external.push([directive, url.trim()]);
  };
  const addSrcset = (directive: SourceDirective, srcset: string | undefined) => {
    for (const candidate of srcset?.split(',') ?? []) add(directive, candidate.trim().split(/\s+/)[0]);
  };
  let current: string | undefined;
  const handler: Partial<Handler> = {
    onopentag(name, attributes) {
      if (name === 'img' || (name === 'source' && attributes.srcset !== undefined)) {
        add('img-src', attributes.src);
        addSrcset('img-src', attributes.srcset);
      } else if (name === 'video' || name === 'audio' || name === 'source' || name === 'track') {
        add('media-src', attributes.src);
        add('img-src', attributes.poster);
      } else if (name === 'iframe') add('frame-src', attributes.src);
      else if (name === 'link' && /\bstylesheet\b/i.test(attributes.rel ?? '')) add('style-src', attributes.href);
      if (name !== 'script') return;
      add('script-src', attributes.src);
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
  };
  return { handler, result: { inlineScripts: scripts, external } };
}

/**
 * The servers try-it calls: at every level a document declares servers, the sandbox one
 * as try-it and the request samples pick it (see cli/openapi/servers.ts).
 */
function tryItServers(api: LoadedApiDocument, sandbox: string | undefined): string[] {
  const pick = (list: unknown) => (Array.isArray(list) && list.length > 0 ? pickServer([list], sandbox) : '');
  const urls = [pick(api.document.servers)];
  for (const group of [api.document.paths, api.document.webhooks]) {
    for (const item of Object.values(asObject(group))) {
      const pathItem = asObject(item);
      urls.push(pick(pathItem.servers));
      for (const operation of Object.values(pathItem)) urls.push(pick(asObject(operation).servers));
    }
  }
  return urls.filter((url) => url !== '');
}

/** A URL's origin; relative URLs (the site's own host) are covered by 'self'. */
function originOf(url: string): string {
  try {
    // Protocol-relative URLs (//host/x) are read as https, which is what an https site loads.
    const parsed = new URL(url.startsWith('//') ? `https:${url}` : url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : '';
  } catch {
    return '';
  }
}
