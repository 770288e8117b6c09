/**
 * An API reference page's Markdown twin, from the loaded OpenAPI document: every
 * operation (method and path, summary, description, parameters, request body, request
 * samples, responses with their examples, errors) and every webhook, grouped by tag as
 * on the page.
 */
import type { Heading, PhrasingContent, Root, RootContent, Table, TableRow } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { operationAnchor } from '../../templates/shared/api-reference.ts';
import { asObject, asString, type JsonObject } from '../json.ts';
import { deref, type LoadedApiDocument, type OperationParameter, type OperationSummary } from '../stages/openapi.ts';
import { mdxToMdast } from './mdx-to-mdast.ts';
import { bulletList, link, twinDocument } from './write-markdown.ts';

/** One request sample of an operation, in one language. */
export interface RequestSample {
  /** Fence language, e.g. 'bash', 'python'. */
  language: string;
  /** What the reader calls it, e.g. 'curl', 'Python (requests)'. */
  label: string;
  code: string;
}

export interface ApiTwinInput {
  api: LoadedApiDocument;
  /** The page: its route, title and description from the site config. */
  page: { route: string; title: string; description: string };
  /** Files offered for download on the page, root-absolute. */
  downloads: readonly { label: string; href: string }[];
  siteUrl: string;
  /** Request samples of an operation, when the site has them. */
  samplesFor?: (operationId: string) => readonly RequestSample[];
}

export function apiTwin(input: ApiTwinInput): string {
  const { api, page } = input;
  const siteUrl = input.siteUrl.replace(/\/+$/, '');
  const context: Ctx = { ...input, siteUrl };
  const body: RootContent[] = [
    ...markdownBlocks(api.description, context, 1),
    paragraph([text(`Version ${api.version}.`)]),
    heading(2, 'Servers'),
    bulletList(api.servers.map((s) => [inlineCode(s.url), text(s.description ? ` (${s.description})` : '')])),
    heading(2, 'Downloads'),
    bulletList(input.downloads.map((d) => [link(`${siteUrl}${d.href}`, d.label)])),
  ];
  const byTag = new Map<string, OperationSummary[]>();
  for (const op of api.operations) {
    const tag = op.kind === 'webhook' ? op.tags[0] ?? 'Webhooks' : op.tags[0] ?? 'Other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  for (const [tag, operations] of byTag) {
    body.push(heading(2, tag));
    const description = api.tags.find((t) => t.name === tag)?.description;
    if (description) body.push(...markdownBlocks(description, context, 2));
    for (const op of operations) body.push(...operation(op, context));
  }
  return twinDocument(page.title, page.description, body);
}

type Ctx = ApiTwinInput & { siteUrl: string };

function operation(op: OperationSummary, context: Ctx): RootContent[] {
  const raw = rawOperation(context.api.document, op);
  const anchor = `${context.siteUrl}${context.page.route}#${operationAnchor(op)}`;
  const out: RootContent[] = [
    heading(3, op.summary),
    paragraph([
      inlineCode(`${op.kind === 'webhook' ? 'WEBHOOK' : op.method} ${op.path}`),
      text(' · operation '),
      inlineCode(op.operationId),
      text(' · '),
      { type: 'link', url: anchor, children: [text('on the page')] },
    ]),
  ];
  if (op.servers?.length) out.push(paragraph([text('Server: '), ...op.servers.flatMap((url, i) => [...(i ? [text(', ')] : []), inlineCode(url)])]));
  if (op.description) out.push(...markdownBlocks(op.description, context, 3));
  if (op.parameters.length > 0) {
    out.push(
      label('Parameters'),
      table(['Name', 'In', 'Type', 'Required', 'Description'], op.parameters.map((p: OperationParameter) => [[inlineCode(p.name)], [text(p.in)], [inlineCode(p.type)], [text(p.required ? 'yes' : 'no')], inlineMarkdown(p.description, context)])),
    );
  }
  if (op.requestBody) {
    out.push(label(`${op.kind === 'webhook' ? 'Payload' : 'Request body'} (${op.requestBody.contentType})`));
    if (op.requestBody.fields.length > 0) {
      out.push(table(['Field', 'Type', 'Required', 'Description'], op.requestBody.fields.map((f) => [[inlineCode(f.name)], [inlineCode(f.type)], [text(f.required ? 'yes' : 'no')], inlineMarkdown(f.description, context)])));
    }
    out.push(...examples(asObject(deref(context.api.document, raw.requestBody)).content, context.api.document));
  }
  const samples = op.kind === 'operation' ? context.samplesFor?.(op.operationId) ?? [] : [];
  if (samples.length > 0) {
    out.push(label('Request samples'));
    for (const sample of samples) out.push(paragraph([strong(sample.label)]), { type: 'code', lang: sample.language, meta: null, value: sample.code });
  }
  const responses = asObject(raw.responses);
  const ok = op.responses.filter((r) => !isError(r.status));
  const errors = op.responses.filter((r) => isError(r.status));
  for (const [title, group] of [['Responses', ok], ['Errors', errors]] as const) {
    if (group.length === 0) continue;
    out.push(label(title));
    for (const response of group) {
      out.push(paragraph([strong(response.status), ...(response.description ? [text(' '), ...inlineMarkdown(response.description, context)] : [])]));
      out.push(...examples(asObject(deref(context.api.document, responses[response.status])).content, context.api.document));
    }
  }
  return out;
}

