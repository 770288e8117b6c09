/**
 * Stage: check every internal link and #anchor of the rendered site in memory, before
 * anything is written. One report lists each broken link once, by source file and
 * line; a link broken on every page comes from the navbar or footer and is reported
 * once as a layout problem (spec: broken links fail the build).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { closest } from 'fastest-levenshtein';
import { Parser, type Handler } from 'htmlparser2';
import type { SiteConfig } from '../config.ts';
import type { Progress } from '../log.ts';
import { DocsgenError, DocsgenErrors } from '../errors.ts';
import type { RenderedPage } from './render.ts';
import { canonicalPath } from '../../templates/shared/index.ts';
import { siteRootUrl } from '../base-url.ts';
import { withBase, withoutBase } from '../../templates/shared/base-url.ts';
import { shared, type StringPool } from '../shared-strings.ts';
import { nearest } from '../suggest.ts';

export interface PageAnchors {
  ids: Set<string>;
  links: { href: string; tag: string }[];
}

/** ids and outgoing links of one HTML document. */
export function scanHtml(html: string): PageAnchors {
  const reader = anchorsReader();
  const parser = new Parser(reader.handler, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return reader.result;
}

/** Parser events that collect a document's ids and links, so one parse can feed several readers (see scan-pages.ts). */
export function anchorsReader(): { handler: Partial<Handler>; result: PageAnchors } {
  const ids = new Set<string>();
  const links: { href: string; tag: string }[] = [];
  return {
    result: { ids, links },
    handler: {
      onopentag(name, attributes) {
        if (attributes.id) ids.add(attributes.id);
        if (name === 'a' && attributes.name) ids.add(attributes.name);
        if (name === 'a' && attributes.href !== undefined) links.push({ href: attributes.href, tag: name });
        else if ((name === 'img' || name === 'source' || name === 'script') && attributes.src) links.push({ href: attributes.src, tag: name });
        else if (name === 'link' && attributes.href) links.push({ href: attributes.href, tag: name });
        // A page's preview image (front matter `image`) must exist like any file a page links to.
        else if (name === 'meta' && attributes.property === 'og:image' && attributes.content) links.push({ href: attributes.content, tag: name });
      },
    },
  };
}

/** '/x.html', '/x/index.html' and '/x/' all mean '/x' (spec §2), also when written percent-encoded. */
export function normalizeRoute(pathname: string): string {
  try {
    return canonicalPath(decodeURI(pathname));
  } catch {
    // A malformed escape is itself a broken link; keep it as written so it fails to resolve.
    return canonicalPath(pathname);
  }
}

export interface CheckLinksInput {
  pages: readonly RenderedPage[];
  /** Every non-page file the output will contain, as URL paths ('/img/logo.svg'). */
  files: ReadonlySet<string>;
  /** Routes this build leaves out on purpose (drafts), with the source file that would make them. */
  omitted?: ReadonlyMap<string, string>;
  /** Routes docs had before their front matter `slug` or `id` moved them, with the source file and the new route. */
  moved?: ReadonlyMap<string, { file: string; route: string; by: 'slug' | 'id' }>;
}

interface Broken {
  page: RenderedPage;
  href: string;
  /** 'unsafe' for a link refused for its scheme rather than for its target. */
  kind?: 'unsafe';
  reason: string;
  hint: string;
}

/**
 * What the check keeps between builds of one build session. Watch mode keeps the
 * RenderedPage of every page a rebuild did not render again, so after a one-page edit
 * only that page is parsed.
 */
export interface LinkCheckCache {
  anchorsOfPage: WeakMap<RenderedPage, PageAnchors>;
  /** Pages found valid, with their number of links checked, for one set of link targets. */
  validFor: { targets?: LinkTargets; pages: WeakMap<RenderedPage, number> };
  /**
   * One copy of each link target (and tag name) kept: most links of a page (navbar, footer, sidebar) are
   * on every page, and at thousands of pages their copies would be most of what is kept.
   */
  hrefs: StringPool;
}

export function createLinkCheckCache(): LinkCheckCache {
  return { anchorsOfPage: new WeakMap(), validFor: { pages: new WeakMap() }, hrefs: new Map() };
}

/** `anchors` with each link target replaced by the copy the cache keeps. */
export function sharedLinks(anchors: PageAnchors, cache: LinkCheckCache): PageAnchors {
  // Tag names too: a copy of 'a' per link is a string per link.
  const links = anchors.links.map(({ href, tag }) => ({ href: shared(cache.hrefs, href), tag: shared(cache.hrefs, tag) }));
  return { ids: anchors.ids, links };
}

/** What every link is checked against: the site's own URL, the ignored prefixes, the files and the routes with their ids. */
interface LinkTargets {
  origin: string;
  ignore: readonly string[];
  /** A copy: the caller's set may change after the check. */
  files: ReadonlySet<string>;
  /** Each page's ids, as the scan made them: a page kept from the last build brings the very same set. */
  ids: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Whether two sets of link targets are equal. Compared member by member, not as one string
 * made of them all: that string, remade on every save in watch mode, grew with the site
 * (2-5 ms for 1,029 routes of 30 ids and 4,600 files, measured alone).
 */
function sameTargets(a: LinkTargets | undefined, b: LinkTargets): boolean {
  if (!a || a.origin !== b.origin || a.ignore.length !== b.ignore.length || a.ignore.some((prefix, i) => prefix !== b.ignore[i])) return false;
  if (a.files.size !== b.files.size || a.ids.size !== b.ids.size) return false;
  for (const file of b.files) if (!a.files.has(file)) return false;
  for (const [route, ids] of b.ids) {
    const before = a.ids.get(route);
    if (before === ids) continue;
    if (!before || before.size !== ids.size) return false;
    for (const id of ids) if (!before.has(id)) return false;
  }
  return true;
}

export async function checkLinks(input: CheckLinksInput, config: SiteConfig, cache = createLinkCheckCache(), progress?: Progress): Promise<{ checked: number }> {
  const unreachable = unreachablePages(input.pages);
  if (unreachable.length > 0) {
    // Every link to such a page fails too; the file name is the one thing to fix.
    throw new DocsgenErrors(`${unreachable.length} page${unreachable.length === 1 ? '' : 's'} cannot be linked to:`, unreachable);
  }
  const { anchorsOfPage } = cache;
  const byRoute = new Map<string, { page: RenderedPage; anchors: PageAnchors }>();
  for (const page of input.pages) {
    let anchors = anchorsOfPage.get(page);
    if (!anchors) anchorsOfPage.set(page, (anchors = scanHtml(page.html)));
    byRoute.set(page.route, { page, anchors });
    progress?.(byRoute.size, input.pages.length);
  }
  const routes = [...byRoute.keys()];
  // A path under a folder that holds files and no page ('/img/x') is a file link even without an extension.
  const pageFolders = new Set(routes.map(firstSegment));
  const fileFolders = new Set([...input.files].map(firstSegment).filter((folder) => !pageFolders.has(folder)));
  const staticDir = path.relative(config.root, config.dirs.static).split(path.sep).join('/');
  // '/docs/x.html' and '/docs/x.mdx' name pages, under another name or as their source.
  const isFileLink = (pathname: string) => /\.(?!html?$|mdx?$)[a-z0-9]{1,10}$/i.test(pathname) || fileFolders.has(firstSegment(pathname));
  // Links to the site's own URL (`https://host/portal/docs/x`) are checked like '/docs/x'.
  const origin = siteRootUrl(config);
  const { baseUrl } = config;
  const ignored = (href: string) => config.links.ignore.some((prefix) => href.startsWith(prefix));

  // A page whose links all resolved stays valid while every link target (the routes with
  // their ids, the other files, the config) is what it was: after an edit that changed no
  // heading, only the edited page is checked again.
  const targets: LinkTargets = { origin, ignore: [...config.links.ignore], files: new Set(input.files), ids: new Map([...byRoute].map(([route, { anchors }]) => [route, anchors.ids])) };
  if (!sameTargets(cache.validFor.targets, targets)) cache.validFor = { targets, pages: new WeakMap() };
  const valid = cache.validFor.pages;

  /**
   * What a link resolves to: undefined when it is not checked (external, ignored), null
   * when it resolves, else why not.
   */
  type Resolution = undefined | null | { reason: string; hint: string };
  const resolve = (href: string, page: RenderedPage): Resolution => {
    let target = href;
    if (target.startsWith(origin + '/') || target === origin) target = target.slice(origin.length) || '/';
    else if (target.startsWith('/') && !target.startsWith('//') && !ignored(href)) {
      // Pages hold their links under the base URL (see html-base-url.ts); what they point to is the route after it.
      const route = withoutBase(baseUrl, target);
      if (route === undefined) {
        return {
          reason: `lies outside the site's base URL ${baseUrl}`,
          hint: `Write links from the site's root ('/docs/x'): the build puts them under ${baseUrl}. A link made by a script or written as raw HTML outside an attribute the build rewrites must include ${baseUrl} itself.`,
        };
      }
      target = route;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || ignored(href)) return undefined;
    if (target === '' || target === '#') return null;
    if (!target.startsWith('/') && !target.startsWith('#')) {
      // The compiler rewrote every relative link to a source file that exists; this one names a file that is not a page.
      const file = /^[^?#]*\.mdx?(?:[?#]|$)/.test(target) && page.sourceFile ? sourceFileLink(target, page.sourceFile) : undefined;
      if (file) return file;
      return {
        reason: 'is a relative link',
        hint: `Relative links resolve differently under ${page.route} and ${page.route}/; write it root-absolute (for example /docs/...), or link to the .mdx file.`,
      };
    }
    const hashIndex = target.indexOf('#');
    const pathPart = hashIndex === -1 ? target : target.slice(0, hashIndex) || page.route;
    const fragment = hashIndex === -1 ? '' : decodeFragment(target.slice(hashIndex + 1));
    const pathname = pathPart.split('?')[0] ?? pathPart;
    const route = normalizeRoute(pathname);
    const targetPage = byRoute.get(route);
    if (!targetPage) {
      if (input.files.has(pathname)) return null;
      const draft = input.omitted?.get(route);
      if (draft) {
        return {
          reason: `points to ${route}, a draft (\`draft: true\` in ${draft}) that \`docsgen build\` leaves out`,
          hint: `Publish the draft (remove \`draft: true\`) or remove the link until it is published; \`docsgen serve --watch\` builds drafts.`,
        };
      }
      const moved = input.moved?.get(route);
      if (moved) {
        return {
          reason: `points to ${route}, which is not a page: the doc ${moved.file} is now at ${moved.route} (its \`${moved.by}\`)`,
          hint: `Link to ${moved.route}, or to the .mdx file: a link to the file follows the doc wherever its \`${moved.by}\` puts it.`,
        };
      }
      if (isFileLink(pathname)) {
        const near = nearest(pathname, [...input.files]);
        return {
          reason: `points to ${pathname}, which is not a file of this site`,
          hint: near
            ? `Did you mean ${near}?`
            : `Put the file in ${staticDir}/ (${staticDir}${pathname} is published as ${pathname}), or fix the link.`,
        };
      }
      return {
        reason: `points to ${pathname}, which is not a page or file of this site`,
        hint: routes.length ? `Did you mean ${closest(route, routes)}?` : 'Create the page or fix the link.',
      };
    }
    if (fragment && !targetPage.anchors.ids.has(fragment)) {
      const ids = [...targetPage.anchors.ids].filter((id) => !/^(main-content|docsgen-|mobile-menu|:)/.test(id));
      return {
        reason: `points to #${fragment}, which no heading or element of ${route} has`,
        hint: ids.length ? `Did you mean #${closest(fragment, ids)}? Heading ids come from the heading text.` : `${route} has no anchors.`,
      };
    }
    return null;
  };
  /** Why a relative link to an .mdx or .md file is broken: the file it names is missing, a draft, or no page. */
  const sourceFileLink = (href: string, from: string): { reason: string; hint: string } => {
    const written = decodeFragment(href.split(/[?#]/)[0] ?? href);
    const folder = path.posix.dirname(from);
    const resolved = path.posix.join(folder, written);
    const draft = [...(input.omitted ?? [])].find(([, file]) => file === resolved);
    if (draft) {
      return {
        reason: `resolves to ${resolved}, a draft (\`draft: true\`) that \`docsgen build\` leaves out`,
        hint: `Publish the draft (remove \`draft: true\`) or remove the link until it is published; \`docsgen serve --watch\` builds drafts.`,
      };
    }
    if (existsSync(path.join(config.root, resolved))) {
      return {
        reason: `resolves to ${resolved}, which is not a page of this site`,
        hint: 'Files whose name starts with "_" or ".", and files outside the docs, blog and pages folders, are not pages: link to a page, or to its .mdx file.',
      };
    }
    const near = nearest(resolved, sourceFiles());
    const relative = near && path.posix.relative(folder, near);
    return {
      reason: `resolves to ${resolved}, which does not exist`,
      hint: relative ? `Did you mean ${relative.startsWith('../') ? relative : `./${relative}`}?` : 'Fix the path (it is relative to the folder of the file that links), or create the file.',
    };
  };
  let sources: string[] | undefined;
  const sourceFiles = () => (sources ??= [...new Set(input.pages.flatMap((p) => (p.sourceFile && /\.mdx?$/.test(p.sourceFile) ? [p.sourceFile] : [])))]);

  // A root-absolute link means the same on every page: the navbar, footer and sidebar
  // links every page repeats are resolved once.
  const shared = new Map<string, Resolution>();

  const broken: Broken[] = [];
  let checked = 0;
  for (const { page, anchors } of byRoute.values()) {
    const known = valid.get(page);
    if (known !== undefined) {
      checked += known;
      continue;
    }
    const checkedBefore = checked;
    const brokenBefore = broken.length;
    const seen = new Set<string>();
    // An API page's links to the site sit in descriptions the page may show only in the browser (Elements).
    const links = page.kind === 'api' ? [...anchors.links, ...page.sourceLinks.map((l) => ({ href: l.href, tag: 'a' }))] : anchors.links;
    for (const { href, tag } of links) {
      if (seen.has(href)) continue;
      seen.add(href);
      const scheme = unsafeScheme(href, tag);
      if (scheme) {
        checked++;
        broken.push({
          page,
          href,
          kind: 'unsafe',
          reason: `uses the ${scheme} scheme, which ${scheme === 'data:' ? 'opens a document made by the link itself' : 'runs script'} when clicked`,
          hint: `Link to a page of the site or to an https: URL. ${scheme} links are refused: they would run in readers' browsers with the site's origin.`,
        });
        continue;
      }
      const pageIndependent = href.startsWith('/') && !href.startsWith('//');
      let resolution: Resolution;
      if (pageIndependent && shared.has(href)) resolution = shared.get(href);
      else {
        resolution = resolve(href, page);
        if (pageIndependent) shared.set(href, resolution);
      }
      if (resolution === undefined) continue;
      checked++;
      if (resolution) broken.push({ page, href, ...resolution });
    }
    if (broken.length === brokenBefore) valid.set(page, checked - checkedBefore);
  }
  if (broken.length === 0) return { checked };
  throw new DocsgenErrors(formatSummary(broken, input.pages.length), toErrors(broken, input.pages.length, config));
}

function firstSegment(pathname: string): string {
  return pathname.split('/')[1] ?? '';
}

/** A link of a page as its author wrote it: the page holds it under the base URL. */
function asWritten(href: string, baseUrl: string, sourceLinks: RenderedPage['sourceLinks']): { href: string; source?: RenderedPage['sourceLinks'][number] } {
  const source = sourceLinks.find((l) => l.href === href) ?? sourceLinks.find((l) => withBase(baseUrl, l.href) === href);
  if (source) return { href: source.written ?? source.href, source };
  return { href: href.startsWith('/') && !href.startsWith('//') ? (withoutBase(baseUrl, href) ?? href) : href };
}

/**
 * The scheme of a link that runs script or shows attacker-made content when followed:
 * javascript: and vbscript: anywhere, data: except on images. Browsers ignore leading
 * spaces and control characters and any tab or newline inside a URL, so `java\tscript:`
 * counts too (https://url.spec.whatwg.org/#concept-basic-url-parser).
 */
export function unsafeScheme(href: string, tag: string): string | undefined {
  const url = href.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'javascript' || scheme === 'vbscript') return `${scheme}:`;
  if (scheme === 'data' && tag !== 'img' && tag !== 'source') return 'data:';
  return undefined;
}

/**
 * A route is the source's file name: a '?' or '#' in it ends the URL's path (the rest
 * becomes a query or a fragment), and a '%' starts an escape, so no link can reach it.
 */
function unreachablePages(pages: readonly RenderedPage[]): DocsgenError[] {
  return pages.flatMap((page) => {
    const chars = [...new Set(page.route.match(/[?#%]/g) ?? [])];
    if (chars.length === 0) return [];
    return [
      new DocsgenError(`The route ${page.route} contains ${chars.map((c) => `'${c}'`).join(' and ')}, which end or escape a URL's path: every link to the page breaks.`, {
        file: page.sourceFile ?? `(page ${page.route})`,
        hint: `In a URL, '?' starts a query, '#' a fragment and '%' an escape. Rename the file using letters, digits, '-' and '_' (the file name is the URL).`,
      }),
    ];
  });
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function formatSummary(broken: Broken[], pageCount: number): string {
  const unique = new Set(broken.map((b) => b.href)).size;
  const what = broken.some((b) => b.kind === 'unsafe') ? 'Broken or unsafe links' : 'Broken links';
  return `${what}: ${unique} link${unique === 1 ? '' : 's'} on ${new Set(broken.map((b) => b.page.route)).size} of ${pageCount} pages. ${what} fail the build.`;
}

function toErrors(broken: Broken[], pageCount: number, config: SiteConfig): DocsgenError[] {
  const errors: DocsgenError[] = [];
  const byHref = new Map<string, Broken[]>();
  for (const b of broken) byHref.set(b.href, [...(byHref.get(b.href) ?? []), b]);
  const configFile = config.configFile.slice(config.root.length + 1);
  const reported = new Set<string>();
  for (const [href, items] of byHref) {
    const first = items[0]!;
    // A link on every page (or on every page but the 404) is in the layout: report it once.
    if (items.length >= pageCount - 1 && pageCount > 2) {
      errors.push(
        new DocsgenError(`${first.kind === 'unsafe' ? 'Unsafe' : 'Broken'} link '${asWritten(href, config.baseUrl, []).href}' on every page ${first.reason}.`, {
          file: configFile,
          hint: `It comes from the navbar or footer (site.config.ts) or a layout in templates/. ${first.hint}`,
        }),
      );
      reported.add(href);
      continue;
    }
    for (const item of items) {
      const { href: written, source } = asWritten(href, config.baseUrl, item.page.sourceLinks);
      const key = `${item.page.sourceFile ?? item.page.route}\0${href}`;
      if (reported.has(key)) continue;
      reported.add(key);
      errors.push(
        new DocsgenError(`${item.kind === 'unsafe' ? 'Unsafe' : 'Broken'} link '${written}' ${item.reason}.`, {
          file: item.page.sourceFile ?? `(page ${item.page.route})`,
          line: source?.line,
          column: source?.column,
          // Links of a .tsx page are in its component, which has no markdown positions to report.
          hint: source || item.page.sourceFile?.endsWith('.tsx') ? item.hint : `${item.hint} It is not in the page's source, so it comes from a layout or component.`,
        }),
      );
    }
  }
  return errors.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0));
}
