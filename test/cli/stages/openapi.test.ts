import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DocsgenErrors, formatAnyError, formatError } from '../../../cli/errors.ts';
import { exampleSchema, loadApiDocuments, resolveRef, type LoadedApiDocument } from '../../../cli/stages/openapi.ts';
import { asObject, type JsonObject } from '../../../cli/json.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/openapi');

type Json = JsonObject;
const obj = asObject;

const PAYMENT_OPERATIONS: [string, string, string, string | null][] = [
  ['createToken', 'POST', '/oauth/token', null],
  ['getHealth', 'GET', '/v1/health', null],
  ['createIdentification', 'POST', '/v1/identifications', 'payments:write'],
  ['createPayment', 'POST', '/v1/payments', 'payments:write'],
  ['getTransaction', 'GET', '/v1/transactions/{transaction_id}', 'payments:read'],
  ['listTransactions', 'GET', '/v1/transactions', 'payments:read'],
  ['createCancellation', 'POST', '/v1/transactions/{transaction_id}/cancellations', 'payments:write'],
  ['restartTerminalSession', 'POST', '/v1/terminals/{terminal_id}/restart', 'payments:write'],
];

const ONBOARDING_OPERATIONS: [string, string, string, string | null][] = [
  ['createMerchant', 'POST', '/v1/merchants', 'onboarding:write'],
  ['listMerchants', 'GET', '/v1/merchants', 'onboarding:read'],
  ['getMerchant', 'GET', '/v1/merchants/{merchant_id}', 'onboarding:read'],
  ['getMerchantStatus', 'GET', '/v1/merchants/{merchant_id}/status', 'onboarding:read'],
  ['createStore', 'POST', '/v1/merchants/{merchant_id}/stores', 'onboarding:write'],
  ['listStores', 'GET', '/v1/merchants/{merchant_id}/stores', 'onboarding:read'],
  ['getStore', 'GET', '/v1/stores/{store_id}', 'onboarding:read'],
  ['createTerminal', 'POST', '/v1/stores/{store_id}/terminals', 'onboarding:write'],
  ['listTerminals', 'GET', '/v1/stores/{store_id}/terminals', 'onboarding:read'],
  ['getTerminal', 'GET', '/v1/terminals/{terminal_id}', 'onboarding:read'],
];

let payment: LoadedApiDocument;
let onboarding: LoadedApiDocument;

before(async () => {
  const apis = await loadApiDocuments(
    [
      { id: 'payment', file: path.join(root, 'openapi/payment.yaml') },
      { id: 'onboarding', file: path.join(root, 'openapi/onboarding.yaml') },
    ],
    root,
  );
  assert.equal(apis.length, 2);
  [payment, onboarding] = apis as [LoadedApiDocument, LoadedApiDocument];
});

function rawOperation(api: LoadedApiDocument, operationId: string): Json {
  for (const group of ['paths', 'webhooks']) {
    for (const item of Object.values(obj(api.document[group]))) {
      for (const op of Object.values(obj(item))) {
        if (obj(op).operationId === operationId) return obj(op);
      }
    }
  }
  assert.fail(`operation ${operationId} not found`);
}


