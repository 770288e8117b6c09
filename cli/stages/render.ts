/**
 * Stage: every route of the site -> a complete HTML document, rendered with React's
 * renderToString into the layouts of templates/. Nothing here touches the file system,
 * but to report a template's error at its line (its source map and source).
 */
import { createElement, type ReactElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import readingTime from 'reading-time';
import type { SiteConfig } from '../config.ts';
import type { Progress } from '../log.ts';
import { DocsgenError, DocsgenErrors } from '../errors.ts';
import { tocLevels, type TocLevelFields } from '../frontmatter.ts';
import { isStackOverflow, NESTING_HINT } from '../mdx/limits.ts';
import { createSourceMapReader, type KnownSourceMap } from '../stack-frames.ts';
import { templateError, templateFailureKey, templateFrame, type TemplateFailure } from '../template-errors.ts';
import { mdxComponents } from '../../templates/components/MdxComponents.tsx';
import type { PageSidebar, SiteData } from '../../templates/components/SiteContext.tsx';
import { ApiReference, type ApiOperationView } from '../../templates/layouts/ApiReference.tsx';
import { BlogArchive, BlogList, BlogPost, BlogTags, tagHeading, type PostSummary } from '../../templates/layouts/Blog.tsx';
import { tocTree, type TocNode } from '../../templates/components/Toc.tsx';
import { DocPage } from '../../templates/layouts/DocPage.tsx';
import { Document, type HeadData, type PageAssets } from '../../templates/layouts/Document.tsx';
import { NotFound } from '../../templates/layouts/NotFound.tsx';
import { Page } from '../../templates/layouts/Page.tsx';
import type { SidebarData } from '../sidebar-data.ts';
import type { Collected } from './collect.ts';
import type { CompiledMdx, CompiledPost, CompiledSite, SourceLink } from './compile.ts';
import type { LastUpdated } from './last-updated.ts';
import type { LoadedApiDocument } from './openapi.ts';
import { pickServer } from '../openapi/servers.ts';
import type { ApiExamples } from '../openapi/reference-examples.ts';
import { hasMarkdownTwin } from '../markdown/twins.ts';
import { docPagination } from '../doc-pagination.ts';
import { API_ISLAND } from '../../templates/shared/api-reference.ts';
import { markdownPath } from '../../templates/shared/index.ts';
import { NOT_FOUND_ROUTE } from '../../templates/shared/routes.ts';
import { withBase } from '../../templates/shared/base-url.ts';
import { absoluteUrl } from '../base-url.ts';
import { htmlWithBaseUrl } from '../html-base-url.ts';

export type PageKind = 'doc' | 'docs-root' | 'post' | 'blog-list' | 'blog-archive' | 'blog-tags' | 'blog-tag' | 'api' | 'page' | 'not-found';

/** Pages with the blog's "Recent posts" sidebar (templates/layouts/Blog.tsx). */
const BLOG_KINDS: ReadonlySet<PageKind> = new Set(['post', 'blog-list', 'blog-archive', 'blog-tags', 'blog-tag']);

export interface RenderedPage {
  route: string;
  kind: PageKind;
  /** The page's own title (without " | Site"). */
  title: string;
  description: string;
  html: string;
  /** Source file, relative to the root, for error reports. */
  sourceFile?: string;
  /** Links written in the source, with lines, for the link report. */
  sourceLinks: SourceLink[];
  /** False for pages that must not be in the sitemap or search (404, aliases). */
  indexable: boolean;
  /**
   * Where the page sits in its sidebar, as its breadcrumb categories ('API de Pagamento'):
   * what tells two docs of the same title apart in search results.
   */
  section?: string;
}

export interface RenderInput {
  collected: Collected;
  compiled: CompiledSite;
  apis: readonly LoadedApiDocument[];
  /** Highlighted request samples and examples of the API reference pages. */
  apiExamples?: ApiExamples;
  assets: Omit<PageAssets, 'islands' | 'preload'> & { islands: PageAssets['islands'] };
  /** When each doc's source last changed, for "Last updated on". */
  lastUpdated?: LastUpdated;
  /** Derived from collected.sidebars once per build; `src` is the URL of its shared JSON file. */
  sidebars: SidebarData & { src: string };
}

export { NOT_FOUND_ROUTE };

/** Islands every page loads. */
const PAGE_ISLANDS = ['search'];
const API_ISLANDS = [API_ISLAND];
/** The "Copy page" button's code, on doc and API reference pages. */
const COPY_PAGE_ISLANDS = ['copy-page'];

/** The islands some page of the site will load, so the bundle leaves the others out. */
export function usedIslands(config: SiteConfig): string[] {
  return [...PAGE_ISLANDS, ...COPY_PAGE_ISLANDS, ...(config.apiReferences.length > 0 ? API_ISLANDS : [])];
}

export interface RenderOptions {
  /** Render only these routes (watch mode, when one page's body changed); default all. */
  routes?: ReadonlySet<string>;
  /** Kept by the build session; default a cache of this render alone. */
  cache?: RenderCache;
  progress?: Progress;
  /**
   * Takes each page as it is rendered and gives back what render() returns in its place:
   * a build that writes pages as they come keeps them without their HTML, so it holds
   * one page's HTML at a time, not the site's. The next page is rendered once it settles.
   */
  onPage?: (page: RenderedPage) => Promise<RenderedPage>;
  /**
   * Source maps of template code that has none on disk, by the file name its stack frames
   * show (watch mode runs the templates as one bundle in node:vm).
   */
  sourceMaps?: ReadonlyMap<string, KnownSourceMap>;
}

/**
 * What render keeps between builds of one build session. Every post's summary is made
 * on every render, also when watch mode renders only the page that was edited; counting
 * the words of each post again would be most of that render.
 */
export interface RenderCache {
  minutesByFile: Map<string, { source: string; minutes: number }>;
}

export function createRenderCache(): RenderCache {
  return { minutesByFile: new Map() };
}

export async function render(input: RenderInput, config: SiteConfig, options: RenderOptions = {}): Promise<RenderedPage[]> {
  const site = siteData(config);
  const pages: RenderedPage[] = [];
  // A template error fails every page that uses it: it is kept once, in its page's place.
  const errors: (DocsgenError | TemplateFailure)[] = [];
  const templateFailures = new Map<string, TemplateFailure>();
  const sourceMaps = createSourceMapReader(options.sourceMaps);
  let failedPages = 0;

  // Pages are described first (cheap: React elements around compiled documents) and
  // rendered one by one after, so a caller taking them as they come never holds them all.
  const entries: EmitEntry[] = [];
  const wanted = (route: string) => !options.routes || options.routes.has(route);
  const emit = (entry: EmitEntry) => {
    if (wanted(entry.route)) entries.push(entry);
  };
  const renderEntry = (entry: EmitEntry): RenderedPage | undefined => {
    const fullTitle = entry.title === site.title ? site.title : `${entry.title} | ${site.title}`;
    const canonicalRoute = entry.canonicalRoute ?? entry.route;
    const head: HeadData = {
      title: fullTitle,
      description: entry.description,
      canonical: absoluteUrl(config, canonicalRoute),
      ogType: entry.ogType,
      noindex: entry.kind === 'not-found' || entry.unlisted === true,
      keywords: entry.keywords,
      image: entry.image && previewImageUrl(entry.image, config),
      markdown: hasMarkdownTwin(entry.kind) ? markdownPath(canonicalRoute) : undefined,
    };
    // Doc and API reference pages have a "Copy page" button, whose code loads on its first click.
    const copyPage = entry.kind === 'doc' || entry.kind === 'docs-root' || entry.kind === 'api' ? COPY_PAGE_ISLANDS : [];
    const wanted = new Set([...PAGE_ISLANDS, ...copyPage, ...(entry.islands ?? [])]);
    // The manifest is data, not markup: its URLs are put under the base URL here, where htmlWithBaseUrl() does not look.
    const islands = Object.fromEntries(
      Object.entries(input.assets.islands)
        .filter(([name]) => wanted.has(name))
        .map(([name, island]) => [name, { js: withBase(config.baseUrl, island.js), css: island.css.map((css) => withBase(config.baseUrl, css)) }]),
    );
    const assets: PageAssets = { ...input.assets, islands, preload: [] };
    try {
      const element: ReactElement = createElement(Document, {
        site,
        page: { route: entry.route, sidebar: entry.sidebar, menuSidebar: entry.sidebar !== undefined || BLOG_KINDS.has(entry.kind) },
        head,
        assets,
        children: entry.body,
      });
      const html = flatString(htmlWithBaseUrl(`<!DOCTYPE html>${renderToString(element)}`, config.baseUrl));
      return {
        route: entry.route,
        kind: entry.kind,
        title: entry.title,
        description: entry.description,
        html,
        sourceFile: entry.sourceFile,
        sourceLinks: entry.sourceLinks ?? [],
        indexable: entry.kind !== 'not-found' && entry.canonicalRoute === undefined && entry.unlisted !== true,
        ...(entry.section ? { section: entry.section } : {}),
      };
    } catch (error) {
      failedPages++;
      const message = error instanceof Error ? error.message : String(error);
      // An error from a document's own expression is already a DocsgenError (see compile.ts).
      const inTemplate = error instanceof DocsgenError ? undefined : templateFrame(error, sourceMaps, config.dirs.templates);
      if (inTemplate) {
        const firstLine = message.split('\n')[0] ?? '';
        const key = templateFailureKey(inTemplate, firstLine);
        const known = templateFailures.get(key);
        const source = entry.sourceFile ?? entry.route;
        if (known) {
          known.pages++;
          known.sources.add(source);
        } else {
          const failure: TemplateFailure = { at: inTemplate, message: firstLine, pages: 1, sources: new Set([source]), cause: error };
          templateFailures.set(key, failure);
          errors.push(failure);
        }
        return undefined;
      }
      const missing = /Expected component `(\w+)`/.exec(message);
      // An MDX expression that threw carries its line (see compile.ts).
      const at = error instanceof DocsgenError ? { line: error.line, column: error.column, excerpt: error.excerpt } : {};
      errors.push(
        new DocsgenError(`Page ${entry.route} failed to render: ${message.split('\n')[0]}`, {
          file: entry.sourceFile,
          ...at,
          hint: missing
            ? `<${missing[1]}> is not a component docsgen provides (${Object.keys(mdxComponents).filter((k) => /^[A-Z]/.test(k)).join(', ')}). Check its spelling or import it.`
            : isStackOverflow(error)
              ? NESTING_HINT
              : 'Fix the component props or the MDX expression named above.',
          cause: error,
        }),
      );
      return undefined;
    }
  };

  renderDocs(input, config, site, emit, wanted);
  renderBlog(input, config, emit, options.cache ?? createRenderCache());
  for (const entry of input.compiled.pages) {
    const body =
      'Component' in entry
        ? createElement(Page, { contentLanguage: config.contentLanguage, children: createElement(entry.Component) })
        : createElement(Page, {
            contentLanguage: config.contentLanguage,
            className: 'container markdown-page',
            children: createElement('div', { className: 'markdown' }, createElement('h1', null, entry.meta.title), mdx(entry.compiled)),
          });
    emit({
      route: entry.page.route,
      kind: 'page',
      title: entry.page.route === '/' ? site.title : entry.meta.title,
      description: entry.meta.description,
      body,
      sourceFile: entry.page.relFile,
      sourceLinks: 'compiled' in entry ? withImage(entry.compiled.links, entry.page.frontMatter?.image, config, entry.page.source) : [],
      keywords: entry.page.frontMatter?.keywords,
      image: entry.page.frontMatter?.image,
      unlisted: entry.page.frontMatter?.unlisted,
    });
  }
  for (const api of input.apis) {
    const ref = config.apiReferences.find((r) => r.id === api.id);
    if (!ref) continue;
    emit({
      route: ref.route,
      kind: 'api',
      title: ref.title,
      description: ref.description,
      sourceFile: api.file,
      sourceLinks: api.siteLinks,
      islands: API_ISLANDS,
      body: createElement(ApiReference, {
        id: api.id,
        title: ref.title,
        description: api.description.split('\n\n')[0] ?? ref.description,
        version: api.version,
        servers: api.servers,
        downloads: [
          { label: 'OpenAPI (YAML)', href: `/openapi/${api.id}.yaml` },
          { label: 'OpenAPI (JSON)', href: `/openapi/${api.id}.json` },
          { label: 'Postman collection', href: `/openapi/${api.id}.postman_collection.json` },
          { label: 'Postman environment (sandbox)', href: `/openapi/${api.id}.postman_environment.json` },
        ],
        operations: api.operations.map((op) => ({ ...toOperationView(op), ...input.apiExamples?.get(api.id)?.get(op.operationId) })),
        samplesGroupId: ref.samplesGroupId,
        island: {
          // Island props are data, which htmlWithBaseUrl() leaves alone.
          specUrl: withBase(config.baseUrl, `/openapi/${api.id}.reference.json`),
          tryItServer: pickServer([api.servers], ref.sandboxServer),
          sandboxServer: ref.sandboxServer ?? '',
          ...(config.theme ? { primary: { light: config.theme.colors.light.primary, dark: config.theme.colors.dark.primary } } : {}),
        },
        contentLanguage: config.contentLanguage,
      }),
    });
  }
  emit({ route: NOT_FOUND_ROUTE, kind: 'not-found', title: 'Page Not Found', description: 'The page you were looking for does not exist.', body: createElement(NotFound) });

  for (const [index, entry] of entries.entries()) {
    options.progress?.(index, entries.length);
    const page = renderEntry(entry);
    if (!page) continue;
    pages.push(options.onPage ? await options.onPage(page) : page);
  }
  if (errors.length > 0) {
    throw new DocsgenErrors(
      `${failedPages} page${failedPages === 1 ? '' : 's'} failed to render:`,
      errors.map((error) => (error instanceof DocsgenError ? error : templateError(error, config.root))),
    );
  }
  return pages;
}

/**
 * renderToString() returns a rope of thousands of small strings; kept as is, a page
 * holds several times its size in the heap until something reads it whole. Reading one
 * character makes V8 copy it into one flat string and drop the rope.
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}

type EmitEntry = {
  route: string;
  kind: PageKind;
  title: string;
  description: string;
  body: ReactNode;
  canonicalRoute?: string;
  sidebar?: PageSidebar;
  sourceFile?: string;
  sourceLinks?: SourceLink[];
  ogType?: 'website' | 'article';
  islands?: string[];
  keywords?: string[];
  /** Front matter `image`: a root-relative path or an https: URL. */
  image?: string;
  /** Front matter `unlisted`: noindex, and out of the sitemap and search. */
  unlisted?: boolean;
  /** See RenderedPage.section. */
  section?: string;
};

