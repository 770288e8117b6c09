import { DATA, STORAGE } from '../shared/index.ts';
import { readStorage, writeStorage } from './storage.ts';

function select(tabs: Element, value: string): boolean {
  const buttons = Array.from(tabs.querySelectorAll<HTMLButtonElement>(':scope > .tabs__list > [role="tab"]'));
  if (!buttons.some((b) => b.getAttribute(DATA.tabValue) === value)) return false;
  for (const button of buttons) {
    const on = button.getAttribute(DATA.tabValue) === value;
    button.setAttribute('aria-selected', on ? 'true' : 'false');
    button.tabIndex = on ? 0 : -1;
    button.classList.toggle('tabs__tab--active', on);
  }
  for (const panel of tabs.querySelectorAll<HTMLElement>(':scope > [role="tabpanel"]')) {
    const shown = panel.getAttribute(DATA.tabValue) === value;
    if (shown) materialize(panel);
    panel.hidden = !shown;
  }
  return true;
}

/** A panel sent as a template (<Tabs lazy>) becomes elements the first time it is shown. */
function materialize(panel: HTMLElement): void {
  const content = panel.querySelector<HTMLTemplateElement>(':scope > template');
  content?.replaceWith(content.content);
}

function groupOf(tabs: Element): string {
  return tabs.getAttribute(DATA.tabGroup) ?? '';
}

/** Applies remembered choices to the tabs of the current page (also after client navigation). */
export function restoreTabs(root: ParentNode = document): void {
  for (const tabs of root.querySelectorAll(`[${DATA.tabs}]`)) {
    const group = groupOf(tabs);
    if (!group) continue;
    const stored = readStorage(STORAGE.tabPrefix + group);
    if (stored) select(tabs, stored);
  }
}

function choose(tab: HTMLButtonElement): void {
  const tabs = tab.closest(`[${DATA.tabs}]`);
  const value = tab.getAttribute(DATA.tabValue);
  if (!tabs || !value) return;
  const group = groupOf(tabs);
  // Keep the clicked tab where it is on screen while tabs above it change height.
  const before = tab.getBoundingClientRect().top;
  if (group) {
    for (const other of document.querySelectorAll(`[${DATA.tabs}][${DATA.tabGroup}="${CSS.escape(group)}"]`)) select(other, value);
    writeStorage(STORAGE.tabPrefix + group, value);
  } else select(tabs, value);
  window.scrollBy(0, tab.getBoundingClientRect().top - before);
}

export function initTabs(): void {
  restoreTabs();
  // A page may print every panel (the API reference does): the ones still templates become elements first.
  window.addEventListener('beforeprint', () => {
    for (const panel of document.querySelectorAll<HTMLElement>(`[${DATA.tabs}] > [role="tabpanel"]`)) materialize(panel);
  });
  document.addEventListener('click', (event) => {
    const tab = (event.target as Element | null)?.closest?.<HTMLButtonElement>(`[${DATA.tabs}] [role="tab"]`);
    if (tab) choose(tab);
  });
  // WAI-ARIA tabs pattern: arrows move between tabs, Home/End jump to the ends.
  document.addEventListener('keydown', (event) => {
    const tab = (event.target as Element | null)?.closest?.<HTMLButtonElement>(`[${DATA.tabs}] [role="tab"]`);
    if (!tab) return;
    const list = Array.from(tab.parentElement?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? []);
    const index = list.indexOf(tab);
    let next: HTMLButtonElement | undefined;
    if (event.key === 'ArrowRight') next = list[(index + 1) % list.length];
    else if (event.key === 'ArrowLeft') next = list[(index - 1 + list.length) % list.length];
    else if (event.key === 'Home') next = list[0];
    else if (event.key === 'End') next = list[list.length - 1];
    if (!next) return;
    event.preventDefault();
    next.focus();
    choose(next);
  });
}
