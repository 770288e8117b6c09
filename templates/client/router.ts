/**
 * Client-side navigation (spec §2 "Navigation behaviour"). Every page is pre-rendered
 * HTML, so navigating means: fetch the target's HTML, swap the part of <body> that
 * differs (#docsgen-page and the navbar), update <head>, `lang`, the sidebar and
 * history, then scroll and move focus as a full page load would. Anything unexpected
 * (a 5xx, a network error, a page built with other assets) falls back to a normal
 * page load, so the worst case is the behaviour of a site without this script.
 * Offline, where a page load cannot work either, the page shows the error and "Retry".
 *
 * Pages are also fetched ahead of the click: on hover and touchstart, and when a link
 * scrolls into view, unless the reader saves data or is on a 2g connection. Each page
 * is fetched at most once per visit.
 */
import { DATA, EVENTS, IDS, MESSAGES, PROGRESS_BAR_DELAY_MS, canonicalPath } from '../shared/index.ts';
import { isMounted, mountEagerIslands, unmountIslands } from './islands.ts';
import { closeMenu } from './menu.ts';
import type { RefreshDetail } from './morph.ts';
import { keepSidebar, sameSidebar } from './sidebar.ts';
import { restoreTabs } from './tabs.ts';
import { syncThemeToggles } from './theme.ts';
import { updateToc } from './toc.ts';

type Loaded =
  | { ok: true; html: string }
  | { ok: false; reason: 'network' | 'http' | 'not-html'; message: string };

/**
 * What the router keeps in a history entry, under its own name: an island with its own
 * routing (the API reference) may keep its state in the same entries.
 */
interface EntryData {
  key: string;
  scroll?: [number, number];
}
type RouterState = { docsgen: EntryData };

type Mode = 'push' | 'replace' | 'pop';

const cache = new Map<string, Promise<Loaded>>();
const positions = new Map<string, [number, number]>();
const prefetchQueue: string[] = [];
const PREFETCH_CONCURRENCY = 2;
/**
 * Pages prefetched from one batch of links that came into view together. A docs page shows
 * dozens of sidebar links at once; fetching them all would spend a reader's mobile data on
 * pages they will not open. Links scrolled into view later, and hovered or touched links,
 * are still prefetched.
 */
const VISIBLE_PREFETCH_LIMIT = 8;
let prefetching = 0;
/** The path the site is served under (see shared/base-url.ts); read here, not imported, to keep the code before load small. */
const BASE_URL = document.documentElement.getAttribute(DATA.baseUrl) ?? '/';

/**
 * The one address of a page (see canonicalPath); the home page of a site under a base URL
 * keeps its slash ('/portal/'), the address the server and the canonical link give it.
 */
function pagePath(pathname: string): string {
  const path = canonicalPath(pathname);
  return path === BASE_URL.slice(0, -1) ? BASE_URL : path;
}

/** Path of the page on screen: it changes only when a page was swapped in. */
let currentPath = pagePath(location.pathname);
let currentKey = '';
let navigationId = 0;
/** True from a click or back/forward until the new page is on screen: scrolling then belongs to neither entry. */
let pending = false;
let scrollTimer: number | undefined;
let progressTimer: number | undefined;
let observer: IntersectionObserver | undefined;
const observed = new WeakSet<Element>();

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

function isRouterState(state: unknown): state is RouterState {
  const data = typeof state === 'object' && state !== null ? (state as Partial<RouterState>).docsgen : undefined;
  return typeof data === 'object' && data !== null && typeof data.key === 'string';
}

/** The entry's state with the router's part set, keeping whatever else is there. */
function withEntry(state: unknown, data: EntryData): RouterState {
  return { ...(typeof state === 'object' && state !== null ? state : {}), docsgen: data };
}

/**
 * The link's URL when the router should handle it: same origin, a page (not a download or a file), opened in this tab,
 * and not inside an island. An island's links belong to the island: Stoplight Elements, for one, writes
 * `/operations/x` for routes of its own memory router, which are no pages of the site to preload or visit.
 */