describe('loadApiDocuments: the real documents', () => {
  it('reads title, version, description, servers and tags', () => {
    assert.equal(payment.file, 'openapi/payment.yaml');
    assert.equal(payment.title, 'Sorrix Payment API');
    assert.equal(payment.version, '1.1.0');
    assert.match(payment.description, /backend do lojista/);
    assert.deepEqual(payment.servers, [
      { url: 'https://sandbox.api.sorrix.example', description: 'Sandbox' },
      { url: 'https://api.sorrix.example', description: 'Produção' },
    ]);
    assert.equal(onboarding.file, 'openapi/onboarding.yaml');
    assert.equal(onboarding.title, 'Sorrix Onboarding API');
    assert.deepEqual(onboarding.servers, [
      { url: 'https://onboarding.sandbox.sorrix.example', description: 'Sandbox' },
      { url: 'https://onboarding.sorrix.example', description: 'Produção' },
    ]);
    for (const api of [payment, onboarding]) {
      assert.equal(api.document.openapi, '3.1.0');
      assert.ok(api.tags.length > 0);
      for (const tag of api.tags) assert.ok(tag.description.length > 10, `tag ${tag.name} needs a description`);
      assert.match(api.yamlText, /^openapi: 3\.1\.0/);
    }
  });

  for (const [name, operations] of [
    ['payment', PAYMENT_OPERATIONS],
    ['onboarding', ONBOARDING_OPERATIONS],
  ] as const) {
    it(`has exactly the ${name} operations of the contract, with their scopes`, () => {
      const api = name === 'payment' ? payment : onboarding;
      const actual = api.operations.filter((op) => op.kind === 'operation').map((op) => `${op.operationId} ${op.method} ${op.path}`);
      assert.deepEqual(actual.sort(), operations.map(([id, method, p]) => `${id} ${method} ${p}`).sort());
      for (const [operationId, method, , scope] of operations) {
        const summary = api.operations.find((op) => op.operationId === operationId);
        assert.ok(summary);
        assert.ok(summary.summary.length > 0 && summary.summary.length <= 40, `${operationId}: short summary`);
        assert.ok(summary.description.length > 0, `${operationId}: description`);
        assert.equal(summary.tags.length, 1);
        assert.ok(api.tags.some((t) => t.name === summary.tags[0]), `${operationId}: tag defined at top level`);
        const security = rawOperation(api, operationId).security;
        assert.deepEqual(security, scope === null ? [] : [{ oauth2: [scope] }], `${operationId}: security`);
        const idempotency = summary.parameters.find((p) => p.name === 'Idempotency-Key');
        if (method === 'POST' && operationId !== 'createToken') {
          assert.ok(idempotency?.required && idempotency.in === 'header', `${operationId}: Idempotency-Key`);
          assert.equal(idempotency.type, 'string (uuid)');
        } else {
          assert.equal(idempotency, undefined);
        }
        for (const p of summary.parameters) assert.ok(p.description.length > 0, `${operationId}: ${p.name} described`);
        for (const f of summary.requestBody?.fields ?? []) assert.ok(f.description.length > 0, `${operationId}: ${f.name} described`);
      }
    });
  }

  it('puts createToken on the auth hosts and describes the OAuth 2.0 scheme', () => {
    const token = payment.operations.find((op) => op.operationId === 'createToken');
    assert.deepEqual(token?.servers, ['https://auth.sandbox.sorrix.example', 'https://auth.sorrix.example']);
    assert.equal(token?.requestBody?.contentType, 'application/x-www-form-urlencoded');
    assert.deepEqual(
      token?.requestBody?.fields.map((f) => `${f.name}${f.required ? '*' : ''}`),
      ['grant_type*', 'client_id*', 'client_secret*', 'scope'],
    );
    for (const [api, scopes] of [
      [payment, ['payments:read', 'payments:write']],
      [onboarding, ['onboarding:read', 'onboarding:write']],
    ] as const) {
      const scheme = obj(obj(obj(api.document.components).securitySchemes).oauth2);
      assert.equal(scheme.type, 'oauth2');
      const flow = obj(obj(scheme.flows).clientCredentials);
      assert.equal(flow.tokenUrl, 'https://auth.sandbox.sorrix.example/oauth/token');
      assert.deepEqual(Object.keys(obj(flow.scopes)), scopes);
    }
  });

  it('summarises parameters, bodies and responses for the reference page', () => {
    const list = payment.operations.find((op) => op.operationId === 'listTransactions');
    assert.deepEqual(
      list?.parameters.map((p) => [p.name, p.in, p.required, p.type]),
      [
        ['status', 'query', false, 'string, one of pending | approved | declined | canceled | partially_canceled'],
        ['terminal_id', 'query', false, 'string, pattern ^trm_[A-Za-z0-9]{8,32}$'],
        ['identification_id', 'query', false, 'string, pattern ^idf_[A-Za-z0-9]{8,32}$'],
        ['created_from', 'query', false, 'string (date-time)'],
        ['created_to', 'query', false, 'string (date-time)'],
        ['limit', 'query', false, 'integer 1..100, default 20'],
        ['cursor', 'query', false, 'string, up to 256 chars, pattern ^cur_[A-Za-z0-9]+$'],
      ],
    );
    const create = payment.operations.find((op) => op.operationId === 'createPayment');
    assert.equal(create?.requestBody?.contentType, 'application/json');
    assert.deepEqual(
      create?.requestBody?.fields.map((f) => [f.name, f.required, f.type]),
      [
        ['identification_id', true, 'string, pattern ^idf_[A-Za-z0-9]{8,32}$'],
        ['payment_method_id', true, 'string, pattern ^pm_[A-Za-z0-9]{8,32}$'],
        ['amount', true, 'integer 100..10000000'],
        ['currency', true, 'string, always "BRL"'],
        ['installments', false, 'integer 1..12, default 1'],
        ['description', false, 'string, up to 140 chars'],
        ['metadata', false, 'object (Metadata)'],
      ],
    );
    assert.deepEqual(
      create?.responses.map((r) => `${r.status} ${r.contentType ?? ''}`),
      [
        '201 application/json',
        '400 application/problem+json',
        '401 application/problem+json',
        '403 application/problem+json',
        '404 application/problem+json',
        '409 application/problem+json',
        '422 application/problem+json',
        '429 application/problem+json',
        '500 application/problem+json',
        '503 application/problem+json',
        '504 application/problem+json',
      ],
    );
  });

  it('lists the status webhooks with the signature header', () => {
    const webhooks = (api: LoadedApiDocument) => api.operations.filter((op) => op.kind === 'webhook').map((op) => op.path);
    assert.deepEqual(webhooks(payment), ['transaction.approved', 'transaction.declined', 'transaction.canceled', 'transaction.partially_canceled', 'cancellation.succeeded', 'cancellation.failed']);
    assert.deepEqual(webhooks(onboarding), ['merchant.status_changed']);
    for (const op of [...payment.operations, ...onboarding.operations].filter((o) => o.kind === 'webhook')) {
      assert.equal(op.method, 'POST');
      assert.ok(op.parameters.some((p) => p.name === 'Sorrix-Signature' && p.in === 'header' && p.required));
      assert.ok(op.parameters.some((p) => p.name === 'Sorrix-Event-Id' && p.in === 'header' && p.required));
    }
  });

  it('sends the rate-limit headers on every response, Retry-After on 429 and 503, and may on 409', () => {
    for (const api of [payment, onboarding]) {
      for (const op of api.operations.filter((o) => o.kind === 'operation')) {
        for (const [status, raw] of Object.entries(obj(rawOperation(api, op.operationId).responses))) {
          const headers = Object.keys(obj(resolveRef(api, raw).headers));
          for (const h of ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
            assert.ok(headers.includes(h), `${op.operationId} ${status}: ${h}`);
          }
          // 409 idempotency_key_in_use says when to repeat; other 409s of the same response do not.
          if (status !== '409') assert.equal(headers.includes('Retry-After'), status === '429' || status === '503', `${op.operationId} ${status}: Retry-After`);
        }
      }
    }
  });
});

