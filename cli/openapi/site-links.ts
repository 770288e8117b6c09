/**
 * Links in an API document's descriptions to the site itself (its `url` in the config,
 * the production host) would send readers of a preview or a local build away to
 * production. They become root-relative, like every internal link of the site, in the
 * copy the API reference shows; the author's YAML stays as written for download and
 * Postman, where an absolute link is the useful one. Each rewritten link is returned
 * with its line in the YAML, so the link check reports a broken one there.
 */
import type { SourceLink } from '../mdx/remark-links.ts';
import { isPlainObject } from '../json.ts';
import { withBase } from '../../templates/shared/base-url.ts';

/** The YAML text of the document and how to find things in it. */
export interface YamlSource {
  text: string;
  /** [start, end of value, end of node] of the value at a JSON pointer (as path segments). */
  rangeOf: (segments: readonly string[]) => [number, number, number] | undefined;
  position: (offset: number) => { line: number; column: number };
}

/** Fields whose strings are CommonMark, and fields that are a single URL. */
const MARKDOWN_FIELDS = new Set(['description']);
const URL_FIELDS = new Set(['url']);
/** Parents whose `url` is a link a reader follows (not a server or OAuth endpoint). */
const LINK_OBJECTS = new Set(['externalDocs', 'contact', 'license']);
/** Example and default values are data: a URL in them is a value of the API, not a link. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'enum', 'const']);

export function localizeSiteLinks(
  document: Record<string, unknown>,
  siteUrl: string,
  source: YamlSource,
  /** Put the links under this base URL: for the copy the browser shows as is (the API console), not for pages, which are put under it after rendering. */
  baseUrl = '/',
): { document: Record<string, unknown>; links: SourceLink[] } {
  const origin = siteUrl.replace(/\/+$/, '');
  const links: SourceLink[] = [];
  if (!/^https?:\/\//i.test(origin)) return { document, links };
  const escaped = origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The origin, then a path or nothing; not a longer host such as origin.evil.example.
  const atOrigin = `${escaped}(?![\\w.:-])(/[^\\s)>"'\\]]*)?`;
  const destination = new RegExp(`(\\]\\(\\s*<?|\\]:\\s*<?)${atOrigin}`, 'gi');
  const autolink = new RegExp(`<${atOrigin}>`, 'gi');

  /**
   * Where the n-th link to the site in a value is written: the URL appears as is in the
   * YAML (block and plain scalars keep it whole), so it is searched for inside the value.
   */
  const record = (segments: readonly string[], url: string, nth: number, href: string): void => {
    const range = source.rangeOf(segments);
    let offset = range?.[0] ?? -1;
    for (let i = 0; range && i <= nth && offset !== -1; i++) {
      offset = source.text.indexOf(url, i === 0 ? range[0] : offset + 1);
      if (offset >= range[1]) offset = -1;
    }
    const at = source.position(offset === -1 ? (range?.[0] ?? 0) : offset);
    links.push({ href, line: at.line, column: at.column });
  };

  const rewriteMarkdown = (text: string, segments: readonly string[]): string => {
    const seen = new Map<string, number>();
    const site = (url: string, path: string | undefined): string => {
      const nth = seen.get(url) ?? 0;
      seen.set(url, nth + 1);
      record(segments, url, nth, path || '/');
      return withBase(baseUrl, path || '/');
    };
    return text
      .replace(destination, (match: string, lead: string, path: string | undefined) => `${lead}${site(match.slice(lead.length), path)}`)
      .replace(autolink, (match: string, path: string | undefined) => {
        const href = site(match.slice(1, -1), path);
        return `[${href}](${href})`;
      });
  };

  const rewrite = (node: unknown, segments: string[]): unknown => {
    if (Array.isArray(node)) return node.map((child, i) => rewrite(child, [...segments, String(i)]));
    if (!isPlainObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const at = [...segments, key];
      if (DATA_KEYWORDS.has(key)) out[key] = value;
      else if (typeof value === 'string' && MARKDOWN_FIELDS.has(key)) out[key] = rewriteMarkdown(value, at);
      else if (typeof value === 'string' && URL_FIELDS.has(key) && LINK_OBJECTS.has(segments[segments.length - 1] ?? '')) out[key] = rewriteUrl(value, at);
      else out[key] = rewrite(value, at);
    }
    return out;
  };

  const rewriteUrl = (value: string, segments: readonly string[]): string => {
    const match = new RegExp(`^${atOrigin}$`, 'i').exec(value);
    if (!match) return value;
    const path = match[1] || '/';
    record(segments, value, 0, path);
    return withBase(baseUrl, path);
  };

  return { document: rewrite(document, []) as Record<string, unknown>, links };
}
