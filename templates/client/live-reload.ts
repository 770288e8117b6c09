/**
 * Watch mode in the browser: listens to `docsgen serve --watch` over Server-Sent Events
 * and reloads the page when it changed (keeping the scroll position), swaps stylesheets
 * without a reload when only CSS changed, and shows the build error over the last good
 * page until the file is fixed. It is bundled on its own and injected by the watch
 * server into the HTML it serves; `docsgen build` never includes it.
 */
import { EVENTS, canonicalPath } from '../shared/index.ts';
import {
  EVENTS_PATH,
  HELLO_EVENT,
  PLACEHOLDER_ATTRIBUTE,
  PLACEHOLDER_TEXT,
  type LiveHello,
  type LiveMessage,
  type LiveMessageOf,
  type OverlayPayload,
} from '../shared/live-reload.ts';
import { withoutBase } from '../shared/base-url.ts';
import { siteBaseUrl, siteUrl } from './base-url.ts';
import { keepLive, morph, type RefreshDetail } from './morph.ts';

/** Under the base URL, like every URL of the site: the server maps it back to its root. */
const EVENTS_URL = siteUrl(EVENTS_PATH);
const SCROLL_KEY = 'docsgen.live-reload.scroll';
const OVERLAY_ID = 'docsgen-error-overlay';

let serverId: string | undefined;

function reload(): void {
  try {
    sessionStorage.setItem(SCROLL_KEY, JSON.stringify({ path: location.pathname, x: window.scrollX, y: window.scrollY }));
  } catch {
    // Storage blocked: the page reloads at the top, which is all that is lost.
  }
  location.reload();
}

/** The page on screen was rebuilt: the site's router swaps it in place when it can, else the page reloads. */
function refresh(html: string | undefined): void {
  const event = new CustomEvent<RefreshDetail>(EVENTS.refresh, { cancelable: true, detail: { html, morph, keepLive } });
  if (document.dispatchEvent(event)) reload();
}

function restoreScroll(): void {
  let saved: { path?: string; x?: number; y?: number } | undefined;
  try {
    const raw = sessionStorage.getItem(SCROLL_KEY);
    sessionStorage.removeItem(SCROLL_KEY);
    saved = raw ? (JSON.parse(raw) as typeof saved) : undefined;
  } catch {
    return;
  }
  if (!saved || saved.path !== location.pathname || typeof saved.x !== 'number' || typeof saved.y !== 'number') return;
  const { x, y } = saved;
  const apply = () => window.scrollTo(x, y);
  if (document.readyState === 'complete') apply();
  else window.addEventListener('load', () => requestAnimationFrame(apply), { once: true });
}

function swapStylesheets(swap: Record<string, string>): void {
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')) {
    // The server names stylesheets by their path from the site's root.
    const next = swap[withoutBase(siteBaseUrl(), new URL(link.href, location.href).pathname) ?? ''];
    if (!next) continue;
    const fresh = link.cloneNode() as HTMLLinkElement;
    fresh.href = siteUrl(next);
    // The old sheet stays until the new one applies, so nothing flashes unstyled.
    const done = () => link.remove();
    fresh.addEventListener('load', done, { once: true });
    fresh.addEventListener('error', done, { once: true });
    link.after(fresh);
  }
}

const OVERLAY_STYLE = `
  :host { all: initial; }
  .backdrop { position: fixed; inset: 0; z-index: 2147483647; background: rgba(20, 20, 24, 0.55); overflow: auto;
    font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1c1e21; }
  .panel { box-sizing: border-box; max-width: 60rem; margin: 4vh auto; background: #fff; border-top: 6px solid #d32f2f;
    border-radius: 6px; box-shadow: 0 12px 40px rgba(0, 0, 0, 0.35); padding: 1.25rem 1.5rem; }
  header { display: flex; align-items: flex-start; gap: 1rem; }
  h2 { margin: 0; font-size: 1.15rem; color: #b71c1c; flex: 1; }
  .note { margin: 0.25rem 0 1rem; color: #555; }
  button { font: inherit; border: 1px solid #bbb; background: #f5f5f5; border-radius: 4px; padding: 0.25rem 0.75rem; cursor: pointer; }
  button:focus-visible { outline: 2px solid #1565c0; outline-offset: 2px; }
  section { border-top: 1px solid #e0e0e0; padding-top: 0.75rem; margin-top: 0.75rem; }
  .location { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; color: #0d47a1; word-break: break-all; }
  .message { margin: 0.25rem 0; font-weight: 600; white-space: pre-wrap; }
  pre { margin: 0.5rem 0; padding: 0.75rem; background: #1e1e1e; color: #f0f0f0; border-radius: 4px; overflow: auto;
    font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  .hint { margin: 0.25rem 0 0; color: #2e4b2e; }
`;

