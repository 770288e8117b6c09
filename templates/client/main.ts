/**
 * The one script every page loads. It wires the small behaviours of the chrome by
 * event delegation (so they survive client navigation without re-binding) and starts
 * islands. Keep it small: it is on every page's critical path.
 */
import { initAnnouncement, initDropdowns, initSidebar } from './chrome.ts';
import { initCopyButtons } from './copy.ts';
import { mountEagerIslands, mountIsland } from './islands.ts';
import { initMenu } from './menu.ts';
import { initSlideDecks } from './slides.ts';
import { initTabs } from './tabs.ts';
import { initTheme } from './theme.ts';
import { DATA } from '../shared.ts';

// The stylesheet hides the base-URL warning; the script running is the other half of "the site loaded".
document.getElementById('docsgen-base-url-issue-banner')?.remove();

initTheme();
initCopyButtons();
initTabs();
initMenu();
initSidebar();
initAnnouncement();
initDropdowns();
initSlideDecks();
mountEagerIslands();

// Search loads on first intent: focus, click, or a shortcut.
function startSearch(): void {
  const element = document.querySelector<HTMLElement>(`[${DATA.island}="search"]`);
  if (element) void mountIsland(element);
}
document.addEventListener('focusin', (event) => {
  if ((event.target as Element | null)?.closest?.(`[${DATA.island}="search"]`)) startSearch();
});
document.addEventListener('pointerover', (event) => {
  if ((event.target as Element | null)?.closest?.(`[${DATA.island}="search"]`)) startSearch();
});
document.addEventListener('keydown', (event) => {
  const editing = (event.target as HTMLElement | null)?.closest?.('input, textarea, select, [contenteditable="true"]');
  if (((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') || (event.key === '/' && !editing)) startSearch();
});
