/**
 * Markdown trees -> text, one style for every twin: "-" bullets, fenced code, GFM tables
 * and footnotes. And the frame every twin shares: the title as H1, the description under it.
 */
import type { BlockContent, List, ListItem, PhrasingContent, Root, RootContent } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown, type Options } from 'mdast-util-to-markdown';

/** A page's twin: where it is served (its route + .md) and what llms.txt says of it. */
export interface MarkdownTwin {
  route: string;
  title: string;
  description: string;
  text: string;
}

/**
 * The serializer's settings. Made once per build and passed to every twin: the GFM
 * extension's escaping patterns are compiled into regular expressions on first use and
 * kept on these objects, and compiling them again for each page took a third of the
 * twins stage.
 */
export function markdownStyle(): Options {
  return {
    extensions: [gfmToMarkdown()],
    bullet: '-',
    emphasis: '_',
    strong: '*',
    fence: '`',
    fences: true,
    listItemIndent: 'one',
    rule: '-',
    resourceLink: true,
  };
}

export function writeMarkdown(tree: Root, style: Options = markdownStyle()): string {
  return toMarkdown(tree, style);
}

export interface TwinBodyOptions {
  style?: Options;
  /** The body starts with the document's own h1, which the twin keeps as its title. */
  ownTitle?: boolean;
}

/**
 * A twin whose body is already text (a compiled document keeps its own, cli/stages/compile.ts):
 * the same text twinDocument() writes with that body, since a root's blocks are written one
 * by one and joined by a blank line. `lead` goes between the description and the body.
 */
export function twinDocumentWithBody(title: string, description: string, lead: readonly RootContent[], body: string, { style, ownTitle = false }: TwinBodyOptions = {}): string {
  if (!ownTitle) {
    const head = twinDocument(title, description, lead, style);
    return body ? `${head}\n${body}` : head;
  }
  // The document's own h1 (its content title, Docusaurus's rule) is the title its page
  // shows: the twin keeps it, first when it comes first, instead of adding a second h1.
  const heading = /^# [^\n]*\n/.exec(body)?.[0] ?? '';
  const rest = body.slice(heading.length).replace(/^\n+/, '');
  const under = [...descriptionQuote(description), ...lead];
  const middle = under.length > 0 ? writeMarkdown({ type: 'root', children: under }, style) : '';
  return [heading, middle, rest].filter(Boolean).join('\n');
}

/** A twin: `# title`, the description as a quote, then the body. */
export function twinDocument(title: string, description: string, body: readonly RootContent[], style?: Options): string {
  const heading: RootContent = { type: 'heading', depth: 1, children: [{ type: 'text', value: title }] };
  return writeMarkdown({ type: 'root', children: [heading, ...descriptionQuote(description), ...body] }, style);
}

/** The description under a twin's title, as a quote; nothing without one. */
function descriptionQuote(description: string): RootContent[] {
  return description ? [{ type: 'blockquote', children: [{ type: 'paragraph', children: [{ type: 'text', value: description }] }] as BlockContent[] }] : [];
}

export function link(url: string, label: string): PhrasingContent {
  return { type: 'link', url, children: [{ type: 'text', value: label }] };
}

/** A tight "-" list, one paragraph per item. */
export function bulletList(items: readonly PhrasingContent[][]): List {
  return {
    type: 'list',
    ordered: false,
    spread: false,
    children: items.map((children): ListItem => ({ type: 'listItem', spread: false, children: [{ type: 'paragraph', children }] })),
  };
}
