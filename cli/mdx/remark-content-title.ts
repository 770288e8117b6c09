/**
 * Whether the document has its own title, by Docusaurus's rule (its `contentTitle`): the
 * first heading of the document is an h1 (`# Title`). A doc with `hide_title: true` then
 * keeps that heading as its h1 instead of a hidden copy of its `title`, so the page has
 * one h1, as in Docusaurus.
 * https://github.com/facebook/docusaurus/blob/main/packages/docusaurus-mdx-loader/src/remark/contentTitle/index.ts
 */
import type { Heading, Root } from 'mdast';
import type { Plugin } from 'unified';
import { EXIT, visit } from 'unist-util-visit';

export interface RemarkContentTitleOptions {
  /** Told when the first heading of the document is an h1. */
  onContentTitle: () => void;
}

const remarkContentTitle: Plugin<[RemarkContentTitleOptions], Root> = (options) => (tree) => {
  visit(tree, 'heading', (node: Heading) => {
    if (node.depth === 1) options.onContentTitle();
    return EXIT;
  });
};

export default remarkContentTitle;
