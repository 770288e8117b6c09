/**
 * The Markdown twin of every page (`/docs/x` -> `/docs/x.md`, `/` -> `/index.md`), made
 * from the compiled documents' trees and the API documents, never from rendered HTML;
 * and llms.txt / llms-full.txt, which list and join them in sidebar order.
 */
import type { RootContent } from 'mdast';
import type { SiteConfig } from '../config.ts';
import type { Collected, ResolvedSidebarItem } from '../stages/collect.ts';
import type { CompiledSite } from '../stages/compile.ts';
import type { LoadedApiDocument } from '../stages/openapi.ts';
import type { PageKind } from '../stages/render.ts';
import type { OutputAsset } from '../stages/bundle.ts';
import { markdownPath } from '../../templates/shared/index.ts';
import { siteRootUrl } from '../base-url.ts';
import { apiTwin, type RequestSample } from './api-twin.ts';
import { llmsFullTxt, llmsTxt, type LlmsSection } from './llms-txt.ts';
import { blogTwins } from './blog-twins.ts';
import { bulletList, link, markdownStyle, twinDocument, twinDocumentWithBody, type MarkdownTwin } from './write-markdown.ts';

export interface TwinsInput {
  collected: Collected;
  compiled: CompiledSite;
  apis: readonly LoadedApiDocument[];
  /** Request samples of an API operation, by API id and operation id, when the site has them. */
  samplesFor?: (apiId: string, operationId: string) => readonly RequestSample[];
}

/** Files an API reference page offers for download, root-absolute. */
export function apiDownloads(id: string): { label: string; href: string }[] {
  return [
    { label: 'OpenAPI (YAML)', href: `/openapi/${id}.yaml` },
    { label: 'OpenAPI (JSON)', href: `/openapi/${id}.json` },
    { label: 'Postman collection', href: `/openapi/${id}.postman_collection.json` },
    { label: 'Postman environment (sandbox)', href: `/openapi/${id}.postman_environment.json` },
  ];
}

/** Every page but the 404 has a Markdown twin. */
export function hasMarkdownTwin(kind: PageKind): boolean {
  return kind !== 'not-found';
}


/**
 * Twins already written, by what they were made from (a compiled document, which the
 * compile cache keeps while its source is unchanged, or a loaded API document), so a
 * rebuild in watch mode writes again only the twins of what changed; and the last
 * llms.txt, by what it lists, as an edit of a doc's text changes no line of it (at 1,000
 * docs, writing its list again was a seventh of a save's rebuild). Lives in the build
 * session; each text is a function of its key alone, so reuse changes no byte.
 */
export interface TwinCache {
  byOwner: WeakMap<object, { key: string; text: string }>;
  llmsTxt?: { key: string; text: string };
  /** llms-full.txt, by the twins it joins. */
  llmsFull?: { parts: readonly string[]; bytes: Uint8Array };
  /**
   * The bytes of each twin written by the last build, by its text. An unchanged twin then
   * keeps its bytes, and the watch writer finds it unchanged by identity: encoding and
   * comparing a thousand twins took 5 ms of every save.
   */
  encoded: Map<string, Uint8Array>;
}

export function createTwinCache(): TwinCache {
  return { byOwner: new WeakMap(), encoded: new Map() };
}

function memo(cache: TwinCache | undefined, owner: object, key: unknown[], make: () => string): string {
  const id = JSON.stringify(key);
  const known = cache?.byOwner.get(owner);
  if (known?.key === id) return known.text;
  const text = make();
  cache?.byOwner.set(owner, { key: id, text });
  return text;
}

/** A twin whose text is made on first use, once. */
interface PlannedTwin extends Omit<MarkdownTwin, 'text'> {
  text(): string;
}

const once = (make: () => string): (() => string) => {
  let text: string | undefined;
  return () => (text ??= make());
};

/**
 * The twins a site has: their paths at once, their bytes when `make()` is called. The
 * paths come from the same list `make()` writes, so they cannot disagree. Watch mode
 * checks links against the paths and makes the twins after the browsers were told of the
 * edit: no open page shows them, and at 1,000 docs they were a tenth of a save's rebuild.
 */
