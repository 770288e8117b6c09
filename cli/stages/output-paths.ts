/**
 * One output path, one source. Two docs that become the same route (`docs/a.mdx` and
 * `docs/a/index.mdx`), a page and a doc of the same route, or a static file and a page
 * (`static/docs/x.html` and the doc `docs/x`) would otherwise overwrite each other
 * silently, the last one written winning. The build fails instead, naming both.
 */
import path from 'node:path';
import type { SiteConfig } from '../config.ts';
import { DocsgenError, DocsgenErrors } from '../errors.ts';
import type { OutputAsset } from './bundle.ts';
import type { RenderedPage } from './render.ts';
import type { StaticFile } from './static-files.ts';
import { pageFiles, routeOfFile } from '../../templates/shared/routes.ts';

export interface OutputSources {
  pages: readonly RenderedPage[];
  /** Client assets and generated files (sitemap, feeds, API downloads). */
  files: readonly Pick<OutputAsset, 'path'>[];
  statics: readonly StaticFile[];
}

interface Source {
  /** How the author knows it: a file of the site, or what docsgen generates. */
  label: string;
  /** Site-relative file, when the source is one. */
  file?: string;
  kind: 'doc' | 'page' | 'static' | 'generated';
}

/** Throws DocsgenErrors with one error per pair of sources that write the same path. */
export function checkOutputPaths(input: OutputSources, config: SiteConfig): void {
  const rel = (file: string) => (path.isAbsolute(file) ? path.relative(config.root, file) : file).split(path.sep).join('/');
  const writers = new Map<string, Source[]>();
  const add = (out: string, source: Source) => {
    const list = writers.get(out) ?? [];
    if (!list.some((s) => s.label === source.label)) list.push(source);
    writers.set(out, list);
  };
  for (const file of input.statics) {
    const relFile = rel(path.join(config.dirs.static, ...file.rel.split('/')));
    add(file.rel, { label: relFile, file: relFile, kind: 'static' });
  }
  for (const page of input.pages) {
    const source: Source = page.sourceFile
      ? { label: rel(page.sourceFile), file: rel(page.sourceFile), kind: page.kind === 'doc' || page.kind === 'docs-root' ? 'doc' : 'page' }
      : { label: `the page docsgen generates at ${page.route}`, kind: 'generated' };
    for (const out of pageFiles(page.route)) add(out, source);
  }
  for (const file of input.files) add(file.path, { label: `the file docsgen generates at /${file.path}`, kind: 'generated' });

  const errors: DocsgenError[] = [];
  const reported = new Set<string>();
  for (const [out, sources] of writers) {
    if (sources.length < 2) continue;
    // A page writes two files (x.html and x/index.html): one report per set of sources.
    const key = sources.map((s) => s.label).join('\0');
    if (reported.has(key)) continue;
    reported.add(key);
    const named = sources.map((s) => s.label);
    const list = named.length === 2 ? `${named[0]} and ${named[1]}` : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
    errors.push(
      new DocsgenError(`${list} would both be written to ${out}${isPage(out) ? ` (the URL ${routeOfFile(out)})` : ''}: one would silently replace the other.`, {
        file: sources.find((s) => s.file)?.file,
        hint: hintFor(sources),
      }),
    );
  }
  if (errors.length > 0) throw new DocsgenErrors(`Found ${errors.length} output path${errors.length === 1 ? '' : 's'} written by two sources:`, errors);
}

function isPage(out: string): boolean {
  return out.endsWith('.html');
}

function hintFor(sources: readonly Source[]): string {
  const kinds = new Set(sources.map((s) => s.kind));
  if (kinds.size === 1 && kinds.has('doc')) {
    return 'A doc named x.mdx and a doc x/index.mdx get the same URL, as do docs whose front-matter `slug` or `id` give the same one. Keep one: rename one of the files or change its `slug`, or merge them.';
  }
  if (kinds.has('static')) {
    return 'A file in the static folder is published at its own path, which a page of the site also uses. Rename or move the static file, or the page.';
  }
  if (kinds.has('generated')) {
    return 'docsgen writes this path itself (blog lists, tags, feeds, the sitemap, the API downloads). Rename or move your file.';
  }
  return 'A page in the pages folder and a doc have the same URL. Rename or move one of them (a doc’s URL is its path in the docs folder under the docs route, or its front-matter `slug`; a page’s its path in the pages folder).';
}
