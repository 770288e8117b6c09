/**
 * Stage: the full-text search index, built from the rendered pages (so search sees
 * exactly what readers see) and from the OpenAPI operations (so an operation is found
 * by its summary, method, path and operationId and opens its deep link).
 *
 * Doc pages and blog posts are split at their h2/h3 headings into records, so a hit
 * links to its section. Words are folded (templates/shared/search-analyze.ts, shared
 * with the browser) and stemmed in the site's content language
 * (templates/shared/search-language.ts), which the meta names so the browser reads
 * queries the same way. The index is sharded by the first three letters
 * of each word form, and the text for excerpts is cut into small passages, so a query
 * downloads a few kilobytes however large the site grows. See
 * templates/client/search/format.ts for the files.
 */
import { withBase } from '../../templates/shared/base-url.ts';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Parser, type Handler } from 'htmlparser2';
import type { SiteConfig } from '../config.ts';
import type { Progress } from '../log.ts';
import { DocsgenError } from '../errors.ts';
import { operationAnchor } from '../../templates/shared/api-reference.ts';
import { shardBucket, shardKey, wordTokens, words } from '../../templates/shared/search-analyze.ts';
import { loadAnalyzer, SEARCH_LANGUAGES, searchLanguageOf, type SearchAnalyzer } from '../../templates/shared/search-language.ts';
import {
  BM25,
  IMPACT_SCALE,
  MAX_PASSAGES,
  SEARCH_FORMAT_VERSION,
  SEARCH_META_PATH,
  LATER_FILE_CHARS,
  PAGE_FILE_CHARS,
  encodePostings,
  laterFileName,
  pageFileName,
  type LaterPassageFile,
  type PagePassageFile,
  type Posting,
  type SearchKind,
  type SearchMeta,
  type SearchPassage,
  type SearchShard,
} from '../../templates/shared/search-format.ts';
import type { OutputAsset } from './bundle.ts';
import type { LoadedApiDocument } from './openapi.ts';
import type { PageKind, RenderedPage } from './render.ts';

/**
 * How each place a word appears in counts. `weight` multiplies its count for BM25,
 * whose term-frequency part saturates at k1 + 1 (2.2); `bonus` is added after, in the
 * same units and unsaturated, so a word in a page title or an operation's path ranks
 * the page above others that merely use the word often, and a page title above a
 * section heading (as documentation search usually ranks). A title's bonus is shared
 * out among its words (divided by the square root of their number): a query equal to
 * a short title wins.
 */
export const FIELDS = {
  /** The page title, on the record for the top of the page. */
  pageTitle: { weight: 1, bonus: 2.4, shared: true },
  /** The page title, on each of its sections: a query naming the page and a topic finds the section. */
  sectionTitle: { weight: 1, bonus: 0, shared: false },
  heading: { weight: 3, bonus: 0.3, shared: true },
  /** The h2 above an h3 section. */
  parentHeading: { weight: 1, bonus: 0, shared: false },
  /** An operation's method, path and operationId. */
  apiCode: { weight: 2, bonus: 1, shared: false },
  apiSummary: { weight: 3, bonus: 1.2, shared: true },
  body: { weight: 1, bonus: 0, shared: false },
} as const;

export type FieldName = keyof typeof FIELDS;

/** Characters per passage of text fetched for an excerpt. */
export const PASSAGE_CHARS = 320;

/** Page kinds worth a search result; lists, archives and tag pages only repeat posts. */
const INDEXED_KINDS: Partial<Record<PageKind, SearchKind>> = { doc: 'doc', post: 'blog', api: 'api', page: 'page' };

export interface SearchField {
  text: string;
  field: FieldName;
}

/** One search result target: the top of a page, one of its sections, or one API operation. */
export interface SearchRecord {
  heading: string;
  /** Element id on the page, without '#'; '' for the top. */
  anchor: string;
  /** Plain text: indexed as body text, and the source of excerpts. */
  text: string;
  /** Other text indexed for the record (title, headings, operation path), with its weight. */
  fields: SearchField[];
}

export interface SearchPage {
  url: string;
  title: string;
  kind: SearchKind;
  /** RenderedPage.section: shown beside the title, to tell pages of the same title apart. */
  section?: string;
  records: SearchRecord[];
}

