/**
 * Records every link with its source line (the link checker reports them by file and
 * line) and rewrites links to other MDX files (`./pagamento.mdx#x`) to their routes,
 * so one page has one URL whichever alias (.html or /index.html) it is read under.
 */
import path from 'node:path';
import type { Root } from 'mdast';
import type { MdxJsxAttribute, MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import type { Plugin } from 'unified';
import { visit } from 'unist-util-visit';

export interface SourceLink {
  href: string;
  line: number;
  column: number;
  /** What the author wrote, when the page holds another form of it (front matter `image: /x.png` becomes a full URL). */
  written?: string;
}

export interface RemarkLinksOptions {
  /** Absolute path of the file being compiled. */
  file: string;
  /** Absolute source path -> route, for rewriting links to .mdx files. */
  routeOfFile: (absolutePath: string) => string | undefined;
  /** Receives every link found. */
  links: SourceLink[];
}

const remarkLinks: Plugin<[RemarkLinksOptions], Root> = (options) => (tree) => {
  const rewrite = (href: string): string => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/')) return href;
    const [target = '', hash = ''] = href.split(/(?=#)/);
    if (!/\.mdx?$/.test(target)) return href;
    const route = options.routeOfFile(path.resolve(path.dirname(options.file), decodeURIComponent(target)));
    return route ? `${route}${hash}` : href;
  };
  const record = (href: string, position: { start: { line: number; column: number } } | undefined) => {
    options.links.push({ href, line: position?.start.line ?? 0, column: position?.start.column ?? 0 });
  };
  visit(tree, (node) => {
    if (node.type === 'link' || node.type === 'definition') {
      node.url = rewrite(node.url);
      record(node.url, node.position);
    } else if (node.type === 'image') {
      record(node.url, node.position);
    } else if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      const element = node as MdxJsxFlowElement | MdxJsxTextElement;
      for (const attribute of element.attributes) {
        if (attribute.type !== 'mdxJsxAttribute') continue;
        const attr = attribute as MdxJsxAttribute;
        if ((attr.name === 'href' || attr.name === 'src' || attr.name === 'to') && typeof attr.value === 'string') {
          attr.value = rewrite(attr.value);
          record(attr.value, element.position);
        }
      }
    }
  });
};

export default remarkLinks;
