/**
 * Stage 1: find every source file (docs, blog posts, pages), read its front matter,
 * derive its route, and resolve the sidebars against the docs that exist.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { closest } from 'fastest-levenshtein';
import { parse as parseYaml } from 'yaml';
import { configLiteralPlace, type SidebarItem, type SiteConfig } from '../config.ts';
import { DocsgenError, DocsgenErrors } from '../errors.ts';
import {
  docFrontMatterSchema,
  pageFrontMatterSchema,
  createFrontMatterCache,
  frontMatterFieldPlace,
  parseFrontMatter,
  postFrontMatterSchema,
  type FrontMatterCache,
  type DocFrontMatter,
  type PageFrontMatter,
  type PostFrontMatter,
} from '../frontmatter.ts';
import { listTree, type TreeFile } from '../source-tree.ts';
import { createSourceTextCache, listedSources, pruneSourceTexts, readSourceTexts, type SourceTextCache } from '../source-texts.ts';

interface SourceFile {
  /** Absolute path. */
  file: string;
  /** Path relative to the site root, posix separators: what error messages show. */
  relFile: string;
  source: string;
  /** When the file was last modified (ms since the epoch). */
  mtimeMs: number;
}

export interface SourceDoc extends SourceFile {
  kind: 'doc';
  /** Path inside the docs folder without extension, e.g. 'api/pagamento'; front matter `id` replaces the file name. */
  id: string;
  route: string;
  frontMatter: DocFrontMatter;
  /** Name of the sidebar listing this doc, if any. */
  sidebar?: string;
}

export interface Author {
  key: string;
  name: string;
  title?: string;
  url?: string;
}

export interface TagInfo {
  key: string;
  label: string;
  description?: string;
  route: string;
}

export interface SourcePost extends SourceFile {
  kind: 'post';
  slug: string;
  /** YYYY-MM-DD from the file name. */
  date: string;
  route: string;
  frontMatter: PostFrontMatter;
  authors: Author[];
  tags: TagInfo[];
}

export interface SourcePage extends SourceFile {
  kind: 'page';
  route: string;
  format: 'tsx' | 'mdx';
  /** Only for MDX pages; TSX pages export `meta` instead. */
  frontMatter?: PageFrontMatter;
}

export type ResolvedSidebarItem =
  | {
      type: 'doc';
      id: string;
      label: string;
      route: string;
      /** From front matter `sidebar_class_name`. */
      className?: string;
      /** An unlisted doc: shown in the sidebar only on its own page, and never a neighbour of another. */
      unlisted?: boolean;
    }
  | { type: 'link'; label: string; href: string }
  | { type: 'category'; label: string; items: ResolvedSidebarItem[]; collapsed: boolean; route?: string };

export interface Collected {
  docs: SourceDoc[];
  /** Newest first. */
  posts: SourcePost[];
  pages: SourcePage[];
  sidebars: Record<string, ResolvedSidebarItem[]>;
  tags: TagInfo[];
  /**
   * Docs, posts and MDX pages marked `draft: true` that this build leaves out, with the route they
   * would have: links to them are reported as links to a draft, not as unknown pages.
   */
  drafts: { file: string; relFile: string; route: string }[];
}

export interface CollectOptions {
  /** Build `draft: true` docs, posts and pages too: `serve --watch` does, `docsgen build` does not. */
  drafts?: boolean;
  /** The texts read by the last builds of a build session, reused while a file's times are unchanged. */
  texts?: SourceTextCache;
}

