import { DATA, STORAGE } from '../shared.ts';
import { writeStorage } from './storage.ts';

/** Sidebar categories collapse and expand; the state is per page view. */
export function initSidebar(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>(`[${DATA.sidebarCategory}]`);
    if (!button) return;
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', open ? 'true' : 'false');
    button.parentElement?.classList.toggle('menu__category--collapsed', !open);
  });
}

/** Dismissing the announcement remembers its id; a new id shows the bar again. */
export function initAnnouncement(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.(`[${DATA.announcementClose}]`);
    if (!button) return;
    const bar = button.closest<HTMLElement>('[data-announcement-id]');
    const id = bar?.getAttribute('data-announcement-id');
    if (!bar || !id) return;
    writeStorage(STORAGE.announcementDismissed, id);
    document.documentElement.setAttribute('data-announcement-dismissed', id);
    bar.remove();
  });
  const bar = document.querySelector<HTMLElement>('[data-announcement-id]');
  const dismissed = document.documentElement.getAttribute('data-announcement-dismissed');
  if (bar && dismissed && bar.getAttribute('data-announcement-id') === dismissed) bar.remove();
}

/** Dropdown buttons (version, language) toggle their menu for keyboard and touch users. */
export function initDropdowns(): void {
  document.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const button = target?.closest?.<HTMLButtonElement>('.dropdown__button');
    for (const open of document.querySelectorAll('.dropdown--open')) {
      if (!button || open !== button.parentElement) {
        open.classList.remove('dropdown--open');
        open.querySelector('.dropdown__button')?.setAttribute('aria-expanded', 'false');
      }
    }
    if (!button) return;
    const dropdown = button.parentElement;
    const open = !dropdown?.classList.contains('dropdown--open');
    dropdown?.classList.toggle('dropdown--open', open);
    button.setAttribute('aria-expanded', open ? 'true' : 'false');
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const open = document.querySelector('.dropdown--open');
    if (!open) return;
    open.classList.remove('dropdown--open');
    const button = open.querySelector<HTMLButtonElement>('.dropdown__button');
    button?.setAttribute('aria-expanded', 'false');
    button?.focus();
  });
  // The only version is 'current'; remember it as the preferred one, as the spec's site does.
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.(`[${DATA.versionDropdown}] a`);
    const name = link?.closest(`[${DATA.versionDropdown}]`)?.getAttribute(DATA.versionDropdown);
    if (name) writeStorage(STORAGE.docsPreferredVersion, name);
  });
}
