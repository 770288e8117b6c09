/**
 * The example request of one operation, as the document describes it: the method, the
 * URL on the sandbox server with the example values of its path and query parameters,
 * the headers it requires (credentials of its security scheme, Idempotency-Key, …) and
 * its example body. Request samples in every language are printed from this one value,
 * so they all send the same request, and the tests compare each sample with it.
 */
import { asArray, asObject, asString, isPlainObject, type JsonObject } from '../json.ts';
import { pickServer } from './servers.ts';
import { resolveRef, type LoadedApiDocument, type OperationSummary } from '../stages/openapi.ts';

export interface ExampleRequest {
  /** upper case */
  method: string;
  /** Full URL: server, path with example values, query string. */
  url: string;
  /** Server and path without the query string. */
  baseUrl: string;
  query: { name: string; value: string }[];
  headers: { name: string; value: string }[];
  body?: {
    mimeType: string;
    /** The body exactly as sent. */
    text: string;
    /** The example value the body was made from (JSON and form bodies). */
    value: unknown;
  };
}

export interface ExampleRequestOptions {
  /**
   * Description of the server entries (of the document, a path or an operation) that
   * are the sandbox, e.g. "Sandbox". Absent or not found: the first server listed.
   */
  sandbox?: string;
}

/** Placeholders for credentials, which no document should hold; readers replace them with their own. */
export const CREDENTIAL_PLACEHOLDERS = {
  bearer: '<access_token>',
  apiKey: '<api_key>',
  basic: '<base64 of client_id:client_secret>',
} as const;

const PARAMETER_LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;

/** The example request of an operation (not of a webhook, which is received rather than sent). */
export function exampleRequest(api: LoadedApiDocument, operation: Pick<OperationSummary, 'path' | 'method'>, options: ExampleRequestOptions = {}): ExampleRequest {
  const item = resolveRef(api, asObject(api.document.paths)[operation.path]);
  const op = resolveRef(api, item[operation.method.toLowerCase()]);
  const server = pickServer([asArray(op.servers), asArray(item.servers), asArray(api.document.servers)], options.sandbox);

  const parameters = new Map<string, JsonObject>();
  for (const raw of [...asArray(item.parameters), ...asArray(op.parameters)]) {
    const p = resolveRef(api, raw);
    parameters.set(`${asString(p.in)}:${asString(p.name)}`, p);
  }

  let path = operation.path;
  const query: ExampleRequest['query'] = [];
  const headers: ExampleRequest['headers'] = [...securityHeaders(api, op)];
  for (const p of parameters.values()) {
    const location = asString(p.in) as (typeof PARAMETER_LOCATIONS)[number];
    const name = asString(p.name);
    const value = parameterExample(api, p);
    if (location === 'path') {
      path = path.split(`{${name}}`).join(encodeURIComponent(value ?? `{${name}}`));
    } else if (value !== undefined && (p.required === true || hasOwnExample(p))) {
      if (location === 'query') query.push({ name, value });
      else if (location === 'header') headers.push({ name, value });
    }
  }

  const body = exampleBody(api, op);
  if (body) headers.push({ name: 'Content-Type', value: body.mimeType });

  const baseUrl = `${server.replace(/\/$/, '')}${path}`;
  const search = new URLSearchParams(query.map((q): [string, string] => [q.name, q.value])).toString();
  return {
    method: operation.method.toUpperCase(),
    url: search ? `${baseUrl}?${search}` : baseUrl,
    baseUrl,
    query,
    headers,
    ...(body ? { body } : {}),
  };
}


/** The parameter's example: its own, then its schema's. Undefined when the document gives none. */
function parameterExample(api: LoadedApiDocument, p: JsonObject): string | undefined {
  const schema = resolveRef(api, p.schema);
  const examples = Object.values(asObject(p.examples)).map((e) => resolveRef(api, e).value);
  const candidates = [p.example, ...examples, schema.example, ...asArray(schema.examples), schema.default, ...asArray(schema.enum), schema.const];
  const found = candidates.find((c) => c !== undefined && c !== null);
  return found === undefined ? undefined : typeof found === 'string' ? found : JSON.stringify(found);
}

function hasOwnExample(p: JsonObject): boolean {
  return p.example !== undefined || Object.keys(asObject(p.examples)).length > 0;
}

/** Authorization (or the scheme's own header) for the first security requirement of the operation. */
function securityHeaders(api: LoadedApiDocument, op: JsonObject): { name: string; value: string }[] {
  const requirements = asArray(op.security ?? api.document.security);
  // An empty requirement ({}) makes security optional: the example then sends none.
  if (requirements.length === 0 || requirements.some((r) => Object.keys(asObject(r)).length === 0)) return [];
  const schemes = asObject(asObject(api.document.components).securitySchemes);
  const headers: { name: string; value: string }[] = [];
  for (const name of Object.keys(asObject(requirements[0]))) {
    const scheme = resolveRef(api, schemes[name]);
    const type = asString(scheme.type);
    if (type === 'oauth2' || type === 'openIdConnect' || (type === 'http' && /^bearer$/i.test(asString(scheme.scheme)))) {
      headers.push({ name: 'Authorization', value: `Bearer ${CREDENTIAL_PLACEHOLDERS.bearer}` });
    } else if (type === 'http' && /^basic$/i.test(asString(scheme.scheme))) {
      headers.push({ name: 'Authorization', value: `Basic ${CREDENTIAL_PLACEHOLDERS.basic}` });
    } else if (type === 'apiKey' && asString(scheme.in) === 'header') {
      headers.push({ name: asString(scheme.name), value: CREDENTIAL_PLACEHOLDERS.apiKey });
    }
  }
  return headers;
}

/** JSON first, then form, then any other media type with a string example. */
function exampleBody(api: LoadedApiDocument, op: JsonObject): ExampleRequest['body'] {
  const content = asObject(resolveRef(api, op.requestBody).content);
  const types = Object.keys(content);
  const mimeType = types.find((t) => /^application\/(?:[\w.+-]+\+)?json$/.test(t)) ?? types.find((t) => t === 'application/x-www-form-urlencoded') ?? types[0];
  if (mimeType === undefined) return undefined;
  const value = mediaExample(api, asObject(content[mimeType]));
  if (value === undefined) return undefined;
  if (/json$/.test(mimeType)) return { mimeType, text: JSON.stringify(value, null, 2), value };
  if (mimeType === 'application/x-www-form-urlencoded' && isPlainObject(value)) {
    return { mimeType, text: new URLSearchParams(Object.entries(value).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString(), value };
  }
  return typeof value === 'string' ? { mimeType, text: value, value } : undefined;
}

/** The first example of a media type object: `example`, the first of `examples`, or the schema's. */
export function mediaExample(api: LoadedApiDocument, media: JsonObject): unknown {
  if (media.example !== undefined) return media.example;
  const first = Object.values(asObject(media.examples))[0];
  if (first !== undefined) return resolveRef(api, first).value;
  const schema = resolveRef(api, media.schema);
  return schema.example ?? asArray(schema.examples)[0];
}