export function routableUrl(anchor: HTMLAnchorElement): URL | null {
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download') || anchor.hasAttribute(DATA.reload)) return null;
  if (anchor.closest(`[${DATA.island}]`)) return null;
  let url: URL;
  try {
    url = new URL(anchor.href, location.href);
  } catch {
    return null;
  }
  if (url.origin !== location.origin || !/^https?:$/.test(url.protocol)) return null;
  // Outside the base URL is another site on this host; its downloads and assets are files, not pages.
  if (!url.pathname.startsWith(BASE_URL) || /^(openapi|assets)\//.test(url.pathname.slice(BASE_URL.length))) return null;
  if (/\.[a-z0-9]{1,8}$/i.test(url.pathname) && !url.pathname.endsWith('.html')) return null;
  return url;
}

function anchorOf(target: EventTarget | null): HTMLAnchorElement | null {
  const anchor = (target as Element | null)?.closest?.('a[href]');
  return anchor instanceof HTMLAnchorElement ? anchor : null;
}

// ---------------------------------------------------------------- fetching

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function fetchPage(path: string, priority: 'high' | 'low', cacheMode: RequestCache = 'default'): Promise<Loaded> {
  try {
    const response = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'text/html' }, priority, cache: cacheMode });
    if (!response.ok && response.status !== 404) {
      return { ok: false, reason: 'http', message: `The server answered ${response.status} ${response.statusText}`.trim() };
    }
    if (!(response.headers.get('content-type') ?? '').includes('text/html')) {
      return { ok: false, reason: 'not-html', message: `${path} is not an HTML page` };
    }
    // The server answers an unknown path with the not-found page and status 404: that page is shown.
    return { ok: true, html: await response.text() };
  } catch (error) {
    return { ok: false, reason: 'network', message: errorText(error) };
  }
}

/** One request per page and visit: a prefetch in flight is reused by the click that follows it. */
function load(path: string, priority: 'high' | 'low'): Promise<Loaded> {
  let promise = cache.get(path);
  if (!promise) {
    promise = fetchPage(path, priority);
    cache.set(path, promise);
    void promise.then((result) => {
      if (!result.ok) cache.delete(path);
    });
  }
  return promise;
}

// ---------------------------------------------------------------- prefetch

interface NetworkInformationLike {
  saveData?: boolean;
  effectiveType?: string;
}

/** Spec §2: no prefetching on 2g or when the reader asked to save data. */
export function prefetchAllowed(): boolean {
  const connection = (navigator as Navigator & { connection?: NetworkInformationLike }).connection;
  if (!connection) return true;
  return !connection.saveData && !(connection.effectiveType ?? '').includes('2g');
}

function prefetchPath(anchor: HTMLAnchorElement): string | null {
  const url = routableUrl(anchor);
  if (!url || !prefetchAllowed()) return null;
  const path = pagePath(url.pathname);
  return path === currentPath || cache.has(path) ? null : path;
}

function idle(callback: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(callback, { timeout: 2000 });
  else window.setTimeout(callback, 50);
}

function pumpPrefetch(): void {
  while (prefetching < PREFETCH_CONCURRENCY && prefetchQueue.length > 0) {
    const path = prefetchQueue.shift()!;
    if (cache.has(path) || !prefetchAllowed()) continue;
    prefetching++;
    idle(() => {
      void load(path, 'low').finally(() => {
        prefetching--;
        pumpPrefetch();
      });
    });
  }
}

function observeLinks(root: ParentNode): void {
  if (!observer) return;
  for (const anchor of root.querySelectorAll('a[href]')) {
    if (observed.has(anchor)) continue;
    observed.add(anchor);
    observer.observe(anchor);
  }
}