export interface SearchIndexInput {
  pages: readonly RenderedPage[];
  apis: readonly LoadedApiDocument[];
}

export interface SearchIndexData {
  meta: SearchMeta;
  /** By bucket number. */
  shards: SearchShard[];
  /** By record, then passage. */
  passages: PassagesByRecord;
}

export interface SearchIndexResult {
  /** Made as they are taken (indexFileStream()); each pass makes them afresh. */
  files: Iterable<OutputAsset>;
  pages: number;
  records: number;
  stems: number;
}

/**
 * What the index keeps between builds of one build session. A page's records depend on
 * its HTML alone, and watch mode keeps the RenderedPage of every page it did not render
 * again, so only the edited page is read again; the same holds for an API document, kept
 * while its files are unchanged, and for a record's counts.
 */
export interface SearchIndexCache {
  /** The analyzer of the config's language; a change of language drops the counts made with the old one. */
  analyzer?: SearchAnalyzer;
  /** The language tag already warned about, so an unknown language is reported once per build session. */
  warnedLanguage?: string;
  /** wordTokens() by written word: folding with Unicode regular expressions was most of the stage. */
  tokens: Map<string, string[]>;
  recordsOfPage: WeakMap<RenderedPage, SearchRecord[]>;
  recordsOfApi: WeakMap<LoadedApiDocument, { title: string; records: SearchRecord[] }>;
  countsOfRecord: WeakMap<SearchRecord, RecordCounts>;
  /** The terms and word forms the counts are numbered by. */
  dictionary: TermDictionary;
}

export function createSearchIndexCache(): SearchIndexCache {
  return { tokens: new Map(), recordsOfPage: new WeakMap(), recordsOfApi: new WeakMap(), countsOfRecord: new WeakMap(), dictionary: { ids: new Map(), names: [] } };
}

export interface SearchIndexOptions {
  /** Kept by the build session; default a cache of this build alone. */
  cache?: SearchIndexCache;
  progress?: Progress;
  /** Awaited at every pause: watch mode lets its server answer the pages being reloaded first. */
  yieldTo?: () => Promise<void>;
  /** Stops the work at the next pause (watch mode: a newer build supersedes it). */
  signal?: AbortSignal;
  /** Where a warning goes (the build's logger). */
  warn?: (message: string) => void;
}

export async function buildSearchIndex(input: SearchIndexInput, config: SiteConfig, options: SearchIndexOptions = {}): Promise<SearchIndexResult> {
  const pause = timeSlicer(undefined, options.yieldTo, options.signal);
  const cache = options.cache ?? createSearchIndexCache();
  const analyzer = await searchAnalyzer(config, cache, options.warn);
  const pages = await collectSearchPages(input, config, pause, cache, options.progress);
  const data = await buildIndexData(pages, analyzer, pause, cache);
  const stems = new Set(data.shards.flatMap((shard) => Object.keys(shard))).size;
  if (pause.due()) await pause();
  return { files: indexFileStream(data, config.baseUrl), pages: pages.length, records: data.passages.length, stems };
}

/** Awaited between pieces of work when due(): see timeSlicer(). */
export interface Pause {
  (): Promise<void>;
  due(): boolean;
}

/**
 * Gives the event loop a turn every few milliseconds. Watch mode builds the index while
 * its server answers the browsers that are reloading the edited page; a stage that held
 * the loop for a tenth of a second would hold their requests as long.
 */
export function timeSlicer(sliceMs = 4, yieldTo?: () => Promise<void>, signal?: AbortSignal): Pause {
  let since = performance.now();
  const pause = (async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await yieldTo?.();
    signal?.throwIfAborted();
    since = performance.now();
  }) as Pause;
  pause.due = () => performance.now() - since >= sliceMs;
  return pause;
}

// ------------------------------------------------------------------ language

/**
 * The analyzer of the site's content language (`contentLanguage`, else `locale.code`).
 * A language search has no stemmer for is searched folded, unstemmed, and said once.
 */