/**
 * A placeholder opened while the first build ran says "Building…"; once that build failed,
 * it says what the server now serves in its place. Changed here rather than reloaded: the
 * reload would fetch the same placeholder, and the next successful build reloads the page.
 */
function placeholderFailed(): void {
  const root = document.documentElement;
  if (root.getAttribute(PLACEHOLDER_ATTRIBUTE) !== 'building') return;
  const { title, text } = PLACEHOLDER_TEXT.failed;
  root.setAttribute(PLACEHOLDER_ATTRIBUTE, 'failed');
  document.title = title;
  const heading = document.querySelector('body > h1');
  if (heading) heading.textContent = title;
  const paragraph = document.querySelector('body > p');
  if (paragraph) paragraph.textContent = text;
}

function hideOverlay(): void {
  document.getElementById(OVERLAY_ID)?.remove();
}

function showOverlay(payload: OverlayPayload): void {
  hideOverlay();
  if (payload.errors.length === 0) return;
  if (payload.noGoodBuild) placeholderFailed();
  const host = document.createElement('div');
  host.id = OVERLAY_ID;
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = OVERLAY_STYLE;
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const backdrop = element('div', 'backdrop');
  const panel = element('div', 'panel');
  panel.setAttribute('role', 'alertdialog');
  panel.setAttribute('aria-labelledby', 'docsgen-overlay-title');
  const header = element('header', '');
  const title = element('h2', '', payload.errors.length === 1 ? 'Build failed' : `Build failed: ${payload.errors.length} problems`);
  title.id = 'docsgen-overlay-title';
  const close = element('button', '', 'Dismiss');
  close.type = 'button';
  close.addEventListener('click', hideOverlay);
  header.append(title, close);
  const note = payload.noGoodBuild
    ? 'No build has succeeded yet, so there is no page to show. Fix the file named below and save: the site appears by itself.'
    : 'The page below is the last good build. Fix the file and save: this closes by itself.';
  panel.append(header, element('p', 'note', note));
  if (payload.summary) panel.append(element('p', 'message', payload.summary));
  for (const error of payload.errors) {
    const section = element('section', '');
    if (error.location) section.append(element('div', 'location', error.location));
    section.append(element('p', 'message', error.message));
    if (error.excerpt) section.append(element('pre', '', error.excerpt));
    if (error.hint) section.append(element('p', 'hint', `Fix: ${error.hint}`));
    panel.append(section);
  }
  backdrop.append(panel);
  shadow.append(style, backdrop);
  document.body.append(host);
  close.focus({ preventScroll: true });
}

function parse<T>(event: Event): T | undefined {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as T;
  } catch {
    return undefined;
  }
}

function connect(): void {
  const source = new EventSource(EVENTS_URL);
  // Each message arrives as the event named by its type, so a type the server no longer sends fails the typecheck here.
  const on = (type: LiveMessage['type'], listener: (event: MessageEvent) => void) => source.addEventListener(type, listener);
  source.addEventListener(HELLO_EVENT, (event) => {
    const data = parse<LiveHello>(event);
    if (!data) return;
    // A different id is a restarted watch: this page may be older than its output.
    if (serverId !== undefined && serverId !== data.id) return reload();
    serverId = data.id;
    // A placeholder that connected after the first build's reload went out.
    if (data.built && document.documentElement.hasAttribute(PLACEHOLDER_ATTRIBUTE)) return reload();
    if (data.errors.errors.length > 0) showOverlay(data.errors);
    else hideOverlay();
  });
  on('reload', (event) => {
    // A build succeeded. A placeholder open at an address the site does not have (its 404)
    // is in no list of changed routes, and nothing on it is worth keeping.
    if (document.documentElement.hasAttribute(PLACEHOLDER_ATTRIBUTE)) return reload();
    const data = parse<LiveMessageOf<'reload'>>(event);
    if (!data) return;
    // The router forgets its copies of these pages (prefetched, or kept for back and forward).
    document.dispatchEvent(new CustomEvent(EVENTS.invalidate, { detail: { routes: data.routes.map(siteUrl) } }));
    const here = withoutBase(siteBaseUrl(), canonicalPath(location.pathname)) ?? '';
    if (data.routes.includes(here)) refresh(data.pages?.[here]);
  });
  on('reload-all', () => reload());
  on('css', (event) => {
    const data = parse<LiveMessageOf<'css'>>(event);
    if (data) swapStylesheets(data.swap);
  });
  on('build-error', (event) => {
    const data = parse<LiveMessageOf<'build-error'>>(event);
    if (data) showOverlay(data.payload);
  });
  on('ok', () => hideOverlay());
}

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && document.getElementById(OVERLAY_ID)) hideOverlay();
});

restoreScroll();
connect();
