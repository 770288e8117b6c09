/**
 * The query side of search: loads the shards a query needs, ranks records with BM25
 * (the term-frequency half was computed at build time, see format.ts), and makes
 * excerpts with the matched words marked. No DOM here, so tests run it in Node on an
 * index built in memory.
 */
import { fold, shardBucket, shardKey, wordTokens, words } from '../../shared/search-analyze.ts';
import {
  decodePostings,
  IMPACT_SCALE,
  laterFileName,
  locatePassage,
  pageFileName,
  SEARCH_META_PATH,
  type LaterPassageFile,
  type PagePassageFile,
  type SearchKind,
  type SearchMeta,
  type SearchPassage,
  type SearchShard,
} from '../../shared/search-format.ts';
import { createAnalyzer, loadAnalyzer, searchLanguageOf, type SearchAnalyzer } from '../../shared/search-language.ts';

/** How much a looser match is worth next to an exact one: another form of the same word, a prefix, a typo. */
const STEM_FACTOR = 0.9;
const PREFIX_FACTOR = 0.75;
const FUZZY_FACTOR = 0.5;
/** Words shorter than this need an exact (or prefix) match: one edit in three letters makes another word. */
const FUZZY_MIN_LENGTH = 4;
/** A word being typed looks for longer words from this many letters on (its shard is decided by three). */
const PREFIX_MIN_LENGTH = 3;

export interface QueryToken {
  /** Folded as typed. */
  text: string;
  /** The word still being typed: also matches longer words. */
  prefix: boolean;
}

export interface RecordHit {
  record: number;
  score: number;
  /** The passage of the record's text to show. */
  passage: number;
}

export interface PageHit {
  page: number;
  url: string;
  title: string;
  kind: SearchKind;
  /** Where the page sits in its sidebar, when it is in one. */
  section?: string;
  score: number;
  /** Best first. */
  records: RecordHit[];
}

export interface SearchResult {
  query: string;
  pages: PageHit[];
  /** Folded word forms that matched, for highlighting. */
  matched: Set<string>;
  /** False when no record has every word and the results match only some of them. */
  complete: boolean;
}

/** Fetches and parses a JSON file of the index; the browser passes fetch, tests a map. */
export type JsonLoader = (url: string) => Promise<unknown>;

/**
 * How the engine reads a query in the index's language. `stem` may be asynchronous: the
 * browser fetches the stemmer only for the first word the index does not hold as typed.
 */
export interface QueryAnalyzer {
  isStopword(token: string): boolean;
  stem(token: string): string | Promise<string>;
}

/** The words of a query, folded; stopwords go unless the query has nothing else. */
export function parseQuery(query: string, analyzer: Pick<QueryAnalyzer, 'isStopword'>): QueryToken[] {
  const spans = words(query);
  const typing = spans.length > 0 && spans[spans.length - 1]!.end === query.length;
  const all: QueryToken[] = [];
  spans.forEach((span, i) => {
    const last = typing && i === spans.length - 1;
    for (const text of wordTokens(span.text)) if (text.length >= 2) all.push({ text, prefix: last && text.length >= PREFIX_MIN_LENGTH });
  });
  const meaningful = all.filter((t) => !analyzer.isStopword(t.text));
  const unique = new Map<string, QueryToken>();
  for (const token of meaningful.length > 0 ? meaningful : all) {
    const seen = unique.get(token.text);
    unique.set(token.text, seen ? { ...token, prefix: seen.prefix && token.prefix } : token);
  }
  return [...unique.values()];
}

/** Optimal string alignment distance of at most 1: one letter added, left out, changed, or two swapped. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const restA = a.slice(i);
  const restB = b.slice(i);
  if (restA.length === restB.length) {
    if (restA.slice(1) === restB.slice(1)) return true;
    return restA.length >= 2 && restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2);
  }
  return restA.length > restB.length ? restA.slice(1) === restB : restB.slice(1) === restA;
}

/**
 * The stems a query token matches in a shard, with how much each is worth: its forms as
 * typed (or as a prefix, for the word being typed), or, with `typos`, the forms one edit
 * away. The engine looks for typos only when the word matches nothing as typed, nor by
 * its stem: a word that exists is taken to be meant ("post" does not also find "pos").
 */
