import { DATA, HEAD_DATA, STORAGE } from '../shared/index.ts';
import { writeStorage } from './storage.ts';

/**
 * Dismissing the announcement remembers its id. The head script hides the bar before
 * first paint only while that id is the configured one, so a new id shows it again.
 */
export function initAnnouncement(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.(`[${DATA.announcementClose}]`);
    if (!button) return;
    const bar = button.closest<HTMLElement>(`[${HEAD_DATA.announcementId}]`);
    const id = bar?.getAttribute(HEAD_DATA.announcementId);
    if (!bar || !id) return;
    writeStorage(STORAGE.announcementDismissed, id);
    document.documentElement.setAttribute(HEAD_DATA.announcementDismissed, '');
    bar.remove();
  });
}

function setOpen(dropdown: Element, open: boolean): void {
  dropdown.classList.toggle('dropdown--open', open);
  dropdown.querySelector('.dropdown__button')?.setAttribute('aria-expanded', open ? 'true' : 'false');
}

/**
 * Navbar dropdowns. Button dropdowns (version, language) are disclosures: click, Enter
 * or Space toggles, Escape closes and returns focus, and leaving them closes them.
 * Link dropdowns open on hover and keyboard focus; Escape hides them until focus leaves.
 */
export function initDropdowns(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>('.dropdown__button');
    for (const open of document.querySelectorAll('.dropdown--open')) {
      if (!button || open !== button.parentElement) setOpen(open, false);
    }
    const dropdown = button?.parentElement;
    if (dropdown) setOpen(dropdown, !dropdown.classList.contains('dropdown--open'));
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const active = document.activeElement;
    const dropdown = active?.closest('.dropdown') ?? document.querySelector('.dropdown--open');
    if (!dropdown) return;
    if (dropdown.classList.contains('dropdown--open')) {
      setOpen(dropdown, false);
      dropdown.querySelector<HTMLElement>('.dropdown__button')?.focus();
    } else {
      dropdown.classList.add('dropdown--dismissed');
      dropdown.querySelector<HTMLElement>(':scope > a')?.focus();
    }
  });
  document.addEventListener('focusout', (event) => {
    const dropdown = (event.target as Element | null)?.closest?.('.dropdown');
    if (!dropdown || dropdown.contains(event.relatedTarget as Node | null)) return;
    setOpen(dropdown, false);
    dropdown.classList.remove('dropdown--dismissed');
  });
  document.addEventListener('mouseover', (event) => {
    (event.target as Element | null)?.closest?.('.dropdown--dismissed')?.classList.remove('dropdown--dismissed');
  });
  // The only version is 'current'; choosing it records it as the preferred one.
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.(`[${DATA.versionDropdown}] a`);
    const name = link?.closest(`[${DATA.versionDropdown}]`)?.getAttribute(DATA.versionDropdown);
    if (name) writeStorage(STORAGE.docsPreferredVersion, name);
  });
}