/**
 * The preview image as a link of the page's source, at the line of its front-matter
 * field, so a missing file is reported there by the link check (which reads og:image).
 */
function withImage(links: SourceLink[], image: string | undefined, config: SiteConfig, source: string): SourceLink[] {
  if (!image?.startsWith('/')) return links;
  const line = source.split('\n').findIndex((text) => /^image\s*:/.test(text));
  return [...links, { href: previewImageUrl(image, config), line: line + 1, column: 1, written: image }];
}

/** og:image wants an absolute URL: a path of the site is resolved against the site's URL and base URL. */
function previewImageUrl(image: string, config: SiteConfig): string {
  return image.startsWith('/') ? absoluteUrl(config, image) : image;
}

function mdx(compiled: CompiledMdx): ReactElement {
  return createElement(compiled.Content, { components: mdxComponents });
}

export function siteData(config: SiteConfig): SiteData {
  return {
    title: config.title,
    tagline: config.tagline,
    url: config.url,
    baseUrl: config.baseUrl,
    favicon: config.favicon,
    locale: { code: config.locale.code, label: config.locale.label, direction: config.locale.direction },
    contentLanguage: config.contentLanguage,
    copyright: `Copyright © ${config.copyright.year} ${config.copyright.holder}`,
    colorMode: { defaultMode: config.colorMode.defaultMode, disableSwitch: config.colorMode.disableSwitch },
    theme: config.theme && { light: { ...config.theme.colors.light }, dark: { ...config.theme.colors.dark } },
    announcementBar: config.announcementBar,
    navbar: {
      title: config.navbar.title,
      logo: config.navbar.logo,
      items: config.navbar.items.map((i) => ({ label: i.label, to: i.to, href: i.href, activeBasePath: i.activeBasePath, items: i.items?.map((s) => ({ ...s })) })),
    },
    footer: { links: config.footer.links.map((c) => ({ title: c.title, items: c.items.map((i) => ({ ...i })) })) },
    docs: { routeBasePath: config.docs.routeBasePath, versionLabel: config.docs.version.label, versionName: config.docs.version.name },
    blog: { routeBasePath: config.blog.routeBasePath, title: config.blog.title },
    labels: { ...config.labels },
  };
}

