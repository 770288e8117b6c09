/**
 * The request samples the API reference's console takes from the page: every language of
 * every operation, including the tabs a reader has not opened, which the page sends as
 * templates (<Tabs lazy>).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { builtSite } from '../helpers/site.ts';
import { installDom } from './dom.ts';

const { samplesOfPage } = await import('../../templates/client/islands/api-samples.ts');

describe('request samples for the console (client)', () => {
  it('reads all nine languages of each operation, from the shown tab and from the templates', async (t) => {
    const html = await readFile(path.join(await builtSite(), 'api-reference.html'), 'utf8');
    const window = installDom(t, html.slice(html.indexOf('<body'), html.lastIndexOf('</body>') + '</body>'.length).replace(/^<body[^>]*>|<\/body>$/g, ''));
    const samples = samplesOfPage(window.document as unknown as Document);
    const create = samples.get('createPayment');
    assert.ok(create, 'the operation createPayment has samples');
    assert.deepEqual(create.map((s) => s.lang), ['shell', 'javascript', 'python', 'java', 'kotlin', 'php', 'go', 'csharp', 'ruby']);
    assert.ok(window.document.querySelectorAll('[data-api-samples] [role="tabpanel"] > template').length > 0, 'the page sends the other languages as templates');
    const python = create.find((s) => s.lang === 'python')!;
    assert.equal(python.label, 'Python (requests)');
    assert.match(python.source, /^import requests$/m, 'a sample not shown is read whole, line by line');
    assert.match(python.source, /Idempotency-Key/);
    for (const [id, list] of samples) assert.equal(list.length, 9, `${id}: a sample in every language`);
  });
});
