/**
 * Drops `import X from '@theme/...'` lines: docsgen provides its components (Tabs,
 * TabItem, Admonition, ...) to every document, and Docusaurus content carries such imports.
 */
import type { Root } from 'mdast';
import type { Plugin } from 'unified';

const remarkThemeImports: Plugin<[], Root> = () => (tree) => {
  tree.children = tree.children.filter((node) => {
    if (node.type !== 'mdxjsEsm') return true;
    return !/^\s*import\s[^;]*?from\s+['"]@theme\/[^'"]+['"];?\s*$/.test(node.value);
  });
};

export default remarkThemeImports;