export async function collect(config: SiteConfig, frontMatter: FrontMatterCache = createFrontMatterCache(), options: CollectOptions = {}): Promise<Collected> {
  const errors: DocsgenError[] = [];
  const rel = (file: string) => path.relative(config.root, file).split(path.sep).join('/');

  const texts = options.texts ?? createSourceTextCache();
  const context: CollectContext = { config, rel, errors, frontMatter, texts };
  const allDocs = await collectDocs(context);
  const { posts: allPosts, tags } = await collectPosts(context);
  const allPages = await collectPages(context);
  pruneSourceTexts(texts, [...allDocs, ...allPosts, ...allPages].map((item) => item.file));
  const left = (item: SourceDoc | SourcePost | SourcePage) => !options.drafts && item.frontMatter?.draft === true;
  const docs = allDocs.filter((d) => !left(d));
  const posts = allPosts.filter((p) => !left(p));
  const pages = allPages.filter((p) => !left(p));
  const drafts = [...allDocs, ...allPosts, ...allPages].filter(left).map(({ file, relFile, route }) => ({ file, relFile, route }));
  const draftIds = new Set(allDocs.filter(left).map((d) => d.id));
  const sidebars = resolveSidebars(config, docs, draftIds, errors);
  checkPagination(docs, draftIds, errors);

  const mainDoc = docs.find((d) => d.id === config.docs.mainDoc);
  if (docs.length > 0 && !mainDoc) {
    errors.push(
      new DocsgenError(`docs.mainDoc is '${config.docs.mainDoc}', which is not a doc${draftIds.has(config.docs.mainDoc) ? ' of this build: it is a draft' : ''}.`, {
        file: rel(config.configFile),
        hint: draftIds.has(config.docs.mainDoc)
          ? `Drafts are left out of \`docsgen build\`: remove \`draft: true\` from ${allDocs.find((d) => d.id === config.docs.mainDoc)?.relFile} or choose another main doc.`
          : suggestDoc(config.docs.mainDoc, docs),
      }),
    );
  }
  if (errors.length > 0) {
    throw new DocsgenErrors(`Found ${errors.length} problem${errors.length === 1 ? '' : 's'} in the content:`, errors);
  }
  return { docs, posts, pages, sidebars, tags, drafts };
}

/**
 * Source files with one of `extensions` under `dir`, sorted by path, each with its path
 * inside `dir` (posix separators). A symbolic link is followed when it leads inside the
 * site; one that leads outside it or into a loop is added to `errors` (see
 * ../source-tree.ts). In watch mode, the last listing while the watcher reported nothing
 * added or removed (see ../source-texts.ts).
 */
function listSourceTree(config: SiteConfig, dir: string, extensions: readonly string[], errors: DocsgenError[], texts?: SourceTextCache): TreeFile[] {
  const list = () =>
    listTree(dir, {
      root: config.root,
      // Dot names are editors' and tools' files (`.#x.mdx`, `.git/`), ignored as Docusaurus and watch mode (../watch/watched-files.ts) ignore them.
      include: (rel, kind) => {
        const base = path.posix.basename(rel);
        if (base.startsWith('.')) return false;
        return kind === 'dir' || (extensions.includes(path.extname(rel)) && !base.startsWith('_'));
      },
    });
  const tree = texts ? listedSources(texts, `${config.root}\0${dir}\0${extensions.join()}`, list) : list();
  errors.push(...tree.errors);
  return tree.files;
}

/** What each kind of source is collected with: the problems found go to `errors`. */
interface CollectContext {
  config: SiteConfig;
  /** Path relative to the site root, posix separators. */
  rel: (file: string) => string;
  errors: DocsgenError[];
  frontMatter: FrontMatterCache;
  texts: SourceTextCache;
}

async function collectDocs(context: CollectContext): Promise<SourceDoc[]> {
  const { config, rel, errors, frontMatter, texts } = context;
  const tree = listSourceTree(config, config.dirs.docs, ['.mdx', '.md'], errors, texts);
  const sources = readSourceTexts(tree, texts);
  // The paths from the folder's own listing: path.relative() for each of a thousand docs took 2.5 ms of every save in watch mode.
  const prefix = rel(config.dirs.docs);
  const byId = new Map<string, SourceDoc>();
  for (const [index, { file, rel: inFolder }] of tree.entries()) {
    const relFile = prefix ? `${prefix}/${inFolder}` : inFolder;
    const pathId = inFolder.replace(/\.mdx?$/, '');
    const { text: source, mtimeMs } = sources[index]!;
    const fm = parseFrontMatter(source, docFrontMatterSchema, relFile, frontMatter);
    errors.push(...fm.errors);
    const { id, route } = docIdAndRoute(pathId, fm.data, config.docs.routeBasePath);
    const previous = byId.get(id);
    if (previous) {
      errors.push(
        new DocsgenError(`Doc id '${id}' is used twice: by ${previous.relFile} and ${relFile}.`, {
          file: relFile,
          hint: 'A doc id is its folder and file name without the extension, or its folder and its front-matter `id`: rename one file or change one `id`.',
        }),
      );
      continue;
    }
    byId.set(id, {
      kind: 'doc',
      id,
      route,
      file,
      relFile,
      source,
      mtimeMs,
      frontMatter: fm.data,
    });
  }
  return [...byId.values()];
}

