/**
 * Stage: write the site into a staging folder: every page under both of its names
 * (`x/index.html` and `x.html`, identical bytes), 404.html, the client assets, static/,
 * the API documents, sitemap, robots.txt and the blog feeds. The build swaps the
 * staging folder into place only after every check passed (see ./publish.ts).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Feed } from 'feed';
import type { SiteConfig } from '../config.ts';
import type { OutputAsset } from './bundle.ts';
import type { CompiledPost } from './compile.ts';
import type { LoadedApiDocument } from './openapi.ts';
import { NOT_FOUND_ROUTE, type RenderedPage } from './render.ts';
import { stagingDir } from './publish.ts';
import { listStaticFiles } from './static-files.ts';
import { baseUrlFile, siteRootUrl } from '../base-url.ts';

/** Output files other than pages, as (path inside the output, contents). */
export function generatedFiles(input: { apis: readonly LoadedApiDocument[]; posts: readonly CompiledPost[]; pages: readonly RenderedPage[] }, config: SiteConfig): OutputAsset[] {
  const encoder = new TextEncoder();
  const text = (p: string, body: string): OutputAsset => ({ path: p, contents: encoder.encode(body) });
  const files: OutputAsset[] = [];
  for (const api of input.apis) {
    files.push(text(`openapi/${api.id}.yaml`, api.yamlText));
    files.push(text(`openapi/${api.id}.json`, api.jsonText));
    files.push(text(`openapi/${api.id}.reference.json`, api.referenceJsonText ?? api.jsonText));
    files.push(text(`openapi/${api.id}.postman_collection.json`, api.postman.collection));
    files.push(text(`openapi/${api.id}.postman_environment.json`, api.postman.environment));
  }
  files.push(text('sitemap.xml', sitemap(input.pages, config)));
  if (!existsSync(path.join(config.dirs.static, 'robots.txt'))) {
    files.push(text('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${siteRootUrl(config)}/sitemap.xml\n`));
  }
  files.push(baseUrlFile(config.baseUrl));
  const feed = blogFeed(input.posts.filter((entry) => !entry.post.frontMatter.unlisted), config);
  files.push(text(`${config.blog.routeBasePath.slice(1)}/rss.xml`, feed.rss2()));
  files.push(text(`${config.blog.routeBasePath.slice(1)}/atom.xml`, feed.atom1()));
  return files;
}

/** Output paths of a page: '/' -> index.html; '/404' -> 404.html; '/a/b' -> a/b/index.html and a/b.html. */
export function pageFiles(route: string): string[] {
  if (route === '/') return ['index.html'];
  if (route === NOT_FOUND_ROUTE) return ['404.html'];
  const base = route.replace(/^\//, '');
  return [`${base}/index.html`, `${base}.html`];
}

export interface WriteInput {
  pages: readonly RenderedPage[];
  assets: readonly OutputAsset[];
  generated: readonly OutputAsset[];
}

export interface WriteResult {
  dir: string;
  fileCount: number;
  bytes: number;
}

/** Files written at once: a site has thousands of small search shards. */
const CONCURRENCY = 64;

export async function write(input: WriteInput, config: SiteConfig, outDir: string): Promise<WriteResult> {
  const staging = stagingDir(outDir);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  let fileCount = 0;
  let bytes = 0;
  // Copied file by file from what listStaticFiles() allows: a symbolic link is published as its target's bytes, never as a link.
  const statics = listStaticFiles(config);
  for (const dir of new Set(statics.map((f) => path.dirname(path.join(staging, f.rel))))) await mkdir(dir, { recursive: true });
  for (let i = 0; i < statics.length; i += CONCURRENCY) {
    await Promise.all(statics.slice(i, i + CONCURRENCY).map((f) => copyFile(f.real, path.join(staging, f.rel))));
  }
  fileCount += statics.length;
  const files: { relPath: string; contents: Uint8Array | string }[] = [
    ...input.pages.flatMap((page) => pageFiles(page.route).map((relPath) => ({ relPath, contents: page.html }))),
    ...[...input.assets, ...input.generated].map((asset) => ({ relPath: asset.path, contents: asset.contents })),
  ];
  // Folders first, once each; then the files, many at a time.
  const dirs = [...new Set(files.map((f) => path.dirname(path.join(staging, f.relPath))))].sort();
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  for (let i = 0; i < files.length; i += CONCURRENCY) {
    await Promise.all(files.slice(i, i + CONCURRENCY).map((f) => writeFile(path.join(staging, f.relPath), f.contents)));
  }
  for (const f of files) bytes += typeof f.contents === 'string' ? Buffer.byteLength(f.contents) : f.contents.byteLength;
  fileCount += files.length;
  return { dir: staging, fileCount, bytes };
}

function sitemap(pages: readonly RenderedPage[], config: SiteConfig): string {
  const origin = siteRootUrl(config);
  const urls = pages
    .filter((p) => p.indexable)
    .map((p) => p.route)
    .sort()
    .map((route) => `  <url><loc>${escapeXml(origin + encodeRoute(route))}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A route as a URL path: each segment percent-encoded ('/docs/My Doc' -> '/docs/My%20Doc'), as sitemaps and feeds require. */
function encodeRoute(route: string): string {
  return route.split('/').map(encodeURIComponent).join('/') || '/';
}

/**
 * The feed library writes titles and summaries as `type="html"` (Atom) and CDATA (RSS),
 * which readers render as HTML: front matter is plain text, so its markup is escaped
 * and a title such as `<img onerror=…>` shows as written instead of running.
 */
function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function blogFeed(posts: readonly CompiledPost[], config: SiteConfig): Feed {
  const origin = siteRootUrl(config);
  const blogUrl = origin + config.blog.routeBasePath;
  const feed = new Feed({
    title: `${config.title} ${config.blog.title}`,
    description: config.blog.description,
    id: blogUrl,
    link: blogUrl,
    language: config.contentLanguage ?? config.locale.code,
    favicon: `${origin}/favicon.ico`,
    copyright: `Copyright © ${config.copyright.year} ${config.copyright.holder}`,
    updated: posts[0] ? new Date(`${posts[0].post.date}T00:00:00Z`) : new Date(`${config.copyright.year}-01-01T00:00:00Z`),
    feedLinks: { rss: `${blogUrl}/rss.xml`, atom: `${blogUrl}/atom.xml` },
  });
  for (const { post } of posts) {
    feed.addItem({
      title: escapeHtml(post.frontMatter.title),
      id: origin + encodeRoute(post.route),
      link: origin + encodeRoute(post.route),
      description: escapeHtml(post.frontMatter.description),
      date: new Date(`${post.date}T00:00:00Z`),
      author: post.authors.map((a) => ({ name: a.name, link: a.url })),
      category: post.tags.map((t) => ({ name: t.label, domain: origin + encodeRoute(t.route) })),
    });
  }
  return feed;
}
