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
): Record<string, string> | undefined {
  const added = changed.filter((rel) => !rel.endsWith('.html'));
  if (added.length === 0 || gone.some((rel) => rel.endsWith('.html'))) return undefined;
  if (![...added, ...gone].every((rel) => rel.startsWith('assets/') && rel.endsWith('.css'))) return undefined;
  const stem = (rel: string) => rel.replace(/-[A-Za-z0-9]+\.css$/, '');
  const swap: Record<string, string> = {};
  for (const rel of added) {
    if (before(rel) !== undefined) return undefined;
    const old = gone.filter((g) => stem(g) === stem(rel));
    if (old.length !== 1) return undefined;
    swap[`/${old[0]}`] = `/${rel}`;
  }
  for (const rel of changed.filter((r) => r.endsWith('.html'))) {
    const was = before(rel);
    let html = after(rel);
    if (was === undefined || html === undefined) return undefined;
    for (const [from, to] of Object.entries(swap)) html = html.split(to).join(from);
    if (html !== was) return undefined;
  }
  return swap;
}
