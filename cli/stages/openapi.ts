/**
 * Loads the site's OpenAPI 3.1 documents: parses them with source positions,
 * validates them against the specification, and derives what the rest of the
 * build needs (operation summaries for the server-rendered reference and search,
 * JSON and Postman copies for download, schemas for checking the examples in the docs).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { DocsgenError, DocsgenErrors, codeExcerpt } from '../errors.ts';
import { describeExternalRef, findExternalRefs, type ExternalRef } from '../openapi/refs.ts';
import type { ApiValidator, NormalizedProblem } from '../openapi/validator.ts';
import { localizeSiteLinks, type YamlSource } from '../openapi/site-links.ts';
import type { SourceLink } from '../mdx/remark-links.ts';
import { distinctYamlErrors, yamlErrorMessage, yamlToJs } from '../yaml-limits.ts';
import type { PostmanTexts } from '../config-postman.ts';
import { buildPostmanFiles } from './postman.ts';
import { nearest } from '../suggest.ts';
import { valueAt } from '../frontmatter.ts';
import { asArray, asObject, asString, isPlainObject, type JsonObject } from '../json.ts';

export interface ApiDocumentSource {
  id: string;
  /** absolute path */
  file: string;
  /** Description of the sandbox server (`sandboxServer` in the config), for the Postman environment. */
  sandboxServer?: string;
}

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description: string;
  /** Compact description of the schema, e.g. "string (uuid)", "integer 1..100, default 20". */
  type: string;
}

/** A top-level property of a request body. */
export interface BodyField {
  name: string;
  in: 'body';
  required: boolean;
  description: string;
  type: string;
}

export interface OperationSummary {
  operationId: string;
  /** upper case */
  method: string;
  /** The path template, or the webhook's name for webhooks. */
  path: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: OperationParameter[];
  requestBody?: { contentType: string; fields: BodyField[] };
  responses: { status: string; description: string; contentType?: string }[];
  /** Server URLs that replace the document's servers for this operation. */
  servers?: string[];
  kind: 'operation' | 'webhook';
}

export interface LoadedApiDocument {
  id: string;
  /** relative to the site root, posix */
  file: string;
  title: string;
  version: string;
  description: string;
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  operations: OperationSummary[];
  /** parsed, JSON-compatible */
  document: Record<string, unknown>;
  yamlText: string;
  /** The document as written, for download. */
  jsonText: string;
  /** What the API reference (Elements) loads: the document with links to the site made root-relative. */
  referenceJsonText?: string;
  /** JSON texts */
  postman: { collection: string; environment: string };
  /** Links to the site's own pages in the descriptions (made root-relative), with their lines in the YAML. */
  siteLinks?: SourceLink[];
}

export interface LoadApiOptions {
  /** The site's `url` (with its base URL): links to it in descriptions become root-relative in what the API reference shows. */
  siteUrl?: string;
  /** The config's `postman` texts; default English. */
  postmanTexts?: PostmanTexts;
  /** The site's base URL, which the API console's copy of the document (rendered in the browser) puts in front of those links. */
  baseUrl?: string;
}


const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const SPEC_URL = 'https://spec.openapis.org/oas/v3.1.0';
/** Deeper than any real API document (the site's own reach 15), shallow enough for every recursive reader after the parser. */
const OPENAPI_MAX_DEPTH = 100;

export async function loadApiDocuments(sources: readonly ApiDocumentSource[], root: string, options: LoadApiOptions = {}): Promise<LoadedApiDocument[]> {
  if (sources.length === 0) return [];
  // Imported here: a site without API documents never pays for the validator.
  const validator = (await import('../openapi/validator.ts')).createApiValidator();
  const loaded = await Promise.all(sources.map((source) => loadOne(source, root, options, validator)));
  // Postman comes second: a collection may borrow the token operation of another document of the site.
  const siteOperations = loaded.flatMap((r) => (r.ok ? r.api.operations : []));
  const results = await Promise.all(
    loaded.map((r, i) => (r.ok ? withPostman(r, { sandboxServer: sources[i]!.sandboxServer, siteOperations, texts: options.postmanTexts }) : r)),
  );
  const errors = results.flatMap((r) => (r.ok ? [] : r.errors));
  if (errors.length > 0) {
    const files = new Set(errors.map((e) => e.file ?? ''));
    throw new DocsgenErrors(
      `${errors.length} problem${errors.length === 1 ? '' : 's'} in ${files.size} API document${files.size === 1 ? '' : 's'}.`,
      errors,
    );
  }
  return results.flatMap((r) => (r.ok ? [r.api] : []));
}