export interface PlannedTwins {
  /** Paths inside the output folder, `/` separated, of every file `make()` returns. */
  paths: string[];
  make(): OutputAsset[];
}

export function planMarkdownTwins(input: TwinsInput, config: SiteConfig, cache?: TwinCache): PlannedTwins {
  const siteUrl = siteRootUrl(config);
  const style = markdownStyle();

  const docs = new Map<string, PlannedTwin>();
  for (const { doc, compiled } of input.compiled.docs.values()) {
    const { title, description } = doc.frontMatter;
    // A doc page whose content starts with its own h1 shows that one (render.ts): so does its twin.
    const text = once(() => memo(cache, compiled, [siteUrl, doc.route, title, description], () => twinDocumentWithBody(title, description, [], compiled.twinBody, { style, ownTitle: compiled.hasContentTitle })));
    docs.set(doc.id, { route: doc.route, title, description, text });
  }

  const posts: PlannedTwin[] = input.compiled.posts.map(({ post, full }) => {
    const { title, description } = post.frontMatter;
    const byline: RootContent = {
      type: 'paragraph',
      children: [{ type: 'text', value: [post.date, post.authors.map((a) => a.name).join(', ')].filter(Boolean).join(' · ') }],
    };
    const key = [siteUrl, post.route, title, description, post.date, post.authors.map((a) => a.name)];
    return { route: post.route, title, description, text: once(() => memo(cache, full, key, () => twinDocumentWithBody(title, description, [byline], full.twinBody, { style }))) };
  });

  const pages: PlannedTwin[] = input.compiled.pages.map((entry) => {
    const { title, description } = entry.meta;
    const route = entry.page.route;
    if ('compiled' in entry) return { route, title, description, text: once(() => twinDocumentWithBody(title, description, [], entry.compiled.twinBody, { style })) };
    // A React page has no Markdown tree: its meta, the tagline on the home page, and where to go from it.
    const text = once(() => {
      const lead: RootContent[] = route === '/' && config.tagline ? [{ type: 'paragraph', children: [{ type: 'text', value: config.tagline }] }] : [];
      const links = config.navbar.items.flatMap((item) => [item, ...(item.items ?? [])]).filter((item) => item.to ?? item.href);
      const unique = [...new Map(links.map((item) => [item.to ?? item.href, item])).values()];
      const contents = bulletList(unique.map((item) => [link(item.to ? `${siteUrl}${item.to}` : item.href!, item.label)]));
      return twinDocument(title, description, [...lead, contents]);
    });
    return { route, title, description, text };
  });

  const apis: PlannedTwin[] = [];
  for (const api of input.apis) {
    const ref = config.apiReferences.find((r) => r.id === api.id);
    if (!ref) continue;
    const samplesFor = input.samplesFor ? (operationId: string) => input.samplesFor!(api.id, operationId) : undefined;
    const page = { route: ref.route, title: ref.title, description: ref.description };
    // Samples are made from the same document and the reference's sandbox server.
    apis.push({ ...page, text: once(() => memo(cache, api, [siteUrl, page, ref.sandboxServer ?? ''], () => apiTwin({ api, page, downloads: apiDownloads(api.id), siteUrl, samplesFor }))) });
  }

  // A handful of pages (the blog's lists), made at once.
  const blog: PlannedTwin[] = blogTwins(input.compiled.posts.filter((entry) => !entry.post.frontMatter.unlisted), input.collected.tags, config, siteUrl).map((twin) => ({ ...twin, text: () => twin.text }));

  const pathOf = (route: string) => markdownPath(route).slice(1);
  const twins = [...docs.values(), ...posts, ...pages, ...apis, ...blog].map((twin) => ({ path: pathOf(twin.route), twin }));
  // The docs root shows the main doc (its canonical page, which its <head> names as the twin).
  const main = docs.get(config.docs.mainDoc);
  if (main) twins.push({ path: pathOf(config.docs.routeBasePath), twin: main });
  const paths = [...twins.map((twin) => twin.path), 'llms.txt', 'llms-full.txt'];

  const make = (): OutputAsset[] => {
    const ordered = sidebarSections(input.collected, docs);
    const files: OutputAsset[] = [];
    const encoder = new TextEncoder();
    const encoded = new Map<string, Uint8Array>();
    const bytesOf = (text: string) => {
      const contents = encoded.get(text) ?? cache?.encoded.get(text) ?? encoder.encode(text);
      encoded.set(text, contents);
      return contents;
    };
    for (const { path, twin } of twins) files.push({ path, contents: bytesOf(twin.text()) });

    const line = (twin: PlannedTwin) => ({ title: twin.title, url: `${siteUrl}${markdownPath(twin.route)}`, description: twin.description });
    const sections: LlmsSection[] = ordered.map((section) => ({ title: section.title, links: section.docs.map(line) }));
    const apiLinks = [
      ...apis.map(line),
      ...input.apis.flatMap((api) =>
        apiDownloads(api.id)
          .filter((d) => d.href.endsWith('.yaml') || d.href.endsWith('.json'))
          .filter((d) => !d.href.includes('postman'))
          .map((d) => ({ title: `${config.apiReferences.find((r) => r.id === api.id)?.title ?? api.title}: ${d.label}`, url: `${siteUrl}${d.href}`, description: api.title })),
      ),
    ];
    if (apiLinks.length > 0) sections.push({ title: 'API reference', links: apiLinks });
    const listedPosts = posts.filter((_, index) => !input.compiled.posts[index]?.post.frontMatter.unlisted);
    if (listedPosts.length > 0) sections.push({ title: 'Optional', links: listedPosts.map(line) });
    const summary = config.summary ?? config.tagline;
    const llms = { title: config.title, summary, sections };
    const llmsKey = JSON.stringify(llms);
    const llmsText = cache?.llmsTxt?.key === llmsKey ? cache.llmsTxt.text : llmsTxt(llms);
    if (cache) cache.llmsTxt = { key: llmsKey, text: llmsText };
    files.push({ path: 'llms.txt', contents: bytesOf(llmsText) });
    const full = [...ordered.flatMap((section) => section.docs), ...apis].map((twin) => twin.text());
    const last = cache?.llmsFull;
    const fullBytes = last && last.parts.length === full.length && last.parts.every((part, i) => part === full[i]) ? last.bytes : llmsFullTxt(full.map((text) => ({ text, bytes: bytesOf(text) })));
    files.push({ path: 'llms-full.txt', contents: fullBytes });
    if (cache) {
      cache.encoded = encoded;
      cache.llmsFull = { parts: full, bytes: fullBytes };
    }
    return files;
  };
  return { paths, make };
}

