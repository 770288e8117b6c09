/**
 * One copy of each equal string, for data kept per page of a large site: most of a
 * page's link targets and inline scripts are on every page, and at thousands of pages
 * their copies were tens of megabytes. The pool belongs to the cache that keeps the data.
 */
export type StringPool = Map<string, string>;

/** The copy of `text` the pool keeps, added on first sight. */
export function shared(pool: StringPool, text: string): string {
  const known = pool.get(text);
  if (known !== undefined) return known;
  pool.set(text, text);
  return text;
}
