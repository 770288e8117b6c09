/**
 * The contract between server-rendered markup and client code: data attributes,
 * storage keys. Like every module of templates/shared/ (the only code both the build
 * and the browser import), it uses neither Node nor the DOM; it imports nothing.
 */

/**
 * Attributes the inline head script sets on <html>. Kept apart from DATA so that
 * script, inlined in every page, carries only these three names.
 */
export const HEAD_DATA = {
  /** The configured announcement id, so the head script can compare it with the dismissed one. */
  announcementId: 'data-announcement-id',
  /** Set when the current announcement was dismissed; the stylesheet hides the bar before first paint. */
  announcementDismissed: 'data-announcement-dismissed',
  /** Set once storage was found blocked, so the warning is printed once. */
  storageUnavailable: 'data-storage-unavailable',
} as const;

/** data-* attributes the client script looks for. */
export const DATA = {
  island: 'data-island',
  islandProps: 'data-island-props',
  /**
   * On an island: when it starts. "request" waits until the address fragment starts
   * with its data-island-route (a link the reader followed, or a deep link); without
   * it, islands start after load and idle.
   */
  islandStart: 'data-island-start',
  /** On an island started "request": the address fragment that asks for it (`#try/` and what follows). */
  islandRoute: 'data-island-route',
  copy: 'data-copy',
  tabs: 'data-tabs',
  tabGroup: 'data-tab-group',
  tabValue: 'data-tab-value',
  themeToggle: 'data-theme-toggle',
  menuToggle: 'data-menu-toggle',
  menuClose: 'data-menu-close',
  announcementClose: 'data-announcement-close',
  /** On a category's label: a link to its first doc that the script turns into an expand/collapse toggle. */
  sidebarCategory: 'data-sidebar-category',
  /**
   * On the docs sidebar's <nav>: URL of the JSON of every sidebar (see SidebarJson) with the
   * sidebar's name as fragment, `/assets/sidebars-HASH.json#docs`. Its items are loaded from
   * there when a reader expands a category that is not in the page.
   */
  sidebarSrc: 'data-sidebar-src',
  /** On a category's <li>: its place in the sidebar as item indexes from the top, dot-separated ("2.0"). */
  sidebarPath: 'data-sidebar-path',
  /** On a "more" link standing for items of a long list left out of the page: "path:from-to" of those items. */
  sidebarMore: 'data-sidebar-more',
  toc: 'data-toc',
  versionDropdown: 'data-version',
  /** Set on the search island by a shortcut or a click that came before it ran, so it opens as soon as it runs. */
  searchOpen: 'data-search-open',
  /** Set on the search island while it handles its button and shortcuts itself. */
  searchReady: 'data-search-ready',
  menuBack: 'data-menu-back',
  /** On a page's sidebar (<aside>): its <nav> moves into the mobile menu's secondary panel while the menu is open. */
  menuSecondary: 'data-menu-secondary',
  /** On a link: always load it with a full page load, never through the client router. */
  reload: 'data-reload',
  /** On the "Copy page" control: the URL of the page's Markdown twin. */
  copyPage: 'data-copy-page',
  /** On <html> of a site whose base URL is not '/': that base URL ('/docs-portal/'), see base-url.ts. */
  baseUrl: 'data-base-url',
} as const;

/** Fragment of the API reference's interactive console: `#try/operations/createPayment` opens it at that operation. */
export const API_CONSOLE_HASH = '#try';

/** Element ids the server markup and the client script agree on. */
export const IDS = {
  /** The part of <body> client navigation swaps: everything between the navbar and the footer. */
  page: 'docsgen-page',
  mainContent: 'main-content',
  islandsManifest: 'docsgen-islands',
  baseUrlBanner: 'docsgen-base-url-issue-banner',
  baseUrlSuggestion: 'docsgen-base-url-suggestion',
  mobileMenu: 'mobile-menu',
} as const;

/**
 * The JSON in the page's IDS.islandsManifest script: island name -> the URLs of its module
 * and stylesheets, as the bundle wrote them, for the client loader.
 */