export function matchStems(token: QueryToken, shard: SearchShard, typos = false): Map<string, number> {
  const found = new Map<string, number>();
  for (const [stem, [forms]] of Object.entries(shard)) {
    for (const form of forms.split(',')) {
      const factor = typos
        ? token.text.length >= FUZZY_MIN_LENGTH && withinOneEdit(token.text, form) ? FUZZY_FACTOR : 0
        : form === token.text ? 1 : token.prefix && form.startsWith(token.text) ? PREFIX_FACTOR : 0;
      if (factor > (found.get(stem) ?? 0)) found.set(stem, factor);
    }
  }
  return found;
}

/** Prefixes a word could have had before a typo in its first three letters: two letters swapped or one added. */
function typoKeys(text: string): string[] {
  const variants = [text[1]! + text[0]! + text.slice(2), text[0]! + text[2]! + text[1]! + text.slice(3), text.slice(1), text[0]! + text.slice(2), text.slice(0, 2) + text.slice(3)];
  return [...new Set(variants.map(shardKey))].filter((key) => key !== shardKey(text));
}

export interface SearchOptions {
  /** Pages to return. */
  maxPages?: number;
  /** Records per page. */
  maxRecords?: number;
}

/**
 * The engine of a built index, reading queries in the language its meta names. The
 * stemmer (one chunk) is loaded only when a word is not in the index as typed: a word
 * that is has its stem already, the key of the forms it matched.
 */
export async function openSearchEngine(load: JsonLoader, metaUrl = `/${SEARCH_META_PATH}`): Promise<SearchEngine> {
  const meta = (await load(metaUrl)) as SearchMeta;
  const language = searchLanguageOf(meta.language);
  let stemming: Promise<SearchAnalyzer> | undefined;
  const analyzer: QueryAnalyzer = {
    isStopword: createAnalyzer(language, undefined).isStopword,
    stem: async (token) => (await (stemming ??= loadAnalyzer(language))).stem(token),
  };
  return new SearchEngine(meta, load, analyzer);
}

export class SearchEngine {
  readonly meta: SearchMeta;
  private readonly load: JsonLoader;
  private readonly analyzer: QueryAnalyzer;
  private readonly shards = new Map<number, Promise<SearchShard>>();
  /** Passage files by name (a page's, or one of its further files): each fetched once. */
  private readonly passageFiles = new Map<string, Promise<PagePassageFile | LaterPassageFile>>();
  /** The passage files that have arrived, for loadedPassage(). */
  private readonly arrived = new Map<string, PagePassageFile | LaterPassageFile>();
  /** Page of each record. */
  private readonly pageOf: number[] = [];
  /** Number of each page's first record. */
  private readonly firstRecord: number[] = [];

  /** `analyzer` must be the one the index was built with (see openSearchEngine()). */
  constructor(meta: SearchMeta, load: JsonLoader, analyzer: QueryAnalyzer) {
    this.meta = meta;
    this.load = load;
    this.analyzer = analyzer;
    meta.counts.forEach((count, page) => {
      this.firstRecord.push(this.pageOf.length);
      for (let i = 0; i < count; i++) this.pageOf.push(page);
    });
  }

  get recordCount(): number {
    return this.pageOf.length;
  }

  private shard(key: string): Promise<SearchShard> {
    const bucket = shardBucket(key, this.meta.buckets);
    return this.fetchOnce(this.shards, bucket, `${this.meta.base}t/${bucket}.json`);
  }