function initPrefetch(): void {
  const hover = (event: Event) => {
    const anchor = anchorOf(event.target);
    const path = anchor && prefetchPath(anchor);
    if (path) void load(path, 'high');
  };
  document.addEventListener('mouseover', hover, { passive: true });
  document.addEventListener('touchstart', hover, { passive: true });
  if (typeof IntersectionObserver !== 'function') return;
  observer = new IntersectionObserver((entries) => {
    const visible: HTMLAnchorElement[] = [];
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer?.unobserve(entry.target);
      if (entry.target instanceof HTMLAnchorElement) visible.push(entry.target);
    }
    // The likeliest next pages first: links in the content, then the sidebar's neighbours of the current page.
    const sidebar = Array.from(document.querySelectorAll<HTMLAnchorElement>('.doc-sidebar a.menu__link'));
    const active = sidebar.findIndex((a) => a.getAttribute('aria-current') === 'page');
    const rank = (anchor: HTMLAnchorElement) => {
      if (anchor.closest('main')) return 0;
      const index = sidebar.indexOf(anchor);
      return index >= 0 && active >= 0 ? 1 + Math.abs(index - active) : 1000;
    };
    let budget = VISIBLE_PREFETCH_LIMIT;
    for (const anchor of visible.sort((a, b) => rank(a) - rank(b))) {
      const path = prefetchPath(anchor);
      if (!path || prefetchQueue.includes(path)) continue;
      if (budget-- <= 0) break;
      prefetchQueue.push(path);
    }
    pumpPrefetch();
  });
  // Visible links wait until the page itself has loaded: they must not compete with it.
  const start = () => idle(() => observeLinks(document));
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

// ---------------------------------------------------------------- progress

function progressBar(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.progress-bar[role="progressbar"]');
}

function startProgress(): void {
  window.clearTimeout(progressTimer);
  progressTimer = window.setTimeout(() => {
    const bar = progressBar();
    if (!bar) return;
    bar.hidden = false;
    bar.removeAttribute('aria-hidden');
    bar.setAttribute('aria-valuetext', 'Loading page');
    document.getElementById(IDS.page)?.setAttribute('aria-busy', 'true');
  }, PROGRESS_BAR_DELAY_MS);
}

function stopProgress(): void {
  window.clearTimeout(progressTimer);
  progressTimer = undefined;
  const bar = progressBar();
  if (bar) {
    bar.hidden = true;
    bar.setAttribute('aria-hidden', 'true');
  }
  document.getElementById(IDS.page)?.removeAttribute('aria-busy');
}

// ---------------------------------------------------------------- history and scroll

function saveScroll(): void {
  const scroll: [number, number] = [window.scrollX, window.scrollY];
  positions.set(currentKey, scroll);
  try {
    history.replaceState(withEntry(history.state, { key: currentKey, scroll }), '');
  } catch {
    // Safari limits how often history may change; the in-memory position still serves back/forward.
  }
}

function writeHistory(mode: Mode, url: string): void {
  if (mode === 'pop') return;
  currentKey = newKey();
  const state: RouterState = { docsgen: { key: currentKey } };
  if (mode === 'push') history.pushState(state, '', url);
  else history.replaceState(state, '', url);
}

function scrollToHash(hash: string): boolean {
  if (!hash || hash === '#') return false;
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed escape: look the id up as written.
  }
  const target = document.getElementById(id) ?? document.getElementsByName(id)[0];
  if (!target) return false;
  target.scrollIntoView();
  return true;
}

// ---------------------------------------------------------------- swapping

/** Head tags that describe the page; the rest of <head> (scripts, styles, icons) stays. */
const PAGE_HEAD = 'meta[name]:not([name="viewport"]), meta[property], link[rel="canonical"], link[rel="alternate"], link[rel="modulepreload"], script#docsgen-islands';

function syncHead(next: Document): void {
  document.title = next.title;
  const incoming = Array.from(next.head.querySelectorAll(PAGE_HEAD));
  const wanted = new Set(incoming.map((el) => el.outerHTML));
  const present = new Set<string>();
  for (const el of document.head.querySelectorAll(PAGE_HEAD)) {
    if (wanted.has(el.outerHTML)) present.add(el.outerHTML);
    else el.remove();
  }
  for (const el of incoming) {
    if (!present.has(el.outerHTML)) document.head.append(document.importNode(el, true));
  }
  for (const name of ['lang', 'dir']) {
    const value = next.documentElement.getAttribute(name);
    if (value) document.documentElement.setAttribute(name, value);
    else document.documentElement.removeAttribute(name);
  }
}

