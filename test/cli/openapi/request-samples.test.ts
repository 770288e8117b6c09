/**
 * The request samples of every operation of both API documents: each is valid code for
 * its language where a parser is at hand, and each sends exactly the method, URL,
 * headers and body of the operation's example request. curl is split into words as a
 * shell would; the JavaScript sample runs in a VM with fetch replaced by a recorder, and
 * the Python one in python3 with `requests` replaced by one; the others are checked for
 * every part of the request in their source.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import vm from 'node:vm';
import { exampleRequest, type ExampleRequest } from '../../../cli/openapi/example-request.ts';
import { SAMPLE_TARGETS, requestSamples } from '../../../cli/openapi/request-samples.ts';
import { loadApiDocuments, resolveRef, type LoadedApiDocument } from '../../../cli/stages/openapi.ts';
import { asObject } from '../../../cli/json.ts';
import { repoRoot } from '../../helpers/site.ts';

const run = promisify(execFile);

/** What a sample sends, as the recorders see it. */
interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Splits a shell command into words: single and double quotes, backslash escapes and line continuations. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  while (i < command.length) {
    const c = command[i]!;
    if (c === '\\' && command[i + 1] === '\n') {
      i += 2;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed single quote at ${i}`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < command.length && command[j] !== '"') {
        if (command[j] === '\\' && /["\\$`]/.test(command[j + 1] ?? '')) j++;
        text += command[j];
        j++;
      }
      if (j >= command.length) throw new Error(`unclosed double quote at ${i}`);
      word = (word ?? '') + text;
      i = j + 1;
    } else if (c === '\\') {
      word = (word ?? '') + (command[i + 1] ?? '');
      i += 2;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

function curlSends(code: string): Sent {
  const words = shellWords(code);
  assert.equal(words[0], 'curl');
  const sent: Sent = { method: 'GET', url: '', headers: {} };
  const form: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const flag = words[i]!;
    const value = words[++i];
    assert.ok(value !== undefined, `${flag} has a value`);
    if (flag === '--request') sent.method = value;
    else if (flag === '--url') sent.url = value;
    else if (flag === '--header') {
      const colon = value.indexOf(':');
      sent.headers[value.slice(0, colon)] = value.slice(colon + 1).trim();
    } else if (flag === '--data') sent.body = value;
    else if (flag === '--data-urlencode') {
      const eq = value.indexOf('=');
      form.push(`${value.slice(0, eq)}=${encodeURIComponent(value.slice(eq + 1))}`);
    } else assert.fail(`unexpected curl option ${flag}`);
  }
  if (form.length) sent.body = form.join('&');
  return sent;
}

async function fetchSends(code: string): Promise<Sent> {
  const calls: Sent[] = [];
  const fetch = (url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) => {
    calls.push({ method: options.method ?? 'GET', url, headers: { ...options.headers }, ...(options.body === undefined ? {} : { body: String(options.body) }) });
    return Promise.resolve({ json: () => Promise.resolve({}), text: () => Promise.resolve('') });
  };
  // Compiling the script is the syntax check; running it records what it sends.
  const script = new vm.Script(code, { filename: 'sample.js' });
  script.runInNewContext({ fetch, URLSearchParams, JSON, console: { log: () => undefined, error: () => undefined } });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(calls.length, 1, 'the sample calls fetch once');
  return calls[0]!;
}

/** A stand-in for the requests package that prints what the sample asked for. */
const PYTHON_REQUESTS_STUB = `
import json as _json
from urllib.parse import urlencode

class _Response:
    text = ""
    status_code = 200
    def json(self):
        return {}

def request(method, url, params=None, data=None, json=None, headers=None, **kwargs):
    if params:
        url = url + ("&" if "?" in url else "?") + urlencode(params)
    body = None
    if json is not None:
        body = _json.dumps(json)
    elif isinstance(data, dict):
        body = urlencode(data)
    elif data is not None:
        body = data
    print("SENT " + _json.dumps({"method": method.upper(), "url": url, "headers": headers or {}, "body": body}))
    return _Response()

def get(url, **kwargs): return request("GET", url, **kwargs)
def post(url, **kwargs): return request("POST", url, **kwargs)
def put(url, **kwargs): return request("PUT", url, **kwargs)
def patch(url, **kwargs): return request("PATCH", url, **kwargs)
def delete(url, **kwargs): return request("DELETE", url, **kwargs)
`;

