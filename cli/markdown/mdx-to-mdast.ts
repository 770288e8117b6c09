/**
 * A compiled document's tree (MDX: components, expressions, imports) -> plain Markdown
 * (CommonMark + GFM), each component replaced by what it means on the page: an
 * admonition is a blockquote led by its heading, tabs are their panels one after the
 * other under their labels, a sequence diagram is its text version, a deck its slides
 * in order. Links and images become absolute URLs on the site, so the text keeps
 * working wherever it is pasted.
 */
import type { BlockContent, List, ListItem, Paragraph, PhrasingContent, Root, RootContent, Strong, Text } from 'mdast';
import type { MdxJsxAttribute, MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import { ADMONITION_TITLES, type AdmonitionType } from '../../templates/shared/index.ts';
import { STATIC_VALUE } from '../mdx/remark-twin-tree.ts';

export interface MdxToMdastOptions {
  /** Production origin, e.g. https://developers.example.com (no trailing slash needed). */
  siteUrl: string;
  /** Route of the page the tree belongs to, for links to its own anchors (`#x`). */
  route: string;
}

type Element = MdxJsxFlowElement | MdxJsxTextElement;

export function mdxToMdast(tree: Root, options: MdxToMdastOptions): Root {
  const context = { ...options, siteUrl: options.siteUrl.replace(/\/+$/, '') };
  return wrapPhrasing({ type: 'root', children: convertChildren(tree.children, context) });
}

const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);
const PHRASING = new Set(['text', 'emphasis', 'strong', 'delete', 'inlineCode', 'link', 'linkReference', 'image', 'imageReference', 'break', 'footnoteReference']);

/**
 * A component written on one line (`<summary>Question?</summary>`) leaves phrasing
 * where blocks belong once it is unwrapped: each such run becomes a paragraph.
 */
function wrapPhrasing<T extends Root | RootContent>(node: T): T {
  if (!('children' in node)) return node;
  const children = (node.children as RootContent[]).map(wrapPhrasing);
  if (!FLOW_PARENTS.has(node.type)) return { ...node, children } as T;
  const out: RootContent[] = [];
  let run: Paragraph | undefined;
  for (const child of children) {
    if (!PHRASING.has(child.type)) {
      out.push(child);
      run = undefined;
    } else if (run) run.children.push(child as PhrasingContent);
    else {
      run = { type: 'paragraph', children: [child as PhrasingContent] };
      out.push(run);
    }
  }
  return { ...node, children: out } as T;
}

type Context = MdxToMdastOptions;

function convertChildren(children: readonly RootContent[], context: Context): RootContent[] {
  return children.flatMap((child) => convert(child, context));
}

function convert(node: RootContent, context: Context): RootContent[] {
  switch (node.type) {
    case 'mdxjsEsm':
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
    case 'yaml':
    case 'html':
      return [];
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      return component(node, context);
    case 'link':
    case 'image':
    case 'definition':
      return [withChildren({ ...node, url: absolute(node.url, context) }, context)];
    case 'code':
      // The meta (title, highlighted lines) styles the page; the language is what a reader needs.
      return [{ type: 'code', lang: node.lang ?? null, meta: null, value: node.value }];
    default:
      return [withChildren(node, context)];
  }
}

function withChildren<T extends RootContent>(node: T, context: Context): T {
  if (!('children' in node)) return node;
  return { ...node, children: convertChildren(node.children as RootContent[], context) } as T;
}

function absolute(url: string, context: Context): string {
  if (url.startsWith('//')) return url;
  if (url.startsWith('/')) return `${context.siteUrl}${url}`;
  if (url.startsWith('#')) return `${context.siteUrl}${context.route === '/' ? '/' : context.route}${url}`;
  return url;
}

