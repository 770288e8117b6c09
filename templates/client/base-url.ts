/**
 * The base URL the page was built for, and routes joined to it, for the code loaded after
 * the page (islands, the sidebar's items, live reload). The router, which runs before the
 * load event and is held to its budget, reads the attribute itself.
 */
import { DATA } from '../shared/index.ts';
import { withBase } from '../shared/base-url.ts';

export function siteBaseUrl(): string {
  return document.documentElement.getAttribute(DATA.baseUrl) ?? '/';
}

/** A route of the site ('/docs/x') as the URL it is served at ('/docs-portal/docs/x'). */
export function siteUrl(route: string): string {
  return withBase(siteBaseUrl(), route);
}