async function searchAnalyzer(config: SiteConfig, cache: SearchIndexCache, warn?: (message: string) => void): Promise<SearchAnalyzer> {
  const tag = config.contentLanguage ?? config.locale.code;
  const language = searchLanguageOf(tag);
  if (language === undefined && cache.warnedLanguage !== tag) {
    cache.warnedLanguage = tag;
    warn?.(
      `search has no stemmer for the content language '${tag}' (contentLanguage in ${path.basename(config.configFile)}, else locale.code): ` +
        `words are matched with accents folded, without stemming. Languages with stemming: ${SEARCH_LANGUAGES.join(', ')}.`,
    );
  }
  if (!cache.analyzer || cache.analyzer.language !== language) {
    cache.analyzer = await loadAnalyzer(language);
    cache.countsOfRecord = new WeakMap();
  }
  return cache.analyzer;
}

// ------------------------------------------------------------------ records

/** The pages search covers, split into records. */
export async function collectSearchPages(
  input: SearchIndexInput,
  config: SiteConfig,
  pause = timeSlicer(),
  cache = createSearchIndexCache(),
  progress?: Progress,
): Promise<SearchPage[]> {
  const { recordsOfPage, recordsOfApi } = cache;
  const out: SearchPage[] = [];
  for (const [index, page] of input.pages.entries()) {
    progress?.(index, input.pages.length);
    if (pause.due()) await pause();
    const kind = INDEXED_KINDS[page.kind];
    if (!kind || !page.indexable) continue;
    if (page.kind === 'api') {
      const ref = config.apiReferences.find((r) => r.route === page.route);
      const api = ref && input.apis.find((a) => a.id === ref.id);
      if (!api) {
        throw new DocsgenError(`Search: the API reference page ${page.route} has no loaded OpenAPI document.`, {
          hint: 'Every entry of apiReferences in site.config.ts needs a spec that loads; check its id and spec path.',
        });
      }
      let known = recordsOfApi.get(api);
      if (known?.title !== page.title) recordsOfApi.set(api, (known = { title: page.title, records: apiRecords(api, page.title) }));
      out.push({ url: page.route, title: page.title, kind, records: known.records });
      continue;
    }
    try {
      let records = recordsOfPage.get(page);
      if (!records) {
        records = htmlRecords(page.html, page.title);
        recordsOfPage.set(page, records);
      }
      out.push({ url: page.route, title: page.title, kind, ...(page.section ? { section: page.section } : {}), records });
    } catch (error) {
      throw new DocsgenError(`Search: could not read the text of ${page.route}: ${error instanceof Error ? error.message : String(error)}`, {
        file: page.sourceFile,
        hint: 'The rendered HTML of this page could not be parsed; check that the page renders valid markup.',
        cause: error,
      });
    }
  }
  return out;
}

/** Records of an API reference page: its introduction, then one per operation and webhook. */
export function apiRecords(api: LoadedApiDocument, pageTitle: string): SearchRecord[] {
  const intro = plainMarkdown(api.description.split('\n\n')[0] ?? '');
  const records: SearchRecord[] = [
    {
      heading: '',
      anchor: '',
      text: intro,
      fields: [
        { text: pageTitle, field: 'pageTitle' },
        { text: api.title, field: 'heading' },
      ],
    },
  ];
  for (const op of api.operations) {
    const method = op.kind === 'webhook' ? 'WEBHOOK' : op.method;
    const description = plainMarkdown(op.description);
    const details = [
      ...op.parameters.map((p) => `${p.name} ${plainMarkdown(p.description)}`),
      ...(op.requestBody?.fields ?? []).map((f) => `${f.name} ${plainMarkdown(f.description)}`),
    ].join(' ');
    records.push({
      heading: `${method} ${op.path} · ${op.summary}`,
      anchor: operationAnchor(op),
      text: [description, details].filter(Boolean).join(' '),
      fields: [
        { text: `${method} ${op.path} ${op.operationId}`, field: 'apiCode' },
        { text: op.summary, field: 'apiSummary' },
        { text: pageTitle, field: 'sectionTitle' },
        { text: op.tags.join(' '), field: 'parentHeading' },
      ],
    });
  }
  return records;
}

