/**
 * Postman v2.1 collection and sandbox environment for one API document, offered
 * for download next to the OpenAPI files. openapi-to-postmanv2 (the converter
 * Postman's own importer uses) does the conversion; the result is then adjusted
 * so that it works right after import: hosts come from environment variables,
 * authentication is a Bearer token that the collection obtains by itself from the
 * OAuth 2.0 client-credentials scheme of the document (its tokenUrl and scopes), every
 * creating request sends a fresh Idempotency-Key, and ids are stable from build to build.
 * Folders are the document's tags; the words docsgen adds are the config's `postman` texts.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_POSTMAN_TEXTS, type PostmanTexts } from '../config-postman.ts';
import { DocsgenError } from '../errors.ts';
import type { LoadedApiDocument, OperationSummary } from './openapi.ts';
import { asArray, asObject, asString, isPlainObject, type JsonObject } from '../json.ts';
import { pickServer } from '../openapi/servers.ts';

export interface PostmanFiles {
  /** Postman collection v2.1, as JSON text. */
  collection: string;
  /** Postman environment for the sandbox, as JSON text. */
  environment: string;
}

type PostmanInput = Pick<LoadedApiDocument, 'id' | 'file' | 'title' | 'servers' | 'operations' | 'document'>;

const COLLECTION_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

export interface PostmanOptions {
  /** Description of the sandbox server (`sandboxServer` of the API reference); default the first server. */
  sandboxServer?: string;
  /**
   * Operations of the site's other API documents: when the token endpoint of this
   * document's security scheme is one of them, the token request the collection adds
   * takes its tag, summary and field descriptions.
   */
  siteOperations?: readonly OperationSummary[];
  texts?: PostmanTexts;
}

export async function buildPostmanFiles(api: PostmanInput, options: PostmanOptions = {}): Promise<PostmanFiles> {
  const { sandboxServer, texts = DEFAULT_POSTMAN_TEXTS } = options;
  const raw = await convert(api);
  const auth = tokenEndpoint(api.document);
  const sandbox = pickServer([asArray(api.document.servers)], sandboxServer).replace(/\/$/, '');
  const operations = api.operations.filter((op) => op.kind === 'operation');
  const byRoute = new Map(operations.map((op) => [routeKey(op.method, op.path), op]));
  const matched = new Set<string>();

  const transformItems = (items: unknown[]): JsonObject[] =>
    items.flatMap((entry): JsonObject[] => {
      const item = asObject(entry);
      if (Array.isArray(item.item)) {
        const children = transformItems(item.item);
        if (children.length === 0) return [];
        return [{ ...item, description: markdown(item.description), item: children }];
      }
      const request = asObject(item.request);
      const url = asObject(request.url);
      const pathSegments = asArray(url.path).map(String);
      const op = byRoute.get(routeKey(String(request.method), `/${pathSegments.map(toTemplate).join('/')}`));
      if (!op) return [];
      matched.add(op.operationId);
      return [transformRequest(item, op, api.document, auth, texts)];
    });

  const items = transformItems(asArray(raw.item));
  const isToken = (op: OperationSummary) => auth !== undefined && isTokenOperation(op, auth);
  const ownTokenOperation = operations.find(isToken);
  const tokenOperation = ownTokenOperation ?? options.siteOperations?.find(isToken);
  const token = { folder: tokenOperation?.tags[0] ?? texts.tokenFolder, name: tokenOperation?.summary || texts.tokenRequest };
  // An API whose token endpoint lives in another document (or in none) still gets the request,
  // so every collection starts the same way ("run the token request first").
  if (auth && !ownTokenOperation) {
    const request = tokenRequestItem(auth, token.name, tokenOperation, texts);
    const folder = items.find((item) => item.name === token.folder && Array.isArray(item.item));
    if (folder) folder.item = [request, ...asArray(folder.item)];
    else items.unshift({ name: token.folder, item: [request] });
  }
  const missing = operations.filter((op) => !matched.has(op.operationId));
  if (missing.length > 0) {
    throw new DocsgenError(
      `The Postman collection has no request for ${missing.map((op) => `${op.operationId} (${op.method} ${op.path})`).join(', ')}.`,
      {
        file: api.file,
        hint: 'openapi-to-postmanv2 skipped these operations; check that each has a method, a path and valid parameters.',
      },
    );
  }

  const collection: JsonObject = {
    info: {
      _postman_id: '',
      name: api.title,
      description: {
        content: [
          asString(asObject(asObject(raw.info).description).content) || asString(asObject(api.document.info).description),
          auth ? `## ${token.folder}\n\n${texts.authentication.replaceAll('{tokenRequest}', token.name)}` : '',
        ]
          .filter(Boolean)
          .join('\n\n'),
        type: 'text/markdown',
      },
      schema: COLLECTION_SCHEMA,
    },
    item: items,
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] },
    event: auth ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: autoTokenScript(auth, texts, token.name) } }] : [],
    variable: [
      { key: 'baseUrl', value: sandbox, type: 'string' },
      ...(auth ? [{ key: 'authUrl', value: auth.origin, type: 'string' }] : []),
    ],
  };
  stabilizeIds(collection, `${api.id}:collection`);

  const environment = {
    id: stableUuid(`${api.id}:environment`),
    name: `${api.title} (sandbox)`,
    values: [
      { key: 'baseUrl', value: sandbox, type: 'default', enabled: true },
      { key: 'authUrl', value: auth?.origin ?? '', type: 'default', enabled: true },
      { key: 'clientId', value: '', type: 'default', enabled: true },
      { key: 'clientSecret', value: '', type: 'secret', enabled: true },
      { key: 'accessToken', value: '', type: 'secret', enabled: true },
    ],
    _postman_variable_scope: 'environment',
  };

  return { collection: `${JSON.stringify(collection, null, 2)}\n`, environment: `${JSON.stringify(environment, null, 2)}\n` };
}