type LoadResult = { ok: true; api: LoadedApiDocument } | { ok: false; errors: DocsgenError[] };
type ParsedApi = Omit<LoadedApiDocument, 'postman'>;
/** A document that validated, before its Postman files; `original` keeps the author's absolute links. */
type ParseResult = { ok: true; api: ParsedApi; original: JsonObject } | { ok: false; errors: DocsgenError[] };

async function withPostman(parsed: { api: ParsedApi; original: JsonObject }, options: Parameters<typeof buildPostmanFiles>[1]): Promise<LoadResult> {
  try {
    const postman = await buildPostmanFiles({ ...parsed.api, document: parsed.original }, options);
    return { ok: true, api: { ...parsed.api, postman } };
  } catch (error) {
    if (error instanceof DocsgenError) return { ok: false, errors: [error] };
    throw error;
  }
}

async function loadOne(source: ApiDocumentSource, root: string, options: LoadApiOptions, validator: ApiValidator): Promise<ParseResult> {
  const rel = toPosix(path.relative(root, source.file));
  let yamlText: string;
  try {
    yamlText = await readFile(source.file, 'utf8');
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      ok: false,
      errors: [
        new DocsgenError(missing ? `API document '${source.id}' not found.` : `API document '${source.id}' could not be read.`, {
          file: rel,
          hint: missing
            ? `Create ${rel}, or fix the 'spec' path of the API reference '${source.id}' in site.config.ts.`
            : 'Check that the file is readable by the user running the build.',
          cause,
        }),
      ],
    };
  }

  const parsed = parseYaml(yamlText, rel);
  if (!parsed.ok) return parsed;
  const { document, locate, source: yamlSource } = parsed;

  const versionError = checkVersion(document, yamlText, rel, locate);
  if (versionError) return { ok: false, errors: [versionError] };

  // External references are reported here, before validation, and never read: the validator's
  // own "can't resolve" for them would only repeat it.
  const externalRefs = findExternalRefs(document);
  const reported = new Set(externalRefs.map((r) => formatPointer(r.segments.slice(0, -1))));
  const problems = (await validator.validate(yamlText, source.file)).filter(
    (p) => !(p.ruleId === 'no-unresolved-refs' && reported.has((p.location[0]?.pointer ?? '').replace(/^#/, '') || '/')),
  );
  const errors = problems.map((problem) => problemToError(problem, { text: yamlText, rel, absoluteFile: source.file, locate, validator, document }));
  errors.push(...checkExternalRefs(externalRefs, yamlText, rel, source.file, root, locate));
  errors.push(...checkOperationIds(document, yamlText, rel, locate));
  if (errors.length > 0) return { ok: false, errors: errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)) };

  // The downloads and Postman keep the author's absolute links; the reference shows the site's own.
  const shown = options.siteUrl ? localizeSiteLinks(document, options.siteUrl, yamlSource) : { document, links: [] };
  const operations = summarizeOperations(shown.document);
  // The pages put their links under the base URL after rendering; the console renders this JSON in the browser, so it gets them from here.
  const consoleDocument = options.siteUrl && options.baseUrl && options.baseUrl !== '/' ? localizeSiteLinks(document, options.siteUrl, yamlSource, options.baseUrl).document : shown.document;

  const info = asObject(shown.document.info);
  const api: ParsedApi = {
    id: source.id,
    file: rel,
    title: asString(info.title),
    version: asString(info.version),
    description: asString(info.description).trim(),
    servers: asArray(shown.document.servers).map((s) => ({ url: asString(asObject(s).url), description: asString(asObject(s).description) })),
    tags: asArray(shown.document.tags).map((t) => ({ name: asString(asObject(t).name), description: asString(asObject(t).description).trim() })),
    operations,
    document: shown.document,
    yamlText,
    jsonText: `${JSON.stringify(document, null, 2)}\n`,
    referenceJsonText: `${JSON.stringify(consoleDocument, null, 2)}\n`,
    siteLinks: shown.links,
  };
  // The downloads and Postman keep the author's absolute links.
  return { ok: true, api, original: document };
}

