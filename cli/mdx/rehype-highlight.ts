/**
 * Highlights fenced code at build time with Shiki, in a light and a dark theme. The
 * result is inserted as one pre-rendered HTML string (a <CodeHtml> element) rather than
 * thousands of token nodes, which keeps MDX's compiled code and React's render small.
 * Inline styles become shared classes whose CSS the build writes once for the site.
 */
import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import type { MdxJsxFlowElementHast } from 'mdast-util-mdx-jsx';
import { bundledLanguages, isPlainLang, type BundledLanguage, type BundledTheme, type HighlighterGeneric, type ShikiTransformer } from 'shiki';
import type { Plugin } from 'unified';
import { visit } from 'unist-util-visit';

export interface RehypeHighlightOptions {
  highlighter: HighlighterGeneric<BundledLanguage, BundledTheme>;
  themes: { light: BundledTheme; dark: BundledTheme };
  transformers: ShikiTransformer[];
  /** (lang, meta, code) -> HTML, shared across files and rebuilds. */
  cache: Map<string, string>;
}

const rehypeHighlight: Plugin<[RehypeHighlightOptions], Root> = (options) => async (tree) => {
  const found: { node: Element; parent: Element | Root; index: number }[] = [];
  visit(tree, 'element', (node: Element, index, parent) => {
    if (node.tagName !== 'pre' || !parent || index === undefined) return;
    const code = node.children[0];
    if (code?.type === 'element' && code.tagName === 'code') found.push({ node, parent: parent as Element | Root, index });
  });
  for (const { node, parent, index } of found) {
    const code = node.children[0] as Element;
    const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
    const requested = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length) ?? 'text';
    const lang = await ensureLanguage(options.highlighter, requested);
    const meta = String((code.data as { meta?: string } | undefined)?.meta ?? '');
    const text = toString(code).replace(/\n$/, '');
    const key = `${lang}\0${meta}\0${text}`;
    let html = options.cache.get(key);
    if (html === undefined) {
      html = options.highlighter.codeToHtml(text, {
        lang,
        themes: options.themes,
        defaultColor: 'light',
        meta: { __raw: meta },
        transformers: options.transformers,
        // Shiki stops tokenizing a line after 500 ms by default; on a loaded machine the first
        // line of a grammar can take that long, and the same code came out coloured differently.
        tokenizeTimeLimit: 0,
      });
      options.cache.set(key, html);
    }
    const element: MdxJsxFlowElementHast = {
      type: 'mdxJsxFlowElement',
      name: 'CodeHtml',
      attributes: [{ type: 'mdxJsxAttribute', name: 'html', value: html }],
      children: [],
    };
    parent.children[index] = element as unknown as Element;
  }
};

/** Loads the grammar of `requested` if Shiki has one; the language to highlight with ('text' for plain or unknown ones). */
export async function ensureLanguage(highlighter: RehypeHighlightOptions['highlighter'], requested: string): Promise<string> {
  if (isPlainLang(requested)) return 'text';
  if (highlighter.getLoadedLanguages().includes(requested)) return requested;
  if (requested in bundledLanguages) {
    await highlighter.loadLanguage(requested as BundledLanguage);
    return requested;
  }
  // An unknown language is shown as plain text rather than failing the build.
  return 'text';
}

export default rehypeHighlight;
