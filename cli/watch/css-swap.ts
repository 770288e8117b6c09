/**
 * When the only changes are hashed stylesheets replaced by new ones, and pages differ
 * from before only by those URLs, open pages can swap the stylesheets and keep their
 * state instead of reloading.
 */
export function cssSwapOf(
  changed: readonly string[],
  gone: readonly string[],
  before: (rel: string) => string | undefined,
  after: (rel: string) => string | undefined,
  /**
   * Files of the new output the folder already held with the same bytes: a stylesheet put
   * back as it was moments ago still has its file, which the last build's clean-up (in the
   * background) had not removed yet, so it is in no `changed` list.
   */
  unchanged: readonly string[] = [],
): Record<string, string> | undefined {
  const isSheet = (rel: string) => rel.startsWith('assets/') && rel.endsWith('.css');
  const stem = (rel: string) => rel.replace(/-[A-Za-z0-9]+\.css$/, '');
  const written = changed.filter((rel) => !rel.endsWith('.html'));
  if (gone.some((rel) => rel.endsWith('.html'))) return undefined;
  if (![...written, ...gone].every(isSheet)) return undefined;
  // A new stylesheet has a new name (they are named by their contents): one written before is no swap.
  if (written.some((rel) => before(rel) !== undefined)) return undefined;
  const revived = unchanged.filter((rel) => isSheet(rel) && gone.some((g) => stem(g) === stem(rel)));
  const added = [...written, ...revived];
  if (added.length === 0) return undefined;
  const pages = changed.filter((r) => r.endsWith('.html'));
  // The one the pages linked to, when the folder still held an older one too (saves in quick succession).
  const linked = (rel: string) => pages.some((page) => before(page)?.includes(`/${rel}`));
  const swap: Record<string, string> = {};
  for (const rel of added) {
    const candidates = gone.filter((g) => stem(g) === stem(rel));
    const old = candidates.length > 1 ? candidates.filter(linked) : candidates;
    if (old.length !== 1) return undefined;
    swap[`/${old[0]}`] = `/${rel}`;
  }
  for (const rel of pages) {
    const was = before(rel);
    let html = after(rel);
    if (was === undefined || html === undefined) return undefined;
    for (const [from, to] of Object.entries(swap)) html = html.split(to).join(from);
    if (html !== was) return undefined;
  }
  return swap;
}
