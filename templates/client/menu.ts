import { DATA } from '../shared.ts';

const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

let lastFocus: HTMLElement | null = null;

function menu(): HTMLElement | null {
  return document.getElementById('mobile-menu');
}

function visibleFocusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null || el === document.activeElement);
}

export function openMenu(): void {
  const panel = menu();
  if (!panel || !panel.hidden) return;
  lastFocus = document.activeElement as HTMLElement | null;
  panel.hidden = false;
  document.documentElement.classList.add('menu-open');
  document.querySelector(`[${DATA.menuToggle}]`)?.setAttribute('aria-expanded', 'true');
  panel.querySelector<HTMLElement>('.mobile-menu__close')?.focus();
}

export function closeMenu(restoreFocus = true): void {
  const panel = menu();
  if (!panel || panel.hidden) return;
  panel.hidden = true;
  document.documentElement.classList.remove('menu-open');
  document.querySelector(`[${DATA.menuToggle}]`)?.setAttribute('aria-expanded', 'false');
  if (restoreFocus) lastFocus?.focus();
}

/** The mobile menu: opens from the navbar button, traps focus, closes on Escape, backdrop or navigation. */
export function initMenu(): void {
  document.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    if (target?.closest?.(`[${DATA.menuToggle}]`)) openMenu();
    else if (target?.closest?.(`[${DATA.menuClose}]`)) closeMenu();
    else if (target?.closest?.('[data-menu-back]')) {
      menu()?.querySelector('.mobile-menu__items')?.classList.remove('mobile-menu__items--secondary');
      menu()?.querySelector<HTMLElement>('.mobile-menu__primary a')?.focus();
    } else if (target?.closest?.('#mobile-menu a[href]')) closeMenu(false);
  });
  document.addEventListener('keydown', (event) => {
    const panel = menu();
    if (!panel || panel.hidden) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      closeMenu();
    } else if (event.key === 'Tab') {
      const items = visibleFocusables(panel);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  // Crossing the breakpoint with the menu open would leave body scroll locked.
  window.matchMedia('(min-width: 997px)').addEventListener('change', (event) => {
    if (event.matches) closeMenu(false);
  });
}