// ---------------------------------------------------------------------------
// Parsing

/** Finds the source position of a JSON pointer (as path segments) in the parsed YAML. */
type Locate = (segments: readonly string[], onKey?: boolean) => { line: number; column: number } | undefined;

/** YAML syntax errors reported per API document; see parseYaml. */
const YAML_ERRORS_SHOWN = 3;

function parseYaml(
  text: string,
  rel: string,
): { ok: true; document: JsonObject; locate: Locate; source: YamlSource } | { ok: false; errors: DocsgenError[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const firstPerPosition = distinctYamlErrors(doc.errors);
    // One slip (an unclosed '[' or quote) makes the parser misread the rest of the file: the
    // errors after the first few follow from them, and a page of them hides the cause.
    const shown = firstPerPosition.slice(0, YAML_ERRORS_SHOWN);
    const more = firstPerPosition.length - shown.length;
    return {
      ok: false,
      errors: shown.map((e, i) => {
        const pos = lineCounter.linePos(e.pos[0]);
        const message = yamlErrorMessage(e.message);
        const hint = 'Fix the YAML syntax at this position (indentation, an unclosed quote or bracket, or a value containing ": " that needs quotes).';
        return new DocsgenError(`The API document is not valid YAML: ${message}`, {
          file: rel,
          line: pos.line,
          column: pos.col,
          excerpt: codeExcerpt(text, pos.line, pos.col),
          hint:
            i === 0 && more > 0
              ? `${hint} The parser found ${more} more error${more === 1 ? '' : 's'} further on, not shown: they usually follow from the first, so fix it and build again.`
              : hint,
        });
      }),
    };
  }
  const converted = yamlToJs(doc, OPENAPI_MAX_DEPTH);
  if (!converted.ok) {
    const pos = lineCounter.linePos(converted.problem.offset);
    return { ok: false, errors: [located(`The API document ${converted.problem.message}`, rel, text, { line: pos.line, column: pos.col }, { hint: converted.problem.hint })] };
  }
  const value = converted.value;
  if (!isPlainObject(value)) {
    return {
      ok: false,
      errors: [
        new DocsgenError('The API document must be a YAML mapping with `openapi`, `info` and `paths` at the top level.', {
          file: rel,
          line: 1,
          column: 1,
          excerpt: codeExcerpt(text, 1, 1),
          hint: 'Start the file with `openapi: 3.1.0` followed by `info:`.',
        }),
      ],
    };
  }
  const rangeOf = (segments: readonly string[], onKey = false): [number, number, number] | undefined => {
    let node: unknown = doc.contents;
    let range: [number, number, number] | undefined = (doc.contents as YamlNode | null)?.range ?? undefined;
    for (const segment of segments) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
        if (!pair) break;
        const keyRange = isScalar(pair.key) ? pair.key.range : undefined;
        const valueRange = (pair.value as YamlNode | null)?.range ?? undefined;
        range = (segment === segments[segments.length - 1] && onKey ? keyRange : valueRange ?? keyRange) ?? range;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(segment)];
        if (item === undefined) break;
        range = (item as YamlNode).range ?? range;
        node = item;
      } else {
        break;
      }
    }
    return range;
  };
  const position = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  const locate: Locate = (segments, onKey = false) => {
    const range = rangeOf(segments, onKey);
    return range ? position(range[0]) : undefined;
  };
  return { ok: true, document: value, locate, source: { text, rangeOf, position } };
}

function checkVersion(document: JsonObject, text: string, rel: string, locate: Locate): DocsgenError | undefined {
  const version = document.openapi;
  if (typeof version === 'string' && /^3\.1\.\d+$/.test(version)) return undefined;
  if (version === undefined) {
    const swagger = document.swagger !== undefined;
    return located(`/openapi: the document has no 'openapi' field${swagger ? ` (it is a Swagger ${String(document.swagger)} document)` : ''}.`, rel, text, locate(swagger ? ['swagger'] : [], true) ?? { line: 1, column: 1 }, {
      hint: `docsgen reads OpenAPI 3.1 only. Add 'openapi: 3.1.0' as the first line${swagger ? ' and convert the document (e.g. with swagger2openapi, then update it to 3.1)' : ''}.`,
    });
  }
  return located(`/openapi: expected an OpenAPI 3.1 document ('3.1.x'), found '${String(version)}'.`, rel, text, locate(['openapi']), {
    hint: `docsgen reads OpenAPI 3.1 only. Set 'openapi: 3.1.0'; coming from 3.0, replace 'nullable: true' with a type list ([string, 'null']) and 'example' in schemas with 'examples' (see ${SPEC_URL}).`,
  });
}

