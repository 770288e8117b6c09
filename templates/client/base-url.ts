/** The base URL the page was built for, and routes joined to it, in the browser. */
import { BASE_URL_ATTRIBUTE, withBase } from '../shared/base-url.ts';

export function siteBaseUrl(): string {
  return document.documentElement.getAttribute(BASE_URL_ATTRIBUTE) ?? '/';
}

/** A route of the site ('/docs/x') as the URL it is served at ('/docs-portal/docs/x'). */
export function siteUrl(route: string): string {
  return withBase(siteBaseUrl(), route);
}