  /** Heading, anchor and text of one passage of a record; each file holding it is fetched once. */
  async passage(record: number, passage: number): Promise<SearchPassage> {
    const page = this.pageOf[record];
    if (page !== undefined) {
      const file = (await this.passageFile(pageFileName(page))) as PagePassageFile;
      const later = locatePassage(file, record - this.firstRecord[page]!, passage)?.later;
      if (later) await this.passageFile(laterFileName(page, later.file));
    }
    const found = this.loadedPassage(record, passage);
    if (!found) throw new Error(`The search index has no passage ${passage} of record ${record}: it may have been replaced by a new deploy; search again.`);
    return found;
  }

  /**
   * The passage, if the files that hold it have arrived already (another result of the
   * same page fetched them): the dialog then shows its text at once instead of a
   * placeholder that fills in a moment later.
   */
  loadedPassage(record: number, passage: number): SearchPassage | undefined {
    const page = this.pageOf[record];
    if (page === undefined) return undefined;
    const file = this.arrived.get(pageFileName(page)) as PagePassageFile | undefined;
    const found = file && locatePassage(file, record - this.firstRecord[page]!, passage);
    if (!found) return undefined;
    const text = found.later ? (this.arrived.get(laterFileName(page, found.later.file)) as LaterPassageFile | undefined)?.[found.later.record]?.[found.later.passage] : found.t;
    return text === undefined ? undefined : { h: found.h, a: found.a, t: text };
  }

  /** A passage file of the index's f/ folder, fetched once; in `arrived` once it is here (before its awaiters resume). */
  private passageFile(name: string): Promise<PagePassageFile | LaterPassageFile> {
    const known = this.passageFiles.get(name);
    if (known) return known;
    const promise = this.fetchOnce(this.passageFiles, name, `${this.meta.base}f/${name}.json`);
    promise.then((file) => this.arrived.set(name, file), () => undefined);
    return promise;
  }

  /** One request per file; a failed one is forgotten so the next query tries again. */
  private fetchOnce<K, T>(cache: Map<K, Promise<T>>, key: K, url: string): Promise<T> {
    let promise = cache.get(key);
    if (!promise) {
      promise = this.load(url) as Promise<T>;
      cache.set(key, promise);
      promise.catch(() => cache.delete(key));
    }
    return promise;
  }

