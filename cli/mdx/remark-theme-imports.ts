/**
 * Drops `import X from '@theme/...'`: docsgen provides its components (Tabs, TabItem,
 * Admonition, ...) to every document, and Docusaurus content carries such imports.
 * MDX compiles the ESM block from its parsed program, so that is what is filtered.
 */
import type { Program } from 'estree';
import type { Root } from 'mdast';
import type { Plugin } from 'unified';

const THEME = /^@theme\//;

const remarkThemeImports: Plugin<[], Root> = () => (tree) => {
  tree.children = tree.children.filter((node) => {
    if (node.type !== 'mdxjsEsm') return true;
    const program = (node.data as { estree?: Program } | undefined)?.estree;
    if (!program) return true;
    program.body = program.body.filter(
      (statement) => !(statement.type === 'ImportDeclaration' && typeof statement.source.value === 'string' && THEME.test(statement.source.value)),
    );
    return program.body.length > 0;
  });
};

export default remarkThemeImports;
