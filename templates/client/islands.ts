/**
 * Loads island modules on demand. The page lists the islands it uses, with their
 * hashed URLs, in a JSON script tag; each module exports mount(element, props) and
 * returns an unmount function, so client navigation can swap pages cleanly.
 * An island that fails to load or to mount shows the crash message with "Try again"
 * in its own place; the rest of the page keeps working. React islands get the same
 * message from the error boundary in island-root.tsx.
 */
import { DATA, IDS, MESSAGES, type IslandManifest } from '../shared/index.ts';

export interface IslandModule {
  mount(element: HTMLElement, props: unknown): (() => void) | void;
}

const mounted = new Map<HTMLElement, () => void>();
const loading = new Map<string, Promise<IslandModule>>();
let attempts = 0;

function manifest(): IslandManifest {
  const script = document.getElementById(IDS.islandsManifest);
  try {
    return script?.textContent ? (JSON.parse(script.textContent) as IslandManifest) : {};
  } catch {
    return {};
  }
}

function loadCss(href: string): Promise<void> {
  if (document.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = () => resolve();
    link.onerror = () => resolve();
    document.head.append(link);
  });
}

export function loadIsland(name: string): Promise<IslandModule> | undefined {
  const entry = manifest()[name];
  if (!entry) return undefined;
  let promise = loading.get(entry.js);
  if (!promise) {
    // A failed module fetch stays failed in the module map, so a retry asks for a new URL.
    const url = attempts > 0 ? `${entry.js}?retry=${attempts}` : entry.js;
    promise = Promise.all([import(url) as Promise<IslandModule>, ...entry.css.map(loadCss)]).then(([mod]) => mod);
    loading.set(entry.js, promise);
    promise.catch(() => loading.delete(entry.js));
  }
  return promise;
}

function showCrash(element: HTMLElement, error: unknown): void {
  console.error(`docsgen: the "${element.getAttribute(DATA.island)}" part of this page failed to start.`, error);
  const box = document.createElement('div');
  box.className = 'island-crash';
  box.setAttribute('role', 'alert');
  const title = document.createElement('p');
  title.className = 'island-crash__title';
  title.textContent = MESSAGES.crashed;
  const detail = document.createElement('p');
  detail.className = 'island-crash__message';
  detail.textContent = error instanceof Error ? error.message : String(error);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button button--primary island-crash__retry';
  button.textContent = MESSAGES.tryAgain;
  button.addEventListener('click', () => {
    attempts++;
    box.remove();
    void mountIsland(element);
  });
  box.append(title, detail, button);
  element.replaceChildren(box);
}

export function isMounted(element: HTMLElement): boolean {
  return mounted.has(element);
}

export async function mountIsland(element: HTMLElement): Promise<void> {
  if (mounted.has(element)) return;
  const name = element.getAttribute(DATA.island);
  if (!name) return;
  const promise = loadIsland(name);
  if (!promise) return;
  // Claimed while loading, so intent events that repeat do not start it twice.
  mounted.set(element, () => undefined);
  try {
    const mod = await promise;
    // Unmounted while loading (the reader navigated away): nothing to start.
    if (!mounted.has(element)) return;
    if (!element.isConnected) {
      mounted.delete(element);
      return;
    }
    const raw = element.getAttribute(DATA.islandProps);
    const props: unknown = raw ? JSON.parse(raw) : {};
    const unmount = mod.mount(element, props);
    mounted.set(element, typeof unmount === 'function' ? unmount : () => undefined);
  } catch (error) {
    mounted.delete(element);
    if (element.isConnected) showCrash(element, error);
  }
}

/**
 * Islands that must be visible start once the page has loaded and the main thread is
 * idle. Those marked to start on request, too heavy to spend on a reader who may only
 * read, wait until the address asks for them (a link the reader followed, or a deep
 * link); the server markup is complete until then. Search starts on intent (main.ts).
 */
export function mountEagerIslands(root: ParentNode = document): void {
  const eager: HTMLElement[] = [];
  for (const element of root.querySelectorAll<HTMLElement>(`[${DATA.island}]`)) {
    if (element.getAttribute(DATA.island) === 'search') continue;
    if (element.getAttribute(DATA.islandStart) === 'request') startOnRequest(element);
    else eager.push(element);
  }
  if (!eager.length) return;
  const start = () => {
    for (const element of eager) if (element.isConnected) void mountIsland(element);
  };
  const idle = (cb: () => void) => (typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(cb, { timeout: 2000 }) : window.setTimeout(cb, 1));
  if (document.readyState === 'complete') idle(start);
  else window.addEventListener('load', () => idle(start), { once: true });
}

/** Islands started "request", until the address asks for them. */
const requested = new Set<HTMLElement>();

function startRequested(): void {
  for (const element of requested) {
    const route = element.getAttribute(DATA.islandRoute);
    if (!element.isConnected) requested.delete(element);
    else if (route && location.hash.startsWith(route)) {
      requested.delete(element);
      void mountIsland(element);
    }
  }
  if (!requested.size) window.removeEventListener('hashchange', startRequested);
}

function startOnRequest(element: HTMLElement): void {
  requested.add(element);
  window.addEventListener('hashchange', startRequested);
  startRequested();
}

export function unmountIslands(root: ParentNode): void {
  for (const element of requested) if (root.contains(element)) requested.delete(element);
  for (const [element, unmount] of mounted) {
    if (!root.contains(element)) continue;
    mounted.delete(element);
    try {
      unmount();
    } catch (error) {
      console.error(`docsgen: the "${element.getAttribute(DATA.island)}" part of the previous page failed to stop.`, error);
    }
  }
}