  /** URL of a record: its page, and the section's anchor. */
  url(record: number, passage: SearchPassage): string {
    const [url] = this.meta.pages[this.pageOf[record]!]!;
    return passage.a ? `${url}#${passage.a}` : url;
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const tokens = parseQuery(query, this.analyzer);
    const result: SearchResult = { query, pages: [], matched: new Set(), complete: true };
    if (tokens.length === 0) return result;
    const matches = await Promise.all(
      tokens.map(async (token) => {
        const shard = await this.shard(shardKey(token.text));
        let found = matchStems(token, shard);
        let source = shard;
        if (found.size === 0) {
          // Not in the index as typed: another form of the word may be ("payments" where the pages say "payment").
          const stem = await this.analyzer.stem(token.text);
          if (Object.prototype.hasOwnProperty.call(shard, stem)) found = new Map([[stem, STEM_FACTOR]]);
        }
        if (found.size === 0) found = matchStems(token, shard, true);
        if (found.size === 0 && token.text.length >= FUZZY_MIN_LENGTH) {
          // Nothing under these three letters: the typo may be among them.
          source = Object.assign({}, ...(await Promise.all(typoKeys(token.text).map((key) => this.shard(key))))) as SearchShard;
          found = matchStems(token, source, true);
        }
        return { found, source };
      }),
    );
    const total = this.recordCount;
    const scores = new Map<number, { score: number; covered: number; passage: number }>();
    for (const [i, { found, source }] of matches.entries()) {
      if (found.size > 0) result.matched.add(tokens[i]!.text);
      const best = new Map<number, { score: number; passage: number }>();
      for (const [stem, factor] of found) {
        const [forms, encoded] = source[stem]!;
        for (const form of forms.split(',')) result.matched.add(form);
        const postings = decodePostings(encoded);
        const idf = Math.log(1 + (total - postings.length + 0.5) / (postings.length + 0.5));
        for (const { record, weight, passage } of postings) {
          const score = (idf * factor * weight) / IMPACT_SCALE;
          if ((best.get(record)?.score ?? 0) < score) best.set(record, { score, passage });
        }
      }
      for (const [record, hit] of best) {
        const entry = scores.get(record) ?? { score: 0, covered: 0, passage: hit.passage };
        entry.score += hit.score;
        entry.covered++;
        entry.passage = Math.min(entry.passage, hit.passage);
        scores.set(record, entry);
      }
    }
    if (scores.size === 0) return result;
    let coverage = 0;
    for (const entry of scores.values()) coverage = Math.max(coverage, entry.covered);
    const byPage = new Map<number, RecordHit[]>();
    for (const [record, entry] of scores) {
      if (entry.covered < coverage) continue;
      const page = this.pageOf[record]!;
      let list = byPage.get(page);
      if (!list) byPage.set(page, (list = []));
      list.push({ record, score: entry.score, passage: entry.passage });
    }
    const maxRecords = options.maxRecords ?? 3;
    const pages: PageHit[] = [...byPage].map(([page, records]) => {
      records.sort((a, b) => b.score - a.score || a.record - b.record);
      const [url, title, kind, section] = this.meta.pages[page]!;
      // A page that matches in several sections ranks a little above one that matches once.
      const score = records[0]!.score + 0.1 * records.slice(1, maxRecords).reduce((sum, r) => sum + r.score, 0);
      return { page, url, title, kind, section, score, records: records.slice(0, maxRecords) };
    });
    pages.sort((a, b) => b.score - a.score || a.page - b.page);
    return { ...result, pages: pages.slice(0, options.maxPages ?? 8), complete: coverage === tokens.length };
  }
}

export interface Segment {
  text: string;
  mark: boolean;
}

/** True when a written word is one of the matched forms (the word itself or one of its camelCase parts). */
function isMatch(word: string, matched: ReadonlySet<string>): boolean {
  return wordTokens(word).some((token) => matched.has(token));
}

/** A whole text with its matched words marked (for headings). */
export function highlight(text: string, matched: ReadonlySet<string>): Segment[] {
  return mark(text, 0, text.length, matched);
}

/**
 * About `length` characters of `text` around its first matched word, cut at word
 * boundaries, with every matched word marked; '…' shows where text was left out.
 */
export function excerpt(text: string, matched: ReadonlySet<string>, length = 180): Segment[] {
  const spans = words(text);
  const first = spans.find((s) => isMatch(s.text, matched));
  let start = 0;
  if (first && first.end > length * 0.7) {
    start = Math.max(0, first.start - Math.round(length * 0.3));
    const boundary = spans.find((s) => s.start >= start);
    start = boundary ? boundary.start : start;
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) {
    const cut = text.lastIndexOf(' ', end);
    if (cut > start) end = cut;
  }
  const segments = mark(text, start, end, matched);
  if (start > 0) segments.unshift({ text: '… ', mark: false });
  if (end < text.length) segments.push({ text: ' …', mark: false });
  return segments;
}

function mark(text: string, start: number, end: number, matched: ReadonlySet<string>): Segment[] {
  const segments: Segment[] = [];
  let at = start;
  for (const span of words(text.slice(start, end))) {
    if (!isMatch(span.text, matched)) continue;
    const from = start + span.start;
    if (from > at) segments.push({ text: text.slice(at, from), mark: false });
    segments.push({ text: span.text, mark: true });
    at = start + span.end;
  }
  if (at < end) segments.push({ text: text.slice(at, end), mark: false });
  return segments;
}

/** Folded form of a query, for recent-search de-duplication. */
export function normalizeQuery(query: string): string {
  return fold(query).replace(/\s+/g, ' ').trim();
}
