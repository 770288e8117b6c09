/**
 * The docs sidebar in the browser. A page holds the categories leading to it; a category
 * label is a link to its first doc, which this script turns into an expand/collapse
 * toggle. What the toggle, the "more" links of long lists and client navigation need is
 * in sidebar-items.ts, loaded after the page (the budget of script before load is small).
 */
import { DATA } from '../shared/index.ts';

let items: typeof import('./sidebar-items.ts') | undefined;
const loadItems = () => import('./sidebar-items.ts').then((module) => (items = module));

export function initSidebar(): void {
  document.addEventListener('click', (event) => {
    // Opening in a new tab or window keeps the link's own meaning.
    if (event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>(`a[${DATA.sidebarCategory}],a[${DATA.sidebarMore}]`);
    if (!link) return;
    event.preventDefault();
    // Without the items (offline, a deploy replaced the JSON), the link does what it does without JavaScript.
    loadItems()
      .then((module) => module.show(link))
      .catch(() => location.assign(link.href));
  });
  // Ready before the first client navigation, which keeps the sidebar on screen with it.
  addEventListener('load', () => void loadItems().catch(() => undefined), { once: true });
}

/** Both show the same sidebar built from the same items (the JSON's URL names its contents, its fragment the sidebar). */
export function sameSidebar(a: Element, b: Element): boolean {
  const src = (sidebar: Element) => sidebar.querySelector(`[${DATA.sidebarSrc}]`)?.getAttribute(DATA.sidebarSrc);
  return !!src(a) && src(a) === src(b);
}

/** See sidebar-items.ts; until it has loaded, the new page's sidebar replaces the old. */
export function keepSidebar(oldPage: Element, newPage: Element): void {
  items?.keepSidebar(oldPage, newPage, sameSidebar);
}
