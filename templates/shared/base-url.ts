/**
 * The base URL: the path a whole site is served under ('/' or '/docs-portal/'), as
 * Docusaurus's `baseUrl`. Authors, the config and every stage write routes from the
 * site's root ('/docs/x'); a route becomes a URL of the deployed site here, in Node and
 * in the browser alike.
 */

/** A root-absolute URL path ('/docs/x', '/assets/a.js#x') under the base URL; anything else (external, '//host', '#id', relative) as it is. */
export function withBase(baseUrl: string, url: string): string {
  if (baseUrl === '/' || !url.startsWith('/') || url.startsWith('//')) return url;
  return baseUrl + url.slice(1);
}

/**
 * The route of a URL path of the deployed site: '/portal/docs/x' -> '/docs/x', '/portal'
 * -> '/'; undefined when the path lies outside the base URL.
 */
export function withoutBase(baseUrl: string, pathname: string): string | undefined {
  if (baseUrl === '/') return pathname;
  if (pathname.startsWith(baseUrl)) return pathname.slice(baseUrl.length - 1);
  return pathname === baseUrl.slice(0, -1) ? '/' : undefined;
}