async function convert(api: PostmanInput): Promise<JsonObject> {
  // Imported here, not at the top: it took a third of a second to load, which a site without API documents never needs.
  const { convertV2 } = await import('openapi-to-postmanv2');
  return new Promise((resolve, reject) => {
    const fail = (reason: string, cause?: unknown): void =>
      reject(
        new DocsgenError(`The Postman collection could not be generated: ${reason}`, {
          file: api.file,
          hint: 'The document passed OpenAPI validation, so this is a limitation of openapi-to-postmanv2; simplify the construct it names.',
          cause,
        }),
      );
    try {
      convertV2(
        // The converter mutates its input while resolving references.
        { type: 'json', data: structuredClone(api.document) },
        {
          folderStrategy: 'Tags',
          requestNameSource: 'Fallback',
          parametersResolution: 'Example',
          includeWebhooks: false,
          enableOptionalParameters: false,
          alwaysInheritAuthentication: true,
          preferredRequestBodyType: 'first-listed',
        },
        (error, result) => {
          if (error) return fail(error.message, error);
          const data = result?.output?.[0]?.data;
          if (!result?.result || !isPlainObject(data)) return fail(result?.reason ?? 'the converter returned no collection.');
          resolve(data);
        },
      );
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error), error);
    }
  });
}

interface TokenEndpoint {
  /** Origin of the scheme's tokenUrl, e.g. https://auth.example.com */
  origin: string;
  /** e.g. /oauth/token */
  path: string;
  /** Every scope the scheme declares, space separated. */
  scope: string;
}

function tokenEndpoint(document: JsonObject): TokenEndpoint | undefined {
  const schemes = asObject(asObject(document.components).securitySchemes);
  for (const scheme of Object.values(schemes)) {
    const flow = asObject(asObject(asObject(scheme).flows).clientCredentials);
    if (typeof flow.tokenUrl !== 'string') continue;
    try {
      const url = new URL(flow.tokenUrl);
      return { origin: url.origin, path: url.pathname, scope: Object.keys(asObject(flow.scopes)).join(' ') };
    } catch {
      continue;
    }
  }
  return undefined;
}