export type IslandManifest = Record<string, { js: string; css: string[] }>;

/** Events the client script dispatches on `document`, for islands that must react to them. */
export const EVENTS = {
  /** After client navigation swapped the page; detail: { url: string }. */
  navigate: 'docsgen:navigate',
  /** After the colour mode changed; detail: 'light' | 'dark'. */
  theme: 'docsgen:theme',
  /**
   * Dispatched by watch mode when pages were rebuilt: the router forgets its copies of
   * them, so the next visit fetches them afresh. detail: { routes?: string[] }, the pages'
   * URL paths (under the base URL); no routes means every page.
   */
  invalidate: 'docsgen:invalidate',
  /**
   * Dispatched by watch mode, cancelable, when the page on screen was rebuilt. The router
   * cancels it and swaps the new version in where the reader is, without a page load;
   * uncancelled (no router on the page), watch mode reloads the page. detail: { html?: string },
   * the new page when watch mode sent it along.
   */
  refresh: 'docsgen:refresh',
} as const;

/** Texts of the error states (spec §8), shared by the server markup and the client. */
export const MESSAGES = {
  crashed: 'This page crashed.',
  tryAgain: 'Try again',
  retry: 'Retry',
  loadFailed: 'This page could not be loaded.',
} as const;

/** localStorage keys (spec §4: the colour mode is stored under 'theme'). */
export const STORAGE = {
  theme: 'theme',
  announcementDismissed: 'docsgen.announcement.dismissed',
  docsPreferredVersion: 'docs-preferred-version-default',
  tabPrefix: 'docsgen.tabs.',
} as const;

export type ColorMode = 'light' | 'dark';

/**
 * One item of a sidebar as the build writes it to the shared sidebar JSON and as the
 * page renders it. A category's href is its own doc, else its first doc or link, so its
 * label leads somewhere without JavaScript.
 */
export interface SidebarEntry {
  type: 'doc' | 'link' | 'category';
  label: string;
  href?: string;
  items?: SidebarEntry[];
  /** Extra class of the item's <li> (a doc's `sidebar_class_name`). */
  className?: string;
  /** A doc listed only on its own page (`unlisted: true`): elsewhere the item is left out. */
  unlisted?: true;
}

/** The sidebar JSON: every sidebar of the site by name. */
export type SidebarJson = Record<string, SidebarEntry[]>;

/**
 * The most items of one sidebar list a page holds: longer lists show a window around
 * the current item and "more" links for the rest, so a page's size does not grow with the site.
 */
export const SIDEBAR_WINDOW = 40;

export const ADMONITION_TYPES = ['note', 'tip', 'info', 'warning', 'danger'] as const;
export type AdmonitionType = (typeof ADMONITION_TYPES)[number];

/** Heading of an admonition written without a title, on the page and in its Markdown twin. */
export const ADMONITION_TITLES: Record<AdmonitionType, string> = {
  note: 'Note',
  tip: 'Tip',
  info: 'Info',
  warning: 'Warning',
  danger: 'Danger',
};

/** URL path of a page's Markdown twin: `/docs/x` -> `/docs/x.md`, `/` -> `/index.md`. */
export function markdownPath(route: string): string {
  return route === '/' ? '/index.md' : `${route.replace(/\/+$/, '')}.md`;
}

export interface TocItem {
  level: number;
  id: string;
  text: string;
}

/** Width at or below which the navbar collapses into the mobile menu (spec §9). */
export const MOBILE_BREAKPOINT_PX = 996;
/** Delay before the navigation progress bar appears (spec §9). */
export const PROGRESS_BAR_DELAY_MS = 200;

/**
 * Spec §2: `/x.html`, `/x/index.html` and `/x/` are the page `/x`. Used for links and
 * for the address bar, so each page has one URL.
 */
export function canonicalPath(pathname: string): string {
  let path = pathname.replace(/\/index\.html$/, '/').replace(/\.html$/, '');
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path || '/';
}

export function colorModeLabel(mode: ColorMode): string {
  return `Switch between dark and light mode (currently ${mode} mode)`;
}
