/**
 * localStorage that never throws: when storage is blocked the site keeps working for
 * this page view and a single console warning explains why choices are not remembered.
 */
let warned = false;
const memory = new Map<string, string>();

function warn(error: unknown): void {
  if (warned) return;
  warned = true;
  console.warn('docsgen: browser storage is unavailable; preferences last only for this visit.', error);
}

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch (error) {
    warn(error);
    return memory.get(key) ?? null;
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
