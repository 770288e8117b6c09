/**
 * The search index as files: written by cli/stages/search-index.ts, read by the search
 * island. Types and small codecs only, so the build can import it.
 *
 * - `search/index.json` (fixed address, revalidated): the page list, how many records
 *   each page has (a record is a page's intro, one of its sections, or one API
 *   operation), the number of shard files, and the folder holding the rest.
 * - `<base>t/<bucket>.json`: the shards. A word's shard is chosen by its first three
 *   letters (hashed into `buckets` files), so a query word costs one small file.
 * - `<base>f/...`: the text of records in passages of a few hundred characters, for
 *   excerpts, a few passages per file (passageFile()): the first passage of every
 *   LEAD_RECORDS records in one file (`f/<group>.json`, where most hits point), the
 *   further passages of a record LATER_PASSAGES to a file (`f/<record>-<group>.json`).
 *   Only the files holding the passages of the results on screen are fetched. Files of
 *   a few passages, not of a page: the first results must stay within 60 KB gzip, and a
 *   file of a page's (or an API operation's) passages cost more than the passages of
 *   all the results shown.
 * `<base>` is `/assets/search/<content hash>/`: those files are cached forever, and a
 * rebuild that changes the index changes the folder.
 */

export const SEARCH_META_PATH = 'search/index.json';
export const SEARCH_FORMAT_VERSION = 3;

export type SearchKind = 'doc' | 'blog' | 'api' | 'page';

/** Labels of the kinds, shown next to each result (site chrome, so English). */
export const SEARCH_KIND_LABELS: Record<SearchKind, string> = { doc: 'Docs', blog: 'Blog', api: 'API', page: 'Page' };

export interface SearchMeta {
  version: typeof SEARCH_FORMAT_VERSION;
  /** URL of the folder with the shards and passages; ends with '/'. */
  base: string;
  /** [url, title, kind] of every indexed page. */
  pages: [url: string, title: string, kind: SearchKind][];
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
 * Records whose first passages share a file. Two keep the file under 1 KB, so it needs
 * no compressed copies (four made files of 1.3 KB that precompression then had to
 * compress, costing more than the files saved), within the first-results budget.
 */
export const LEAD_RECORDS = 2;
/**
 * Further passages of a record per file. Hits on them are rarer, but two to a file was
 * measured 260 bytes over the first-results budget on "POST /v1/payments" while the
 * search island ran on React (45 KB of the 60), so they stayed one to a file. The island
 * runs on preact/compat now, which leaves room; two to a file has not been measured since.
 */
export const LATER_PASSAGES = 1;

/** A file of first passages: [heading, anchor, text] of records LEAD_RECORDS × group onwards. */
export type LeadPassageFile = [heading: string, anchor: string, text: string][];
/** A file of further passages of one record: its heading, anchor, and the texts. */
export type LaterPassageFile = [heading: string, anchor: string, texts: string[]];

/** Name of the file (under `<base>f/`) holding passage `passage` of record `record`, and where in it. */
export function passageFile(record: number, passage: number): { name: string; index: number } {
  if (passage === 0) return { name: `${Math.floor(record / LEAD_RECORDS)}`, index: record % LEAD_RECORDS };
  return { name: `${record}-${Math.floor((passage - 1) / LATER_PASSAGES)}`, index: (passage - 1) % LATER_PASSAGES };
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
