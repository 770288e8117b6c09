/**
 * Inlined in <head> and run before first paint: applies the stored colour mode and
 * hides an announcement the reader dismissed, so neither flashes. The bar is hidden
 * only when the dismissed id is the configured one: a new id shows it again.
 * Storage may throw (private modes, blocked cookies): then the defaults stay and one
 * warning is printed.
 */
import { HEAD_DATA, STORAGE } from '../shared/index.ts';

const root = document.documentElement;
try {
  const stored = window.localStorage.getItem(STORAGE.theme);
  if (stored === 'light' || stored === 'dark') root.setAttribute('data-theme', stored);
  const bar = root.getAttribute(HEAD_DATA.announcementId);
  if (bar && window.localStorage.getItem(STORAGE.announcementDismissed) === bar) root.setAttribute(HEAD_DATA.announcementDismissed, '');
} catch (error) {
  root.setAttribute(HEAD_DATA.storageUnavailable, '');
  console.warn('docsgen: browser storage is unavailable, so choices such as the colour mode last only for this visit.', error);
}