/**
 * The docs grouped as the sidebars show them: a top-level category is a section, with
 * every doc under it (nested categories included) in order. Docs at a sidebar's top
 * level, then docs in no sidebar, end the list in a "Docs" section, each once.
 */
function sidebarSections<T>(collected: Collected, docs: Map<string, T>): { title: string; docs: T[] }[] {
  // Unlisted docs keep their twin but are listed nowhere, llms.txt included.
  const seen = new Set<string>(collected.docs.filter((d) => d.frontMatter?.unlisted).map((d) => d.id));
  const sections: { title: string; docs: T[] }[] = [];
  const take = (ids: string[]): T[] =>
    ids.flatMap((id) => {
      const twin = docs.get(id);
      if (!twin || seen.has(id)) return [];
      seen.add(id);
      return [twin];
    });
  const loose: string[] = [];
  for (const items of Object.values(collected.sidebars)) {
    for (const item of items) {
      if (item.type === 'category') sections.push({ title: item.label, docs: take(docIds(item.items)) });
      else if (item.type === 'doc') loose.push(item.id);
    }
  }
  const rest = [...loose, ...collected.docs.map((d) => d.id)];
  const others = take(rest);
  if (others.length > 0) sections.push({ title: 'Docs', docs: others });
  return sections.filter((s) => s.docs.length > 0);
}

function docIds(items: readonly ResolvedSidebarItem[]): string[] {
  return items.flatMap((item) => (item.type === 'doc' ? [item.id] : item.type === 'category' ? docIds(item.items) : []));
}