/** A page built with other scripts or styles (a deploy happened meanwhile) needs a real load to run them. */
function assetsDiffer(next: Document): boolean {
  const script = (doc: Document) => doc.querySelector('script[type="module"][src]')?.getAttribute('src');
  if (script(next) !== script(document)) return true;
  const have = new Set(Array.from(document.querySelectorAll('link[rel="stylesheet"]'), (l) => l.getAttribute('href')));
  return Array.from(next.querySelectorAll('link[rel="stylesheet"]')).some((l) => !have.has(l.getAttribute('href')));
}

/** The navbar changes with the page (active item, version dropdown, the mobile menu's sidebar); search keeps running. */
function swapNavbar(next: Document): void {
  const oldNavbar = document.querySelector('.navbar');
  const incoming = next.querySelector('.navbar');
  if (!oldNavbar || !incoming) return;
  const newNavbar = document.adoptNode(incoming);
  const liveSearch = oldNavbar.querySelector(`[${DATA.island}="search"]`);
  const newSearch = newNavbar.querySelector(`[${DATA.island}="search"]`);
  if (liveSearch && newSearch) newSearch.replaceWith(liveSearch);
  oldNavbar.replaceWith(newNavbar);
}

function swap(next: Document): HTMLElement {
  const oldPage = document.getElementById(IDS.page);
  const incoming = next.getElementById(IDS.page);
  if (!oldPage || !incoming) throw new Error('the page has no #docsgen-page element');
  const newPage = document.adoptNode(incoming);
  unmountIslands(oldPage);
  keepSidebar(oldPage, newPage);
  syncHead(next);
  swapNavbar(next);
  oldPage.replaceWith(newPage);
  syncThemeToggles();
  restoreTabs(newPage);
  return newPage;
}

let announcer: HTMLElement | undefined;

/** Screen readers hear the new page's title, as they would on a page load. */
function announce(text: string): void {
  if (!announcer?.isConnected) {
    announcer = document.createElement('div');
    announcer.className = 'visually-hidden';
    announcer.setAttribute('aria-live', 'assertive');
    announcer.setAttribute('aria-atomic', 'true');
    document.body.append(announcer);
  }
  announcer.textContent = text;
}