/** `wanted`: whether a route is rendered at all (watch mode renders only the pages of the files that changed). */
function renderDocs(input: RenderInput, config: SiteConfig, site: SiteData, emit: (e: EmitEntry) => void, wanted: (route: string) => boolean): void {
  const pagination = docPagination(input.collected.docs);
  // In the site's locale and in UTC, so every build of the same commit writes the same page.
  // One formatter for all docs: making one costs more than rendering the rest of the line.
  const dayFormat = new Intl.DateTimeFormat(config.locale.code, { dateStyle: 'long', timeZone: 'UTC' });
  for (const { doc, compiled } of input.compiled.docs.values()) {
    // Before its sidebar, pagination and table of contents are made: at 1,023 docs, making
    // them for every doc took most of a one-doc rebuild's render stage (11-15 ms against 3-7).
    if (!wanted(doc.route) && !(doc.id === config.docs.mainDoc && wanted(config.docs.routeBasePath))) continue;
    const { sidebars } = input;
    const place = doc.sidebar ? sidebars.places.get(doc.route) : undefined;
    const items = place ? sidebars.entries[place.sidebar] : undefined;
    const sidebar = place && items ? { name: place.sidebar, src: sidebars.src, items, current: place.path } : undefined;
    const { trail = [] } = place ?? {};
    const { previous, next } = pagination(doc, place ?? {});
    const page = (route: string, canonicalRoute?: string) =>
      emit({
        route,
        canonicalRoute,
        kind: canonicalRoute ? 'docs-root' : 'doc',
        title: doc.frontMatter.title,
        description: doc.frontMatter.description,
        sourceFile: doc.relFile,
        sourceLinks: withImage(compiled.links, doc.frontMatter.image, config, doc.source),
        sidebar,
        keywords: doc.frontMatter.keywords,
        image: doc.frontMatter.image,
        unlisted: doc.frontMatter.unlisted,
        section: trail.map((crumb) => crumb.label).join(' › ') || undefined,
        body: createElement(DocPage, {
          title: doc.frontMatter.title,
          route: doc.route,
          sidebar,
          breadcrumbs: [...trail, { label: doc.frontMatter.sidebar_label ?? doc.frontMatter.title }],
          toc: tocOf(compiled, doc.frontMatter),
          hideToc: doc.frontMatter.hide_table_of_contents,
          // As in Docusaurus, a doc whose first heading is its own `# title` has that one as its only h1.
          hideTitle: compiled.hasContentTitle ? 'content' : doc.frontMatter.hide_title ? 'visually' : undefined,
          previous,
          next,
          versionBadge: config.docs.version.badge ? site.docs.versionLabel : undefined,
          tags: doc.frontMatter.tags,
          contentLanguage: config.contentLanguage,
          editUrl: doc.frontMatter.custom_edit_url !== undefined ? doc.frontMatter.custom_edit_url || undefined : config.editUrl ? `${config.editUrl}${doc.relFile}` : undefined,
          lastUpdated: dated(input.lastUpdated?.get(doc.relFile), dayFormat),
          children: mdx(compiled),
        }),
      });
    page(doc.route);
    // Spec: /docs shows the main document; its canonical URL stays the document's own.
    if (doc.id === config.docs.mainDoc) page(config.docs.routeBasePath, doc.route);
  }
}