describe('Postman files', () => {
  for (const name of ['payment', 'onboarding'] as const) {
    it(`${name}: one request per operation, grouped by tag, on the sandbox`, () => {
      const api = name === 'payment' ? payment : onboarding;
      const collection = obj(JSON.parse(api.postman.collection));
      assert.equal(obj(collection.info).schema, 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
      assert.equal(obj(collection.info).name, api.title);
      const requests: { folder: string; name: string; method: string; url: Json; auth: unknown; item: Json }[] = [];
      for (const folder of (collection.item as unknown[]).map(obj)) {
        assert.ok(Array.isArray(folder.item), 'top-level entries are tag folders');
        for (const item of (folder.item as unknown[]).map(obj)) {
          const request = obj(item.request);
          requests.push({ folder: String(folder.name), name: String(item.name), method: String(request.method), url: obj(request.url), auth: request.auth, item });
        }
      }
      const operations = api.operations.filter((op) => op.kind === 'operation');
      // The Onboarding API has no token operation of its own: its collection adds one request for it.
      const tokenHelper = name === 'onboarding' ? 1 : 0;
      assert.equal(requests.length, operations.length + tokenHelper);
      assert.equal(requests[0]?.name, 'Obter token', 'the token request comes first');
      assert.equal(requests[0]?.url.raw, '{{authUrl}}/oauth/token');
      const routes = requests.slice(tokenHelper).map((r) => `${r.method} /${(r.url.path as string[]).map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/')}`);
      assert.deepEqual(routes.sort(), operations.map((op) => `${op.method} ${op.path}`).sort());
      for (const op of operations) {
        const request = requests.find((r) => r.name === op.summary);
        assert.ok(request, `request named '${op.summary}'`);
        assert.equal(request.folder, op.tags[0]);
      }
      const variables = Object.fromEntries((collection.variable as Json[]).map((v) => [v.key, v.value]));
      assert.equal(variables.baseUrl, api.servers[0]?.url);
      assert.deepEqual(collection.auth, { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] });
      assert.ok(JSON.stringify(collection.event).includes('pm.sendRequest'), 'pre-request script fetches a token');
      for (const r of requests.filter((r) => !String(r.url.raw).includes('/oauth/token'))) {
        assert.match(String(r.url.raw), /^\{\{baseUrl\}\}\/v1\//);
      }
      for (const r of requests.filter((r) => r.method === 'POST' && r.name !== 'Obter token')) {
        const headers = obj(r.item.request).header as Json[];
        assert.equal(headers.find((h) => h.key === 'Idempotency-Key')?.value, '{{$guid}}');
      }

      const environment = obj(JSON.parse(api.postman.environment));
      assert.equal(environment._postman_variable_scope, 'environment');
      const values = (environment.values as Json[]).map((v) => [v.key, v.value]);
      assert.deepEqual(values, [
        ['baseUrl', api.servers[0]?.url],
        ['authUrl', 'https://auth.sandbox.sorrix.example'],
        ['clientId', ''],
        ['clientSecret', ''],
        ['accessToken', ''],
      ]);
    });
  }

  for (const [name, scope] of [
    ['payment', 'payments:read payments:write'],
    ['onboarding', 'onboarding:read onboarding:write'],
  ] as const) {
    it(`${name}: "Obter token" posts the credentials to the auth host and stores the token`, () => {
      const api = name === 'payment' ? payment : onboarding;
      const collection = obj(JSON.parse(api.postman.collection));
      const folder = obj((collection.item as Json[])[0]);
      assert.equal(folder.name, 'Autenticação');
      const item = obj((folder.item as Json[] | undefined)?.[0]);
      assert.equal(item.name, 'Obter token');
      const request = obj(item.request);
      assert.equal(request.method, 'POST');
      assert.equal(obj(request.url).raw, '{{authUrl}}/oauth/token');
      assert.deepEqual(request.auth, { type: 'noauth' });
      const body = obj(request.body);
      assert.equal(body.mode, 'urlencoded');
      assert.deepEqual(
        (body.urlencoded as Json[]).map((p) => [p.key, p.value]),
        [
          ['grant_type', 'client_credentials'],
          ['client_id', '{{clientId}}'],
          ['client_secret', '{{clientSecret}}'],
          ['scope', scope],
        ],
      );
      const script = JSON.stringify(item.event);
      assert.match(script, /pm\.environment\.set\(\\"accessToken\\", body\.access_token\)/);
      assert.match(script, /pm\.environment\.set\(\\"accessTokenExpiresAt\\"/);
      assert.doesNotMatch(api.postman.collection, /(sk|cli)_live_[A-Za-z0-9]/, 'no secret-looking values from the faker');
    });
  }

  it('writes the same files on every build', async () => {
    const [again] = await loadApiDocuments([{ id: 'payment', file: path.join(root, 'openapi/payment.yaml') }], root);
    assert.equal(again?.postman.collection, payment.postman.collection);
    assert.equal(again?.postman.environment, payment.postman.environment);
  });
});

describe('exampleSchema', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats.default(ajv);

  for (const name of ['payment', 'onboarding'] as const) {
    it(`${name}: accepts every named example of the document`, () => {
      const api = name === 'payment' ? payment : onboarding;
      let checked = 0;
      for (const op of api.operations) {
        const raw = rawOperation(api, op.operationId);
        const targets: { kind: 'request' | 'response'; status?: string; content: Json }[] = [
          { kind: 'request', content: obj(resolveRef(api, raw.requestBody).content) },
          ...Object.entries(obj(raw.responses)).map(([status, r]) => ({ kind: 'response' as const, status, content: obj(resolveRef(api, r).content) })),
        ];
        for (const target of targets) {
          for (const media of Object.values(target.content)) {
            const examples = Object.entries(obj(obj(media).examples));
            if (examples.length === 0) continue;
            const schema = exampleSchema(api, op.operationId, target.kind, target.status);
            assert.ok(schema, `${op.operationId} ${target.kind} ${target.status ?? ''}: schema`);
            assert.doesNotMatch(JSON.stringify(schema), /"\$ref"/, 'refs are resolved');
            const validate = ajv.compile(schema);
            for (const [exampleName, example] of examples) {
              const value = resolveRef(api, example).value;
              assert.ok(validate(value), `${op.operationId} ${target.kind} ${target.status ?? ''} '${exampleName}': ${ajv.errorsText(validate.errors)}`);
              checked++;
            }
          }
        }
      }
      assert.ok(checked > 20, `checked ${checked} examples`);
    });
  }

  it('rejects what the contract forbids', () => {
    const request = ajv.compile(exampleSchema(payment, 'createPayment', 'request') ?? {});
    const valid = { identification_id: 'idf_8Jk2mQ4rT1', payment_method_id: 'pm_1Ab2Cd3Ef4', amount: 4590, currency: 'BRL' };
    assert.ok(request(valid));
    assert.equal(request({ ...valid, amount: 99 }), false);
    assert.equal(request({ ...valid, installments: 13 }), false);
    assert.equal(request({ ...valid, currency: 'USD' }), false);
    assert.equal(request({ ...valid, metadata: { 'Order-Id': '1' } }), false);

    const problem = ajv.compile(exampleSchema(payment, 'createPayment', 'response', '422') ?? {});
    assert.equal(problem({ code: 'validation_failed' }), false);
    const transaction = ajv.compile(exampleSchema(payment, 'getTransaction', 'response') ?? {});
    assert.equal(transaction({ id: 'pay_7Qw3Er5Ty1', status: 'approved' }), false);
  });

  it('picks the 2xx response by default and returns undefined for unknown operations', () => {
    assert.equal(obj(exampleSchema(onboarding, 'getMerchantStatus', 'response')).description, 'Situação da análise de aprovação do estabelecimento.');
    assert.equal(exampleSchema(payment, 'noSuchOperation', 'request'), undefined);
    assert.equal(exampleSchema(payment, 'getHealth', 'request'), undefined);
    assert.equal(exampleSchema(payment, 'getHealth', 'response', '418'), undefined);
  });
});

describe('loadApiDocuments: broken documents', () => {
  async function failure(...names: string[]): Promise<DocsgenErrors> {
    try {
      await loadApiDocuments(
        names.map((n) => ({ id: n, file: path.join(fixtures, n) })),
        root,
      );
    } catch (error) {
      assert.ok(error instanceof DocsgenErrors, formatAnyError(error));
      return error;
    }
    assert.fail(`${names.join(', ')} loaded without an error`);
  }

  it('reports YAML that does not parse with its position and an excerpt', async () => {
    const error = await failure('unparseable.yaml');
    assert.equal(error.errors.length, 1);
    const text = formatError(error.errors[0]!);
    assert.match(text, /^test\/fixtures\/openapi\/unparseable\.yaml:9:16 {2}The API document is not valid YAML: /);
    assert.match(text, /> {2}9 \| {7}summary: Verificar disponibilidade/);
    assert.match(text, /Fix: /);
  });

  it('reports a missing info object at the root pointer', async () => {
    const error = await failure('missing-info.yaml');
    assert.equal(error.errors.length, 1);
    assert.match(formatError(error.errors[0]!), /^test\/fixtures\/openapi\/missing-info\.yaml:1:1 {2}\/: The field `info` must be present on this level\./);
  });

  it('reports a $ref to nothing at the line of the $ref', async () => {
    const error = await failure('dangling-ref.yaml');
    assert.equal(error.errors.length, 1);
    const text = formatError(error.errors[0]!);
    assert.match(text, /^test\/fixtures\/openapi\/dangling-ref\.yaml:15:15 {2}\/paths\/~1v1~1payments\/post\/requestBody\/content\/application~1json\/schema: Can't resolve \$ref/);
    assert.match(text, /> 15 \| +\$ref: '#\/components\/schemas\/CreatePaymentRequest'/);
    assert.match(text, /Fix: Point the \$ref at something that exists/);
  });

  it('reports the first few YAML errors of one slip, not the hundreds that follow from it', async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'docsgen-openapi-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const lines = (await readFile(path.join(root, 'openapi/onboarding.yaml'), 'utf8')).split('\n');
    assert.match(lines[96]!, /^ {6}summary: Cadastrar estabelecimento$/);
    lines[96] = '     summary: [oops Cadastrar estabelecimento';
    await writeFile(path.join(dir, 'onboarding.yaml'), lines.join('\n'));
    let error: unknown;
    await loadApiDocuments([{ id: 'onboarding', file: path.join(dir, 'onboarding.yaml') }], dir).catch((e: unknown) => (error = e));
    assert.ok(error instanceof DocsgenErrors, formatAnyError(error));
    assert.equal(error.message, '3 problems in 1 API document.');
    const first = formatError(error.errors[0]!);
    assert.match(first, /^onboarding\.yaml:97:1 {2}The API document is not valid YAML: /);
    assert.match(first, /Fix: Fix the YAML syntax at this position .* The parser found \d+ more errors further on, not shown: they usually follow from the first, so fix it and build again\./);
    assert.ok(error.errors.every((e) => /not valid YAML/.test(e.message) && (e.line ?? 0) >= 97), 'no schema errors, only syntax errors from the slip on');
  });

  it('suggests the nearest existing name for a $ref to nothing', async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'docsgen-openapi-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const text = await readFile(path.join(root, 'openapi/onboarding.yaml'), 'utf8');
    const slipped = text.replace("$ref: '#/components/schemas/CreateMerchantRequest'", "$ref: '#/components/schemas/CreateMerchantRequestX'");
    assert.notEqual(slipped, text);
    await writeFile(path.join(dir, 'onboarding.yaml'), slipped);
    let error: unknown;
    await loadApiDocuments([{ id: 'onboarding', file: path.join(dir, 'onboarding.yaml') }], dir).catch((e: unknown) => (error = e));
    assert.ok(error instanceof DocsgenErrors, formatAnyError(error));
    const text0 = formatError(error.errors[0]!);
    assert.match(text0, /^onboarding\.yaml:119:\d+ {2}.*Can't resolve \$ref/);
    assert.match(text0, /Fix: Point the \$ref at something that exists: did you mean '#\/components\/schemas\/CreateMerchantRequest'\? Or add the missing component\./);

    // Nothing near: the names that are there, not an unrelated example.
    const far = formatError((await failure('dangling-ref.yaml')).errors[0]!);
    assert.match(far, /Fix: Point the \$ref at something that exists \('#\/components\/schemas' has Transaction\), or add the missing component\./);
  });

  it('refuses a YAML alias bomb at its first alias instead of expanding it', async () => {
    const error = await failure('alias-bomb.yaml');
    assert.equal(error.errors.length, 1);
    const text = formatError(error.errors[0]!);
    assert.match(text, /^test\/fixtures\/openapi\/alias-bomb\.yaml:6:10 {2}The API document uses YAML aliases more than 100 times once expanded\./);
    assert.match(text, /Fix: Write the values out/);
  });

  it('refuses nesting deeper than 100 levels at the first level too deep, and thousands of levels as a YAML problem', async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'docsgen-openapi-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const head = 'openapi: 3.1.0\ninfo:\n  title: Deep\n  version: 1.0.0\npaths: {}\n';
    const block = `${head}x-deep:\n${Array.from({ length: 150 }, (_, i) => `${'  '.repeat(i + 1)}k:\n`).join('')}`;
    const flow = `${head}x-deep: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`;
    await writeFile(path.join(dir, 'block.yaml'), block);
    await writeFile(path.join(dir, 'flow.yaml'), flow);
    let error: unknown;
    await loadApiDocuments([{ id: 'block', file: path.join(dir, 'block.yaml') }, { id: 'flow', file: path.join(dir, 'flow.yaml') }], dir).catch((e: unknown) => (error = e));
    assert.ok(error instanceof DocsgenErrors, formatAnyError(error));
    const lines = error.errors.map((e) => formatError(e).split('\n')[0]);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.equal(lines[0], 'block.yaml:106:201  The API document nests more than 100 levels deep.');
    // The parser gives up where its stack ends, which depends on the machine: only the line is fixed.
    assert.match(lines[1]!, /^flow\.yaml:6:\d+ {2}The API document is not valid YAML: it nests too deeply to be read \(thousands of levels\)$/);
  });

  it('rejects a document that is not OpenAPI 3.1', async () => {
    const error = await failure('wrong-version.yaml');
    assert.equal(error.errors.length, 1);
    const text = formatError(error.errors[0]!);
    assert.match(text, /^test\/fixtures\/openapi\/wrong-version\.yaml:1:10 {2}\/openapi: expected an OpenAPI 3\.1 document \('3\.1\.x'\), found '3\.0\.3'\./);
    assert.match(text, /Fix: docsgen reads OpenAPI 3\.1 only/);
  });

  it('reports every problem of every document in one run', async () => {
    const error = await failure('several-problems.yaml', 'missing-info.yaml', 'does-not-exist.yaml');
    const lines = error.errors.map((e) => formatError(e).split('\n')[0]);
    assert.match(error.message, /^6 problems in 3 API documents\.$/);
    assert.deepEqual(lines, [
      'test/fixtures/openapi/several-problems.yaml:10:7  /paths/~1v1~1transactions~1{transaction_id}/get/parameters: The operation does not define the path parameter `{transaction_id}` expected by path `/v1/transactions/{transaction_id}`.',
      'test/fixtures/openapi/several-problems.yaml:11:11  /paths/~1v1~1transactions~1{transaction_id}/get/parameters/0: The field `in` must be present on this level.',
      'test/fixtures/openapi/several-problems.yaml:22:27  /paths/~1v1~1transactions~1{transaction_id}/get/responses/200/content/application~1json/schema/required: Expected type `array` but got `string`.',
      'test/fixtures/openapi/several-problems.yaml:24:5  /paths/~1v1~1health/get: the operation has no operationId.',
      'test/fixtures/openapi/missing-info.yaml:1:1  /: The field `info` must be present on this level.',
      "test/fixtures/openapi/does-not-exist.yaml  API document 'does-not-exist.yaml' not found.",
    ]);
    assert.ok(error.errors.every((e) => e.hint), 'every problem has a hint');
  });
});

describe('redocly lint (recommended rules)', () => {
  let output = '';
  after(() => {
    if (process.exitCode) console.log(output);
  });

  it('reports 0 errors and 0 warnings for both documents', async () => {
    const { stdout } = await promisify(execFile)(
      'npx',
      ['--no', 'redocly', 'lint', 'openapi/payment.yaml', 'openapi/onboarding.yaml', '--format=json'],
      { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      // A non-zero exit means errors were found; the report is still on stdout.
      return { stdout: error.stdout ?? '', stderr: error.stderr ?? '' };
    });
    output = stdout;
    const reports = splitJsonObjects(stdout).map((r) => obj(r));
    assert.equal(reports.length, 2, `one report per document:\n${stdout}`);
    for (const report of reports) {
      const problems = (report.problems as Json[]).map((p) => `${String(p.ruleId)}: ${String(p.message)}`);
      assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, problems.join('\n'));
    }
  });
});

/** `redocly lint --format=json` prints one JSON object per file, back to back. */
function splitJsonObjects(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === '}') {
      depth--;
      if (depth === 0 && start >= 0) out.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return out;
}