function focusContent(page: HTMLElement): void {
  const main = document.getElementById(IDS.mainContent) ?? page;
  if (!main.hasAttribute('tabindex')) main.tabIndex = -1;
  main.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- failure states

function fullLoad(url: string, mode: Mode): void {
  if (mode === 'pop') location.reload();
  else if (mode === 'replace') location.replace(url);
  else location.assign(url);
}

/** Offline, a page load would only show the browser's error page; this keeps the site and offers a retry. */
function showRetry(url: string, mode: Mode, message: string): void {
  writeHistory(mode, url);
  const page = document.getElementById(IDS.page);
  if (!page) return;
  unmountIslands(page);
  const main = document.createElement('main');
  main.id = IDS.mainContent;
  main.className = 'page-main load-error';
  main.tabIndex = -1;
  const box = document.createElement('div');
  box.className = 'container load-error__container';
  box.setAttribute('role', 'alert');
  const title = document.createElement('h1');
  title.textContent = MESSAGES.loadFailed;
  const detail = document.createElement('p');
  detail.className = 'load-error__message';
  detail.textContent = `${message} (${url}).${navigator.onLine ? '' : ' You appear to be offline; check the connection, then retry.'}`;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button button--primary load-error__retry';
  button.textContent = MESSAGES.retry;
  button.addEventListener('click', () => void navigate(new URL(url, location.href), 'replace'));
  box.append(title, detail, button);
  main.append(box);
  page.replaceChildren(main);
  currentPath = '';
  window.scrollTo(0, 0);
  focusContent(page);
  announce(MESSAGES.loadFailed);
}

// ---------------------------------------------------------------- navigation

export async function navigate(target: URL, mode: Mode): Promise<void> {
  const id = ++navigationId;
  const path = pagePath(target.pathname);
  const url = `${path}${target.search}${target.hash}`;
  closeMenu(false);
  if (mode !== 'pop') saveScroll();
  pending = true;
  startProgress();
  const result = await load(path, 'high');
  // A later click or back/forward won the race; its own navigation finishes the job.
  if (id !== navigationId) return;
  pending = false;
  stopProgress();
  if (!result.ok) {
    if (result.reason === 'network' && !navigator.onLine) showRetry(url, mode, result.message);
    else fullLoad(url, mode);
    return;
  }
  let page: HTMLElement;
  try {
    const next = new DOMParser().parseFromString(result.html, 'text/html');
    if (!next.getElementById(IDS.page) || assetsDiffer(next)) {
      fullLoad(url, mode);
      return;
    }
    // The not-found page keeps the address the reader asked for.
    writeHistory(mode, url);
    page = swap(next);
  } catch (error) {
    console.error('docsgen: client navigation failed; loading the page normally.', error);
    fullLoad(url, mode);
    return;
  }
  currentPath = path;
  const saved = mode === 'pop' ? (positions.get(currentKey) ?? (isRouterState(history.state) ? history.state.docsgen.scroll : undefined)) : undefined;
  if (saved) window.scrollTo(saved[0], saved[1]);
  else if (!scrollToHash(target.hash)) window.scrollTo(0, 0);
  focusContent(page);
  announce(document.title);
  updateToc();
  observeLinks(page);
  observeLinks(document.querySelector('.navbar') ?? page);
  mountEagerIslands(page);
  document.dispatchEvent(new CustomEvent(EVENTS.navigate, { detail: { url } }));
}

/** A real page load that comes back where the reader is: initRouter() restores the entry's position. */
function reloadHere(): void {
  saveScroll();
  location.reload();
}

/**
 * Watch mode rebuilt the page on screen: the new version replaces it where the reader is
 * (scroll position, open sidebar categories, focus outside the page, search), which is
 * quicker than a page load and keeps the author's place. A page whose scripts or styles
 * changed, or that runs an island, is loaded anew instead.
 */
async function refresh({ html, morph, keepLive }: RefreshDetail): Promise<void> {
  const path = currentPath;
  cache.delete(path);
  // A navigation is under way: the reader is leaving this page.
  if (pending) return;
  const page = document.getElementById(IDS.page);
  if (!path || !page || Array.from(page.querySelectorAll<HTMLElement>(`[${DATA.island}]`)).some(isMounted)) return reloadHere();
  const result: Loaded = html !== undefined ? { ok: true, html } : await fetchPage(`${path}${location.search}`, 'high', 'no-cache');
  // The reader moved on meanwhile: the page they went to is fetched afresh anyway.
  if (pending || path !== currentPath) return;
  if (!result.ok) return reloadHere();
  const next = new DOMParser().parseFromString(result.html, 'text/html');
  const incoming = next.getElementById(IDS.page);
  if (!incoming || assetsDiffer(next)) return reloadHere();
  const [x, y] = [window.scrollX, window.scrollY];
  // The sidebar as the reader left it, unless its items changed; the search island as it runs.
  const sidebar = page.querySelector('.doc-sidebar');
  const nextSidebar = incoming.querySelector('.doc-sidebar');
  if (sidebar && nextSidebar && sameSidebar(sidebar, nextSidebar)) keepLive(sidebar, nextSidebar);
  const navbar = document.querySelector('.navbar');
  const nextNavbar = next.querySelector('.navbar');
  const search = navbar?.querySelector(`[${DATA.island}="search"]`);
  const nextSearch = nextNavbar?.querySelector(`[${DATA.island}="search"]`);
  if (search && nextSearch) keepLive(search, nextSearch);
  syncHead(next);
  if (navbar && nextNavbar) morph(navbar, nextNavbar);
  // Islands waiting for a first interaction are armed again below, on the elements that stay.
  unmountIslands(page);
  morph(page, incoming);
  syncThemeToggles();
  const fresh = document.getElementById(IDS.page) ?? page;
  restoreTabs(fresh);
  window.scrollTo(x, y);
  updateToc();
  observeLinks(fresh);
  observeLinks(document.querySelector('.navbar') ?? fresh);
  mountEagerIslands(fresh);
}

function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = anchorOf(event.target);
  const url = anchor && routableUrl(anchor);
  if (!url) return;
  const path = pagePath(url.pathname);
  if (path === currentPath && url.search === location.search) {
    saveScroll();
    // A #fragment of this page is the browser's job (focus, :target, hashchange).
    if (url.hash) return;
    event.preventDefault();
    if (location.hash) writeHistory('push', `${path}${url.search}`);
    window.scrollTo(0, 0);
    return;
  }
  event.preventDefault();
  void navigate(url, 'push');
}

