/**
 * How search splits text into words. The build (cli/stages/search-index.ts) indexes
 * the pages with these functions and the browser reads queries with the same ones: if
 * the two sides disagreed by one character, words would stop matching. So this module
 * is pure (no DOM, no Node) and, with format.ts, is what the build imports from
 * templates/client.
 *
 * Words are folded (lower case, no diacritics), so "homologacao" finds "homologação".
 * What depends on the language (stop words, the stemmer) is in search-language.ts: the
 * index maps every word form found in the pages to its stem, and the browser stems a
 * query with the same stemmer, so "payments" finds a page that only says "payment".
 */

/** Lower case without diacritics: "Ação" -> "acao". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** A word as written in the text, with where it is. */
export interface WordSpan {
  text: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text, split at anything that is not a letter or a digit ("ctk_test_aprovado" is three words). */
export function words(text: string): WordSpan[] {
  const spans: WordSpan[] = [];
  for (const match of text.matchAll(WORD)) spans.push({ text: match[0], start: match.index, end: match.index + match[0].length });
  return spans;
}

/**
 * The folded tokens of one written word: the word itself and, for camelCase
 * identifiers, its parts, so "createPayment" is found by "createPayment" and by "payment".
 */
export function wordTokens(word: string): string[] {
  const whole = fold(word);
  const parts = word
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(' ');
  return parts.length === 1 ? [whole] : [whole, ...parts.map(fold)];
}

/** The prefix that decides a word's shard: its first three characters. */
export function shardKey(token: string): string {
  return Array.from(token).slice(0, 3).join('');
}

/**
 * Which of `buckets` shard files holds a prefix (FNV-1a). Hashing instead of one file
 * per prefix keeps every file present, so the browser never asks for a missing one,
 * and needs no list of them.
 */
export function shardBucket(key: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % buckets;
}