// ---------------------------------------------------------------------------
// Validation (the validator itself: ../openapi/validator.ts)

const RULE_HINTS: Record<string, string> = {
  struct: `Compare this object with the OpenAPI 3.1 specification (${SPEC_URL}) and add, rename or remove the field.`,
  'no-unresolved-refs': "Point the $ref at something that exists (e.g. '#/components/schemas/Transaction'), or add the missing component.",
  'operation-operationId-unique': 'Give every operation its own operationId.',
  'path-parameters-defined': 'Declare every {placeholder} of the path as a parameter with `in: path` and `required: true`, and no others.',
  'operation-parameters-unique': 'Remove the duplicated parameter (the same name and `in`).',
  'no-identical-paths': 'Merge the two paths: they differ only in the names of their placeholders.',
  'spec-ref-siblings': 'Next to a $ref, only `summary` and `description` are allowed; move other fields into the referenced object.',
};

interface ProblemContext {
  text: string;
  rel: string;
  absoluteFile: string;
  locate: Locate;
  validator: ApiValidator;
  document: JsonObject;
}

function problemToError(problem: NormalizedProblem, { text, rel, absoluteFile, locate, validator, document }: ProblemContext): DocsgenError {
  const location = problem.location[0];
  const pointer = (location?.pointer ?? '#/').replace(/^#/, '') || '/';
  const segments = pointerSegments(pointer);
  const sameFile = !location || path.resolve(location.source.absoluteRef) === path.resolve(absoluteFile);
  let pos = sameFile ? locate(segments, location?.reportOnKey ?? false) : undefined;
  if (!pos && location) pos = validator.lineColumn(location);
  const file = sameFile ? rel : toPosix(path.relative(path.dirname(absoluteFile), location?.source.absoluteRef ?? ''));
  const suggestion = problem.suggest.length > 0 ? ` Did you mean: ${problem.suggest.join(', ')}?` : '';
  const message = `${pointer}: ${problem.message.replace(/\s+$/, '')}${suggestion}`;
  const hint =
    (problem.ruleId === 'no-unresolved-refs' ? unresolvedRefHint(valueAt(document, segments), document) : undefined) ??
    RULE_HINTS[problem.ruleId] ??
    `See the rule '${problem.ruleId}' in the Redocly documentation and the OpenAPI 3.1 specification (${SPEC_URL}).`;
  if (!sameFile) return new DocsgenError(message, { file, line: pos?.line, column: pos?.column, hint });
  return located(message, rel, text, pos, { hint });
}

/**
 * For a local $ref to nothing, the name nearest to the one it names among its would-be
 * siblings ('CreateMerchantRequest' for '#/components/schemas/CreateMerchantRequestX').
 */
function unresolvedRefHint(node: unknown, document: JsonObject): string | undefined {
  const ref = asObject(node).$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  const segments = pointerSegments(ref.slice(1));
  const name = segments.pop() ?? '';
  const parent = formatPointer(segments);
  const siblings = Object.keys(asObject(valueAt(document, segments)));
  const near = nearest(name, siblings);
  if (near) return `Point the $ref at something that exists: did you mean '#${formatPointer([...segments, near])}'? Or add the missing component.`;
  if (siblings.length === 0) return `Point the $ref at something that exists: the document has nothing at '#${parent}'. Add the missing component there.`;
  const listed = siblings.slice(0, 8).join(', ') + (siblings.length > 8 ? ', ...' : '');
  return `Point the $ref at something that exists ('#${parent}' has ${listed}), or add the missing component.`;
}

/** Only local $refs: the published copies and exampleSchema must stand alone (see ../openapi/refs.ts). */
function checkExternalRefs(refs: readonly ExternalRef[], text: string, rel: string, absoluteFile: string, root: string, locate: Locate): DocsgenError[] {
  return refs.map(({ segments, ref }) => {
    const { problem, hint } = describeExternalRef(ref, absoluteFile, root);
    return located(`${formatPointer(segments)}: ${problem}`, rel, text, locate(segments), { hint });
  });
}

/** docsgen needs operationIds: examples in the docs and the Postman requests are matched to operations by them. */
function checkOperationIds(document: JsonObject, text: string, rel: string, locate: Locate): DocsgenError[] {
  const errors: DocsgenError[] = [];
  for (const group of ['paths', 'webhooks']) {
    for (const [key, item] of Object.entries(asObject(document[group]))) {
      for (const [method, op] of Object.entries(asObject(item))) {
        if (!(HTTP_METHODS as readonly string[]).includes(method) || !isPlainObject(op)) continue;
        if (typeof op.operationId === 'string' && op.operationId !== '') continue;
        const pointer = [group, key, method];
        errors.push(
          located(`${formatPointer(pointer)}: the operation has no operationId.`, rel, text, locate(pointer, true), {
            hint: 'Add a unique operationId (camelCase, e.g. createPayment): the docs reference operations by it and the Postman collection is built from it.',
          }),
        );
      }
    }
  }
  return errors;
}

function located(message: string, rel: string, text: string, pos: { line: number; column: number } | undefined, options: { hint?: string }): DocsgenError {
  return new DocsgenError(message, {
    file: rel,
    line: pos?.line,
    column: pos?.column,
    excerpt: pos ? codeExcerpt(text, pos.line, pos.column) : undefined,
    hint: options.hint,
  });
}

// ---------------------------------------------------------------------------
// Summaries

function summarizeOperations(document: JsonObject): OperationSummary[] {
  const out: OperationSummary[] = [];
  const collect = (group: 'paths' | 'webhooks', kind: OperationSummary['kind']): void => {
    for (const [key, rawItem] of Object.entries(asObject(document[group]))) {
      const item = asObject(deref(document, rawItem));
      // Document order, so the summary lists operations as the author arranged them.
      for (const [method, op] of Object.entries(item)) {
        if (!(HTTP_METHODS as readonly string[]).includes(method) || !isPlainObject(op)) continue;
        out.push(summarizeOperation(document, key, method, item, op, kind));
      }
    }
  };
  collect('paths', 'operation');
  collect('webhooks', 'webhook');
  return out;
}

function summarizeOperation(
  document: JsonObject,
  key: string,
  method: string,
  item: JsonObject,
  op: JsonObject,
  kind: OperationSummary['kind'],
): OperationSummary {
  const params = new Map<string, OperationParameter>();
  for (const raw of [...asArray(item.parameters), ...asArray(op.parameters)]) {
    const p = asObject(deref(document, raw));
    const location = asString(p.in);
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') continue;
    params.set(`${location}:${asString(p.name)}`, {
      name: asString(p.name),
      in: location,
      required: p.required === true,
      description: asString(p.description).trim(),
      type: describeSchema(document, p.schema),
    });
  }

  let requestBody: OperationSummary['requestBody'];
  const body = asObject(deref(document, op.requestBody));
  const bodyMedia = pickMedia(asObject(body.content));
  if (bodyMedia) {
    const schema = asObject(deref(document, asObject(bodyMedia.media).schema));
    const { properties, required } = collectProperties(document, schema);
    requestBody = {
      contentType: bodyMedia.type,
      fields: Object.entries(properties).map(([name, prop]) => ({
        name,
        in: 'body' as const,
        required: required.has(name),
        description: asString(asObject(deref(document, prop)).description || asObject(prop).description).trim(),
        type: describeSchema(document, prop),
      })),
    };
  }

  const responses = Object.entries(asObject(op.responses)).map(([status, raw]) => {
    const response = asObject(deref(document, raw));
    const media = pickMedia(asObject(response.content));
    return { status, description: asString(response.description).trim(), ...(media ? { contentType: media.type } : {}) };
  });

  const servers = asArray(op.servers).length > 0 ? asArray(op.servers) : asArray(item.servers);
  return {
    operationId: asString(op.operationId),
    method: method.toUpperCase(),
    path: key,
    summary: asString(op.summary).trim() || asString(op.operationId),
    description: asString(op.description).trim(),
    tags: asArray(op.tags).map((t) => asString(t)),
    parameters: [...params.values()],
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(servers.length > 0 ? { servers: servers.map((s) => asString(asObject(s).url)) } : {}),
    kind,
  };
}

export function collectProperties(document: JsonObject, schema: JsonObject): { properties: JsonObject; required: Set<string> } {
  const properties: JsonObject = { ...asObject(schema.properties) };
  const required = new Set(asArray(schema.required).map((r) => asString(r)));
  for (const part of asArray(schema.allOf)) {
    const sub = collectProperties(document, asObject(deref(document, part)));
    // A later allOf part narrows an earlier one (e.g. adds a const): merge, keeping both.
    for (const [name, prop] of Object.entries(sub.properties)) {
      const earlier = properties[name];
      properties[name] = earlier === undefined ? prop : { ...asObject(deref(document, earlier)), ...asObject(deref(document, prop)) };
    }
    for (const name of sub.required) required.add(name);
  }
  return { properties, required };
}

/** "string (uuid)", "integer 1..100, default 20", "string: a | b", "array of object". */
export function describeSchema(document: JsonObject, raw: unknown, depth = 0): string {
  const schema = asObject(deref(document, raw));
  const refName = isPlainObject(raw) && typeof raw.$ref === 'string' ? raw.$ref.split('/').pop() : undefined;
  const isObject = schema.type === 'object' || (schema.type === undefined && (schema.properties !== undefined || schema.allOf !== undefined));
  if (isObject && refName) return `object (${refName})`;
  if (depth > 4) return 'object';
  const types = Array.isArray(schema.type) ? schema.type.map((t) => asString(t)) : schema.type ? [asString(schema.type)] : [];
  const nullable = types.includes('null');
  let base = types.filter((t) => t !== 'null').join(' | ');
  if (!base) {
    const alternatives = [...asArray(schema.oneOf), ...asArray(schema.anyOf)];
    if (alternatives.length > 0) base = alternatives.map((a) => describeSchema(document, a, depth + 1)).join(' | ');
    else if (asArray(schema.allOf).length > 0 || schema.properties) base = 'object';
    else if (schema.const !== undefined) base = typeof schema.const;
    else base = 'any';
  }
  if (base === 'array') base = `array of ${describeSchema(document, schema.items, depth + 1)}`;
  const details: string[] = [];
  if (typeof schema.format === 'string') base += ` (${schema.format})`;
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  if (min !== undefined && max !== undefined) base += ` ${min}..${max}`;
  else if (min !== undefined) base += ` ≥ ${min}`;
  else if (max !== undefined) base += ` ≤ ${max}`;
  const minLen = typeof schema.minLength === 'number' ? schema.minLength : undefined;
  const maxLen = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  if (minLen !== undefined && maxLen !== undefined) details.push(`${minLen}..${maxLen} chars`);
  else if (maxLen !== undefined) details.push(`up to ${maxLen} chars`);
  else if (minLen !== undefined) details.push(`at least ${minLen} chars`);
  if (schema.const !== undefined) details.push(`always ${JSON.stringify(schema.const)}`);
  const values = schema.const === undefined ? asArray(schema.enum).filter((v) => v !== null) : [];
  if (values.length === 1) details.push(`always ${JSON.stringify(values[0])}`);
  else if (values.length > 1) details.push(`one of ${values.map((v) => String(v)).join(' | ')}`);
  // A format already says what the pattern spells out (uuid, date-time).
  if (typeof schema.pattern === 'string' && values.length === 0 && typeof schema.format !== 'string') details.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) details.push(`default ${JSON.stringify(schema.default)}`);
  if (nullable) details.push('nullable');
  return details.length > 0 ? `${base}, ${details.join(', ')}` : base;
}

