/**
 * Inlined in <head> and run before first paint: applies the stored colour mode and
 * hides a dismissed announcement, so neither flashes. Storage may throw (private
 * modes, blocked cookies): then the default stays and only a warning is printed.
 */
import { STORAGE } from '../shared.ts';

const root = document.documentElement;
try {
  const stored = window.localStorage.getItem(STORAGE.theme);
  if (stored === 'light' || stored === 'dark') root.setAttribute('data-theme', stored);
  const dismissed = window.localStorage.getItem(STORAGE.announcementDismissed);
  if (dismissed) root.setAttribute('data-announcement-dismissed', dismissed);
} catch (error) {
  console.warn('docsgen: browser storage is unavailable; the colour mode will not be remembered.', error);
}
