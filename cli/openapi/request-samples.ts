/**
 * Request samples of an operation in the languages an integrator uses, printed by
 * @readme/httpsnippet from the operation's example request (example-request.ts). Chosen
 * over @scalar/snippetz: its versions for Node 20 print complete programs (imports,
 * reading the response) where snippetz's leave out `import requests` and repeat the
 * query string in the curl and C# URLs, and it installs in a third of the size.
 */
import { HTTPSnippet, type HarRequest } from '@readme/httpsnippet';
import type { LoadedApiDocument, OperationSummary } from '../stages/openapi.ts';
import { exampleRequest, type ExampleRequest, type ExampleRequestOptions } from './example-request.ts';

export interface RequestSample {
  /** Tab value shared with the docs' language tabs, e.g. 'python'. */
  id: string;
  /** Language of the code for highlighting, e.g. 'python', 'bash'. */
  language: string;
  /** What the reader sees on the tab, e.g. 'Python (requests)'. */
  label: string;
  code: string;
  /** The httpsnippet target and client that printed it, e.g. 'python' and 'requests' (Elements' x-codeSamples `lang` and `lib`). */
  target: string;
  client: string;
}

interface SampleTarget {
  id: string;
  language: string;
  label: string;
  target: Parameters<HTTPSnippet['convert']>[0];
  client: string;
}

/**
 * In tab order. The ids are the plain language names the docs' tabs use ('node' for
 * JavaScript, whose fetch runs in Node.js as in browsers), so one choice switches both.
 */
export const SAMPLE_TARGETS: readonly SampleTarget[] = [
  { id: 'curl', language: 'bash', label: 'curl', target: 'shell', client: 'curl' },
  { id: 'node', language: 'javascript', label: 'JavaScript (fetch)', target: 'javascript', client: 'fetch' },
  { id: 'python', language: 'python', label: 'Python (requests)', target: 'python', client: 'requests' },
  { id: 'java', language: 'java', label: 'Java (OkHttp)', target: 'java', client: 'okhttp' },
  { id: 'kotlin', language: 'kotlin', label: 'Kotlin (OkHttp)', target: 'kotlin', client: 'okhttp' },
  { id: 'php', language: 'php', label: 'PHP (Guzzle)', target: 'php', client: 'guzzle' },
  { id: 'go', language: 'go', label: 'Go (net/http)', target: 'go', client: 'native' },
  { id: 'csharp', language: 'csharp', label: 'C# (HttpClient)', target: 'csharp', client: 'httpclient' },
  { id: 'ruby', language: 'ruby', label: 'Ruby (net/http)', target: 'ruby', client: 'native' },
];

/**
 * The request samples of one operation of a loaded API document, in SAMPLE_TARGETS
 * order; none for a webhook (it is received, not sent) or an unknown operationId.
 * `options.sandbox` names the server the samples call (see ExampleRequestOptions).
 */
export function requestSamples(api: LoadedApiDocument, operationId: string, options: ExampleRequestOptions = {}): RequestSample[] {
  const operation = api.operations.find((op) => op.operationId === operationId && op.kind === 'operation');
  if (!operation) return [];
  return samplesFor(exampleRequest(api, operation, options));
}

/** Samples of an example request already built (what requestSamples prints). */
export function samplesFor(request: ExampleRequest): RequestSample[] {
  const snippet = new HTTPSnippet(toHar(request), { harIsAlreadyEncoded: true });
  return SAMPLE_TARGETS.map(({ id, language, label, target, client }) => {
    const [code] = snippet.convert(target, client);
    if (typeof code !== 'string') throw new Error(`@readme/httpsnippet has no ${target}/${client} client; update SAMPLE_TARGETS in cli/openapi/request-samples.ts.`);
    return { id, language, label, code, target, client };
  });
}

/** The operations of a document that have request samples, with theirs. */
export function requestSamplesByOperation(api: LoadedApiDocument, options: ExampleRequestOptions = {}): Map<string, RequestSample[]> {
  return new Map(
    api.operations.filter((op: OperationSummary) => op.kind === 'operation').map((op) => [op.operationId, samplesFor(exampleRequest(api, op, options))]),
  );
}

function toHar(request: ExampleRequest): HarRequest {
  const body = request.body;
  const form = body?.mimeType === 'application/x-www-form-urlencoded' ? [...new URLSearchParams(body.text)].map(([name, value]) => ({ name, value })) : undefined;
  return {
    method: request.method,
    url: request.baseUrl,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: request.headers,
    queryString: request.query,
    headersSize: -1,
    bodySize: -1,
    postData: body ? { mimeType: body.mimeType, text: body.text, ...(form ? { params: form } : {}) } : { mimeType: 'application/octet-stream' },
  } as HarRequest;
}