/** Markdown punctuation out of OpenAPI descriptions: links keep their text, code its content. */
function plainMarkdown(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*{1,3}([^*]+)\*{1,3}/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

const SKIPPED_TAGS = new Set(['script', 'style', 'svg', 'button', 'template', 'noscript', 'nav', 'h1']);
const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hr', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'td', 'th', 'tr', 'ul',
]);
const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/**
 * A page's readable text split at its h2/h3 headings that have ids. Only the content
 * is read (the `.markdown` body, or `<main>` for pages without one), never the chrome.
 */
export function htmlRecords(html: string, pageTitle: string): SearchRecord[] {
  const reader = recordsReader(html, pageTitle);
  const parser = new Parser(reader.handler, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return reader.records();
}

/** Whether search reads the text of this page (API pages are indexed from their OpenAPI document instead). */
export function hasSearchText(page: RenderedPage): boolean {
  return page.indexable && page.kind !== 'api' && INDEXED_KINDS[page.kind] !== undefined;
}

/** Parser events that collect htmlRecords() of a page, so one parse can feed several readers (see scan-pages.ts). */
export function recordsReader(html: string, pageTitle: string): { handler: Partial<Handler>; records: () => SearchRecord[] } {
  interface Draft {
    heading: string;
    anchor: string;
    parentHeading: string;
    body: string;
  }
  const drafts: Draft[] = [{ heading: '', anchor: '', parentHeading: '', body: '' }];
  const hasMarkdown = /<div[^>]*\sclass="(?:[^"]*\s)?markdown[\s"]/.test(html);
  const stack: { container: boolean; skip: boolean; heading: boolean }[] = [];
  let inContainer = 0;
  let skipping = 0;
  let heading: { level: number; id: string; text: string } | null = null;
  let lastH2 = '';
  let done = false;

  const current = () => drafts[drafts.length - 1]!;
  const handler: Partial<Handler> = {
    onopentag(name, attribs) {
      if (done) return;
      const classes = (attribs.class ?? '').split(/\s+/);
      const isContainer = inContainer === 0 && (hasMarkdown ? name === 'div' && classes.includes('markdown') : name === 'main');
      // Hidden tab panels stay: their code samples are worth finding.
      const skip = inContainer > 0 && (SKIPPED_TAGS.has(name) || classes.includes('hash-link') || attribs['aria-hidden'] === 'true');
      const isHeading = inContainer > 0 && skipping === 0 && !skip && (name === 'h2' || name === 'h3') && Boolean(attribs.id);
      if (VOID_TAGS.has(name)) {
        if (inContainer > 0 && skipping === 0 && BLOCK_TAGS.has(name)) current().body += ' ';
        return;
      }
      stack.push({ container: isContainer, skip, heading: isHeading });
      if (isContainer) inContainer++;
      if (skip) skipping++;
      if (isHeading) heading = { level: name === 'h2' ? 2 : 3, id: attribs.id!, text: '' };
      else if (inContainer > 0 && skipping === 0 && BLOCK_TAGS.has(name)) {
        if (heading) heading.text += ' ';
        else current().body += ' ';
      }
      if (name === 'span' && classes.includes('line') && !heading) current().body += ' ';
    },
    ontext(text) {
      if (done || inContainer === 0 || skipping > 0) return;
      if (heading) heading.text += text;
      else current().body += text;
    },
    onclosetag(name) {
      if (done || VOID_TAGS.has(name)) return;
      const open = stack.pop();
      if (!open) return;
      if (open.heading && heading) {
        const text = collapse(heading.text);
        if (heading.level === 2) lastH2 = text;
        drafts.push({ heading: text, anchor: heading.id, parentHeading: heading.level === 3 ? lastH2 : '', body: '' });
        heading = null;
      }
      if (open.skip) skipping--;
      if (open.container) {
        inContainer--;
        // Only the first content container counts (a page has one).
        if (inContainer === 0) done = true;
      } else if (inContainer > 0 && skipping === 0 && BLOCK_TAGS.has(name)) current().body += ' ';
    },
  };

  const records = () => drafts.map((draft, index) => {
    const body = collapse(draft.body);
    const fields: SearchField[] = [
      { text: pageTitle, field: index === 0 ? 'pageTitle' : 'sectionTitle' },
      { text: draft.heading, field: 'heading' },
      { text: draft.parentHeading, field: 'parentHeading' },
    ];
    return { heading: draft.heading, anchor: draft.anchor, text: body, fields: fields.filter((f) => f.text) };
  });
  return { handler, records };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Where each passage of a text starts and ends: about PASSAGE_CHARS long, cut after a sentence or at a space. */
export function passageBounds(text: string, size = PASSAGE_CHARS): [start: number, end: number][] {
  const bounds: [number, number][] = [];
  let start = 0;
  while (start < text.length && bounds.length < MAX_PASSAGES) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const window = text.slice(start, end);
      const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('; '), window.lastIndexOf(': '));
      const space = window.lastIndexOf(' ');
      if (sentence > size / 2) end = start + sentence + 1;
      else if (space > size / 2) end = start + space;
    }
    bounds.push([start, end]);
    start = end;
    while (text[start] === ' ') start++;
  }
  if (bounds.length === 0) bounds.push([0, 0]);
  return bounds;
}