function isError(status: string): boolean {
  return /^[45]/.test(status) || status === 'default';
}

/** The operation object itself, for what the summary leaves out (examples). */
function rawOperation(document: JsonObject, op: OperationSummary): JsonObject {
  const container = asObject(document[op.kind === 'webhook' ? 'webhooks' : 'paths']);
  const item = asObject(deref(document, container[op.path]));
  return asObject(item[op.method.toLowerCase()]);
}

/** Every example of a content map (`examples` and `example`), as code blocks led by their summary. */
function examples(content: unknown, document: JsonObject): RootContent[] {
  const out: RootContent[] = [];
  for (const [type, rawMedia] of Object.entries(asObject(content))) {
    const media = asObject(rawMedia);
    const lang = (value: unknown) => (typeof value !== 'string' || /json/.test(type) ? 'json' : /xml/.test(type) ? 'xml' : 'text');
    const named = Object.entries(asObject(media.examples)).map(([name, raw]) => {
      const example = asObject(deref(document, raw));
      return { title: asString(example.summary) || name, value: example.value };
    });
    if (media.example !== undefined) named.push({ title: '', value: media.example });
    for (const { title, value } of named) {
      if (value === undefined) continue;
      if (title) out.push(paragraph([emphasis(title)]));
      out.push({ type: 'code', lang: lang(value), meta: null, value: typeof value === 'string' ? value : JSON.stringify(value, null, 2) });
    }
  }
  return out;
}

/** Markdown from the document (CommonMark + GFM), its headings kept below `under`, its links absolute. */
function markdownBlocks(source: string, context: Ctx, under: number): RootContent[] {
  const parsed = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const tree: Root = mdxToMdast(parsed, { siteUrl: context.siteUrl, route: context.page.route });
  return tree.children.map((node) => (node.type === 'heading' ? { ...node, depth: Math.min(6, node.depth + under) as Heading['depth'] } : node));
}

/** A description as one line of phrasing, for a table cell or a status line: its paragraphs joined. */
function inlineMarkdown(source: string, context: Ctx): PhrasingContent[] {
  const blocks = markdownBlocks(source, context, 0);
  return blocks.flatMap((block, i): PhrasingContent[] => {
    const phrasing: PhrasingContent[] = block.type === 'paragraph' || block.type === 'heading' ? block.children : [text(toString(block))];
    const joined = phrasing.map((node) => (node.type === 'text' ? { ...node, value: node.value.replace(/\s+/g, ' ') } : node));
    return i === 0 ? joined : [text(' '), ...joined];
  });
}

function text(value: string): PhrasingContent {
  return { type: 'text', value };
}
function inlineCode(value: string): PhrasingContent {
  return { type: 'inlineCode', value };
}
function strong(value: string): PhrasingContent {
  return { type: 'strong', children: [text(value)] };
}
function emphasis(value: string): PhrasingContent {
  return { type: 'emphasis', children: [text(value)] };
}
function paragraph(children: PhrasingContent[]): RootContent {
  return { type: 'paragraph', children };
}
function heading(depth: Heading['depth'], value: string): Heading {
  return { type: 'heading', depth, children: [text(value)] };
}
function label(value: string): RootContent {
  return paragraph([strong(value)]);
}
function table(head: string[], rows: PhrasingContent[][][]): Table {
  const row = (cells: PhrasingContent[][]): TableRow => ({ type: 'tableRow', children: cells.map((children) => ({ type: 'tableCell', children })) });
  return { type: 'table', align: head.map(() => null), children: [row(head.map((h) => [text(h)])), ...rows.map(row)] };
}

