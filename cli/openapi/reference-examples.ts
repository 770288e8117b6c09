/**
 * What the server-rendered API reference shows as code, highlighted at build time with
 * the highlighter and shared token classes of the docs' code blocks: the request
 * samples of every operation, the payload examples of webhooks, and the examples and
 * schema fields of every response. Runs before the compile stage, which writes the CSS
 * of every token class used so far.
 */
import { isPlainLang, type BundledLanguage } from 'shiki';
import { cacheSalt } from '../cache-salt.ts';
import type { SiteConfig } from '../config.ts';
import { asObject, asString, isPlainObject, type JsonObject } from '../json.ts';
import { CACHE_SALT, getHighlighter, restoreClasses, THEMES, usedClasses, type CompileCache } from '../stages/compile.ts';
import { openHighlightStore, type HighlightStore } from './highlight-store.ts';
import { collectProperties, describeSchema, resolveRef, type LoadedApiDocument, type OperationSummary } from '../stages/openapi.ts';
import { DATA } from '../../templates/shared/index.ts';
import { mediaExample } from './example-request.ts';
import { requestSamplesByOperation } from './request-samples.ts';

export interface HighlightedExample {
  /** Tab value: a sample's language id, or an example's name. */
  id: string;
  label: string;
  /** The code as written, for tests and the Markdown twin. */
  code: string;
  /** A complete code block (highlighted <pre> and copy button). */
  html: string;
  /** For request samples: the language of the code (its fence in the Markdown twin). */
  language?: string;
  /** For request samples: the httpsnippet target and client, which Elements' x-codeSamples name. */
  target?: string;
  client?: string;
}

export interface SchemaField {
  name: string;
  required: boolean;
  type: string;
  description: string;
}

export interface OperationExamples {
  /** Request samples, one per language; none for webhooks. */
  samples: HighlightedExample[];
  /** Named examples of the request body: a webhook's payloads. */
  payloads: HighlightedExample[];
  responseDetails: { status: string; contentType?: string; schemaName?: string; fields: SchemaField[]; examples: HighlightedExample[] }[];
}

/** By API id, then by operationId. */
export type ApiExamples = ReadonlyMap<string, ReadonlyMap<string, OperationExamples>>;

export async function highlightApiExamples(apis: readonly LoadedApiDocument[], config: SiteConfig, cache: CompileCache): Promise<ApiExamples> {
  const store = await openHighlightStore(cache.diskDir, STORE_SALT);
  const highlight = codeHighlighter(cache, store);
  const out = new Map<string, Map<string, OperationExamples>>();
  for (const api of apis) {
    const ref = config.apiReferences.find((r) => r.id === api.id);
    const samples = requestSamplesByOperation(api, { sandbox: ref?.sandboxServer });
    const byOperation = new Map<string, OperationExamples>();
    for (const op of api.operations) {
      const raw = rawOperation(api, op);
      byOperation.set(op.operationId, {
        samples: await Promise.all((samples.get(op.operationId) ?? []).map(async (s) => ({ id: s.id, label: s.label, code: s.code, language: s.language, target: s.target, client: s.client, html: await highlight(s.language, s.code) }))),
        payloads: op.kind === 'webhook' ? await namedExamples(api, asObject(resolveRef(api, raw.requestBody).content), highlight) : [],
        responseDetails: await Promise.all(
          Object.entries(asObject(raw.responses)).map(async ([status, rawResponse]) => {
            const content = asObject(resolveRef(api, rawResponse).content);
            const media = jsonMedia(content);
            const schemaRef = asString(asObject(asObject(media?.media).schema).$ref);
            return {
              status,
              ...(media ? { contentType: media.type } : {}),
              ...(schemaRef ? { schemaName: schemaRef.split('/').pop() } : {}),
              fields: media ? schemaFields(api, asObject(media.media).schema) : [],
              examples: await namedExamples(api, content, highlight),
            };
          }),
        ),
      });
    }
    out.set(api.id, byOperation);
  }
  await store.save();
  return out;
}

