/**
 * Loads island modules on demand. The page lists the islands it uses, with their
 * hashed URLs, in a JSON script tag; each module exports mount(element, props) and
 * returns an unmount function, so client navigation can swap pages cleanly.
 */
import { DATA } from '../shared.ts';

export interface IslandModule {
  mount(element: HTMLElement, props: unknown): (() => void) | void;
}

type Manifest = Record<string, { js: string; css: string[] }>;

const mounted = new Map<HTMLElement, () => void>();
const loading = new Map<string, Promise<IslandModule>>();

function manifest(): Manifest {
  const script = document.getElementById('docsgen-islands');
  try {
    return script?.textContent ? (JSON.parse(script.textContent) as Manifest) : {};
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
    promise = Promise.all([import(/* @vite-ignore */ entry.js) as Promise<IslandModule>, ...entry.css.map(loadCss)]).then(([mod]) => mod);
    loading.set(entry.js, promise);
    promise.catch(() => loading.delete(entry.js));
  }
  return promise;
}

export async function mountIsland(element: HTMLElement): Promise<void> {
  if (mounted.has(element)) return;
  const name = element.getAttribute(DATA.island);
  if (!name) return;
  const promise = loadIsland(name);
  if (!promise) return;
  const mod = await promise;
  if (mounted.has(element) || !element.isConnected) return;
  let props: unknown = {};
  const raw = element.getAttribute(DATA.islandProps);
  if (raw) props = JSON.parse(raw);
  const unmount = mod.mount(element, props);
  mounted.set(element, unmount ?? (() => undefined));
}

/** Islands that must be visible without interaction start once the page has loaded and the main thread is idle. */
export function mountEagerIslands(root: ParentNode = document): void {
  const start = () => {
    for (const element of root.querySelectorAll<HTMLElement>(`[${DATA.island}]`)) {
      if (element.getAttribute(DATA.island) === 'search') continue;
      void mountIsland(element);
    }
  };
  const idle = (cb: () => void) => (typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(cb, { timeout: 2000 }) : window.setTimeout(cb, 1));
  if (document.readyState === 'complete') idle(start);
  else window.addEventListener('load', () => idle(start), { once: true });
}

export function unmountIslands(root: ParentNode): void {
  for (const [element, unmount] of mounted) {
    if (root.contains(element)) {
      unmount();
      mounted.delete(element);
    }
  }
}
