/**
 * Compiles and renders a small MDX document with only the plugins a test names, so each
 * plugin of cli/mdx is tested on its own, by the HTML it leads to.
 */
import { evaluate, type EvaluateOptions } from '@mdx-js/mdx';
import type { MDXComponents } from 'mdx/types.js';
import { createElement } from 'react';
import * as runtime from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';

export async function renderMdx(
  source: string,
  plugins: Pick<EvaluateOptions, 'remarkPlugins' | 'rehypePlugins'>,
  components: MDXComponents = {},
): Promise<string> {
  const { default: Content } = await evaluate(source, { ...runtime, ...plugins });
  return renderToStaticMarkup(createElement(Content, { components }));
}
