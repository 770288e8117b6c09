/**
 * Site-wide data every component may read while rendering on the server: the parts of
 * the resolved config the chrome needs, and the sidebars. Serializable on purpose.
 */
import { createContext, useContext } from 'react';
import type { ColorMode, SidebarEntry } from '../shared/index.ts';
import type { ThemeData } from './ThemeColors.tsx';

export interface LinkData {
  label: string;
  to?: string;
  href?: string;
}

/** A navbar link: `activeBasePath` (config, normalised to '/docs/sdk') marks it active on every page under that path. */
export interface NavLinkData extends LinkData {
  activeBasePath?: string;
}

export interface NavItemData extends NavLinkData {
  items?: NavLinkData[];
}

/** The docs sidebar of one page: the whole sidebar (shared by its pages) and where the page is in it. */
export interface PageSidebar {
  /** The sidebar's name in the shared sidebar JSON. */
  name: string;
  /** URL of the shared sidebar JSON. */
  src: string;
  items: SidebarEntry[];
  /** Item indexes from the top down to the current doc. */
  current: number[];
}

export interface SiteData {
  title: string;
  tagline: string;
  url: string;
  /** Path the site is served under ('/' or '/docs-portal/'); links in the markup are written from the site's root and put under it after rendering. */
  baseUrl: string;
  /** Favicon URL from the config. */
  favicon: string;
  locale: { code: string; label: string; direction: 'ltr' | 'rtl' };
  contentLanguage?: string;
  copyright: string;
  colorMode: { defaultMode: ColorMode; disableSwitch: boolean };
  /** Brand colours from the config's `theme.colors`; absent, the stylesheet's defaults apply. */
  theme?: ThemeData;
  announcementBar?: { id: string; content: string; dismissible: boolean };
  navbar: { title: string; logo?: { src: string; alt: string }; items: NavItemData[] };
  footer: { links: { title: string; items: LinkData[] }[] };
  docs: { routeBasePath: string; versionLabel: string; versionName: string };
  blog: { routeBasePath: string; title: string };
  /** Texts of the page tools (copy page, edit link, last updated), from the config. */
  labels: PageToolLabels;
}

export interface PageToolLabels {
  editThisPage: string;
  /** Holds "{date}". */
  lastUpdated: string;
  copyPage: string;
  copied: string;
  viewAsMarkdown: string;
  pageActions: string;
  moreActions: string;
}

export const SiteContext = createContext<SiteData | null>(null);

export function useSite(): SiteData {
  const site = useContext(SiteContext);
  if (!site) throw new Error('useSite() called outside <SiteContext.Provider>: layouts must be rendered through render.ts.');
  return site;
}

/** Per-page data the chrome needs (active route, doc sidebar for the mobile menu). */
export interface PageContextData {
  route: string;
  sidebar?: PageSidebar;
  /** The page has a sidebar (docs or blog) that the mobile menu shows in its secondary panel. */
  menuSidebar?: boolean;
}

export const PageContext = createContext<PageContextData>({ route: '/' });
export const usePage = () => useContext(PageContext);
