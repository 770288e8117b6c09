/**
 * The portal's content agrees with itself and with the API documents: examples
 * validate against the operations they illustrate, every path and operation
 * matches, hosts, headers, error codes and sandbox data have one source of truth,
 * and curl samples call the API as documented. Entity, status, sample-parsing and
 * terminology checks are in contracts.test.ts; the language checks in spelling.test.ts.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { exampleSchema, loadApiDocuments, resolveRef, type LoadedApiDocument, type OperationSummary } from '../../cli/stages/openapi.ts';
import siteConfig from '../../site.config.ts';
import { repoRoot } from '../helpers/site.ts';
import { asObject, type JsonObject } from '../../cli/json.ts';
import { inlineCode, lineAt, listFiles, readSource, stripCode, tables, where, type CodeBlock, type Source, type Table } from './sources.ts';

type Json = JsonObject;
const obj = asObject;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------
// Sources

const docSources = [...listFiles('content/docs', '.mdx'), ...listFiles('content/blog', '.mdx')].map(readSource);
const pageSources = listFiles('content/pages', '.tsx').map(readSource);
/** Everything a reader sees: documents, posts and the home page. */
const allSources = [...docSources, ...pageSources];
const allBlocks = docSources.flatMap((s) => s.blocks);

// ---------------------------------------------------------------------------
// API documents

let apis: LoadedApiDocument[] = [];
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

before(async () => {
  apis = await loadApiDocuments(
    (siteConfig.apiReferences ?? []).map((ref) => ({ id: ref.id, file: path.join(repoRoot, ref.spec) })),
    repoRoot,
  );
  assert.ok(apis.length >= 2, 'both API documents load');
});

interface FoundOperation {
  api: LoadedApiDocument;
  op: OperationSummary;
  raw: Json;
}

function operations(): FoundOperation[] {
  return apis.flatMap((api) =>
    api.operations.map((op) => {
      const group = op.kind === 'webhook' ? 'webhooks' : 'paths';
      const item = resolveRef(api, obj(api.document[group])[op.path]);
      return { api, op, raw: obj(item[op.method.toLowerCase()]) };
    }),
  );
}

function findOperation(operationId: string): FoundOperation | undefined {
  return operations().find((o) => o.op.operationId === operationId);
}