function transformRequest(item: JsonObject, op: OperationSummary, document: JsonObject, auth: TokenEndpoint | undefined, texts: PostmanTexts): JsonObject {
  const request = { ...asObject(item.request) };
  const url = asObject(request.url);
  const pathSegments = asArray(url.path).map(String);
  const isTokenRequest = auth !== undefined && isTokenOperation(op, auth);
  const host = isTokenRequest ? '{{authUrl}}' : op.servers && op.servers.length > 0 ? (op.servers[0] ?? '').replace(/\/$/, '') : '{{baseUrl}}';
  const query = asArray(url.query).map(asObject);
  const enabledQuery = query.filter((q) => q.disabled !== true);
  request.url = {
    raw: `${host}/${pathSegments.join('/')}${enabledQuery.length > 0 ? `?${enabledQuery.map((q) => `${asString(q.key)}=${asString(q.value)}`).join('&')}` : ''}`,
    host: [host],
    path: pathSegments,
    ...(query.length > 0 ? { query: query.map(withMarkdownDescription) } : {}),
    ...(asArray(url.variable).length > 0 ? { variable: asArray(url.variable).map((v) => withMarkdownDescription(asObject(v))) } : {}),
  };
  request.description = markdown(request.description);
  request.header = asArray(request.header).map((raw) => {
    const header = withMarkdownDescription(asObject(raw));
    // A new key per send: replaying a fixed example key would return the first response again.
    return asString(header.key).toLowerCase() === 'idempotency-key' ? { ...header, value: '{{$guid}}' } : header;
  });
  if (requiresNoAuth(document, op.operationId)) request.auth = { type: 'noauth' };
  else delete request.auth;

  const events: JsonObject[] = [];
  if (isTokenRequest && auth) {
    request.body = tokenRequestBody(auth, asObject(request.body));
    events.push({ listen: 'test', script: { type: 'text/javascript', exec: storeTokenScript(texts) } });
  }
  const { response, ...rest } = item;
  return {
    ...rest,
    request,
    ...(events.length > 0 ? { event: events } : { event: undefined }),
    response: asArray(response).map((r) => {
      const example = { ...asObject(r) };
      const original = asObject(example.originalRequest);
      // The converter fills these copies with random values (even secret-like ones); show the request as sent instead.
      if (Object.keys(original).length > 0) {
        example.originalRequest = { ...original, url: request.url, header: request.header, ...(request.body ? { body: request.body } : {}) };
      }
      return example;
    }),
  };
}

function isTokenOperation(op: OperationSummary, auth: TokenEndpoint): boolean {
  return op.method === 'POST' && op.path === auth.path && (op.servers ?? []).some((s) => s.startsWith(auth.origin));
}

/**
 * The client-credentials form. Each field keeps the description the document gives it
 * (from the converter, or from the token operation of another document); the fields of
 * OAuth 2.0 itself are described in English when the document says nothing.
 */
function tokenRequestBody(auth: TokenEndpoint, generated: JsonObject = {}, tokenOperation?: OperationSummary): JsonObject {
  const values: [string, string, string][] = [
    ['grant_type', 'client_credentials', 'Always `client_credentials`.'],
    ['client_id', '{{clientId}}', 'Client id, from the environment.'],
    ['client_secret', '{{clientSecret}}', 'Client secret, from the environment.'],
    ['scope', auth.scope, 'Scopes asked for, separated by spaces.'],
  ];
  return {
    ...generated,
    mode: 'urlencoded',
    urlencoded: values.map(([key, value, fallback]) => {
      const description = asArray(generated.urlencoded).map(asObject).find((p) => p.key === key)?.description;
      const documented = tokenOperation?.requestBody?.fields.find((f) => f.name === key)?.description;
      return { key, value, type: 'text', description: asString(asObject(description).content ?? description) || documented || fallback };
    }),
  };
}

function tokenRequestItem(auth: TokenEndpoint, name: string, tokenOperation: OperationSummary | undefined, texts: PostmanTexts): JsonObject {
  const url = `{{authUrl}}${auth.path}`;
  return {
    name,
    request: {
      name,
      description: {
        content: tokenOperation?.description || texts.tokenRequestDescription.replaceAll('{scope}', auth.scope),
        type: 'text/markdown',
      },
      method: 'POST',
      url: { raw: url, host: ['{{authUrl}}'], path: auth.path.split('/').filter(Boolean) },
      header: [
        { key: 'Content-Type', value: 'application/x-www-form-urlencoded' },
        { key: 'Accept', value: 'application/json' },
      ],
      body: tokenRequestBody(auth, {}, tokenOperation),
      auth: { type: 'noauth' },
    },
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: storeTokenScript(texts) } }],
    response: [],
  };
}

