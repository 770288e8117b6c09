/**
 * The only module both the build (Node) and the browser import. It names the
 * contract between server-rendered markup and client code: island names, data
 * attributes, storage keys. No imports, so it can never pull Node or DOM code along.
 */

/** Interactive parts that load their own React chunk and hydrate. */
export const ISLANDS = ['search', 'api-reference', 'slide-deck'] as const;
export type IslandName = (typeof ISLANDS)[number];

/** data-* attributes the client script looks for. */
export const DATA = {
  island: 'data-island',
  islandProps: 'data-island-props',
  copy: 'data-copy',
  tabs: 'data-tabs',
  tabGroup: 'data-tab-group',
  tabValue: 'data-tab-value',
  themeToggle: 'data-theme-toggle',
  menuToggle: 'data-menu-toggle',
  menuClose: 'data-menu-close',
  announcementClose: 'data-announcement-close',
  sidebarCategory: 'data-sidebar-category',
  toc: 'data-toc',
  versionDropdown: 'data-version',
  liveReload: 'data-live-reload',
} as const;

/** localStorage keys (spec §4: the colour mode is stored under 'theme'). */
export const STORAGE = {
  theme: 'theme',
  announcementDismissed: 'docsgen.announcement.dismissed',
  docsPreferredVersion: 'docs-preferred-version-default',
  tabPrefix: 'docsgen.tabs.',
} as const;

export type ColorMode = 'light' | 'dark';

export const ADMONITION_TYPES = ['note', 'tip', 'info', 'warning', 'danger'] as const;
export type AdmonitionType = (typeof ADMONITION_TYPES)[number];

export interface TocItem {
  level: number;
  id: string;
  text: string;
}

/** Width at or below which the navbar collapses into the mobile menu (spec §9). */
export const MOBILE_BREAKPOINT_PX = 996;
/** Delay before the navigation progress bar appears (spec §9). */
export const PROGRESS_BAR_DELAY_MS = 200;

export function colorModeLabel(mode: ColorMode): string {
  return `Switch between dark and light mode (currently ${mode} mode)`;
}
