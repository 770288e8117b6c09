import { DATA, EVENTS, STORAGE, colorModeLabel, type ColorMode } from '../shared/index.ts';
import { writeStorage } from './storage.ts';

function currentMode(): ColorMode {
  return document.documentElement.getAttribute('data-theme') === 'dark' ? 'dark' : 'light';
}

/** Labels follow the mode that is applied, which the inline head script may have changed. */
export function syncThemeToggles(): void {
  const label = colorModeLabel(currentMode());
  for (const button of document.querySelectorAll<HTMLButtonElement>(`[${DATA.themeToggle}]`)) {
    button.setAttribute('aria-label', label);
    button.title = label;
  }
}

function apply(mode: ColorMode): void {
  document.documentElement.setAttribute('data-theme', mode);
  syncThemeToggles();
  document.dispatchEvent(new CustomEvent(EVENTS.theme, { detail: mode }));
}

export function setMode(mode: ColorMode): void {
  apply(mode);
  writeStorage(STORAGE.theme, mode);
}

export function initTheme(): void {
  syncThemeToggles();
  document.addEventListener('click', (event) => {
    const toggle = (event.target as Element | null)?.closest?.(`[${DATA.themeToggle}]`);
    if (toggle) setMode(currentMode() === 'dark' ? 'light' : 'dark');
  });
  // A choice made in another tab applies here too, as it will on the next load.
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE.theme && (event.newValue === 'light' || event.newValue === 'dark')) apply(event.newValue);
  });
}
