/**
 * Links in API descriptions to the site's own URL (its production host) become
 * root-relative in what the API reference shows, so a preview or local build keeps
 * readers on it; the YAML download and Postman keep the author's absolute links.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { loadApiDocuments } from '../../../cli/stages/openapi.ts';
import { asObject } from '../../../cli/json.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/openapi');

describe('loadApiDocuments: links to the site itself', () => {
  it('makes links to the site root-relative in descriptions and link URLs, with their YAML lines, and leaves data and other hosts alone', async () => {
    const [api] = await loadApiDocuments([{ id: 'pay', file: path.join(fixtures, 'site-links.yaml') }], root, { siteUrl: 'https://minimal.example/' });
    assert.ok(api);
    const shown = JSON.parse(api.referenceJsonText ?? '') as Record<string, unknown>;
    const info = asObject(shown.info);
    assert.equal(info.description, 'Read the [introduction](/docs/intro#visao-geral) first.\n');
    assert.equal(asObject(info.contact).url, '/');
    assert.equal(asObject(shown.externalDocs).url, '/docs/guia/primeiro-passo');
    const op = api.operations[0]!;
    assert.equal(op.description, 'Pays. The steps are in [the guide](/docs/guia/pagar), and [elsewhere](https://minimal.example.evil.example/docs/x) is not this site.');
    assert.equal(op.responses[0]!.description, 'OK, see [/docs/intro](/docs/intro).');
    assert.match(api.referenceJsonText ?? '', /"const": "https:\/\/minimal\.example\/problems\/none"/, 'a value of the API is data, not a link');
    assert.deepEqual(api.siteLinks, [
      { href: '/docs/intro#visao-geral', line: 6, column: 29 },
      { href: '/', line: 9, column: 10 },
      { href: '/docs/guia/primeiro-passo', line: 11, column: 8 },
      { href: '/docs/guia/pagar', line: 19, column: 21 },
      { href: '/docs/intro', line: 23, column: 33 },
    ]);
    assert.match(api.yamlText, /\[the guide\]\(https:\/\/minimal\.example\/docs\/guia\/pagar\)/, 'the YAML download is the file as written');
    assert.match(api.jsonText, /\[the guide\]\(https:\/\/minimal\.example\/docs\/guia\/pagar\)/, 'so is the JSON download');
    assert.match(api.postman.collection, /https:\/\/minimal\.example\/docs\/guia\/pagar/, 'Postman keeps absolute links');
  });

  it('leaves no link to the production host in the descriptions the real API reference shows', async () => {
    const apis = await loadApiDocuments(
      ['payment', 'onboarding'].map((id) => ({ id, file: path.join(root, `openapi/${id}.yaml`) })),
      root,
      { siteUrl: 'https://developers.sorrix.example' },
    );
    for (const api of apis) {
      assert.doesNotMatch(api.referenceJsonText ?? '', /\]\(https:\/\/developers\.sorrix\.example/, `${api.id}: a Markdown link still points at production`);
      assert.ok(api.siteLinks && api.siteLinks.length >= 3, `${api.id}: its links to the docs are checked`);
    }
  });
});
