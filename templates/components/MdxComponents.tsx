import type { MDXComponents } from 'mdx/types.js';
import { Admonition } from './Admonition.tsx';
import { SequenceDiagram } from './SequenceDiagram.tsx';
import { Slide, SlideDeck } from './SlideDeck.tsx';
import { TabItem, Tabs } from './Tabs.tsx';

/** Code highlighted at build time arrives as one HTML string (see cli/mdx/rehype-highlight.ts). */
function CodeHtml({ html }: { html: string }) {
  return <div className="code-block__pre" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Components every MDX document can use without importing them. */
export const mdxComponents: MDXComponents = {
  CodeHtml,
  Admonition,
  Tabs,
  TabItem,
  SequenceDiagram,
  SlideDeck,
  Slide,
  // Tables scroll on their own on narrow screens instead of widening the page.
  table: (props) => (
    <div className="table-wrapper">
      <table {...props} />
    </div>
  ),
  img: (props) => <img loading="lazy" decoding="async" {...props} />,
};