/**
 * What one record adds to the index, apart from its share of the collection's
 * statistics: numbers in one buffer (read through countsOf()), terms and word forms as
 * numbers of the build session's dictionary (see TermDictionary), passages as offsets
 * into the record's text. A large site has hundreds of thousands of records: their
 * strings, Maps and number arrays were most of the build's peak memory, and then a typed
 * array per list (six per record) still cost more than the numbers they held.
 */
interface RecordCounts {
  /** Weights and bonuses (float64), then terms, forms and bounds (uint32), then first passages (uint8); see countsOf(). */
  buffer: ArrayBuffer;
  terms: number;
  /** Length of the `forms` list (two numbers per pair). */
  forms: number;
  /** Length of the `bounds` list (two numbers per passage). */
  bounds: number;
  /** Terms in the text and heading, for length normalisation. */
  length: number;
}

/** The lists of a record's counts, as views of its buffer. */
interface CountLists {
  /** Dictionary numbers of the record's terms. */
  terms: Uint32Array;
  /** Weighted count of each term. */
  weights: Float64Array;
  bonuses: Float64Array;
  /** The passage where each term of the text first appears (0 for terms only in titles and headings). */
  firstPassage: Uint8Array;
  /** (term index in `terms`, dictionary number of a word form found in the record) pairs. */
  forms: Uint32Array;
  /** Start and end of each passage in the record's text, one pair after the other. */
  bounds: Uint32Array;
}

function countsOf(counts: RecordCounts): CountLists {
  const { buffer, terms: n, forms: m, bounds: b } = counts;
  // Widest first, so every view starts at a multiple of its element size.
  const weights = new Float64Array(buffer, 0, n);
  const bonuses = new Float64Array(buffer, 8 * n, n);
  const terms = new Uint32Array(buffer, 16 * n, n);
  const forms = new Uint32Array(buffer, 20 * n, m);
  const bounds = new Uint32Array(buffer, 20 * n + 4 * m, b);
  const firstPassage = new Uint8Array(buffer, 20 * n + 4 * m + 4 * b, n);
  return { terms, weights, bonuses, firstPassage, forms, bounds };
}

function packCounts(lists: { terms: readonly number[]; weights: readonly number[]; bonuses: readonly number[]; firstPassage: readonly number[]; forms: readonly number[]; bounds: readonly number[] }, length: number): RecordCounts {
  const n = lists.terms.length;
  const counts: RecordCounts = { buffer: new ArrayBuffer(21 * n + 4 * lists.forms.length + 4 * lists.bounds.length), terms: n, forms: lists.forms.length, bounds: lists.bounds.length, length };
  const views = countsOf(counts);
  views.weights.set(lists.weights);
  views.bonuses.set(lists.bonuses);
  views.terms.set(lists.terms);
  views.forms.set(lists.forms);
  views.bounds.set(lists.bounds);
  views.firstPassage.set(lists.firstPassage);
  return counts;
}

/**
 * Terms and word forms by number, so each string is held once for the whole index
 * rather than once per record that uses it. Owned by the build session's cache: numbers
 * kept in counted records stay valid from one build to the next.
 */
export interface TermDictionary {
  ids: Map<string, number>;
  names: string[];
}

function termId(dictionary: TermDictionary, name: string): number {
  let id = dictionary.ids.get(name);
  if (id === undefined) {
    id = dictionary.names.push(name) - 1;
    dictionary.ids.set(name, id);
  }
  return id;
}