function pickMedia(content: JsonObject): { type: string; media: unknown } | undefined {
  const types = Object.keys(content);
  const type =
    types.find((t) => t === 'application/json') ??
    types.find((t) => t === 'application/problem+json') ??
    types.find((t) => /[/+]json$/.test(t)) ??
    types[0];
  return type === undefined ? undefined : { type, media: content[type] };
}

// ---------------------------------------------------------------------------
// Schemas for examples

/** JSON Schema (refs resolved) of an operation's request body or of one response, for validating examples in the docs. */
export function exampleSchema(api: LoadedApiDocument, operationId: string, kind: 'request' | 'response', status?: string): object | undefined {
  const document = api.document;
  const op = findOperation(document, operationId);
  if (!op) return undefined;
  let content: JsonObject;
  if (kind === 'request') {
    content = asObject(asObject(deref(document, op.requestBody)).content);
  } else {
    const responses = asObject(op.responses);
    const key =
      status === undefined
        ? Object.keys(responses).find((s) => /^2/.test(s))
        : [status, `${status.charAt(0)}XX`, `${status.charAt(0)}xx`].find((s) => s in responses);
    if (key === undefined) return undefined;
    content = asObject(asObject(deref(document, responses[key])).content);
  }
  const media = pickMedia(content);
  const schema = media ? asObject(media.media).schema : undefined;
  if (schema === undefined) return undefined;
  return toJsonSchema(document, schema);
}

