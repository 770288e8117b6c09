/**
 * The Postman collection of a document whose token endpoint no API document of the site
 * describes: the collection adds the token request itself, in the folder and with the
 * texts of the config's `postman` field, and still takes the flow from the security scheme.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { postmanTextsSchema } from '../../../cli/config-postman.ts';
import { loadApiDocuments } from '../../../cli/stages/openapi.ts';
import { buildPostmanFiles } from '../../../cli/stages/postman.ts';
import { repoRoot } from '../../helpers/site.ts';

type Json = Record<string, unknown>;

const SITE = path.join(repoRoot, 'test/fixtures/sites/greenhouse');

describe('Postman collection without a token operation', () => {
  it('adds the token request in the configured folder, with the configured texts', async () => {
    const [api] = await loadApiDocuments([{ id: 'climate', file: path.join(SITE, 'openapi/climate.yaml') }], SITE);
    assert.ok(api);
    const paths = { ...(api.document.paths as Json) };
    delete paths['/oauth/token'];
    const texts = postmanTextsSchema.parse({ tokenFolder: 'Sign-in', tokenRequest: 'Fetch a token', tokenRequestDescription: 'Asks for {scope}.' });
    const files = await buildPostmanFiles(
      { ...api, document: { ...api.document, paths }, operations: api.operations.filter((op) => op.operationId !== 'issueToken') },
      { texts },
    );
    const collection = JSON.parse(files.collection) as Json;
    const folders = collection.item as Json[];
    assert.deepEqual(
      folders.map((f) => f.name),
      ['Sign-in', 'Sensors', 'Watering'],
    );
    const token = (folders[0]!.item as Json[])[0] as Json & { request: Json & { url: Json; description: Json } };
    assert.equal(token.name, 'Fetch a token');
    assert.equal(token.request.url.raw, '{{authUrl}}/oauth/token');
    assert.equal(token.request.description.content, 'Asks for sensors:read watering:write.');
    assert.match(String((collection.info as Json & { description: Json }).description.content), /## Sign-in\n\nChoose the imported environment[^]*Run \*\*Fetch a token\*\*/);
  });
});
