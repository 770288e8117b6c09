/**
 * The one script every page loads. It wires the small behaviours of the chrome by
 * event delegation (so they survive client navigation without re-binding), starts the
 * router and the islands. Keep it small and free of React: it is on every page's
 * critical path (budget: 10 KB gzip).
 */
import { initAnnouncement, initDropdowns } from './chrome.ts';
import { initCopyButtons } from './copy.ts';
import type { copyPage } from './islands/copy-page.ts';
import { loadIsland, mountEagerIslands, mountIsland } from './islands.ts';
import { initMenu } from './menu.ts';
import { initRouter } from './router.ts';
import { initSidebar } from './sidebar.ts';
import { isSearchShortcut } from './search-shortcut.ts';
import { initSlideDecks } from './slides.ts';
import { initTabs } from './tabs.ts';
import { initTheme } from './theme.ts';
import { initToc } from './toc.ts';
import { DATA, IDS } from '../shared/index.ts';

// The stylesheet hides the base-URL warning; the script running is the other half of "the site loaded".
document.getElementById(IDS.baseUrlBanner)?.remove();

initTheme();
initCopyButtons();
initTabs();
// Before the menu: a click on a sidebar category's label, claimed here, must not close it.
initSidebar();
initMenu();
initAnnouncement();
initDropdowns();
initSlideDecks();
initToc();
// "Copy page" loads its code on the first click: no page pays for it before.
document.addEventListener('click', (event) => {
  const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>(`[${DATA.copyPage}] > button`);
  // Not an island to mount: only its function is wanted, hence the cast.
  if (button) void loadIsland('copy-page')?.then((m) => (m as unknown as { copyPage: typeof copyPage }).copyPage(button));
});
// After the menu and the other click handlers: they run first and may claim a click.
initRouter();
mountEagerIslands();

// Search loads on first intent: focus, pointer, or a shortcut.
function startSearch(): void {
  const element = document.querySelector<HTMLElement>(`[${DATA.island}="search"]`);
  if (element) void mountIsland(element);
}

/**
 * A click or a shortcut before the island runs: it opens the dialog as soon as it runs. A
 * click says so, since the button it came from is where closing returns focus, focused or
 * not (Safari does not focus a clicked button).
 */
function openSearchWhenMounted(element: HTMLElement, by: 'button' | '' = ''): void {
  element.setAttribute(DATA.searchOpen, by);
  startSearch();
}
document.addEventListener('focusin', (event) => {
  if ((event.target as Element | null)?.closest?.(`[${DATA.island}="search"]`)) startSearch();
});
document.addEventListener('pointerover', (event) => {
  if ((event.target as Element | null)?.closest?.(`[${DATA.island}="search"]`)) startSearch();
});
document.addEventListener('keydown', (event) => {
  if (!isSearchShortcut(event)) return;
  const element = document.querySelector<HTMLElement>(`[${DATA.island}="search"]`);
  // Once running, the island handles its shortcuts itself.
  if (!element || element.hasAttribute(DATA.searchReady)) return;
  // The first press both loads and opens search, and must not reach the browser (Ctrl+K focuses its address bar).
  event.preventDefault();
  openSearchWhenMounted(element);
});
// A tap may come with no pointer before it, or before the code the pointer asked for has
// loaded: the button's own handler does not exist yet, so the click is remembered here.
document.addEventListener('click', (event) => {
  const element = (event.target as Element | null)?.closest?.<HTMLElement>(`[${DATA.island}="search"]`);
  if (element && !element.hasAttribute(DATA.searchReady)) openSearchWhenMounted(element, 'button');
});
