import { DATA, IDS, MOBILE_BREAKPOINT_PX } from '../shared/index.ts';

// summary: the navbar's dropdowns are <details> groups in the menu.
const FOCUSABLE = 'a[href], button:not([disabled]), summary, input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let lastFocus: HTMLElement | null = null;

function menu(): HTMLElement | null {
  return document.getElementById(IDS.mobileMenu);
}

/** Only what is rendered counts: the primary or the docs list is display:none while the other shows. */
function visibleFocusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0);
}

function items(panel: HTMLElement): HTMLElement | null {
  return panel.querySelector<HTMLElement>('.mobile-menu__items');
}

/**
 * The page has one sidebar (the docs' or the blog's): while the menu is open it lives in the
 * menu's panel (inside the dialog, for focus and screen readers), and it goes back into the
 * page when the menu closes, with the categories the reader opened.
 */
function moveSidebar(panel: HTMLElement, intoMenu: boolean): void {
  const [from, to] = [document.querySelector(`[${DATA.menuSecondary}]`), panel.querySelector('.mobile-menu__secondary')];
  const nav = (intoMenu ? from : to)?.querySelector('nav');
  if (from && to && nav) (intoMenu ? to : from).append(nav);
}

export function openMenu(): void {
  const panel = menu();
  if (!panel || !panel.hidden) return;
  lastFocus = document.activeElement as HTMLElement | null;
  moveSidebar(panel, true);
  // On doc and blog pages the menu opens on their sidebar, every time.
  if (panel.querySelector('.mobile-menu__secondary')) items(panel)?.classList.add('mobile-menu__items--secondary');
  panel.hidden = false;
  document.documentElement.classList.add('menu-open');
  document.querySelector(`[${DATA.menuToggle}]`)?.setAttribute('aria-expanded', 'true');
  panel.querySelector<HTMLElement>('.mobile-menu__close')?.focus();
}

export function closeMenu(restoreFocus = true): void {
  const panel = menu();
  if (!panel || panel.hidden) return;
  panel.hidden = true;
  moveSidebar(panel, false);
  document.documentElement.classList.remove('menu-open');
  document.querySelector(`[${DATA.menuToggle}]`)?.setAttribute('aria-expanded', 'false');
  if (restoreFocus && lastFocus?.isConnected) lastFocus.focus();
  lastFocus = null;
}

/**
 * The mobile menu: opens from the navbar button, traps focus, closes on Escape, on the
 * backdrop and on navigation, and locks body scroll (the `menu-open` class) while open.
 */
export function initMenu(): void {
  // A sidebar category's label or "more" link claims its click (sidebar.ts runs first): the menu stays open then.
  document.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    if (target?.closest?.(`[${DATA.menuToggle}]`)) openMenu();
    else if (target?.closest?.(`[${DATA.menuClose}]`)) closeMenu();
    else if (target?.closest?.(`[${DATA.menuBack}]`)) {
      const panel = menu();
      if (!panel) return;
      items(panel)?.classList.remove('mobile-menu__items--secondary');
      panel.querySelector<HTMLElement>('.mobile-menu__primary a')?.focus();
    } else if (!event.defaultPrevented && target?.closest?.(`#${IDS.mobileMenu} a[href]`)) closeMenu(false);
  });
  document.addEventListener('keydown', (event) => {
    const panel = menu();
    if (!panel || panel.hidden) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      closeMenu();
    } else if (event.key === 'Tab') {
      const list = visibleFocusables(panel);
      const first = list[0];
      const last = list[list.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      if (!active || !panel.contains(active)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (event.shiftKey && active === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  // Focus that escapes the dialog some other way (a script, a click on the page behind) comes back.
  document.addEventListener('focusin', (event) => {
    const panel = menu();
    if (!panel || panel.hidden) return;
    const target = event.target as Node | null;
    if (target && !panel.contains(target)) visibleFocusables(panel)[0]?.focus();
  });
  // Crossing the breakpoint with the menu open would leave body scroll locked.
  window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX + 1}px)`).addEventListener('change', (event) => {
    if (event.matches) closeMenu(false);
  });
}
