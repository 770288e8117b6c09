/**
 * The CPU-heavy half of compiling (compile.ts): MDX and highlighting to JavaScript code,
 * which the compile cache keeps. A module of its own, imported with the first document
 * that is in no cache, and by the compile pool's workers: MDX's compiler, its plugins and
 * Shiki took a quarter of a second to import, which a build whose documents all come from
 * the cache never needs.
 */
import type { Root as MdastRoot } from 'mdast';
import { compile as compileMdxSource } from '@mdx-js/mdx';
import { SourceMapGenerator } from 'source-map';
import { transformerMetaHighlight, transformerNotationHighlight } from '@shikijs/transformers';
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { DocsgenError, codeExcerpt } from '../errors.ts';
import rehypeCodeBlocks from '../mdx/rehype-code-blocks.ts';
import rehypeHeadings from '../mdx/rehype-headings.ts';
import rehypeHighlight from '../mdx/rehype-highlight.ts';
import rehypeImageSize from '../mdx/rehype-image-size.ts';
import rehypeTableScroll from '../mdx/rehype-table-scroll.ts';
import remarkAdmonitions from '../mdx/remark-admonitions.ts';
import remarkContentTitle from '../mdx/remark-content-title.ts';
import { checkMdxSource, isStackOverflow, NESTING_HINT, remarkNestingLimit } from '../mdx/limits.ts';
import remarkLinks, { type SourceLink } from '../mdx/remark-links.ts';
import type { EncodedSourceMap } from '../mdx/runtime-errors.ts';
import remarkThemeImports from '../mdx/remark-theme-imports.ts';
import remarkTwinTree from '../mdx/remark-twin-tree.ts';
import { mdxToMdast } from '../markdown/mdx-to-mdast.ts';
import { writeMarkdown } from '../markdown/write-markdown.ts';
import type { TocItem } from '../../templates/shared/index.ts';
import { getHighlighter, THEMES, usedClasses, type CompileContext, type DiskEntry } from './compile.ts';

/** Compiles one MDX source to its cache entry; throws a DocsgenError pointing at the line for a syntax error. */
export async function compileCode(input: { file: string; relFile: string; source: string }, context: CompileContext): Promise<DiskEntry> {
  const limit = checkMdxSource(input.source);
  if (limit) throw new DocsgenError(limit.message, { file: input.relFile, line: limit.line, column: limit.column, excerpt: codeExcerpt(input.source, limit.line, limit.column), hint: limit.hint });
  const highlighter = await getHighlighter(context.cache);
  // Every route asked for is recorded: the compiled document is valid while they stay the same.
  const routes = new Map<string, string | null>();
  const routeOfFile = (file: string) => {
    const route = context.routeOfFile(file);
    routes.set(file, route ?? null);
    return route;
  };
  const headings: TocItem[] = [];
  let hasContentTitle = false;
  const links: SourceLink[] = [];
  let markdown: MdastRoot = { type: 'root', children: [] };
  let code: string;
  let map: EncodedSourceMap | undefined;
  try {
    const output = await compileMdxSource(
      { path: input.file, value: input.source },
      {
        outputFormat: 'function-body',
        development: false,
        SourceMapGenerator,
        remarkPlugins: [
          remarkNestingLimit,
          remarkFrontmatter,
          remarkGfm,
          remarkDirective,
          remarkAdmonitions,
          remarkThemeImports,
          [remarkContentTitle, { onContentTitle: () => (hasContentTitle = true) }],
          [remarkLinks, { file: input.file, routeOfFile, links }],
          [remarkTwinTree, { onTree: (tree: MdastRoot) => (markdown = tree) }],
        ],
        rehypePlugins: [
          [rehypeHeadings, { headings }],
          rehypeCodeBlocks,
          rehypeTableScroll,
          [rehypeImageSize, { staticDir: context.staticDir }],
          [
            rehypeHighlight,
            {
              highlighter,
              themes: THEMES,
              cache: context.cache.code,
              transformers: [transformerMetaHighlight(), transformerNotationHighlight(), context.cache.styleToClass],
            },
          ],
        ],
      },
    );
    code = String(output);
    map = output.map as EncodedSourceMap | undefined;
  } catch (error) {
    throw mdxError(error, input);
  }
  const classes = usedClasses(context.cache, code);
  // A document outside the routes (none in a build) has its twin's page anchors relative.
  const twinBody = writeMarkdown(mdxToMdast(markdown, { siteUrl: context.siteUrl, route: routeOfFile(input.file) ?? '' }), context.cache.twinStyle);
  return { code, headings, hasContentTitle, links, twinBody, classes, map, routes: [...routes] };
}

function mdxError(error: unknown, input: { relFile: string; source: string }): DocsgenError {
  const e = error as { line?: number; column?: number; reason?: string; message?: string; place?: unknown; ruleId?: string };
  let reason = (e.reason ?? e.message ?? String(error)).split('\n')[0] ?? '';
  // Some messages (a block tag never closed) carry their place only in their text: "(11:1-11:19)".
  const placeInText = typeof e.line === 'number' ? null : /\s*\((\d+):(\d+)(?:-\d+:\d+)?\)$/.exec(reason);
  if (placeInText) reason = reason.slice(0, placeInText.index);
  const line = typeof e.line === 'number' ? e.line : placeInText ? Number(placeInText[1]) : undefined;
  const column = typeof e.column === 'number' ? e.column : placeInText ? Number(placeInText[2]) : undefined;
  const tooDeep = e.ruleId === 'nesting-limit' || isStackOverflow(error) || isStackOverflow((error as { cause?: unknown }).cause);
  return new DocsgenError(tooDeep ? (e.ruleId === 'nesting-limit' ? String(reason) : 'The document nests too deeply to compile.') : `MDX syntax error: ${reason}`, {
    file: input.relFile,
    line,
    column,
    excerpt: line ? codeExcerpt(input.source, line, column) : undefined,
    hint: tooDeep
      ? NESTING_HINT
      : 'In MDX, "<" starts a JSX tag and "{" starts an expression: escape them as \\< and \\{ in prose, close every tag (<br />), and use {/* */} instead of <!-- -->.',
    cause: error,
  });
}