function findOperation(document: JsonObject, operationId: string): JsonObject | undefined {
  for (const group of ['paths', 'webhooks']) {
    for (const rawItem of Object.values(asObject(document[group]))) {
      const item = asObject(deref(document, rawItem));
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (isPlainObject(op) && op.operationId === operationId) return op;
      }
    }
  }
  return undefined;
}

/** Keywords of the OpenAPI base vocabulary that plain JSON Schema validators reject in strict mode. */
const OAS_ONLY_KEYWORDS = new Set(['discriminator', 'xml', 'externalDocs', 'example']);
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
  'additionalItems',
]);

/**
 * Inlines every local $ref so the result stands alone; a recursive schema keeps
 * one `$defs` entry per cycle instead of recursing forever.
 */
function toJsonSchema(document: JsonObject, schema: unknown): object {
  const defs = new Map<string, unknown>();
  const recursive = new Set<string>();
  const stack: string[] = [];
  const defName = (ref: string): string => ref.split('/').pop()?.replace(/[^A-Za-z0-9_.-]/g, '_') || 'schema';

  const convert = (node: unknown): unknown => {
    if (!isPlainObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) {
      if (stack.includes(ref)) {
        recursive.add(ref);
        return { $ref: `#/$defs/${defName(ref)}` };
      }
      stack.push(ref);
      const target = convert(resolvePointer(document, ref));
      stack.pop();
      if (recursive.has(ref) && !defs.has(ref)) defs.set(ref, target);
      const { $ref: _ignored, ...siblings } = node;
      const rest = convertKeywords(siblings);
      return isPlainObject(target) ? { ...target, ...rest } : Object.keys(rest).length > 0 ? { allOf: [target], ...rest } : target;
    }
    return convertKeywords(node);
  };

  const convertKeywords = (node: JsonObject): JsonObject => {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (OAS_ONLY_KEYWORDS.has(key) || key.startsWith('x-')) continue;
      if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
      } else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
        out[key] = value.map((v) => convert(v));
      } else if (SCHEMA_KEYWORDS.has(key)) {
        out[key] = convert(value);
      } else {
        out[key] = value;
      }
    }
    return out;
  };

  const converted = convert(schema);
  const result: JsonObject = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...(isPlainObject(converted) ? converted : { allOf: [converted] }) };
  if (defs.size > 0) result.$defs = Object.fromEntries([...defs].map(([ref, value]) => [defName(ref), value]));
  return result;
}

// ---------------------------------------------------------------------------
// Helpers

/** A node of a loaded document with its local `$ref`s followed (an empty object when it leads nowhere). */
export function resolveRef(api: LoadedApiDocument, node: unknown): JsonObject {
  return asObject(deref(api.document, node));
}

export function deref(document: JsonObject, node: unknown, seen = new Set<string>()): unknown {
  if (!isPlainObject(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#')) return node;
  if (seen.has(node.$ref)) return undefined;
  seen.add(node.$ref);
  return deref(document, resolvePointer(document, node.$ref), seen);
}

function resolvePointer(document: JsonObject, ref: string): unknown {
  let node: unknown = document;
  for (const segment of pointerSegments(ref.replace(/^#/, ''))) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isPlainObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((s) => safeDecode(s).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Pointers taken from $ref values are URI fragments (percent-encoded); a stray '%' is kept as is. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function formatPointer(segments: readonly string[]): string {
  return `/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}


function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