async function pythonSends(code: string, dir: string, name: string): Promise<Sent> {
  const file = path.join(dir, `${name}.py`);
  await writeFile(file, code);
  // Running the file compiles it first: a syntax error fails the run before anything is sent.
  const { stdout } = await run('python3', [file], { env: { ...process.env, PYTHONPATH: path.join(dir, 'stub') } });
  const line = stdout.split('\n').find((l) => l.startsWith('SENT '));
  assert.ok(line, 'the sample sends a request');
  const sent = JSON.parse(line.slice(5)) as Sent & { body: string | null };
  return { method: sent.method, url: sent.url, headers: sent.headers, ...(sent.body === null ? {} : { body: sent.body }) };
}

/** The request compared as sent: URLs and form bodies by their parts, JSON bodies by value. */
function assertSends(sent: Sent, expected: ExampleRequest, what: string): void {
  assert.equal(sent.method, expected.method, `${what}: method`);
  const url = new URL(sent.url);
  const wanted = new URL(expected.url);
  assert.equal(`${url.origin}${url.pathname}`, `${wanted.origin}${wanted.pathname}`, `${what}: URL`);
  assert.deepEqual([...url.searchParams], [...wanted.searchParams], `${what}: query`);
  assert.deepEqual(
    Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [k.toLowerCase(), v])),
    Object.fromEntries(expected.headers.map((h) => [h.name.toLowerCase(), h.value])),
    `${what}: headers`,
  );
  if (!expected.body) {
    assert.equal(sent.body, undefined, `${what}: no body`);
  } else if (/json$/.test(expected.body.mimeType)) {
    assert.deepEqual(JSON.parse(sent.body ?? 'null'), expected.body.value, `${what}: JSON body`);
  } else {
    assert.deepEqual([...new URLSearchParams(sent.body ?? '')], [...new URLSearchParams(expected.body.text)], `${what}: form body`);
  }
}

/** For languages without a parser here: every part of the request is in the source. */
function assertMentions(code: string, expected: ExampleRequest, what: string): void {
  assert.match(code, new RegExp(`\\b${expected.method}\\b`, 'i'), `${what}: method`);
  assert.ok(code.includes(expected.baseUrl), `${what}: URL ${expected.baseUrl}`);
  for (const q of expected.query) assert.ok(code.includes(`${q.name}=`) || code.includes(`"${q.name}"`), `${what}: query ${q.name}`);
  for (const h of expected.headers) {
    // C# sets the content type on its content (ContentType, or implied by FormUrlEncodedContent), not as a header.
    const implied = h.name === 'Content-Type' && (code.includes('ContentType') || (h.value === 'application/x-www-form-urlencoded' && code.includes('FormUrlEncodedContent')));
    assert.ok(code.includes(h.name) || implied, `${what}: header ${h.name}`);
    if (implied && !code.includes(h.value)) continue;
    // Bearer tokens may be split into scheme and value (C#'s AuthenticationHeaderValue).
    for (const part of h.value.split(' ')) assert.ok(code.includes(part), `${what}: header value ${h.value}`);
  }
  const leaves = (value: unknown): string[] =>
    value && typeof value === 'object' ? Object.values(value as Record<string, unknown>).flatMap(leaves) : value === undefined ? [] : [String(value)];
  // As written, escaped in a string literal, or percent-encoded in a form body.
  const forms = (leaf: string) => [leaf, JSON.stringify(leaf).slice(1, -1), encodeURIComponent(leaf), new URLSearchParams({ x: leaf }).toString().slice(2)];
  for (const leaf of leaves(expected.body?.value)) assert.ok(forms(leaf).some((form) => code.includes(form)), `${what}: body value ${leaf}`);
}

const SPECS = [
  { id: 'payment', spec: 'openapi/payment.yaml' },
  { id: 'onboarding', spec: 'openapi/onboarding.yaml' },
];