function component(node: Element, context: Context): RootContent[] {
  const inner = () => convertChildren(node.children as RootContent[], context);
  switch (node.name) {
    case 'Admonition':
      return [admonition(node, inner())];
    case 'Tabs':
      return titledParts(node, 'TabItem', (item) => stringAttribute(item, 'label') ?? stringAttribute(item, 'value'), context);
    case 'SlideDeck': {
      const title = stringAttribute(node, 'title');
      return [...(title ? [strongParagraph(title)] : []), ...titledParts(node, 'Slide', (slide) => stringAttribute(slide, 'title'), context)];
    }
    case 'Slide':
      return [...(stringAttribute(node, 'title') ? [strongParagraph(stringAttribute(node, 'title')!)] : []), ...inner()];
    case 'SequenceDiagram':
      return sequenceDiagram(node);
    case 'a': {
      const href = stringAttribute(node, 'href');
      const children = inner() as PhrasingContent[];
      return href ? [{ type: 'link', url: absolute(href, context), children }] : children;
    }
    case 'img': {
      const src = stringAttribute(node, 'src');
      return src ? [{ type: 'image', url: absolute(src, context), alt: stringAttribute(node, 'alt') ?? '' }] : [];
    }
    case 'br':
      return [{ type: 'break' }];
    case 'summary':
      // The visible question of a <details>: what follows answers it.
      return [{ type: 'strong', children: inner() as PhrasingContent[] }];
    default:
      // Any other element (a <div>, <details>, <kbd>...) is only its content in Markdown.
      return inner();
  }
}

/** "> **Warning:** first paragraph…", the rest of the admonition following in the quote. */
function admonition(node: Element, children: RootContent[]): RootContent {
  const type = stringAttribute(node, 'type') as AdmonitionType | undefined;
  const title = stringAttribute(node, 'title') ?? ADMONITION_TITLES[type && type in ADMONITION_TITLES ? type : 'note'];
  const lead: Strong = { type: 'strong', children: [{ type: 'text', value: `${title}:` }] };
  const [first, ...rest] = children;
  const body: RootContent[] =
    first?.type === 'paragraph'
      ? [{ ...first, children: [lead, { type: 'text', value: ' ' }, ...first.children] }, ...rest]
      : [{ type: 'paragraph', children: [lead] }, ...children];
  return { type: 'blockquote', children: body as BlockContent[] };
}

/** The children named `part` of a container, each led by its title: tabs, slides. */
function titledParts(node: Element, part: string, titleOf: (child: Element) => string | undefined, context: Context): RootContent[] {
  return (node.children as RootContent[]).flatMap((child): RootContent[] => {
    if ((child.type !== 'mdxJsxFlowElement' && child.type !== 'mdxJsxTextElement') || child.name !== part) return convert(child, context);
    const title = titleOf(child);
    const body = convertChildren(child.children as RootContent[], context);
    return [...(title ? [strongParagraph(title)] : []), ...body];
  });
}

interface DiagramParticipant {
  id: string;
  label: string;
}
interface DiagramMessage {
  from: string;
  to: string;
  text: string;
  note?: string;
}

/** The same steps the page lists under "Text version of the diagram". */
function sequenceDiagram(node: Element): RootContent[] {
  const title = stringAttribute(node, 'title');
  const participants = valueAttribute(node, 'participants') as DiagramParticipant[] | undefined;
  const messages = valueAttribute(node, 'messages') as DiagramMessage[] | undefined;
  const out: RootContent[] = title ? [strongParagraph(title)] : [];
  if (!Array.isArray(participants) || !Array.isArray(messages)) return out;
  const label = (id: string) => participants.find((p) => p.id === id)?.label ?? id;
  const items: ListItem[] = messages.map((m) => ({
    type: 'listItem',
    spread: false,
    children: [
      {
        type: 'paragraph',
        children: [
          { type: 'strong', children: [text(label(m.from))] },
          text(' → '),
          { type: 'strong', children: [text(label(m.to))] },
          text(`: ${m.text}${m.note ? ` (${m.note})` : ''}`),
        ],
      },
    ],
  }));
  const list: List = { type: 'list', ordered: true, start: 1, spread: false, children: items };
  return [...out, list];
}

function text(value: string): Text {
  return { type: 'text', value };
}

function strongParagraph(value: string): Paragraph {
  return { type: 'paragraph', children: [{ type: 'strong', children: [text(value)] }] };
}

function attribute(node: Element, name: string): MdxJsxAttribute | undefined {
  return node.attributes.find((a): a is MdxJsxAttribute => a.type === 'mdxJsxAttribute' && a.name === name);
}

function stringAttribute(node: Element, name: string): string | undefined {
  const value = valueAttribute(node, name);
  return typeof value === 'string' ? value : undefined;
}

/** A string attribute's text, or the literal value of an expression attribute (see remark-twin-tree). */
function valueAttribute(node: Element, name: string): unknown {
  const value = attribute(node, name)?.value;
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') return (value.data as Record<string, unknown> | undefined)?.[STATIC_VALUE];
  return undefined;
}
