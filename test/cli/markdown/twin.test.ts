/**
 * The Markdown twin generators on small inputs: an MDX document's components and links
 * as Markdown, and an API document's operations with the request samples handed in.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Paragraph, RootContent } from 'mdast';
import { apiTwin } from '../../../cli/markdown/api-twin.ts';
import { twinDocument, twinDocumentWithBody, writeMarkdown } from '../../../cli/markdown/write-markdown.ts';
import { compileCode } from '../../../cli/stages/compile-code.ts';
import { createCompileCache } from '../../../cli/stages/compile.ts';
import { loadApiDocuments } from '../../../cli/stages/openapi.ts';
import { ADMONITION_TITLES } from '../../../templates/shared/index.ts';
import { repoRoot } from '../../helpers/site.ts';

const ROUTES = new Map([
  ['page.mdx', '/docs/x/page'],
  ['other.mdx', '/docs/x/other'],
]);

async function twinOf(source: string): Promise<string> {
  const entry = await compileCode(
    { file: path.join(repoRoot, 'content/docs/x/page.mdx'), relFile: 'content/docs/x/page.mdx', source },
    { routeOfFile: (file) => ROUTES.get(path.basename(file)), siteUrl: 'https://docs.example/', cache: createCompileCache() },
  );
  return twinDocumentWithBody('Title', 'One line.', [], entry.twinBody, { ownTitle: entry.hasContentTitle });
}

describe('MDX document -> Markdown twin', () => {
  it('writes the title, the description and the body, with absolute links', async () => {
    const text = await twinOf(
      "import Tabs from '@theme/Tabs';\n\nSee [other](./other.mdx#part), [here](#below), [root](/docs/y) and [out](https://example.org).\n\n![Logo](/img/logo.svg)\n\n{/* a comment */}\n",
    );
    assert.equal(
      text,
      '# Title\n\n> One line.\n\nSee [other](https://docs.example/docs/x/other#part), [here](https://docs.example/docs/x/page#below), [root](https://docs.example/docs/y) and [out](https://example.org).\n\n![Logo](https://docs.example/img/logo.svg)\n',
    );
  });

  it("keeps a doc's own h1 as its only title, the description under it, as the page shows it", async () => {
    const text = await twinOf('# Guia *rápido*\n\nCorpo.\n\n## Parte\n\nMais.\n');
    assert.equal(text, '# Guia _rápido_\n\n> One line.\n\nCorpo.\n\n## Parte\n\nMais.\n');
    const later = await twinOf('Antes.\n\n# Depois\n\nCorpo.\n');
    assert.equal(later, '> One line.\n\nAntes.\n\n# Depois\n\nCorpo.\n', 'an h1 after the first block stays where it is, and is the only one');
  });

  it('turns admonitions into quotes led by the same heading the page shows', async () => {
    const text = await twinOf(':::danger\nNunca faça isso.\n:::\n\n:::tip[Atenção]\nFaça isso.\n\n- um\n:::\n');
    assert.match(text, new RegExp(`^> \\*\\*${ADMONITION_TITLES.danger}:\\*\\* Nunca faça isso\\.$`, 'm'));
    assert.match(text, /^> \*\*Atenção:\*\* Faça isso\.\n>\n> - um$/m);
  });

  it('writes each tab as its label and its content, and a diagram as its steps', async () => {
    const text = await twinOf(
      [
        '<Tabs groupId="l">',
        '<TabItem value="sh" label="curl">',
        '',
        '```bash title="x" {1}',
        'curl https://x',
        '```',
        '',
        '</TabItem>',
        '<TabItem value="py">',
        '',
        '```python',
        'print(1)',
        '```',
        '',
        '</TabItem>',
        '</Tabs>',
        '',
        "<SequenceDiagram title=\"Fluxo\" participants={[{ id: 'a', label: 'App' }, { id: 'b', label: 'API' }]} messages={[{ from: 'a', to: 'b', text: 'POST /x', note: 'depois' }]} />",
        '',
      ].join('\n'),
    );
    assert.ok(text.includes('**curl**\n\n```bash\ncurl https://x\n```\n\n**py**\n\n```python\nprint(1)\n```'), text);
    assert.ok(text.includes('**Fluxo**\n\n1. **App** → **API**: POST /x (depois)'), text);
  });

  it('keeps the words of unknown elements and no tag', async () => {
    const text = await twinOf('<details>\n<summary>Pergunta?</summary>\n\nResposta.\n\n</details>\n\nLinha<br />quebrada e <kbd>Ctrl</kbd>.\n');
    assert.ok(text.includes('**Pergunta?**\n\nResposta.'), text);
    assert.doesNotMatch(text, /<\/?(details|summary|kbd|br)/);
  });
});

describe('a twin whose body was written when its document compiled', () => {
  it('is the text of the twin written whole, whatever block the body starts or ends with', () => {
    const paragraph = (value: string): Paragraph => ({ type: 'paragraph', children: [{ type: 'text', value }] });
    const list = (ordered: boolean): RootContent => ({ type: 'list', ordered, spread: false, children: [{ type: 'listItem', spread: false, children: [paragraph('item')] }] });
    const bodies: RootContent[][] = [
      [],
      [paragraph('Texto.')],
      [list(false), list(false)],
      [{ type: 'blockquote', children: [paragraph('Citação.')] }, { type: 'code', lang: 'ts', value: 'const a = 1;' }],
      [list(true), { type: 'code', value: 'indented?' }],
      [{ type: 'heading', depth: 2, children: [{ type: 'text', value: 'Seção' }] }, { type: 'thematicBreak' }],
    ];
    const byline = paragraph('2025-01-01 · Autora');
    for (const body of bodies) {
      for (const lead of [[], [byline]]) {
        const whole = twinDocument('Título', 'Uma linha.', [...lead, ...body]);
        assert.equal(twinDocumentWithBody('Título', 'Uma linha.', lead, writeMarkdown({ type: 'root', children: body })), whole, JSON.stringify(body));
      }
      assert.equal(twinDocumentWithBody('Título', '', [], writeMarkdown({ type: 'root', children: body })), twinDocument('Título', '', body));
    }
  });
});

describe('API document -> Markdown twin', () => {
  it('lists every operation and puts the samples it is given under each operation', async () => {
    const [api] = await loadApiDocuments([{ id: 'payment', file: path.join(repoRoot, 'openapi/payment.yaml') }], repoRoot);
    const asked: string[] = [];
    const text = apiTwin({
      api: api!,
      page: { route: '/api', title: 'API', description: 'The API.' },
      downloads: [{ label: 'OpenAPI (YAML)', href: '/openapi/payment.yaml' }],
      siteUrl: 'https://docs.example',
      samplesFor: (operationId) => {
        asked.push(operationId);
        return [{ language: 'bash', label: 'curl', code: `curl # ${operationId}` }];
      },
    });
    const operations = api!.operations.filter((op) => op.kind === 'operation').map((op) => op.operationId);
    assert.deepEqual(asked, operations, 'samples are asked for every operation, and not for webhooks');
    const createPayment = text.slice(text.indexOf('`createPayment`'));
    assert.match(createPayment, /\*\*Request samples\*\*\n\n\*\*curl\*\*\n\n```bash\ncurl # createPayment\n```/);
    assert.ok(text.startsWith('# API\n\n> The API.\n'));
    assert.ok(text.includes('[OpenAPI (YAML)](https://docs.example/openapi/payment.yaml)'));
    assert.match(text, /`WEBHOOK transaction\.approved`/);
  });
});
