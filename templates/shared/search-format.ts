/**
 * The search index as files: written by cli/stages/search-index.ts, read by the search
 * island. Types and small codecs only, so the build can import it.
 *
 * - `search/index.json` (fixed address, revalidated): the page list, how many records
 *   each page has (a record is a page's intro, one of its sections, or one API
 *   operation), the number of shard files, and the folder holding the rest.
 * - `<base>t/<bucket>.json`: the shards. A word's shard is chosen by its first three
 *   letters (hashed into `buckets` files), so a query word costs one small file.
 * - `<base>f/<page>.json`: the text of a page's records in passages of a few hundred
 *   characters, for excerpts. One file a page: its records' headings and anchors, and as
 *   many of their passages as PAGE_FILE_CHARS holds, whole records first; a long page's
 *   other passages are in `f/<page>-<n>.json`, LATER_FILE_CHARS to a file (see
 *   PagePassageFile). Only the files of the results on screen are fetched. A page's file
 *   costs a few kilobytes gzip; the first results, within 60 KB gzip, have room for them
 *   since the search island runs on preact/compat (see cli/stages/bundle.ts).
 * `<base>` is `/assets/search/<content hash>/`: those files are cached forever, and a
 * rebuild that changes the index changes the folder.
 */

export const SEARCH_META_PATH = 'search/index.json';
export const SEARCH_FORMAT_VERSION = 5;

export type SearchKind = 'doc' | 'blog' | 'api' | 'page';

/** Labels of the kinds, shown next to each result (site chrome, so English). */
export const SEARCH_KIND_LABELS: Record<SearchKind, string> = { doc: 'Docs', blog: 'Blog', api: 'API', page: 'Page' };

export interface SearchMeta {
  version: typeof SEARCH_FORMAT_VERSION;
  /** URL of the folder with the shards and passages; ends with '/'. */
  base: string;
  /**
   * [url, title, kind, section] of every indexed page; section, where the page sits in its
   * sidebar ('API de Pagamento'), only for pages in one.
   */
  pages: [url: string, title: string, kind: SearchKind, section?: string][];
  /** How many records each page has; records are numbered page after page. */
  counts: number[];
  /** Number of shard files. */
  buckets: number;
  /** Search language the index was stemmed in (search-language.ts); absent: folded words, no stemming. */
  language?: string;
}

/**
 * stem -> [the folded word forms of the pages that have this stem, comma-separated;
 * postings]. The browser matches what the reader typed against the word forms (exactly,
 * as a prefix, or within one typo) and scores the stem's postings.
 *
 * Postings: comma-separated entries, each the record number as the base-36 difference
 * from the previous entry's, then two base-36 digits: the weight, and the passage where
 * the word first occurs in the record's text. The weight is the term's BM25
 * term-frequency part for the record plus the bonus of the fields it is in (times
 * IMPACT_SCALE, 1 to 35), computed at build time: titles and headings count more, long
 * sections less, so the browser needs no record lengths to rank.
 */
export type SearchShard = Record<string, [forms: string, postings: string]>;

/** Weights are stored as one base-36 digit: BM25's term-frequency part (at most 2.2) plus the field bonuses, times this, stays under 36. */
export const IMPACT_SCALE = 7;
/** BM25 parameters (the usual ones). */
export const BM25 = { k1: 1.2, b: 0.75 } as const;
/** Passages per record at most: one base-36 digit. */
export const MAX_PASSAGES = 36;

/**
 * Characters of passage text a page's file holds. Most pages fit whole (a typical doc
 * has 5 to 9 KB of text), so a site writes about one passage file a page; the cap keeps
 * the file of a long page at a few kilobytes gzip, so results from several pages stay
 * within the first-results budget.
 */
export const PAGE_FILE_CHARS = 9000;
/** Characters of a long page's further passages per file. */
export const LATER_FILE_CHARS = 9000;

/**
 * A page's passage file: per record of the page, in order, its heading, anchor, the first
 * of its passages (all, some or none), and where the others are: file `n` of the page
 * (`f/<page>-<n>.json`) and the record's place in it.
 */
export type PagePassageFile = [heading: string, anchor: string, texts: string[], rest?: [file: number, index: number]][];
/** A file of further passages of a page: per record it holds, the passages after those in the page's file. */
export type LaterPassageFile = string[][];

/** Names (under `<base>f/`) of a page's passage file and of its further ones. */
export function pageFileName(page: number): string {
  return `${page}`;
}
export function laterFileName(page: number, file: number): string {
  return `${page}-${file}`;
}

/**
 * Passage `passage` of a page file's record `index`: its text if the page's file holds
 * it, else which further file to read and the text's place there.
 */
export function locatePassage(file: PagePassageFile, index: number, passage: number): { h: string; a: string; t?: string; later?: { file: number; record: number; passage: number } } | undefined {
  const entry = file[index];
  if (!entry) return undefined;
  const [h, a, texts, rest] = entry;
  if (passage < texts.length) return { h, a, t: texts[passage] };
  if (!rest) return undefined;
  return { h, a, later: { file: rest[0], record: rest[1], passage: passage - texts.length } };
}

export interface Posting {
  record: number;
  weight: number;
  passage: number;
}

export interface SearchPassage {
  /** Heading of the section; empty for a page's intro (the page title stands for it). */
  h: string;
  /** The section's id on the page, without '#'; empty for the top of the page. */
  a: string;
  /** Plain text of the passage; '… ' and ' …' mark text of the section left out. */
  t: string;
}

const digit = (n: number, max: number) => Math.min(max, Math.max(0, Math.round(n))).toString(36);

export function encodePostings(entries: readonly Posting[]): string {
  let previous = 0;
  return entries
    .map(({ record, weight, passage }) => {
      const text = (record - previous).toString(36) + digit(Math.max(1, weight), 35) + digit(passage, MAX_PASSAGES - 1);
      previous = record;
      return text;
    })
    .join(',');
}

export function decodePostings(encoded: string): Posting[] {
  let record = 0;
  return encoded.split(',').map((entry) => {
    record += parseInt(entry.slice(0, -2), 36);
    return { record, weight: parseInt(entry[entry.length - 2]!, 36), passage: parseInt(entry[entry.length - 1]!, 36) };
  });
}