describe('request samples', () => {
  let apis: LoadedApiDocument[];
  let dir: string;

  before(async () => {
    apis = await loadApiDocuments(
      SPECS.map((s) => ({ id: s.id, file: path.join(repoRoot, s.spec) })),
      repoRoot,
    );
    dir = await mkdtemp(path.join(os.tmpdir(), 'docsgen-samples-'));
    await mkdir(path.join(dir, 'stub'));
    await writeFile(path.join(dir, 'stub', 'requests.py'), PYTHON_REQUESTS_STUB);
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('builds createPayment from its own example: sandbox URL, bearer token, Idempotency-Key, the first body example', () => {
    const api = apis[0]!;
    const op = api.operations.find((o) => o.operationId === 'createPayment')!;
    const request = exampleRequest(api, op, { sandbox: 'Sandbox' });
    const media = asObject(asObject(asObject(resolveRef(api, asObject(asObject(api.document.paths)['/v1/payments']).post).requestBody).content)['application/json']);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, 'https://sandbox.api.sorrix.example/v1/payments');
    assert.deepEqual(request.headers, [
      { name: 'Authorization', value: 'Bearer <access_token>' },
      { name: 'Idempotency-Key', value: '8e4f2a1c-5b7d-4e3a-9c1f-2d6b8a0e4f71' },
      { name: 'Content-Type', value: 'application/json' },
    ]);
    assert.deepEqual(request.body?.value, asObject(asObject(media.examples).a_vista).value);
  });

  it('calls the server the config names as the sandbox, at every level: the token request goes to its own sandbox host', () => {
    const api = apis[0]!;
    const token = api.operations.find((o) => o.operationId === 'createToken')!;
    assert.equal(new URL(exampleRequest(api, token, { sandbox: 'Sandbox' }).url).host, 'auth.sandbox.sorrix.example');
    assert.equal(new URL(exampleRequest(api, token, { sandbox: 'Produção' }).url).host, 'auth.sorrix.example');
    assert.equal(exampleRequest(api, token, { sandbox: 'Sandbox' }).headers.some((h) => h.name === 'Authorization'), false, 'the token request needs no token');
  });

  it('has no samples for webhooks, which are received rather than sent', () => {
    const api = apis[0]!;
    const webhook = api.operations.find((o) => o.kind === 'webhook')!;
    assert.deepEqual(requestSamples(api, webhook.operationId, { sandbox: 'Sandbox' }), []);
  });

  for (const { id, spec } of SPECS) {
    it(`${spec}: every operation has a sample in each of the ${SAMPLE_TARGETS.length} languages, and each sends its example request`, async () => {
      const api = apis.find((a) => a.id === id)!;
      const operations = api.operations.filter((o) => o.kind === 'operation');
      assert.ok(operations.length > 0);
      for (const op of operations) {
        const expected = exampleRequest(api, op, { sandbox: 'Sandbox' });
        assert.ok(!/[{}]/.test(expected.baseUrl), `${op.operationId}: every path parameter has an example value (${expected.baseUrl})`);
        if (op.requestBody) assert.ok(expected.body, `${op.operationId}: the body has an example`);
        if (expected.body && /json$/.test(expected.body.mimeType)) assert.deepEqual(JSON.parse(expected.body.text), expected.body.value, `${op.operationId}: the JSON body parses`);
        const samples = requestSamples(api, op.operationId, { sandbox: 'Sandbox' });
        assert.deepEqual(
          samples.map((s) => s.id),
          SAMPLE_TARGETS.map((t) => t.id),
        );
        for (const sample of samples) {
          const what = `${op.operationId} (${sample.label})`;
          if (sample.id === 'curl') assertSends(curlSends(sample.code), expected, what);
          else if (sample.id === 'node') assertSends(await fetchSends(sample.code), expected, what);
          else if (sample.id === 'python') assertSends(await pythonSends(sample.code, dir, `${id}_${op.operationId}`), expected, what);
          else assertMentions(sample.code, expected, what);
        }
      }
    });
  }

  it('splits shell words as a shell does', () => {
    assert.deepEqual(shellWords(`curl --url 'a b' \\\n  --data "x\\"y" c\\ d`), ['curl', '--url', 'a b', '--data', 'x"y', 'c d']);
  });
});