function countRecord(rec: SearchRecord, analyzer: SearchAnalyzer, tokens: Map<string, string[]>, dictionary: TermDictionary): RecordCounts {
  const bounds = passageBounds(rec.text);
  const counts = { weights: new Map<number, number>(), bonuses: new Map<number, number>(), firstPassage: new Map<number, number>(), forms: new Map<number, Set<number>>(), length: 0 };
  const passageAt = (offset: number) => {
    let i = 0;
    while (i < bounds.length - 1 && offset >= bounds[i + 1]![0]) i++;
    return i;
  };
  /** Indexes one field; returns its number of terms. */
  const add = (text: string, field: FieldName, withPassages: boolean) => {
    const found: number[] = [];
    for (const word of words(text)) {
      let forms = tokens.get(word.text);
      if (!forms) tokens.set(word.text, (forms = wordTokens(word.text)));
      for (const token of forms) {
        if (analyzer.isStopword(token)) continue;
        const term = termId(dictionary, analyzer.stem(token));
        found.push(term);
        if (withPassages && !counts.firstPassage.has(term)) counts.firstPassage.set(term, passageAt(word.start));
        let set = counts.forms.get(term);
        if (!set) counts.forms.set(term, (set = new Set()));
        set.add(termId(dictionary, token));
      }
    }
    const { weight, bonus, shared } = FIELDS[field];
    const share = shared ? bonus / Math.sqrt(Math.max(1, new Set(found).size)) : bonus;
    for (const term of found) counts.weights.set(term, (counts.weights.get(term) ?? 0) + weight);
    if (share > 0) for (const term of new Set(found)) counts.bonuses.set(term, (counts.bonuses.get(term) ?? 0) + share);
    return found.length;
  };
  // Length normalisation looks at what the reader sees: the text and the heading.
  counts.length = add(rec.text, 'body', true);
  for (const field of rec.fields) {
    const length = add(field.text, field.field, false);
    if (field.text === rec.heading) counts.length += length;
  }
  const terms = [...counts.weights.keys()];
  const forms: number[] = [];
  terms.forEach((term, i) => {
    for (const form of counts.forms.get(term)!) forms.push(i, form);
  });
  return packCounts(
    {
      terms,
      weights: terms.map((term) => counts.weights.get(term)!),
      bonuses: terms.map((term) => counts.bonuses.get(term) ?? 0),
      firstPassage: terms.map((term) => counts.firstPassage.get(term) ?? 0),
      forms,
      bounds: bounds.flat(),
    },
    Math.max(1, counts.length),
  );
}

/** The passages of a record, as the files hold them: made from its text when a file is made, not kept. */
function recordPassages(rec: SearchRecord, bounds: Uint32Array): SearchPassage[] {
  const passages: SearchPassage[] = [];
  for (let i = 0; i < bounds.length; i += 2) {
    const start = bounds[i]!;
    const end = bounds[i + 1]!;
    passages.push({
      h: rec.heading,
      a: rec.anchor,
      t: `${start > 0 ? '… ' : ''}${rec.text.slice(start, end).trim()}${end < rec.text.length ? ' …' : ''}`,
    });
  }
  return passages;
}