/** A page's table of contents: the levels its front matter asks for, h2 and h3 by default. */
function tocOf(compiled: CompiledMdx, frontMatter: TocLevelFields): TocNode[] {
  return tocTree(compiled.headings, tocLevels(frontMatter));
}

function dated(iso: string | undefined, format: Intl.DateTimeFormat): { iso: string; text: string } | undefined {
  return iso === undefined ? undefined : { iso, text: format.format(new Date(iso)) };
}

function readingMinutes(minutesByFile: RenderCache['minutesByFile'], file: string, source: string): number {
  const known = minutesByFile.get(file);
  if (known?.source === source) return known.minutes;
  const minutes = Math.max(1, Math.round(readingTime(source).minutes));
  minutesByFile.set(file, { source, minutes });
  return minutes;
}

function summaryOfPost(cache: RenderCache, entry: CompiledPost): PostSummary {
  return {
    title: entry.post.frontMatter.title,
    route: entry.post.route,
    date: entry.post.date,
    readingMinutes: readingMinutes(cache.minutesByFile, entry.post.relFile, entry.post.source),
    authors: entry.post.authors,
    tags: entry.post.tags.map((t) => ({ label: t.label, route: t.route })),
  };
}

function renderBlog(input: RenderInput, config: SiteConfig, emit: (e: EmitEntry) => void, cache: RenderCache): void {
  if (!config.blog.enabled) return;
  const summaryOf = (entry: CompiledPost) => summaryOfPost(cache, entry);
  // Unlisted posts have their page, and no place in lists, tags, the archive or other posts' newer/older links.
  const posts = input.compiled.posts.filter((entry) => !entry.post.frontMatter.unlisted);
  const unlisted = input.compiled.posts.filter((entry) => entry.post.frontMatter.unlisted);
  const base = config.blog.routeBasePath;
  const recent = posts.slice(0, config.blog.recentPostsCount).map(summaryOf);
  const perPage = config.blog.postsPerPage;
  const listItems = (entries: CompiledPost[]) =>
    entries.map((entry) => ({ summary: summaryOf(entry), excerpt: mdx(entry.excerpt), truncated: entry.truncated }));

  const paginate = (entries: CompiledPost[], routeOf: (page: number) => string, make: (page: CompiledPost[], newer?: string, older?: string) => ReactNode, meta: { title: string; description: string; kind: PageKind }) => {
    const count = Math.max(1, Math.ceil(entries.length / perPage));
    for (let page = 1; page <= count; page++) {
      emit({
        route: routeOf(page),
        kind: meta.kind,
        title: meta.title,
        description: meta.description,
        body: make(entries.slice((page - 1) * perPage, page * perPage), page > 1 ? routeOf(page - 1) : undefined, page < count ? routeOf(page + 1) : undefined),
      });
    }
  };

  paginate(
    posts,
    (page) => (page === 1 ? base : `${base}/page/${page}`),
    (slice, newer, older) =>
      createElement(BlogList, {
        title: config.blog.title,
        description: config.blog.description,
        posts: listItems(slice),
        recent,
        newer: newer ? { href: newer } : undefined,
        older: older ? { href: older } : undefined,
        contentLanguage: config.contentLanguage,
      }),
    { title: config.blog.title, description: config.blog.description, kind: 'blog-list' },
  );

  [...posts, ...unlisted].forEach((entry, index) => {
    const newer = entry.post.frontMatter.unlisted ? undefined : posts[index - 1];
    const older = entry.post.frontMatter.unlisted ? undefined : posts[index + 1];
    emit({
      route: entry.post.route,
      kind: 'post',
      title: entry.post.frontMatter.title,
      description: entry.post.frontMatter.description,
      sourceFile: entry.post.relFile,
      sourceLinks: withImage(entry.full.links, entry.post.frontMatter.image, config, entry.post.source),
      ogType: 'article',
      keywords: entry.post.frontMatter.keywords,
      image: entry.post.frontMatter.image,
      unlisted: entry.post.frontMatter.unlisted,
      body: createElement(BlogPost, {
        post: summaryOf(entry),
        recent,
        toc: tocOf(entry.full, entry.post.frontMatter),
        newer: newer ? { href: newer.post.route, title: newer.post.frontMatter.title } : undefined,
        older: older ? { href: older.post.route, title: older.post.frontMatter.title } : undefined,
        contentLanguage: config.contentLanguage,
        children: mdx(entry.full),
      }),
    });
  });

  emit({ route: `${base}/archive`, kind: 'blog-archive', title: 'Archive', description: 'Archive', body: createElement(BlogArchive, { posts: posts.map(summaryOf), recent }) });

  const tags = input.collected.tags.map((tag) => ({ tag, posts: posts.filter((p) => p.post.tags.some((t) => t.key === tag.key)) }));
  emit({
    route: `${base}/tags`,
    kind: 'blog-tags',
    title: 'Tags',
    description: 'Tags',
    body: createElement(BlogTags, { tags: tags.map(({ tag, posts: tagged }) => ({ label: tag.label, route: tag.route, count: tagged.length })), recent }),
  });
  for (const { tag, posts: tagged } of tags) {
    const heading = tagHeading(tag.label, tagged.length);
    paginate(
      tagged,
      (page) => (page === 1 ? tag.route : `${tag.route}/page/${page}`),
      (slice, newer, older) =>
        createElement(BlogList, {
          title: heading,
          heading: createElement('h1', null, heading),
          description: tag.description,
          extraHeader: createElement('a', { href: `${base}/tags`, className: 'tags-all-link' }, 'View All Tags'),
          posts: listItems(slice),
          recent,
          newer: newer ? { href: newer } : undefined,
          older: older ? { href: older } : undefined,
          contentLanguage: config.contentLanguage,
        }),
      { title: heading, description: tag.description ?? heading, kind: 'blog-tag' },
    );
  }
}

function toOperationView(op: LoadedApiDocument['operations'][number]): ApiOperationView {
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    summary: op.summary,
    description: op.description,
    tag: op.tags[0] ?? 'Other',
    kind: op.kind,
    parameters: op.parameters.map((p) => ({ name: p.name, location: p.in, required: p.required, type: p.type, description: p.description })),
    bodyFields: (op.requestBody?.fields ?? []).map((p) => ({ name: p.name, location: 'body', required: p.required, type: p.type, description: p.description })),
    bodyContentType: op.requestBody?.contentType,
    responses: op.responses.map((r) => ({ status: r.status, description: r.description })),
  };
}
