import { DATA, STORAGE, colorModeLabel, type ColorMode } from '../shared.ts';
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

export function setMode(mode: ColorMode): void {
  document.documentElement.setAttribute('data-theme', mode);
  writeStorage(STORAGE.theme, mode);
  syncThemeToggles();
  document.dispatchEvent(new CustomEvent('docsgen:theme', { detail: mode }));
}

export function initTheme(): void {
  syncThemeToggles();
  document.addEventListener('click', (event) => {
    const toggle = (event.target as Element | null)?.closest?.(`[${DATA.themeToggle}]`);
    if (toggle) setMode(currentMode() === 'dark' ? 'light' : 'dark');
  });
}
