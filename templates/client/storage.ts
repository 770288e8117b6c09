/**
 * localStorage that never throws: when storage is blocked (private modes, disabled
 * cookies, a full quota) choices live in memory for this visit, which client
 * navigation keeps alive, and a single console warning explains why they are not
 * remembered. The head script may already have printed that warning.
 */
import { HEAD_DATA } from '../shared/index.ts';

const memory = new Map<string, string>();

function warn(error: unknown): void {
  const root = document.documentElement;
  if (root.hasAttribute(HEAD_DATA.storageUnavailable)) return;
  root.setAttribute(HEAD_DATA.storageUnavailable, '');
  console.warn('docsgen: browser storage is unavailable, so choices such as the colour mode last only for this visit.', error);
}

export function readStorage(key: string): string | null {
  if (memory.has(key)) return memory.get(key) ?? null;
  try {
    return window.localStorage.getItem(key);
  } catch (error) {
    warn(error);
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  memory.set(key, value);
  try {
    window.localStorage.setItem(key, value);
  } catch (error) {
    warn(error);
  }
}
