import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement, type ReactNode } from 'react';
import remarkThemeImports from '../../../cli/mdx/remark-theme-imports.ts';
import { renderMdx } from './render-mdx.ts';

const Tabs = ({ children }: { children?: ReactNode }) => createElement('div', { className: 'tabs' }, children);

describe('remark-theme-imports', () => {
  it("drops imports from '@theme/…', so docsgen's own components are used", async () => {
    const source = "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n<Tabs>um</Tabs>\n";
    assert.equal(await renderMdx(source, { remarkPlugins: [remarkThemeImports] }, { Tabs }), '<div class="tabs">um</div>');
  });

  it('keeps the other statements of the same block', async () => {
    const source = "import Tabs from '@theme/Tabs';\nexport const total = 2 + 3;\n\nTotal: {total}\n";
    assert.equal(await renderMdx(source, { remarkPlugins: [remarkThemeImports] }), '<p>Total: 5</p>');
  });

  it('without it, such an import is left for the bundler to fail on', async () => {
    await assert.rejects(renderMdx("import Tabs from '@theme/Tabs';\n\n<Tabs>um</Tabs>\n", {}, { Tabs }));
  });
});