const POST_FILE = /^(\d{4})-(\d{2})-(\d{2})-([a-z0-9-]+)\.mdx?$/;

async function collectPosts(context: CollectContext): Promise<{ posts: SourcePost[]; tags: TagInfo[] }> {
  const { config, rel, errors, frontMatter, texts } = context;
  if (!config.blog.enabled) return { posts: [], tags: [] };
  const dir = config.dirs.blog;
  const authors = await readYamlMap(path.join(dir, 'authors.yml'), rel, errors);
  const tagDefs = await readYamlMap(path.join(dir, 'tags.yml'), rel, errors);
  const tagRoute = (key: string) => `${config.blog.routeBasePath}/tags/${key}`;
  const tags = new Map<string, TagInfo>();
  const posts: SourcePost[] = [];
  const listed = listSourceTree(config, dir, ['.mdx', '.md'], errors, texts);
  const sources = readSourceTexts(listed, texts);
  for (const [index, { file }] of listed.entries()) {
    const relFile = rel(file);
    const match = POST_FILE.exec(path.basename(file));
    if (!match) {
      errors.push(
        new DocsgenError(`Blog post file name '${path.basename(file)}' does not start with a date.`, {
          file: relFile,
          hint: 'Name posts YYYY-MM-DD-slug.mdx, e.g. 2019-05-28-hola.mdx (lower-case slug, digits and dashes).',
        }),
      );
      continue;
    }
    const [, year, month, day, fileSlug] = match as unknown as [string, string, string, string, string];
    const { text: source, mtimeMs } = sources[index]!;
    const fm = parseFrontMatter(source, postFrontMatterSchema, relFile, frontMatter);
    errors.push(...fm.errors);
    if (!fm.data) continue;
    const postAuthors: Author[] = [];
    for (const key of fm.data.authors) {
      const entry = authors[key];
      if (!entry || typeof entry !== 'object') {
        errors.push(
          new DocsgenError(`Unknown author '${key}'.`, {
            file: relFile,
            hint: Object.keys(authors).length
              ? `Use one of ${Object.keys(authors).join(', ')} or add '${key}' to ${rel(path.join(dir, 'authors.yml'))}.`
              : `Add '${key}' with a name to ${rel(path.join(dir, 'authors.yml'))}.`,
          }),
        );
        continue;
      }
      const a = entry as Record<string, unknown>;
      postAuthors.push({
        key,
        name: String(a.name ?? key),
        title: typeof a.title === 'string' ? a.title : undefined,
        url: typeof a.url === 'string' ? a.url : undefined,
      });
    }
    const postTags = fm.data.tags.map((key) => {
      let tag = tags.get(key);
      if (!tag) {
        const def = (tagDefs[key] ?? {}) as Record<string, unknown>;
        tag = {
          key,
          label: typeof def.label === 'string' ? def.label : key,
          description: typeof def.description === 'string' ? def.description : undefined,
          route: tagRoute(key),
        };
        tags.set(key, tag);
      }
      return tag;
    });
    const slug = fm.data.slug ?? fileSlug;
    posts.push({
      kind: 'post',
      slug,
      date: `${year}-${month}-${day}`,
      route: `${config.blog.routeBasePath}/${year}/${month}/${day}/${slug}`,
      file,
      relFile,
      source,
      mtimeMs,
      frontMatter: fm.data,
      authors: postAuthors,
      tags: postTags,
    });
  }
  posts.sort((a, b) => (a.date === b.date ? b.slug.localeCompare(a.slug) : b.date.localeCompare(a.date)));
  return { posts, tags: [...tags.values()].sort((a, b) => a.label.localeCompare(b.label)) };
}

