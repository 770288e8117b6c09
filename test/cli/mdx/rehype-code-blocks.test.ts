import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import rehypeCodeBlocks, { parseMeta } from '../../../cli/mdx/rehype-code-blocks.ts';
import { DATA } from '../../../templates/shared/index.ts';
import { renderMdx } from './render-mdx.ts';

const render = (source: string) => renderMdx(source, { rehypePlugins: [rehypeCodeBlocks] });
const COPY = `<button type="button" class="code-block__copy" ${DATA.copy}="" aria-label="Copy code to clipboard" title="Copy"><span class="code-block__copy-label">Copy</span></button>`;

describe('rehype-code-blocks', () => {
  it('wraps a fence in the code-block markup with its language, its title and a copy button', async () => {
    assert.equal(
      await render('```json title="resposta.json"\n{"ok": true}\n```\n'),
      `<div class="code-block language-json"><div class="code-block__title">resposta.json</div><div class="code-block__body"><pre><code class="language-json">{&quot;ok&quot;: true}\n</code></pre>${COPY}</div></div>`,
    );
  });

  it('gives a fence without language or title only the body', async () => {
    assert.equal(await render('```\ntexto\n```\n'), `<div class="code-block"><div class="code-block__body"><pre><code>texto\n</code></pre>${COPY}</div></div>`);
  });

  it('leaves inline code alone', async () => {
    assert.equal(await render('Use `npm test`.\n'), '<p>Use <code>npm test</code>.</p>');
  });

  it('reads key="value", key=\'value\' and key=value pairs from the meta', () => {
    assert.deepEqual(parseMeta(`title="a b" lang='pt' showLineNumbers {1,3} mark=x`), { title: 'a b', lang: 'pt', mark: 'x' });
  });
});