function requiresNoAuth(document: JsonObject, operationId: string): boolean {
  for (const item of Object.values(asObject(document.paths))) {
    for (const op of Object.values(asObject(item))) {
      if (!isPlainObject(op) || op.operationId !== operationId) continue;
      const security = Array.isArray(op.security) ? op.security : Array.isArray(document.security) ? document.security : [];
      return security.length === 0 || security.some((req) => Object.keys(asObject(req)).length === 0);
    }
  }
  return false;
}

/** Runs before every request of the collection: a token is fetched once and reused until 5 minutes before it expires. */
function autoTokenScript(auth: TokenEndpoint, texts: PostmanTexts, tokenRequest: string): string[] {
  return [
    `const tokenPath = ${JSON.stringify(auth.path)};`,
    'const noAuth = pm.request.auth && pm.request.auth.type === "noauth";',
    'if (pm.request.url.getPath() !== tokenPath && !noAuth) {',
    '  const token = pm.environment.get("accessToken");',
    '  const expiresAt = Number(pm.environment.get("accessTokenExpiresAt") || 0);',
    '  const renewBefore = 5 * 60 * 1000;',
    '  if (!token || Date.now() > expiresAt - renewBefore) {',
    '    const clientId = pm.environment.get("clientId");',
    '    const clientSecret = pm.environment.get("clientSecret");',
    '    if (!clientId || !clientSecret) {',
    `      console.warn(${JSON.stringify(texts.missingCredentials.replaceAll('{tokenRequest}', tokenRequest))});`,
    '    } else {',
    '      pm.sendRequest({',
    '        url: pm.environment.get("authUrl") + tokenPath,',
    '        method: "POST",',
    '        header: { "Content-Type": "application/x-www-form-urlencoded" },',
    '        body: {',
    '          mode: "urlencoded",',
    '          urlencoded: [',
    '            { key: "grant_type", value: "client_credentials" },',
    '            { key: "client_id", value: clientId },',
    '            { key: "client_secret", value: clientSecret },',
    `            { key: "scope", value: ${JSON.stringify(auth.scope)} }`,
    '          ]',
    '        }',
    '      }, (error, response) => {',
    '        if (error || response.code !== 200) {',
    `          console.error(${JSON.stringify(texts.tokenFailed)}, error || response.text());`,
    '          return;',
    '        }',
    '        const body = response.json();',
    '        pm.environment.set("accessToken", body.access_token);',
    '        pm.environment.set("accessTokenExpiresAt", Date.now() + body.expires_in * 1000);',
    '      });',
    '    }',
    '  }',
    '}',
  ];
}

function storeTokenScript(texts: PostmanTexts): string[] {
  return [
    `pm.test(${JSON.stringify(texts.tokenIssuedTest)}, () => pm.response.to.have.status(200));`,
    'if (pm.response.code === 200) {',
    '  const body = pm.response.json();',
    '  pm.environment.set("accessToken", body.access_token);',
    '  pm.environment.set("accessTokenExpiresAt", Date.now() + body.expires_in * 1000);',
    '}',
  ];
}

/** The converter writes random ids; derive them from their position so every build writes the same files. */
function stabilizeIds(node: unknown, seed: string): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => stabilizeIds(child, `${seed}/${i}`));
    return;
  }
  if (!isPlainObject(node)) return;
  for (const key of Object.keys(node)) {
    if ((key === 'id' || key === '_postman_id') && typeof node[key] === 'string') node[key] = stableUuid(`${seed}/${key}`);
    else stabilizeIds(node[key], `${seed}/${key}`);
  }
}

function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  // Version 5-style layout (name-based), so tools that check the format accept it.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

function toTemplate(segment: string): string {
  return segment.startsWith(':') ? `{${segment.slice(1)}}` : segment;
}

function markdown(description: unknown): unknown {
  if (isPlainObject(description)) return { ...description, type: 'text/markdown' };
  return description;
}

function withMarkdownDescription(entry: JsonObject): JsonObject {
  return 'description' in entry ? { ...entry, description: markdown(entry.description) } : entry;
}