function onPopState(event: PopStateEvent): void {
  window.clearTimeout(scrollTimer);
  const state: unknown = event.state;
  const path = pagePath(location.pathname);
  if (state === null && path === currentPath) {
    // A #fragment the browser navigated to: the entry joins the router's, to get a scroll position too.
    currentKey = newKey();
    history.replaceState(withEntry(state, { key: currentKey }), '');
    return;
  }
  positions.set(currentKey, [window.scrollX, window.scrollY]);
  currentKey = isRouterState(state) ? state.docsgen.key : newKey();
  // An island's own routing (the API reference) below this page: the island handles it.
  if (!isRouterState(state) && path.startsWith(`${currentPath}/`)) return;
  if (path === currentPath) {
    const saved = positions.get(currentKey) ?? (isRouterState(state) ? state.docsgen.scroll : undefined);
    if (saved) window.scrollTo(saved[0], saved[1]);
    else if (isRouterState(state)) scrollToHash(location.hash);
    return;
  }
  void navigate(new URL(location.href), 'pop');
}

export function initRouter(): void {
  // Scroll positions are restored by this script once the right page is on screen.
  history.scrollRestoration = 'manual';
  const existing: unknown = history.state;
  const entry: EntryData = isRouterState(existing) ? existing.docsgen : { key: newKey() };
  currentKey = entry.key;
  const canonical = `${currentPath}${location.search}${location.hash}`;
  const shown = `${location.pathname}${location.search}${location.hash}`;
  history.replaceState(withEntry(existing, entry), '', canonical !== shown ? canonical : undefined);
  // Reloads and returns from another site restore the position this entry had.
  if (entry.scroll) {
    const [x, y] = entry.scroll;
    const restore = () => window.scrollTo(x, y);
    if (document.readyState === 'complete') restore();
    else window.addEventListener('load', restore, { once: true });
  }
  // Kept in the entry as the reader scrolls (a reload does not keep changes made while unloading).
  window.addEventListener(
    'scroll',
    () => {
      window.clearTimeout(scrollTimer);
      scrollTimer = window.setTimeout(() => {
        if (!pending) saveScroll();
      }, 150);
    },
    { passive: true },
  );
  document.addEventListener('click', onClick);
  window.addEventListener('popstate', onPopState);
  document.addEventListener(EVENTS.invalidate, (event) => {
    const routes = (event as CustomEvent<{ routes?: string[] } | null>).detail?.routes;
    if (!routes) cache.clear();
    else for (const route of routes) cache.delete(pagePath(route));
  });
  document.addEventListener(EVENTS.refresh, (event) => {
    const detail = (event as CustomEvent<RefreshDetail | null>).detail;
    // Not from the live-reload script of this docsgen: leave it the page load it asks for.
    if (typeof detail?.morph !== 'function') return;
    event.preventDefault();
    refresh(detail).catch((error: unknown) => {
      console.error('docsgen: updating the page in place failed; reloading it.', error);
      reloadHere();
    });
  });
  initPrefetch();
}