async function readYamlMap(file: string, rel: (f: string) => string, errors: DocsgenError[]): Promise<Record<string, unknown>> {
  if (!existsSync(file)) return {};
  try {
    const value: unknown = parseYaml(await readFile(file, 'utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch (error) {
    const e = error as { message?: string; linePos?: { line: number; col: number }[] };
    errors.push(
      new DocsgenError(`Not valid YAML: ${String(e.message).split('\n')[0]}`, {
        file: rel(file),
        line: e.linePos?.[0]?.line,
        column: e.linePos?.[0]?.col,
        hint: 'Each entry is a key followed by indented fields, e.g. "ana:\\n  name: Ana Ribeiro".',
      }),
    );
    return {};
  }
}

async function collectPages(context: CollectContext): Promise<SourcePage[]> {
  const { config, rel, errors, frontMatter: parsed, texts } = context;
  const pages: SourcePage[] = [];
  const listed = listSourceTree(config, config.dirs.pages, ['.tsx', '.mdx'], errors, texts);
  const sources = readSourceTexts(listed, texts);
  for (const [index, { file, rel: inFolder }] of listed.entries()) {
    const relFile = rel(file);
    const name = inFolder.replace(/\.(tsx|mdx)$/, '');
    const route = name === 'index' ? '/' : `/${name.replace(/\/index$/, '')}`;
    const format = file.endsWith('.tsx') ? 'tsx' : 'mdx';
    const { text: source, mtimeMs } = sources[index]!;
    let frontMatter: PageFrontMatter | undefined;
    if (format === 'mdx') {
      const fm = parseFrontMatter(source, pageFrontMatterSchema, relFile, parsed);
      errors.push(...fm.errors);
      frontMatter = fm.data;
    }
    pages.push({ kind: 'page', route, format, file, relFile, source, mtimeMs, frontMatter });
  }
  return pages;
}

function suggestDoc(id: string, docs: readonly SourceDoc[]): string {
  if (docs.length === 0) return 'There are no docs yet: add MDX files under the docs folder.';
  const best = closest(id, docs.map((d) => d.id));
  return `Did you mean '${best}'? Doc ids are paths inside the docs folder without the extension.`;
}

/**
 * As Docusaurus: front matter `id` replaces the file name (not the folder) in the id and
 * in the default route; `slug` sets the route, from the docs route when it starts with
 * '/', else from the doc's folder. An index file's route is its folder's.
 */
/**
 * Docs that front matter `slug` or `id` moved away from the route their file name gives,
 * by that route: a link to the old URL is reported with where the doc went (check-links.ts).
 */
export function movedDocs(docs: readonly SourceDoc[], config: SiteConfig): Map<string, { file: string; route: string; by: 'slug' | 'id' }> {
  const prefix = path.relative(config.root, config.dirs.docs).split(path.sep).join('/');
  const moved = new Map<string, { file: string; route: string; by: 'slug' | 'id' }>();
  for (const doc of docs) {
    const by = doc.frontMatter.slug !== undefined ? 'slug' : doc.frontMatter.id !== undefined ? 'id' : undefined;
    if (!by) continue;
    const pathId = (prefix ? doc.relFile.slice(prefix.length + 1) : doc.relFile).replace(/\.mdx?$/, '');
    const { route } = docIdAndRoute(pathId, undefined, config.docs.routeBasePath);
    if (route !== doc.route) moved.set(route, { file: doc.relFile, route: doc.route, by });
  }
  return moved;
}

function docIdAndRoute(pathId: string, fm: DocFrontMatter | undefined, routeBasePath: string): { id: string; route: string } {
  const slash = pathId.lastIndexOf('/');
  const dir = slash === -1 ? '' : pathId.slice(0, slash);
  const name = pathId.slice(slash + 1);
  const id = fm?.id ? (dir ? `${dir}/${fm.id}` : fm.id) : pathId;
  let tail: string;
  if (fm?.slug !== undefined) tail = fm.slug.startsWith('/') ? fm.slug : `${dir}/${fm.slug}`;
  else tail = name === 'index' ? dir : id;
  const clean = tail.split('/').filter(Boolean).join('/');
  return { id, route: clean ? `${routeBasePath}/${clean}` : routeBasePath };
}

/** pagination_prev/next name docs that exist (a draft left out of the build counts as none). */
function checkPagination(docs: readonly SourceDoc[], draftIds: ReadonlySet<string>, errors: DocsgenError[]): void {
  const ids = new Set(docs.map((d) => d.id));
  for (const doc of docs) {
    for (const field of ['pagination_prev', 'pagination_next'] as const) {
      const target = doc.frontMatter?.[field];
      if (typeof target !== 'string' || ids.has(target)) continue;
      errors.push(
        new DocsgenError(`Front-matter field '${field}' names '${target}', which is not a doc${draftIds.has(target) ? ' of this build: it is a draft' : ''}.`, {
          file: doc.relFile,
          ...frontMatterFieldPlace(doc.source, field),
          hint: draftIds.has(target)
            ? `Drafts are left out of \`docsgen build\`: name another doc, or \`null\` to show no link.`
            : `${suggestDoc(target, docs)} Write \`${field}: null\` to show no link.`,
        }),
      );
    }
  }
}

function resolveSidebars(config: SiteConfig, docs: SourceDoc[], draftIds: ReadonlySet<string>, errors: DocsgenError[]): Record<string, ResolvedSidebarItem[]> {
  const byId = new Map(docs.map((d) => [d.id, d]));
  // The docs of each folder, by the id prefix that names it ('api/' for 'api/pagamento'): a
  // site of 155 autogenerated categories otherwise went through every doc for each.
  const byFolder = new Map<string, SourceDoc[]>();
  for (const doc of docs) {
    const folder = doc.id.slice(0, doc.id.lastIndexOf('/') + 1);
    const list = byFolder.get(folder);
    if (list) list.push(doc);
    else byFolder.set(folder, [doc]);
  }
  const configFile = path.relative(config.root, config.configFile).split(path.sep).join('/');
  const result: Record<string, ResolvedSidebarItem[]> = {};

  for (const [name, items] of Object.entries(config.sidebars)) {
    const docItem = (id: string, label?: string): ResolvedSidebarItem | undefined => {
      const doc = byId.get(id);
      // A draft is listed where the sidebar names it while it is being written (watch) and left out of the published site.
      if (!doc && draftIds.has(id)) return undefined;
      if (!doc) {
        errors.push(
          new DocsgenError(`The sidebar '${name}' lists '${id}', which does not exist.`, {
            file: configFile,
            ...configLiteralPlace(config.configFile, id),
            hint: suggestDoc(id, docs),
          }),
        );
        return undefined;
      }
      if (doc.sidebar && doc.sidebar !== name) {
        errors.push(
          new DocsgenError(`Doc '${id}' is listed in two sidebars: '${doc.sidebar}' and '${name}'.`, {
            file: configFile,
            hint: 'A doc belongs to one sidebar; remove it from one of them.',
          }),
        );
      }
      doc.sidebar = name;
      return {
        type: 'doc',
        id,
        label: label ?? doc.frontMatter?.sidebar_label ?? doc.frontMatter?.title ?? id,
        route: doc.route,
        ...(doc.frontMatter?.sidebar_class_name ? { className: doc.frontMatter.sidebar_class_name } : {}),
        ...(doc.frontMatter?.unlisted ? { unlisted: true } : {}),
      };
    };
    const resolve = (item: SidebarItem): ResolvedSidebarItem[] => {
      if (typeof item === 'string') return compact([docItem(item)]);
      switch (item.type) {
        case 'doc':
          return compact([docItem(item.id, item.label)]);
        case 'link':
          return [{ type: 'link', label: item.label, href: item.href }];
        case 'autogenerated': {
          const prefix = `${item.dirName.replace(/\/$/, '')}/`;
          const inDir = [...(byFolder.get(prefix) ?? [])];
          if (inDir.length === 0) {
            errors.push(
              new DocsgenError(`The sidebar '${name}' autogenerates from '${item.dirName}', which holds no docs.`, {
                file: configFile,
                hint: `Create MDX files under ${config.docs.path}/${item.dirName}/ or fix dirName.`,
              }),
            );
          }
          inDir.sort(
            (a, b) =>
              (a.frontMatter?.sidebar_position ?? Number.MAX_SAFE_INTEGER) -
                (b.frontMatter?.sidebar_position ?? Number.MAX_SAFE_INTEGER) || a.id.localeCompare(b.id),
          );
          return compact(inDir.map((d) => docItem(d.id)));
        }
        case 'category': {
          const children = item.items.flatMap(resolve);
          const link = item.link ? docItem(item.link.id) : undefined;
          return [
            {
              type: 'category',
              label: item.label,
              items: children,
              collapsed: item.collapsed ?? false,
              route: link && link.type === 'doc' ? link.route : undefined,
            },
          ];
        }
      }
    };
    result[name] = items.flatMap(resolve);
  }
  return result;
}

function compact<T>(values: (T | undefined)[]): T[] {
  return values.filter((v): v is T => v !== undefined);
}

/** Docs of one sidebar in reading order, for previous/next links. */
export function flattenSidebar(items: readonly ResolvedSidebarItem[]): { id: string; label: string; route: string }[] {
  return items.flatMap((item) => {
    if (item.type === 'doc') return [{ id: item.id, label: item.label, route: item.route }];
    if (item.type === 'category') return flattenSidebar(item.items);
    return [];
  });
}
