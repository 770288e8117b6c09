/**
 * The site's base URL on the build side: checking and normalising the configured value,
 * the absolute URL of a route (canonical, sitemap, feeds, twins), and the file that tells
 * `docsgen serve` which path to serve a built folder under. Joining a base URL and a
 * route is `withBase()` in templates/shared/base-url.ts, which the browser uses too.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutputAsset } from './stages/bundle.ts';
import { HEADERS_DIR } from './stages/security-headers.ts';
import { withBase } from '../templates/shared/base-url.ts';

/** Where a build records its base URL, in the folder no server publishes. */
export const BASE_URL_FILE = `${HEADERS_DIR}/base-url.json`;

/**
 * The configured base URL with one leading and one trailing slash ('docs-portal' ->
 * '/docs-portal/'), or why it cannot be one.
 */
export function normalizeBaseUrl(value: string): { baseUrl: string } | { problem: string } {
  const trimmed = value.trim();
  const fix = "Write the path the site is served under, such as '/' or '/docs-portal/'";
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('//')) {
    return { problem: `'${value}' is a full URL; baseUrl is only the path part. Put the origin in 'url' and the path here (url: 'https://example.com', baseUrl: '/docs-portal/')` };
  }
  if (/[?#\\%\s]/.test(trimmed)) return { problem: `'${value}' contains a '?', '#', '%', '\\' or a space, which a path the site is served under cannot hold. ${fix}` };
  const segments = trimmed.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) return { problem: `'${value}' contains a '.' or '..' segment; a base URL is an absolute path from the host's root. ${fix}` };
  return { baseUrl: segments.length === 0 ? '/' : `/${segments.join('/')}/` };
}

/** The absolute URL of a route of the site: `https://host/portal/docs/x` for '/docs/x'. */
export function absoluteUrl(config: { url: string; baseUrl: string }, route: string): string {
  return `${config.url.replace(/\/+$/, '')}${withBase(config.baseUrl, route)}`;
}

/** The site's URL without a trailing slash (`https://host/portal`): a route appended to it is that route's absolute URL. */
export function siteRootUrl(config: { url: string; baseUrl: string }): string {
  return absoluteUrl(config, '/').replace(/\/$/, '');
}

export function baseUrlFile(baseUrl: string): OutputAsset {
  return { path: BASE_URL_FILE, contents: new TextEncoder().encode(`${JSON.stringify({ baseUrl })}\n`) };
}

/** The base URL a built folder was made for; '/' for a folder built before docsgen had one. */
export async function readBuiltBaseUrl(dir: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path.join(dir, ...BASE_URL_FILE.split('/')), 'utf8');
  } catch {
    return '/';
  }
  const value: unknown = JSON.parse(text);
  const configured = value && typeof value === 'object' && 'baseUrl' in value && typeof value.baseUrl === 'string' ? normalizeBaseUrl(value.baseUrl) : undefined;
  if (!configured || !('baseUrl' in configured)) throw new Error(`${BASE_URL_FILE} does not hold a base URL; build the site again`);
  return configured.baseUrl;
}