/** The index in memory: what the files will hold. */
export async function buildIndexData(pages: readonly SearchPage[], analyzer: SearchAnalyzer, pause = timeSlicer(), cache = createSearchIndexCache()): Promise<SearchIndexData> {
  const { countsOfRecord, dictionary } = cache;
  const counted: { rec: SearchRecord; counts: RecordCounts }[] = [];
  for (const page of pages) {
    for (const rec of page.records) {
      if (pause.due()) await pause();
      let counts = countsOfRecord.get(rec);
      if (!counts) countsOfRecord.set(rec, (counts = countRecord(rec, analyzer, cache.tokens, dictionary)));
      counted.push({ rec, counts });
    }
  }

  // Postings grouped by term in three flat arrays: how many each term has first, then
  // each in its place, in record order (a list per term was a third of the stage's memory).
  const starts = new Uint32Array(dictionary.names.length + 1);
  for (const { counts } of counted) for (const term of countsOf(counts).terms) starts[term + 1]!++;
  for (let term = 0; term < dictionary.names.length; term++) starts[term + 1]! += starts[term]!;
  const total = starts[dictionary.names.length]!;
  const postingRecords = new Uint32Array(total);
  // Weights above 35 are stored as 35 (encodePostings()), so a byte holds every weight that matters.
  const postingWeights = new Uint8Array(total);
  const postingPassages = new Uint8Array(total);
  const filled = starts.slice(0, dictionary.names.length);
  /** Word forms of each term found in the pages, by term number. */
  const forms = new Map<number, Set<number>>();
  const averageLength = counted.reduce((sum, r) => sum + r.counts.length, 0) / Math.max(1, counted.length);
  for (const [record, { counts }] of counted.entries()) {
    if (pause.due()) await pause();
    const { length } = counts;
    const { terms, weights, bonuses, firstPassage, forms: termForms } = countsOf(counts);
    const norm = BM25.k1 * (1 - BM25.b + (BM25.b * length) / averageLength);
    terms.forEach((term, i) => {
      const weight = weights[i]!;
      const impact = IMPACT_SCALE * ((weight * (BM25.k1 + 1)) / (weight + norm) + bonuses[i]!);
      const at = filled[term]!++;
      postingRecords[at] = record;
      postingWeights[at] = Math.min(255, Math.round(impact));
      postingPassages[at] = firstPassage[i]!;
    });
    for (let i = 0; i < termForms.length; i += 2) {
      const term = terms[termForms[i]!]!;
      let set = forms.get(term);
      if (!set) forms.set(term, (set = new Set()));
      set.add(termForms[i + 1]!);
    }
  }

  // A word form's shard is decided by its first three letters; a stem goes into every shard one of its forms falls in.
  const { names } = dictionary;
  const keys = new Set<string>();
  for (const set of forms.values()) for (const form of set) keys.add(shardKey(names[form]!));
  const buckets = bucketCount(keys.size);
  const shards: SearchShard[] = Array.from({ length: buckets }, () => ({}));
  const sorted = [...forms.keys()].sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  for (const [i, term] of sorted.entries()) {
    if (i % 256 === 0 && pause.due()) await pause();
    const termForms = [...forms.get(term)!].map((form) => names[form]!).sort();
    const list: Posting[] = [];
    for (let j = starts[term]!; j < starts[term + 1]!; j++) list.push({ record: postingRecords[j]!, weight: postingWeights[j]!, passage: postingPassages[j]! });
    const encoded = encodePostings(list);
    const entry: [string, string] = [termForms.join(','), encoded];
    for (const form of termForms) shards[shardBucket(shardKey(form), buckets)]![names[term]!] = entry;
  }
  const meta: SearchMeta = {
    version: SEARCH_FORMAT_VERSION,
    base: '',
    pages: pages.map((p) => (p.section ? [p.url, p.title, p.kind, p.section] : [p.url, p.title, p.kind])),
    counts: pages.map((p) => p.records.length),
    buckets,
    ...(analyzer.language ? { language: analyzer.language } : {}),
  };
  return { meta, shards, passages: { length: counted.length, at: (record) => recordPassages(counted[record]!.rec, countsOf(counted[record]!.counts).bounds) } };
}

/** About three prefixes per shard file: a query word then downloads well under a kilobyte. */
function bucketCount(keys: number): number {
  let buckets = 16;
  while (buckets * 3 < keys) buckets *= 2;
  return buckets;
}


const SEARCH_FOLDER = 'assets/search';

/** Where the index's files live in the output: the fixed entry point, and the folder of those named by content. */
export const SEARCH_INDEX_PATHS: { files: readonly string[]; folders: readonly string[] } = { files: [SEARCH_META_PATH], folders: [SEARCH_FOLDER] };

export function isSearchIndexFile(rel: string): boolean {
  return SEARCH_INDEX_PATHS.files.includes(rel) || SEARCH_INDEX_PATHS.folders.some((folder) => rel.startsWith(`${folder}/`));
}

/** Where a file of a search index's folder sits in it ('t/12.json'); undefined for any other file. */
export function placeInSearchFolder(rel: string): string | undefined {
  if (!rel.startsWith(`${SEARCH_FOLDER}/`)) return undefined;
  const slash = rel.indexOf('/', SEARCH_FOLDER.length + 1);
  return slash === -1 ? undefined : rel.slice(slash + 1);
}

