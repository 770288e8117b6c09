/**
 * The route <-> file rule of the output (spec §2), for the build, the servers and the
 * browser alike: the page `/x` is written as `x/index.html` and `x.html` (the same bytes),
 * `/` as `index.html`, the not-found page as `404.html`; and `/x.html`, `/x/index.html`
 * and `/x/` all name the page `/x`.
 */
import { canonicalPath } from './index.ts';

/** Route of the page served for unknown paths. */
export const NOT_FOUND_ROUTE = '/404';

/** The files a page is written to: '/' -> index.html; '/404' -> 404.html; '/a/b' -> a/b.html and a/b/index.html. */
export function pageFiles(route: string): string[] {
  if (route === NOT_FOUND_ROUTE) return ['404.html'];
  return pageFileCandidates(route);
}

/**
 * The files that may hold the page of `route`, in the order a server looks for them:
 * '/' -> index.html; '/a/b' -> a/b.html, then a/b/index.html.
 */
export function pageFileCandidates(route: string): string[] {
  const base = route.replace(/^\/+/, '');
  return base === '' ? ['index.html'] : [`${base}.html`, `${base}/index.html`];
}

/** The route of an HTML file of the output: 'a/b/index.html' and 'a/b.html' -> '/a/b'; index.html -> '/'; 404.html -> '/404'. */
export function routeOfFile(rel: string): string {
  return canonicalPath(`/${rel}`);
}