type Highlight = (language: string, code: string) => Promise<string>;

/** Kept code is valid for the highlighter that made it (the compile cache's salt) and the options this file gives it. */
const STORE_SALT = cacheSalt({ salts: [CACHE_SALT], files: ['cli/openapi/reference-examples.ts'] });

function codeHighlighter(cache: CompileCache, store: HighlightStore): Highlight {
  return async (language, code) => {
    // Keyed apart from the docs' code blocks, which also apply the meta and notation transformers.
    const key = `api\0${language}\0${code}`;
    let html = cache.code.get(key);
    if (html === undefined) {
      const stored = store.get(language, code);
      if (stored) {
        restoreClasses(cache, stored.classes);
        html = stored.html;
      } else {
        // Only now: a build whose code is all stored does not load Shiki for it.
        const highlighter = await getHighlighter(cache);
        if (!isPlainLang(language) && !highlighter.getLoadedLanguages().includes(language)) await highlighter.loadLanguage(language as BundledLanguage);
        html = highlighter.codeToHtml(code, { lang: language, themes: THEMES, defaultColor: 'light', transformers: [cache.styleToClass], tokenizeTimeLimit: 0 });
      }
      cache.code.set(key, html);
    }
    store.keep(language, code, html, usedClasses(cache, html));
    // The markup of the docs' code blocks (cli/mdx/rehype-code-blocks.ts), so their styles and copy button apply.
    return (
      `<div class="code-block language-${language}"><div class="code-block__body"><div class="code-block__pre">${html}</div>` +
      `<button type="button" class="code-block__copy" ${DATA.copy}="" aria-label="Copy code to clipboard" title="Copy"><span class="code-block__copy-label">Copy</span></button></div></div>`
    );
  };
}

function rawOperation(api: LoadedApiDocument, op: OperationSummary): JsonObject {
  const group = asObject(api.document[op.kind === 'webhook' ? 'webhooks' : 'paths']);
  return resolveRef(api, resolveRef(api, group[op.path])[op.method.toLowerCase()]);
}

function jsonMedia(content: JsonObject): { type: string; media: unknown } | undefined {
  const type = Object.keys(content).find((t) => /[/+]json$/.test(t)) ?? Object.keys(content)[0];
  return type === undefined ? undefined : { type, media: content[type] };
}

/** Every named example of the media type, or its single example, as pretty JSON. */
async function namedExamples(api: LoadedApiDocument, content: JsonObject, highlight: Highlight): Promise<HighlightedExample[]> {
  const media = jsonMedia(content);
  if (!media) return [];
  const mediaObject = asObject(media.media);
  const named = Object.entries(asObject(mediaObject.examples)).map(([name, raw]) => {
    const example = resolveRef(api, raw);
    return { id: name, label: asString(example.summary) || name, value: example.value };
  });
  const single = mediaExample(api, mediaObject);
  const examples = named.length > 0 ? named : single === undefined ? [] : [{ id: 'example', label: 'Example', value: single }];
  return Promise.all(
    examples
      .filter((e) => e.value !== undefined)
      .map(async (e) => {
        const json = /json$/.test(media.type);
        const code = json || typeof e.value !== 'string' ? JSON.stringify(e.value, null, 2) : e.value;
        return { id: e.id, label: e.label, code, html: await highlight(json ? 'json' : 'text', code) };
      }),
  );
}

/** The top-level properties of a response schema (items of an array schema). */
function schemaFields(api: LoadedApiDocument, raw: unknown): SchemaField[] {
  let schema = resolveRef(api, raw);
  if (schema.type === 'array') schema = resolveRef(api, schema.items);
  const { properties, required } = collectProperties(api.document, schema);
  return Object.entries(properties).map(([name, prop]) => ({
    name,
    required: required.has(name),
    type: describeSchema(api.document, prop),
    description: asString(resolveRef(api, prop).description || (isPlainObject(prop) ? prop.description : '')).trim(),
  }));
}