/**
 * The passages in files, about one a page (see PagePassageFile in search-format.ts):
 * `counts` is how many records each page has, in record order.
 */
export function passageFiles(passages: PassagesByRecord, counts: readonly number[]): Map<string, PagePassageFile | LaterPassageFile> {
  return new Map(passageFileEntries(passages, counts));
}

/**
 * passageFiles() one page at a time: the files of a large site are made and encoded one
 * by one instead of all held as objects.
 */
function* passageFileEntries(passages: PassagesByRecord, counts: readonly number[]): Generator<[string, PagePassageFile | LaterPassageFile]> {
  let record = 0;
  for (const [page, count] of counts.entries()) {
    const pageFile: PagePassageFile = [];
    const later: LaterPassageFile[] = [];
    let laterChars = 0;
    let used = 0;
    for (let index = 0; index < count; index++, record++) {
      const list = passages.at(record) ?? [];
      const texts = list.map((p) => p.t);
      // Whole records while they fit, then first passages while they fit: a hit shows a
      // record's first passage most often.
      const kept = used + charsOf(texts) <= PAGE_FILE_CHARS ? texts.length : used + charsOf(texts.slice(0, 1)) <= PAGE_FILE_CHARS ? 1 : 0;
      const head = texts.slice(0, kept);
      used += charsOf(head);
      const entry: PagePassageFile[number] = [list[0]?.h ?? '', list[0]?.a ?? '', head];
      const rest = texts.slice(kept);
      if (rest.length > 0) {
        if (later.length === 0 || laterChars + charsOf(rest) > LATER_FILE_CHARS) {
          later.push([]);
          laterChars = 0;
        }
        entry.push([later.length - 1, later.at(-1)!.push(rest) - 1]);
        laterChars += charsOf(rest);
      }
      pageFile.push(entry);
    }
    yield [pageFileName(page), pageFile];
    for (const [file, body] of later.entries()) yield [laterFileName(page, file), body];
  }
}

function charsOf(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + text.length, 0);
}

/**
 * Passages of each record, by record number: an array, or the index's accessor that makes
 * a record's passages from its text when asked.
 */
export interface PassagesByRecord {
  readonly length: number;
  at(record: number): readonly SearchPassage[] | undefined;
}

/**
 * The index as output files; the folder name is a hash of the contents. The URLs in the
 * entry point (the folder, every page) are put under the base URL, so the browser uses
 * them as they are.
 */
export function indexFiles(data: SearchIndexData, baseUrl = '/'): OutputAsset[] {
  return [...indexFileStream(data, baseUrl)];
}

/**
 * indexFiles() made as they are taken: each file's JSON is made twice, once to hash it
 * into the folder name and once when its turn to be written comes, so a large site's
 * index (over 10,000 files at 10,000 docs) is never held all at once.
 */
export function indexFileStream(data: SearchIndexData, baseUrl = '/'): Iterable<OutputAsset> {
  const encoder = new TextEncoder();
  function* bodies(): Generator<[name: string, json: string]> {
    for (const [bucket, shard] of data.shards.entries()) yield [`t/${bucket}.json`, JSON.stringify(shard)];
    for (const [name, body] of passageFileEntries(data.passages, data.meta.counts)) yield [`f/${name}.json`, JSON.stringify(body)];
  }
  const hash = createHash('sha256');
  // The text, which the hash takes as UTF-8: the same bytes as the file's, without encoding them here too.
  for (const [name, json] of bodies()) hash.update(name).update('\0').update(json).update('\0');
  const folder = `${SEARCH_FOLDER}/${hash.digest('hex').slice(0, 10)}`;
  const meta: SearchMeta = { ...data.meta, base: withBase(baseUrl, `/${folder}/`), pages: data.meta.pages.map(([url, ...rest]) => [withBase(baseUrl, url), ...rest]) };
  const entry: OutputAsset = { path: SEARCH_META_PATH, contents: encoder.encode(JSON.stringify(meta)) };
  return {
    *[Symbol.iterator]() {
      yield entry;
      for (const [name, json] of bodies()) yield { path: `${folder}/${name}`, contents: encoder.encode(json) };
    },
  };
}