function validator(operationId: string, kind: 'request' | 'response', status?: string): ValidateFunction | undefined {
  const key = `${operationId} ${kind} ${status ?? ''}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const found = findOperation(operationId);
  if (!found) return undefined;
  const schema = exampleSchema(found.api, operationId, kind, status);
  if (!schema) return undefined;
  const validate = ajv.compile(schema);
  compiled.set(key, validate);
  return validate;
}

/** Servers an operation is called on: its own (operation-level servers), else the document's. */
function serversOf(found: FoundOperation): string[] {
  if (found.op.servers && found.op.servers.length > 0) return found.op.servers;
  return found.api.servers.map((s) => s.url);
}

function hostOf(url: string): string {
  return new URL(url).host;
}

/** Whether the operation requires a bearer token (security: [] or an empty requirement means it does not). */
function needsAuth(found: FoundOperation): boolean {
  const security = Array.isArray(found.raw.security) ? found.raw.security : Array.isArray(found.api.document.security) ? found.api.document.security : [];
  return security.length > 0 && !security.some((s) => Object.keys(obj(s)).length === 0);
}

/** The schema of a path parameter, for checking a concrete id written in a path. */
function pathParameterPattern(found: FoundOperation, name: string): RegExp | undefined {
  const api = found.api;
  const item = resolveRef(api, obj(api.document.paths)[found.op.path]);
  const params = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(found.raw.parameters) ? found.raw.parameters : [])].map((p) => resolveRef(api, p));
  const param = params.find((p) => p.in === 'path' && p.name === name);
  const pattern = resolveRef(api, param?.schema).pattern;
  return typeof pattern === 'string' ? new RegExp(pattern) : undefined;
}

/** Every enum and const value per property name, over both documents. */
function enumsByProperty(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const api of apis) {
    const visit = (node: unknown, seen: Set<unknown>): void => {
      if (Array.isArray(node)) return node.forEach((n) => visit(n, seen));
      if (!isObject(node) || seen.has(node)) return;
      seen.add(node);
      for (const [key, value] of Object.entries(node)) {
        if (key === 'example' || key === 'examples' || key === 'default') continue;
        if (key === 'properties' && isObject(value)) {
          for (const [name, schema] of Object.entries(value)) {
            const values = collectEnum(api, schema, new Set());
            if (values.length > 0) {
              const set = out.get(name) ?? new Set<string>();
              values.forEach((v) => set.add(v));
              out.set(name, set);
            }
          }
        }
        visit(value, seen);
      }
    };
    visit(api.document, new Set());
  }
  return out;
}

function collectEnum(api: LoadedApiDocument, schema: unknown, seen: Set<string>): string[] {
  const ref = obj(schema).$ref;
  if (typeof ref === 'string') {
    if (seen.has(ref)) return [];
    seen.add(ref);
  }
  const s = resolveRef(api, schema);
  const own = [...(Array.isArray(s.enum) ? s.enum : []), ...('const' in s ? [s.const] : [])].filter((v): v is string => typeof v === 'string');
  const nested = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : []).flatMap((sub) => collectEnum(api, sub, seen)));
  const items = s.items === undefined ? [] : collectEnum(api, s.items, seen);
  return [...own, ...nested, ...items];
}

function problemCodes(): Set<string> {
  const codes = new Set<string>();
  for (const api of apis) {
    const problem = obj(obj(obj(api.document.components).schemas).Problem);
    const values = obj(obj(problem.properties).code).enum;
    assert.ok(Array.isArray(values), `${api.file}: components.schemas.Problem.properties.code has an enum`);
    for (const code of values) if (typeof code === 'string') codes.add(code);
  }
  return codes;
}

// ---------------------------------------------------------------------------
// API examples in the docs

const MARK = /^(\w+) (request|response)(?: ([1-5][0-9][0-9]))?$/;
/** Titles that say a block is a request, a response, an error or a webhook event. */
const API_TITLE = /\b(requisi[çc][ãa]o|resposta|erro|evento|webhook|request|response)\b/i;
const ID_PREFIX = /^(idf|pay|cnl|cns|pm|trm|mer|sto|evt|ctk)_/;

/** Parsed JSON blocks; a block that does not parse is reported by its own test and skipped here. */
function jsonBlocks(): { block: CodeBlock; value: unknown }[] {
  return allBlocks
    .filter((b) => b.lang === 'json')
    .flatMap((block) => {
      try {
        return [{ block, value: JSON.parse(block.body) as unknown }];
      } catch {
        return [];
      }
    });
}

/** Top-level property names of every request and response body of both documents. */
function bodyPropertySets(): Set<string>[] {
  const out: Set<string>[] = [];
  for (const { api, op, raw } of operations()) {
    const statuses = Object.keys(obj(raw.responses));
    const schemas = [exampleSchema(api, op.operationId, 'request'), ...statuses.map((s) => exampleSchema(api, op.operationId, 'response', s))];
    for (const schema of schemas) {
      const props = Object.keys(obj(obj(schema).properties));
      if (props.length > 0) out.push(new Set(props));
    }
  }
  return out;
}

/** Whether a JSON value has the shape of an API request or response body, so it must name its operation. */
function looksLikeApiBody(value: unknown, propertySets: Set<string>[]): boolean {
  if (Array.isArray(value)) return value.some((v) => looksLikeApiBody(v, propertySets));
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  if (typeof value.id === 'string' && ID_PREFIX.test(value.id)) return true;
  if (['type', 'title', 'status', 'code'].every((k) => k in value)) return true;
  return keys.length >= 2 && propertySets.some((set) => keys.every((k) => set.has(k)));
}

describe('JSON examples', () => {
  it('every JSON block parses', () => {
    const failures: string[] = [];
    for (const block of allBlocks.filter((b) => b.lang === 'json' || b.lang === 'jsonc')) {
      try {
        JSON.parse(block.body);
      } catch (error) {
        failures.push(`${where(block)}: ${(error as Error).message}`);
      }
    }
    assert.deepEqual(failures, [], 'JSON blocks must be valid JSON (no comments, no "...", no trailing commas)');
  });

  it('every example marked with openapi="..." validates against its operation', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const block of allBlocks.filter((b) => b.attrs.openapi !== undefined)) {
      const mark = MARK.exec(block.attrs.openapi ?? '');
      if (!mark || block.lang !== 'json') {
        failures.push(`${where(block)}: openapi="${block.attrs.openapi}" must be on a json block and read "<operationId> request" or "<operationId> response <status>"`);
        continue;
      }
      const [, operationId = '', kind, status] = mark;
      if (!findOperation(operationId)) {
        failures.push(`${where(block)}: no operation '${operationId}' in openapi/ (webhooks are named by their operationId, e.g. onTransactionApproved)`);
        continue;
      }
      if (kind === 'response' && status === undefined) {
        failures.push(`${where(block)}: say which response this is, e.g. openapi="${operationId} response 200"`);
        continue;
      }
      const validate = validator(operationId, kind as 'request' | 'response', status);
      if (!validate) {
        failures.push(`${where(block)}: '${operationId}' documents no ${kind === 'request' ? 'request body' : `response ${status} with a body`}`);
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(block.body);
      } catch {
        continue; // reported by 'every JSON block parses'
      }
      if (!validate(value)) {
        failures.push(`${where(block)}: ${operationId} ${kind} ${status ?? ''}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
      }
      const title = block.attrs.title ?? '';
      const titleStatus = /\b([1-5][0-9][0-9])\b/.exec(title)?.[1];
      if (kind === 'response' && titleStatus !== undefined && titleStatus !== status) failures.push(`${where(block)}: title '${title}' says ${titleStatus}, the mark says ${status}`);
      if (kind === 'request' && /resposta|erro/i.test(title)) failures.push(`${where(block)}: title '${title}' says response, the mark says request`);
      if (kind === 'response' && isObject(value) && typeof value.status === 'number' && Number(status) >= 400 && String(value.status) !== status) {
        failures.push(`${where(block)}: the Problem says status ${value.status}, the mark says ${status}`);
      }
      checked++;
    }
    assert.deepEqual(failures, []);
    assert.ok(checked >= 50, `only ${checked} marked examples found`);
  });

  it('every JSON request, response or event example names its operation', () => {
    const propertySets = bodyPropertySets();
    const failures: string[] = [];
    for (const { block, value } of jsonBlocks()) {
      if (block.attrs.openapi !== undefined) continue;
      if (API_TITLE.test(block.attrs.title ?? '') || looksLikeApiBody(value, propertySets)) {
        failures.push(`${where(block)}: this looks like an API example; add openapi="<operationId> request" or openapi="<operationId> response <status>"`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('every webhook event shown in the docs names its webhook operation', () => {
    const webhookIds = new Set(operations().filter((o) => o.op.kind === 'webhook').map((o) => o.op.operationId));
    const failures: string[] = [];
    for (const { block, value } of jsonBlocks()) {
      if (!isObject(value) || typeof value.id !== 'string' || !value.id.startsWith('evt_')) continue;
      const operationId = MARK.exec(block.attrs.openapi ?? '')?.[1] ?? '';
      const webhook = operations().find((o) => o.op.operationId === operationId && o.op.kind === 'webhook');
      if (!webhook) failures.push(`${where(block)}: an event body must be marked with one of ${[...webhookIds].join(', ')}`);
      else if (webhook.op.path !== value.type) failures.push(`${where(block)}: event type '${String(value.type)}' shown as ${operationId} (${webhook.op.path})`);
    }
    assert.deepEqual(failures, []);
  });
});

// ---------------------------------------------------------------------------
// Endpoint paths

interface PathMention {
  file: string;
  line: number;
  method?: string;
  host?: string;
  path: string;
  query?: string;
}

const WILDCARD = /\$\{|\{|<|^:|\$|%[sd]|#\{/;
const SEGMENT = String.raw`(?:\$\{[^}\s]*\}|\{\{[^}\s]*\}\}|#\{[^}\s]*\}|\{[A-Za-z_]+\}|<[A-Za-z_]+>|:[a-z_]+|\$[A-Za-z_][A-Za-z0-9_]*|%[sd]|[A-Za-z0-9_.-]+)+`;
const MENTION = new RegExp(
  String.raw`(?:\b(GET|POST|PUT|PATCH|DELETE)\s+)?(?:https://([a-z0-9.-]+\.sorrix\.example)|\$[A-Za-z_]+|\$\{[^}\s]+\}|\{[A-Za-z_]+\}|#\{[^}\s]+\})?(/(?:v1|oauth)(?:/${SEGMENT})*/?)(\?[^\s\`"')\]]*)?`,
  'g',
);

function pathMentions(source: Source): PathMention[] {
  const out: PathMention[] = [];
  for (const m of source.text.matchAll(MENTION)) {
    const before = source.text.slice(Math.max(0, (m.index ?? 0) - 1), m.index);
    // A path inside another URL (the portal, a store page) is not an API path.
    if (m[2] === undefined && /[A-Za-z0-9.]/.test(before)) continue;
    const raw = (m[3] ?? '').replace(/[.:,]+$/, '');
    out.push({ file: source.file, line: lineAt(source.text, m.index ?? 0), method: m[1], host: m[2], path: raw, query: m[4]?.slice(1) });
  }
  return out;
}

/** The operations whose path template matches a written path (ids filled in, or placeholders). */
function matchPath(mention: Pick<PathMention, 'path' | 'host'>): { found: FoundOperation; problems: string[] }[] {
  const prefix = mention.path.endsWith('/') && mention.path !== '/';
  const written = mention.path.replace(/\/$/, '').split('/');
  const out: { found: FoundOperation; problems: string[] }[] = [];
  for (const found of operations()) {
    if (found.op.kind !== 'operation') continue;
    if (mention.host !== undefined && !serversOf(found).some((s) => hostOf(s) === mention.host)) continue;
    const template = found.op.path.split('/');
    if (prefix ? template.length !== written.length + 1 || !/^\{/.test(template[written.length] ?? '') : template.length !== written.length) continue;
    const problems: string[] = [];
    let ok = true;
    for (let i = 0; i < written.length && ok; i++) {
      const w = written[i] ?? '';
      const t = template[i] ?? '';
      const param = /^\{(\w+)\}$/.exec(t)?.[1];
      if (param === undefined) {
        ok = w === t;
      } else if (/^\{\w+\}$/.test(w)) {
        if (w !== t) problems.push(`placeholder ${w} stands for ${t}`);
      } else if (!WILDCARD.test(w)) {
        const pattern = pathParameterPattern(found, param);
        if (pattern && !pattern.test(w)) problems.push(`'${w}' is not a valid ${param} (${pattern.source})`);
      }
    }
    if (ok) out.push({ found, problems });
  }
  return out;
}

describe('endpoint paths', () => {
  it('every endpoint path mentioned in the docs exists in openapi/', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const source of allSources) {
      for (const mention of pathMentions(source)) {
        if (mention.path === '/v1' || mention.path === '/v1/') continue; // the version prefix itself
        const at = `${mention.file}:${mention.line}: ${mention.method ? `${mention.method} ` : ''}${mention.host ? `https://${mention.host}` : ''}${mention.path}`;
        let matches = matchPath(mention);
        if (matches.length === 0) {
          failures.push(`${at}: no such path${mention.host ? ' on this host' : ''} in openapi/`);
          continue;
        }
        if (mention.method) {
          matches = matches.filter((m) => m.found.op.method === mention.method);
          if (matches.length === 0) {
            failures.push(`${at}: the path exists, but not with ${mention.method}`);
            continue;
          }
        }
        const clean = matches.find((m) => m.problems.length === 0);
        if (!clean) failures.push(`${at}: ${matches[0]?.problems.join('; ')}`);
        if (mention.query !== undefined) {
          const target = (clean ?? matches[0])?.found;
          const op = target && (target.op.method === 'GET' ? target : matches.map((m) => m.found).find((f) => f.op.method === 'GET'));
          const known = new Set(op?.op.parameters.filter((p) => p.in === 'query').map((p) => p.name) ?? []);
          for (const pair of mention.query.split('&')) {
            const name = pair.split('=')[0] ?? '';
            if (name === '' || WILDCARD.test(name)) continue;
            if (!known.has(name)) failures.push(`${at}?${mention.query}: '${name}' is not a query parameter of ${op?.op.operationId ?? 'this path'}`);
          }
        }
        checked++;
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(checked > 100, `only ${checked} path mentions found`);
  });

  it('every operation and webhook in openapi/ is explained in some document', () => {
    const text = docSources.map((s) => s.text).join('\n');
    const explained = new Set<string>();
    for (const source of docSources) {
      for (const mention of pathMentions(source)) {
        for (const { found } of matchPath(mention)) if (mention.method === found.op.method) explained.add(found.op.operationId);
      }
      for (const sample of curlSamples(source)) {
        const matched = sample.url ? matchPath({ path: new URL(sample.url).pathname, host: new URL(sample.url).host }) : [];
        for (const { found } of matched) if (found.op.method === sample.method) explained.add(found.op.operationId);
      }
    }
    const missing: string[] = [];
    for (const { op } of operations()) {
      if (explained.has(op.operationId)) continue;
      const named = new RegExp(`\\b${op.operationId}\\b`).test(text) || (op.kind === 'webhook' && text.includes(op.path));
      if (!named) missing.push(`${op.operationId} (${op.method} ${op.path})`);
    }
    assert.deepEqual(missing, [], 'operations no document mentions by method and path, operationId or webhook name');
  });
});

// ---------------------------------------------------------------------------
// Hosts, headers, error codes, sandbox data

/** Hosts that are not API servers but are part of the product: the portal, the partner panel, the SDK repositories and the company site. */
const PRODUCT_HOSTS = ['painel.sorrix.example', 'maven.sorrix.example', 'sdk.sorrix.example', 'sorrix.example'];

function documentedHosts(): Set<string> {
  const hosts = new Set<string>([hostOf(siteConfig.url), ...PRODUCT_HOSTS]);
  for (const found of operations()) for (const server of serversOf(found)) hosts.add(hostOf(server));
  return hosts;
}

function apiHosts(): Set<string> {
  return new Set(operations().flatMap((found) => serversOf(found).map(hostOf)));
}

/** Header names of the API, as the OpenAPI documents spell them, plus the standard ones the docs use. */
function headerNames(): Set<string> {
  const names = new Set(['Authorization', 'Content-Type', 'Accept', 'Host', 'User-Agent']);
  for (const api of apis) {
    for (const name of Object.keys(obj(obj(api.document.components).headers))) names.add(name);
    for (const op of api.operations) for (const p of op.parameters) if (p.in === 'header') names.add(p.name);
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!isObject(node)) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'headers' && isObject(value)) Object.keys(value).forEach((h) => names.add(h));
        visit(value);
      }
    };
    visit(api.document.paths);
  }
  return names;
}

/** Errors the SDK reports in the app, before any API call (contract: SDK facts). */
const SDK_ERROR_CODES = ['camera_permission_denied', 'capture_timeout', 'liveness_not_passed', 'network_unavailable', 'canceled_by_user', 'invalid_configuration'];

function errorTable(): Map<string, number> {
  const source = docSources.find((s) => s.file === 'content/docs/api/introducao-api.mdx');
  assert.ok(source, 'content/docs/api/introducao-api.mdx exists');
  const table = tables(source).find((t) => t.header.includes('HTTP') && t.header.includes('`code`'));
  assert.ok(table, 'introducao-api has the table of error codes (HTTP | `code` | ...)');
  const httpCol = table.header.indexOf('HTTP');
  const codeCol = table.header.indexOf('`code`');
  return new Map(table.rows.map((r) => [stripCode(r[codeCol] ?? ''), Number(r[httpCol])]));
}

describe('hosts, headers and error codes', () => {
  it('every sorrix host in the docs is a documented host', () => {
    const hosts = documentedHosts();
    const failures: string[] = [];
    for (const source of allSources) {
      for (const m of source.text.matchAll(/(?<![\w.-])((?:[a-z0-9-]+\.)*sorrix\.example)\b/g)) {
        if (!hosts.has(m[1] ?? '')) failures.push(`${source.file}:${lineAt(source.text, m.index ?? 0)}: unknown host ${m[1]}`);
      }
      for (const m of source.text.matchAll(/https?:\/\/([^\s/"'`)>\],;]*sorrix[^\s/"'`)>\],;]*)/gi)) {
        const host = (m[1] ?? '').replace(/[.:]+$/, '');
        if (!hosts.has(host)) failures.push(`${source.file}:${lineAt(source.text, m.index ?? 0)}: unknown host ${host}`);
      }
      for (const m of source.text.matchAll(/http:\/\/[a-z0-9.-]*sorrix/gi)) failures.push(`${source.file}:${lineAt(source.text, m.index ?? 0)}: the API is HTTPS only`);
    }
    assert.deepEqual([...new Set(failures)], [], `documented hosts: ${[...hosts].join(', ')}`);
  });

  it('every API server of openapi/ appears in the environments page', () => {
    const environments = docSources.find((s) => s.file === 'content/docs/documentacao/ambientes.mdx');
    assert.ok(environments);
    const missing = [...apiHosts()].filter((h) => !environments.text.includes(`https://${h}`));
    assert.deepEqual(missing, []);
  });

  it('header names are spelled as in openapi/', () => {
    const names = headerNames();
    const byLower = new Map([...names].map((n) => [n.toLowerCase(), n]));
    const failures: string[] = [];
    for (const source of allSources) {
      const check = (text: string, lineOffset: number, inCode: boolean): void => {
        for (const m of text.matchAll(/(?<![\w-])((?:X|Sorrix|RateLimit|X-RateLimit|Idempotency|Idempotent)-[A-Za-z]+(?:-[A-Za-z]+)*)(?![\w-])/gi)) {
          const written = m[1] ?? '';
          const canonical = byLower.get(written.toLowerCase());
          const line = lineOffset + lineAt(text, m.index ?? 0);
          if (canonical === undefined) {
            if (/^(x|sorrix|ratelimit|idempoten)/i.test(written) && /^[A-Z]/.test(written)) failures.push(`${source.file}:${line}: '${written}' is not a header of the API`);
          } else if (written !== canonical && !(inCode && written === written.toLowerCase())) {
            failures.push(`${source.file}:${line}: write '${canonical}', not '${written}'`);
          }
        }
      };
      check(source.prose, 0, false);
      for (const block of source.blocks) check(block.body, block.line, true);
    }
    assert.deepEqual(failures, []);
  });

  it('the error table lists exactly the Problem codes of openapi/, and every mention agrees with it', () => {
    const table = errorTable();
    const codes = problemCodes();
    assert.deepEqual([...table.keys()].sort(), [...codes].sort(), 'introducao-api#codigos-de-erro and the Problem code enums of openapi/');
    const failures: string[] = [];
    const report = (file: string, line: number, code: string, status?: number): void => {
      if (!table.has(code)) failures.push(`${file}:${line}: '${code}' is not an error code of the API`);
      else if (status !== undefined && table.get(code) !== status) failures.push(`${file}:${line}: ${code} is ${table.get(code)}, not ${status}`);
    };
    const enums = enumsByProperty();
    const knownNonError = new Set([...[...enums.values()].flatMap((s) => [...s]), ...SDK_ERROR_CODES]);
    for (const source of allSources) {
      // "422 liveness_failed", "`409` `transaction_not_cancelable`"
      for (const m of source.text.matchAll(/\b([45][0-9][0-9])`?\s+`?([a-z]+(?:_[a-z]+)+)\b/g)) {
        const code = m[2] ?? '';
        if (!table.has(code) && knownNonError.has(code)) continue;
        report(source.file, lineAt(source.text, m.index ?? 0), code, Number(m[1]));
      }
      // Comparisons in samples: problem.code === 'x', body["code"] == "x", .get("code") != "x"
      for (const m of source.text.matchAll(/\bcode\b['"]?\]?\)?\s*(?:===|!==|==|!=)\s*['"]([a-z_]+)['"]/g)) {
        report(source.file, lineAt(source.text, m.index ?? 0), m[1] ?? '');
      }
      // Prose: `code: "liveness_failed"`
      for (const { code, line } of inlineCode(source)) {
        const m = /^code:\s*"([a-z_]+)"$/.exec(code);
        if (m) report(source.file, line, m[1] ?? '');
      }
      for (const t of tables(source)) {
        const codeCol = t.header.indexOf('`code`');
        const httpCol = t.header.indexOf('HTTP');
        if (codeCol < 0 || httpCol < 0) continue;
        t.rows.forEach((row, i) => report(source.file, t.line + 2 + i, stripCode(row[codeCol] ?? ''), Number(row[httpCol])));
      }
    }
    for (const { block, value } of jsonBlocks()) {
      if (isObject(value) && typeof value.code === 'string' && 'status' in value && 'type' in value) {
        report(block.file, block.line, value.code, typeof value.status === 'number' ? value.status : undefined);
      }
    }
    for (const api of apis) {
      for (const [name, example] of Object.entries(obj(obj(api.document.components).examples))) {
        const value = obj(obj(example).value);
        if (typeof value.code === 'string') report(`${api.file} examples/${name}`, 0, value.code, typeof value.status === 'number' ? value.status : undefined);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('error tables list only statuses the operations of their section document', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const source of docSources) {
      const marked = source.blocks.flatMap((b) => {
        const operationId = MARK.exec(b.attrs.openapi ?? '')?.[1];
        return operationId ? [{ line: b.line, operationId }] : [];
      });
      const sectionStarts = [...source.prose.matchAll(/^## /gm)].map((m) => lineAt(source.prose, m.index ?? 0));
      const sectionOf = (line: number): [number, number] => {
        const start = [...sectionStarts].reverse().find((l) => l <= line) ?? 0;
        const end = sectionStarts.find((l) => l > line) ?? Number.MAX_SAFE_INTEGER;
        return [start, end];
      };
      for (const t of tables(source)) {
        const codeCol = t.header.indexOf('`code`');
        const httpCol = t.header.indexOf('HTTP');
        if (codeCol < 0 || httpCol < 0 || source.file.endsWith('introducao-api.mdx')) continue;
        const [start, end] = sectionOf(t.line);
        const inSection = marked.filter((m) => m.line > start && m.line < end);
        const operationIds = new Set((inSection.length > 0 ? inSection : marked).map((m) => m.operationId));
        if (operationIds.size === 0) continue;
        const statuses = new Set([...operationIds].flatMap((id) => findOperation(id)?.op.responses.map((r) => r.status) ?? []));
        t.rows.forEach((row, i) => {
          const status = (row[httpCol] ?? '').trim();
          if (!statuses.has(status) && !statuses.has(`${status.charAt(0)}XX`)) {
            failures.push(`${source.file}:${t.line + 2 + i}: ${status} ${stripCode(row[codeCol] ?? '')} is not a response of ${[...operationIds].join(', ')}`);
          }
        });
        checked++;
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(checked >= 10, `only ${checked} error tables checked`);
  });

  it('enum values written as `field: "value"` are values the API defines', () => {
    const enums = enumsByProperty();
    const failures: string[] = [];
    for (const source of docSources) {
      for (const { code, line } of inlineCode(source)) {
        const m = /^([a-z_]+):\s*"([^"]*)"$/.exec(code);
        const allowed = m ? enums.get(m[1] ?? '') : undefined;
        if (m && allowed && !allowed.has(m[2] ?? '')) failures.push(`${source.file}:${line}: ${code}: '${m[2]}' is not one of ${[...allowed].join(', ')}`);
      }
      for (const m of source.text.matchAll(/\b(status|decline_reason|reason|type)\b['"]?\]?\)?\s*(?:===|!==|==|!=)\s*['"]([a-z_.]+)['"]/g)) {
        const allowed = enums.get(m[1] ?? '');
        if (allowed && !allowed.has(m[2] ?? '')) failures.push(`${source.file}:${lineAt(source.text, m.index ?? 0)}: ${m[1]} is never '${m[2]}'`);
      }
    }
    assert.deepEqual(failures, []);
  });
});

// ---------------------------------------------------------------------------
// Sandbox data

const SANDBOX_PAGE = 'content/docs/anexo/usuarios-sandbox.mdx';

interface SandboxData {
  tokens: Map<string, { consumer: string; consumerId?: string; outcome: string }>;
  /** cents (0..99) -> the payment result, for the special values; every other value is approved */
  cents: Map<number, { status?: string; declineReason?: string; httpCode?: string }>;
}

/** The table that gives each test capture token its consumer and outcome. */
const isUsersTable = (t: Table): boolean =>
  t.header.some((h) => /consumidor/i.test(h)) && new Set(t.rows.flatMap((r) => r.join(' ').match(/ctk_test_[a-z_]+/g) ?? [])).size >= 2;
const isAmountsTable = (t: Table): boolean => t.rows.filter((r) => /^,\d\d$/.test((r[0] ?? '').trim())).length >= 2;

function sandboxData(): SandboxData {
  const source = docSources.find((s) => s.file === SANDBOX_PAGE);
  assert.ok(source, `${SANDBOX_PAGE} exists`);
  const users = tables(source).find(isUsersTable);
  const amounts = tables(source).find(isAmountsTable);
  assert.ok(users && amounts, `${SANDBOX_PAGE} has the sandbox users table and the test amounts table`);
  const tokens = new Map<string, { consumer: string; consumerId?: string; outcome: string }>();
  for (const row of users.rows) {
    const token = /ctk_test_[a-z_]+/.exec(row[0] ?? '')?.[0];
    if (token) tokens.set(token, { consumer: row[1] ?? '', consumerId: /cns_[A-Za-z0-9]+/.exec(row[1] ?? '')?.[0], outcome: row[2] ?? '' });
  }
  const cents = new Map<number, { status?: string; declineReason?: string; httpCode?: string }>();
  for (const row of amounts.rows) {
    const c = /^,(\d\d)$/.exec((row[0] ?? '').trim())?.[1];
    if (c === undefined) continue;
    const result = row[row.length - 1] ?? '';
    cents.set(Number(c), {
      status: /`status` `(\w+)`/.exec(result)?.[1],
      declineReason: /`decline_reason` `(\w+)`/.exec(result)?.[1],
      httpCode: /`(5\d\d) (\w+)`/.exec(result)?.[2],
    });
  }
  return { tokens, cents };
}

/** Every transaction object inside a JSON value. */
function transactionsIn(value: unknown): Json[] {
  if (Array.isArray(value)) return value.flatMap(transactionsIn);
  if (!isObject(value)) return [];
  const own = typeof value.id === 'string' && value.id.startsWith('pay_') && typeof value.amount === 'number' && typeof value.status === 'string' ? [value] : [];
  return [...own, ...Object.values(value).flatMap(transactionsIn)];
}

/** CNPJ check digits (Receita Federal, módulo 11). */
function validCnpj(cnpj: string): boolean {
  if (!/^\d{14}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const digits = [...cnpj].map(Number);
  const check = (length: number): number => {
    const weights = length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const rest = weights.reduce((sum, w, i) => sum + w * (digits[i] ?? 0), 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return check(12) === digits[12] && check(13) === digits[13];
}

describe('merchant documents', () => {
  it('every CNPJ is valid, except where the text shows an invalid one on purpose', () => {
    const failures: string[] = [];
    const texts = [...allSources.map((s) => ({ file: s.file, text: s.text })), ...apis.map((a) => ({ file: a.file, text: a.yamlText }))];
    for (const { file, text } of texts) {
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/(?<!\d)\d{14}(?!\d)/g)) {
          if (validCnpj(m[0])) continue;
          const context = lines.slice(Math.max(0, i - 3), i + 4).join('\n');
          if (!/invalid_document|verificador/.test(context)) failures.push(`${file}:${i + 1}: ${m[0]} is not a valid CNPJ (check digits), and nothing says it is meant to be invalid`);
        }
      });
    }
    assert.deepEqual(failures, []);
  });
});

describe('sandbox users and test amounts', () => {
  it('the sandbox users table and the test amounts table exist once, in the sandbox appendix', () => {
    const users = allSources.flatMap((s) => tables(s).filter(isUsersTable).map((t) => `${t.file}:${t.line}`));
    const amounts = allSources.flatMap((s) => tables(s).filter(isAmountsTable).map((t) => `${t.file}:${t.line}`));
    assert.equal(users.length, 1, `sandbox users tables: ${users.join(', ')}; link to /docs/anexo/usuarios-sandbox instead of copying it`);
    assert.equal(amounts.length, 1, `test amounts tables: ${amounts.join(', ')}; link to /docs/anexo/usuarios-sandbox#valores-de-teste instead of copying it`);
    assert.ok(users[0]?.startsWith(SANDBOX_PAGE) && amounts[0]?.startsWith(SANDBOX_PAGE));
  });

  it('every capture token ctk_test_* mentioned anywhere is in the sandbox users table', () => {
    const { tokens } = sandboxData();
    const failures: string[] = [];
    const texts = [...allSources.map((s) => ({ file: s.file, text: s.text })), ...apis.map((a) => ({ file: a.file, text: a.yamlText }))];
    for (const { file, text } of texts) {
      for (const m of text.matchAll(/ctk_test_[A-Za-z0-9_]*/g)) {
        const token = m[0];
        if (token === 'ctk_test_') continue; // the prefix itself, as in `ctk_test_...`
        if (!tokens.has(token)) failures.push(`${file}:${lineAt(text, m.index ?? 0)}: ${token} is not a sandbox capture token`);
      }
    }
    assert.deepEqual(failures, [], `sandbox capture tokens: ${[...tokens.keys()].join(', ')}`);
  });

  it('transactions in examples follow the test amounts and the test consumers', () => {
    const { tokens, cents } = sandboxData();
    const alwaysDeclined = [...tokens.values()].filter((t) => /recusad|declined/i.test(t.outcome) && t.consumerId);
    const failures: string[] = [];
    const check = (at: string, tx: Json): void => {
      const amount = tx.amount as number;
      const status = String(tx.status);
      const rule = cents.get(amount % 100);
      const reason = tx.decline_reason === null || tx.decline_reason === undefined ? undefined : String(tx.decline_reason);
      const declinedConsumer = alwaysDeclined.find((t) => t.consumerId === tx.consumer_id);
      const describe = `${String(tx.id)} amount ${amount} status ${status}${reason ? ` (${reason})` : ''}`;
      if (declinedConsumer) {
        if (status !== 'declined' || reason !== 'insufficient_funds') failures.push(`${at}: ${describe}, but ${declinedConsumer.consumer} is always declined with insufficient_funds`);
        return;
      }
      if (rule?.status === 'declined') {
        if (status !== 'declined' || reason !== rule.declineReason) failures.push(`${at}: ${describe}, but ,${amount % 100} is declined with ${rule.declineReason}`);
      } else if (status === 'declined') {
        failures.push(`${at}: ${describe}, but only the declining test amounts (${[...cents].filter(([, r]) => r.status === 'declined').map(([c]) => `,${c}`).join(' ')}) or a declining test consumer are declined in sandbox`);
      } else if (status === 'pending' && !(rule?.status === 'pending' || rule?.httpCode !== undefined)) {
        failures.push(`${at}: ${describe}, but only ${[...cents].filter(([, r]) => r.status === 'pending' || r.httpCode).map(([c]) => `,${c}`).join(' ')} stay pending in sandbox`);
      }
    };
    for (const { block, value } of jsonBlocks()) for (const tx of transactionsIn(value)) check(where(block), tx);
    for (const api of apis) {
      for (const [name, example] of Object.entries(obj(obj(api.document.components).examples))) {
        for (const tx of transactionsIn(obj(example).value)) check(`${api.file} examples/${name}`, tx);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('wherever a test capture token or a test amount is tied to a result, it is the result of the sandbox tables', () => {
    const { tokens, cents } = sandboxData();
    const identificationCodes = new Set([...tokens.values()].flatMap((t) => t.outcome.match(/\b4\d\d ([a-z_]+)/g)?.map((m) => m.split(' ')[1] ?? '') ?? []));
    const declineReasons = new Set([...cents.values()].flatMap((r) => (r.declineReason ? [r.declineReason] : [])));
    const failures: string[] = [];
    /** Lines where a test amount is tied to a decline reason: the check must have something to check. */
    let tied = 0;
    for (const source of allSources) {
      if (source.file === SANDBOX_PAGE) continue;
      source.prose.split('\n').forEach((line, i) => {
        const at = `${source.file}:${i + 1}`;
        const lineTokens = [...new Set(line.match(/ctk_test_[a-z_]+/g) ?? [])];
        // A table row, or a sentence of prose, that names one test token and identification errors.
        const parts = /^\s*\|/.test(line) ? [line] : line.split(/(?<=[.;!?])\s+/);
        for (const part of parts) {
          const partTokens = [...new Set(part.match(/ctk_test_[a-z_]+/g) ?? [])];
          const codes = [...identificationCodes].filter((c) => new RegExp(`\\b${c}\\b`).test(part));
          if (partTokens.length !== 1 || codes.length === 0) continue;
          const outcome = tokens.get(partTokens[0] ?? '')?.outcome ?? '';
          for (const c of codes) if (!outcome.includes(c)) failures.push(`${at}: ${partTokens[0]} does not give ${c} (sandbox table: ${outcome})`);
        }
        const amounts = [
          ...new Set([...line.matchAll(/`(\d{3,8})`|R\$ ?((?:\d{1,3}\.)*\d{1,3},\d\d)\b/g)].map((m) => (m[1] ? Number(m[1]) : Number((m[2] ?? '').replace(/\./g, '').replace(',', ''))))),
          // An HTTP status in backticks (`201`) is not an amount.
        ].filter((a) => !/^[1-5]\d\d$/.test(String(a)));
        const reasons = [...declineReasons].filter((r) => new RegExp(`\\b${r}\\b`).test(line));
        const special = amounts.filter((a) => cents.get(a % 100)?.declineReason !== undefined);
        // One amount and one reason on a line tie them; a line listing every reason ties none.
        if (special.length === 1 && amounts.length === 1 && reasons.length === 1 && lineTokens.every((t) => t === 'ctk_test_aprovado')) {
          const expected = cents.get((special[0] ?? 0) % 100)?.declineReason;
          tied++;
          for (const r of reasons) if (r !== expected) failures.push(`${at}: ${special[0]} is declined with ${expected}, not ${r}`);
        }
      });
    }
    assert.deepEqual(failures, []);
    assert.ok(tied > 0, 'no line ties a test amount to a decline reason: the pattern above no longer matches the docs');
  });

  it('an id means the same thing in every example', () => {
    const seen = new Map<string, { at: string; facts: string }>();
    const failures: string[] = [];
    const remember = (id: string, facts: string, at: string): void => {
      const before = seen.get(id);
      if (!before) seen.set(id, { at, facts });
      else if (before.facts !== facts) failures.push(`${at}: ${id} is ${facts}, but ${before.at} shows it as ${before.facts}`);
    };
    const visit = (value: unknown, at: string): void => {
      if (Array.isArray(value)) return value.forEach((v) => visit(v, at));
      if (!isObject(value)) return;
      const id = typeof value.id === 'string' ? value.id : '';
      if (id.startsWith('pm_')) remember(id, [value.type, value.brand ?? null, value.last4 ?? null].map(String).join(' '), at);
      if (id.startsWith('cns_') && typeof value.masked_name === 'string') remember(id, `consumer ${value.masked_name}`, at);
      if (id.startsWith('idf_') && isObject(value.consumer)) remember(id, `identification of ${String(value.consumer.id)}`, at);
      // A payment method belongs to one consumer.
      const owner = isObject(value.consumer) ? value.consumer.id : value.consumer_id;
      const methods = Array.isArray(value.payment_methods) ? value.payment_methods : isObject(value.payment_method) ? [value.payment_method] : [];
      if (typeof owner === 'string') for (const m of methods) remember(`${String(obj(m).id)}'s owner`, owner, at);
      Object.values(value).forEach((v) => visit(v, at));
    };
    for (const { block, value } of jsonBlocks()) visit(value, where(block));
    for (const api of apis) {
      for (const [name, example] of Object.entries(obj(obj(api.document.components).examples))) visit(obj(example).value, `${api.file} examples/${name}`);
    }
    assert.deepEqual(failures, []);
  });
});

// ---------------------------------------------------------------------------
// Code samples

interface CurlSample {
  file: string;
  line: number;
  command: string;
  method: string;
  url?: string;
  headers: Map<string, string>;
  body?: string;
  unresolved: string[];
}

/** Shell words of one command, with quotes removed; `$(...)` stays one word. */
function shellWords(command: string): { words: string[]; rest: string } {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const push = (s: string): void => {
    word = (word ?? '') + s;
  };
  for (; i < command.length; i++) {
    const c = command.charAt(i);
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      push(command.slice(i + 1, end < 0 ? undefined : end));
      i = end < 0 ? command.length : end;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      for (; j < command.length && command.charAt(j) !== '"'; j++) {
        if (command.charAt(j) === '\\' && j + 1 < command.length) j++;
        s += command.charAt(j);
      }
      push(s);
      i = j;
    } else if (c === '$' && command.charAt(i + 1) === '(') {
      let depth = 0;
      let j = i + 1;
      for (; j < command.length; j++) {
        if (command.charAt(j) === '(') depth++;
        else if (command.charAt(j) === ')' && --depth === 0) break;
      }
      push(command.slice(i, j + 1));
      i = j;
    } else if (/\s/.test(c)) {
      if (c === '\n') break;
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '|' || c === ';' || c === ')' || (c === '&' && command.charAt(i + 1) === '&')) {
      break;
    } else {
      push(c);
    }
  }
  if (word !== undefined) words.push(word);
  return { words, rest: command.slice(i) };
}

function shellVariables(source: Source): Map<string, string> {
  const vars = new Map<string, string>();
  for (const block of source.blocks.filter((b) => b.lang === 'bash' || b.lang === 'shell' || b.lang === 'sh')) {
    for (const m of block.body.matchAll(/^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=("([^"$]*)"|'([^']*)'|([^\s$"'(]+))\s*$/gm)) vars.set(m[1] ?? '', m[3] ?? m[4] ?? m[5] ?? '');
  }
  return vars;
}

function expand(word: string, vars: Map<string, string>, unresolved: string[]): string {
  return word.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (all, name: string) => {
    const value = vars.get(name);
    if (value === undefined) {
      unresolved.push(all);
      return all;
    }
    return value;
  });
}

function curlSamples(source: Source): CurlSample[] {
  const out: CurlSample[] = [];
  const vars = shellVariables(source);
  for (const block of source.blocks.filter((b) => b.lang === 'bash' || b.lang === 'shell' || b.lang === 'sh')) {
    const joined = block.body.replace(/\\\n/g, ' ');
    // The n-th curl of the joined text is the n-th curl of the block, which gives its line.
    const starts = [...block.body.matchAll(/(?<![\w-])curl\s/g)].map((m) => lineAt(block.body, m.index ?? 0));
    let nth = 0;
    for (const m of joined.matchAll(/(?<![\w-])curl\s/g)) {
      const { words } = shellWords(joined.slice(m.index ?? 0));
      const unresolved: string[] = [];
      const headers = new Map<string, string>();
      let method: string | undefined;
      let url: string | undefined;
      let body: string | undefined;
      let getMode = false;
      for (let i = 1; i < words.length; i++) {
        const w = words[i] ?? '';
        const next = (): string => words[++i] ?? '';
        if (w === '-X' || w === '--request') method = next().toUpperCase();
        else if (w === '-H' || w === '--header') {
          const h = next();
          const colon = h.indexOf(':');
          headers.set(h.slice(0, colon).trim(), h.slice(colon + 1).trim());
        } else if (w === '-d' || w === '--data' || w === '--data-raw' || w === '--data-binary' || w === '--json') {
          body = next();
          if (w === '--json') headers.set('Content-Type', 'application/json');
        } else if (w === '--data-urlencode' || w === '-F' || w === '--form') {
          next();
          body ??= '';
        } else if (w === '-G' || w === '--get') getMode = true;
        else if (w === '-o' || w === '-w' || w === '-u' || w === '--user' || w === '--max-time' || w === '--connect-timeout' || w === '-m') next();
        else if (!w.startsWith('-') && url === undefined) url = expand(w, vars, unresolved);
      }
      const line = block.line + (starts[nth++] ?? 1);
      out.push({
        file: source.file,
        line,
        command: words.join(' '),
        method: method ?? (getMode ? 'GET' : body !== undefined ? 'POST' : 'GET'),
        url,
        headers,
        body: body === undefined ? undefined : expand(body, vars, []),
        unresolved,
      });
    }
  }
  return out;
}

function requiredHeaders(found: FoundOperation): string[] {
  return found.op.parameters.filter((p) => p.in === 'header' && p.required).map((p) => p.name);
}

describe('code samples', () => {
  it('every curl sample calls a documented host with the headers the operation needs', () => {
    const hosts = apiHosts();
    const failures: string[] = [];
    let checked = 0;
    for (const source of docSources) {
      for (const sample of curlSamples(source)) {
        const at = `${sample.file}:${sample.line}: curl ${sample.method} ${sample.url ?? '(no URL)'}`;
        if (sample.unresolved.length > 0) {
          failures.push(`${at}: ${sample.unresolved.join(', ')} is not set in a sample on this page (export it first)`);
          continue;
        }
        if (!sample.url || !/^https:\/\//.test(sample.url)) {
          failures.push(`${at}: the URL must be https://<documented host>/...`);
          continue;
        }
        const url = new URL(sample.url);
        if (!hosts.has(url.host)) {
          failures.push(`${at}: ${url.host} is not an API host (${[...hosts].join(', ')})`);
          continue;
        }
        const found = matchPath({ path: url.pathname, host: url.host }).find((m) => m.found.op.method === sample.method && m.problems.length === 0)?.found;
        if (!found) {
          failures.push(`${at}: no operation ${sample.method} ${url.pathname} on ${url.host}`);
          continue;
        }
        const has = (name: string): boolean => [...sample.headers.keys()].some((h) => h.toLowerCase() === name.toLowerCase());
        if (needsAuth(found) && !/^Bearer \S+/.test(sample.headers.get('Authorization') ?? '')) failures.push(`${at}: ${found.op.operationId} needs -H "Authorization: Bearer $TOKEN"`);
        if (!needsAuth(found) && has('Authorization')) failures.push(`${at}: ${found.op.operationId} takes no bearer token`);
        for (const header of requiredHeaders(found)) if (!has(header)) failures.push(`${at}: ${found.op.operationId} needs the ${header} header`);
        for (const header of sample.headers.keys()) {
          if (!headerNames().has(header)) failures.push(`${at}: '${header}' is not a header of the API`);
        }
        if (sample.body !== undefined && /^\s*[{[]/.test(sample.body)) {
          if (!/^application\/json/.test(sample.headers.get('Content-Type') ?? '')) failures.push(`${at}: a JSON body needs -H "Content-Type: application/json"`);
          let value: unknown;
          try {
            value = JSON.parse(sample.body);
          } catch (error) {
            failures.push(`${at}: the body is not JSON: ${(error as Error).message}`);
          }
          const validate = validator(found.op.operationId, 'request');
          if (value !== undefined && validate && !validate(value)) failures.push(`${at}: body: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
        }
        checked++;
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(checked >= 25, `only ${checked} curl samples found`);
  });

  it('the webhook signature test vector of the connectivity page verifies', () => {
    const source = docSources.find((s) => s.file === 'content/docs/api/conectividade.mdx');
    assert.ok(source);
    const secret = /segredo `(whsec_[A-Za-z0-9]+)`/.exec(source.prose)?.[1];
    const timestamp = /timestamp `(\d+)`/.exec(source.prose)?.[1];
    const expected = /assinatura esperada é `([0-9a-f]{64})`/.exec(source.prose)?.[1];
    const body = source.blocks.find((b) => /vetor de teste/i.test(b.attrs.title ?? ''))?.body;
    assert.ok(secret && timestamp && expected && body !== undefined, 'the page states secret, timestamp, body and expected signature');
    assert.equal(createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'), expected);
  });
});
