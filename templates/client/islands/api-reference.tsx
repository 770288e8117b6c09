/**
 * The interactive API console: Stoplight Elements in a full-window dialog above the
 * server-rendered reference, loaded only when the reader asks for it (a "Try it" link,
 * the console button, or a `#try/…` deep link; islands.ts, `data-island-start="request"`).
 * The reference the reader was reading stays where it was underneath: Elements runs on
 * a memory router, so moving around in it never changes the address or scrolls the
 * page, and closing the dialog gives the reader back exactly what they had on screen.
 */
// @ts-expect-error -- Elements 9 ships index.d.ts, but its package.json "exports" hides it from NodeNext resolution; ElementsApiProps types what is used here.
import { API as UntypedApi } from '@stoplight/elements';
import { computeTheme, useThemeStore } from '@stoplight/mosaic';
import { startTransition, useEffect, useRef, useState, useSyncExternalStore, type ComponentType } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { API_DATA, API_REFERENCE_SCOPE } from '../../shared/api-reference.ts';
import { API_CONSOLE_HASH, EVENTS, type ColorMode } from '../../shared/index.ts';
import { mountReact } from '../island-root.tsx';
import { samplesOfPage, type CodeSample } from './api-samples.ts';
import '../../styles/api-reference.css';

/** The props of Elements' <API> this island passes (@stoplight/elements/containers/API.d.ts). */
interface ElementsApiProps {
  apiDescriptionDocument: object;
  apiDescriptionUrl: string;
  router: 'memory';
  layout: 'responsive';
  hideExport: boolean;
  tryItCredentialsPolicy: 'omit';
}
const API = UntypedApi as ComponentType<ElementsApiProps>;

export interface ApiReferenceIslandProps {
  /** The OpenAPI document as JSON, e.g. '/openapi/payment.json'. */
  specUrl: string;
  /** Server try-it sends requests to: the sandbox. */
  tryItServer: string;
  /** The site's primary colour in each mode (`theme.colors` of the config); absent, the stylesheet's defaults. */
  primary: Record<ColorMode, string>;
}

/** What the console shows: '/' (the overview) or an Elements route such as '/operations/createPayment'. */
function routeInAddress(): string | undefined {
  if (!location.hash.startsWith(API_CONSOLE_HASH)) return undefined;
  const route = decodeURIComponent(location.hash.slice(API_CONSOLE_HASH.length));
  return route.startsWith('/') ? route : '/';
}

/**
 * Where Elements keeps the values typed into try-it's security fields (tokens,
 * client secrets), in plain text. Found in @stoplight/elements-core 9
 * (`persistAtom('TryIt_securitySchemeValues', …)`); the browser test checks that it
 * is still the key try-it writes.
 */
export const CREDENTIALS_STORAGE_KEY = 'TryIt_securitySchemeValues';

/**
 * Elements' palette is derived by its theme API from the site's primary colour; in dark
 * mode the page background too, so the reference sits on the same canvas as the navbar
 * and footer. These are the defaults of templates/styles/main.css, for a site without
 * `theme.colors`.
 */
const DEFAULT_PRIMARY: Record<ColorMode, string> = { light: '#3451b2', dark: '#a8b1ff' };
const DARK_BACKGROUND = '#1b1b1d';

type ElementsTheme = { colors: { primary: string; background?: string } };

function elementsThemes(primary: Record<ColorMode, string>): Record<ColorMode, ElementsTheme> {
  return { light: { colors: { primary: primary.light } }, dark: { colors: { primary: primary.dark, background: DARK_BACKGROUND } } };
}
/** Hooks in the server markup of templates/layouts/ApiReference.tsx. */
const CLEAR_CREDENTIALS = `[${API_DATA.clearCredentials}]`;
const CREDENTIALS_STATUS = `[${API_DATA.credentialsStatus}]`;

export function mount(element: HTMLElement, rawProps: unknown): () => void {
  const props = readProps(rawProps);
  const page = element.closest('main') ?? document;
  const samples = samplesOfPage(page);
  const stopTheme = followColorMode(elementsThemes(props.primary));
  const credentials = credentialsControl(page);

  const dialog = document.createElement('dialog');
  dialog.className = 'api-console';
  dialog.setAttribute('aria-labelledby', 'api-console-title');
  const bar = document.createElement('div');
  bar.className = 'api-console__bar';
  const title = document.createElement('h2');
  title.id = 'api-console-title';
  title.className = 'api-console__title';
  title.textContent = 'Interactive console';
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'button button--secondary button--sm api-console__close';
  close.textContent = 'Close';
  const body = document.createElement('div');
  body.className = 'api-console__body';
  bar.append(title, close);
  dialog.append(bar, body);
  element.append(dialog);
  const stopRepair = repairAccessibility(body);

  // Where the reader was, given back exactly when the console closes.
  let reading = { x: window.scrollX, y: window.scrollY };
  let route = routeInAddress() ?? '/';
  // Where the reader goes inside Elements is kept in the address (replaced, not pushed, so Back
  // still leaves the page), so a reload or a shared link opens the console at the same place.
  const follow = (next: string) => {
    if (!dialog.open || routeInAddress() === undefined || next === route) return;
    route = next;
    history.replaceState(history.state, '', `${location.pathname}${location.search}${API_CONSOLE_HASH}${next}`);
  };
  const unmountReact = mountReact(body, <ConsoleApp props={props} samples={samples} generation={credentials} route={() => route} onRoute={follow} />, {
    hydrate: false,
  });

  const open = () => {
    const next = routeInAddress();
    if (next === undefined) {
      if (dialog.open) dialog.close();
      return;
    }
    if (next !== route) {
      route = next;
      credentials.restart();
    }
    if (!dialog.open) {
      dialog.showModal();
      close.focus();
    }
  };
  const onClose = () => {
    // Leaving the console drops its fragment without a new history entry or a scroll.
    if (routeInAddress() !== undefined) history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    window.scrollTo(reading.x, reading.y);
  };
  const onHash = () => {
    if (!dialog.open) reading = { x: window.scrollX, y: window.scrollY };
    open();
  };
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', onClose);
  window.addEventListener('hashchange', onHash);
  open();

  return () => {
    window.removeEventListener('hashchange', onHash);
    dialog.removeEventListener('close', onClose);
    if (dialog.open) dialog.close();
    unmountReact();
    dialog.remove();
    credentials.dispose();
    stopRepair();
    stopTheme();
  };
}

/** Gives every operation of the document the samples the page shows, as Elements' x-codeSamples. */
function addCodeSamples(document: Record<string, unknown>, samples: Map<string, CodeSample[]>): void {
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, unknown> | undefined>)) {
    if (!item || typeof item !== 'object') continue;
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || Array.isArray(operation)) continue;
      const own = samples.get(String((operation as Record<string, unknown>).operationId));
      if (own?.length) (operation as Record<string, unknown>)['x-codeSamples'] = own;
    }
  }
}

/** What Elements 9's own markup lacks for assistive technology, keyed by its stable `data-test` hooks. */
const UNNAMED_BUTTONS: Record<string, string> = {
  'show-left-sidebar-btn': 'Show the API navigation',
};

/**
 * Repairs, in Elements' markup, the accessibility faults axe and Lighthouse find and
 * Elements 9 leaves open: a `role="heading"` without `aria-level`, headings that jump
 * levels (the sidebar repeats the API title as an <h4> above the content's <h1>), and the
 * icon-only button that opens the navigation on narrow screens. Elements re-renders as
 * the reader moves around, so the repair runs again on every change of the island.
 */
function repairAccessibility(root: HTMLElement): () => void {
  const repair = () => {
    let previous = 1;
    for (const heading of root.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]')) {
      const native = /^H([1-6])$/.exec(heading.tagName)?.[1];
      const stated = Number(heading.getAttribute('aria-level') ?? native ?? previous + 1);
      const level = Math.min(stated, previous + 1);
      if (heading.getAttribute('aria-level') !== String(level) && (level !== Number(native) || heading.hasAttribute('aria-level'))) {
        heading.setAttribute('aria-level', String(level));
      }
      previous = level;
    }
    for (const [hook, label] of Object.entries(UNNAMED_BUTTONS)) {
      for (const button of root.querySelectorAll<HTMLElement>(`button[data-test="${hook}"]:not([aria-label])`)) button.setAttribute('aria-label', label);
    }
  };
  repair();
  const observer = new MutationObserver(repair);
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}

function readProps(raw: unknown): ApiReferenceIslandProps {
  const value = (raw ?? {}) as Partial<Record<keyof ApiReferenceIslandProps, unknown>>;
  if (typeof value.specUrl !== 'string' || value.specUrl === '') {
    throw new Error('The API reference island needs a "specUrl" prop with the URL of the OpenAPI document; check data-island-props in the page.');
  }
  return {
    specUrl: value.specUrl,
    tryItServer: typeof value.tryItServer === 'string' ? value.tryItServer : '',
    primary: isPalette(value.primary) ? value.primary : DEFAULT_PRIMARY,
  };
}

function isPalette(value: unknown): value is Record<ColorMode, string> {
  const palette = value as Partial<Record<ColorMode, unknown>> | null | undefined;
  return typeof palette?.light === 'string' && typeof palette.dark === 'string';
}

type LoadState = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; document: Record<string, unknown> };

function ConsoleApp({
  props,
  samples,
  generation,
  route,
  onRoute,
}: {
  props: ApiReferenceIslandProps;
  samples: Map<string, CodeSample[]>;
  generation: CredentialsControl;
  route: () => string;
  onRoute: (route: string) => void;
}) {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const remounts = useSyncExternalStore(generation.subscribe, generation.current);
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetch(props.specUrl, { signal: controller.signal, headers: { accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${props.specUrl} answered ${response.status} ${response.statusText}.`);
        return (await response.json()) as Record<string, unknown>;
      })
      .then((document) => {
        preferServer(document, props.tryItServer);
        addCodeSamples(document, samples);
        // Elements' first render is large; as a transition it yields to input every few milliseconds.
        startTransition(() => setState({ status: 'loaded', document }));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [props.specUrl, props.tryItServer, samples]);

  if (state.status === 'failed') {
    return (
      <p className="api-elements__failed" role="status">
        The interactive console could not load ({state.message}). The reference on the page lists every operation.
      </p>
    );
  }
  const at = route();
  return (
    <div ref={host} className="api-elements" data-state={state.status === 'loaded' ? 'ready' : 'loading'}>
      {state.status === 'loaded' ? (
        // A new route or cleared credentials start Elements afresh at that route.
        <MemoryRouter key={`${remounts}:${at}`} initialEntries={[at]}>
          <API apiDescriptionDocument={state.document} apiDescriptionUrl={props.specUrl} router="memory" layout="responsive" hideExport tryItCredentialsPolicy="omit" />
          <FollowRoute onRoute={onRoute} />
        </MemoryRouter>
      ) : (
        <p className="api-elements__loading" role="status">
          Loading the interactive console…
        </p>
      )}
    </div>
  );
}

/** Tells the island where Elements' memory router is (Elements uses the router it finds around it). */
function FollowRoute({ onRoute }: { onRoute: (route: string) => void }): null {
  const { pathname } = useLocation();
  useEffect(() => onRoute(pathname), [pathname, onRoute]);
  return null;
}

/**
 * Try-it sends requests to the first server of the operation. The documents list the
 * sandbox first; this keeps it first even if they are reordered, at every level where
 * servers can be declared (operations of the token endpoint have their own).
 */
function preferServer(document: Record<string, unknown>, url: string): void {
  if (!url) return;
  const servers = (value: unknown) => (Array.isArray(value) ? (value as { url?: unknown; description?: unknown }[]) : undefined);
  const label = servers(document.servers)?.find((s) => s.url === url)?.description;
  const sort = (list: { url?: unknown; description?: unknown }[] | undefined) => {
    if (!list) return;
    const preferred = (s: { url?: unknown; description?: unknown }) => s.url === url || (label !== undefined && s.description === label);
    list.sort((a, b) => Number(preferred(b)) - Number(preferred(a)));
  };
  sort(servers(document.servers));
  for (const group of [document.paths, document.webhooks]) {
    if (!group || typeof group !== 'object') continue;
    for (const item of Object.values(group as Record<string, Record<string, unknown> | undefined>)) {
      if (!item || typeof item !== 'object') continue;
      sort(servers(item.servers));
      for (const operation of Object.values(item)) {
        if (operation && typeof operation === 'object' && !Array.isArray(operation)) sort(servers((operation as Record<string, unknown>).servers));
      }
    }
  }
}

/**
 * Elements' colours follow data-theme on <html> through its stylesheet, but its code
 * samples read the mode from its theme store; tell the store at mount and on every
 * change. The palette comes from the same theme API (`themes`), and the variables it
 * computes are scoped to the island like the rest of Elements' styles.
 */
function followColorMode(themes: Record<ColorMode, ElementsTheme>): () => void {
  const style = document.createElement('style');
  style.setAttribute('data-api-reference-theme', '');
  style.textContent = [computeTheme(themes.light, 'light').css, computeTheme(themes.dark, 'dark').css].map(scopeThemeCss).join('\n');
  document.head.append(style);

  const apply = (mode: ColorMode) => {
    const { colorValues, invertedColorValues } = computeTheme(themes[mode], mode);
    useThemeStore.setState({ mode, theme: themes[mode], colorValues, invertedColorValues });
  };
  const current = (): ColorMode => (document.documentElement.getAttribute('data-theme') === 'dark' ? 'dark' : 'light');
  apply(current());
  const onTheme = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    apply(detail === 'dark' || detail === 'light' ? detail : current());
  };
  document.addEventListener(EVENTS.theme, onTheme);
  return () => {
    document.removeEventListener(EVENTS.theme, onTheme);
    style.remove();
  };
}

/** Mosaic writes its theme for `:root` and `[data-theme]`; these rules hold only inside the island. */
function scopeThemeCss(css: string): string {
  return css.replace(/([^{}]+)\{/g, (_match, selectors: string) => {
    const scoped = selectors
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '' && !s.startsWith(':root'))
      .flatMap((s) => {
        const theme = /^\[data-theme="?(light|dark)"?\]/.exec(s);
        if (!theme) return [`${API_REFERENCE_SCOPE} ${s}`];
        const rest = s.slice(theme[0].length);
        return [`${theme[0]} ${API_REFERENCE_SCOPE}${rest}`, `${API_REFERENCE_SCOPE} ${s}`];
      });
    return `${scoped.join(',\n')} {`;
  });
}

interface CredentialsControl {
  subscribe: (listener: () => void) => () => void;
  current: () => number;
  /** Starts Elements afresh (a new route, or cleared credentials). */
  restart: () => void;
  dispose: () => void;
}

/**
 * The page's "Clear saved credentials" button: removes what try-it stored and starts
 * Elements afresh, since it also holds the values in memory. The button is hidden in
 * the server markup because only this island can act on it.
 */
function credentialsControl(page: ParentNode): CredentialsControl {
  const button = page.querySelector<HTMLButtonElement>(CLEAR_CREDENTIALS);
  const status = page.querySelector<HTMLElement>(CREDENTIALS_STATUS);
  const listeners = new Set<() => void>();
  let generation = 0;
  const restart = () => {
    generation++;
    for (const listener of listeners) listener();
  };
  const onClick = () => {
    let cleared = true;
    try {
      window.localStorage.removeItem(CREDENTIALS_STORAGE_KEY);
    } catch (error) {
      cleared = false;
      console.warn('docsgen: the saved try-it credentials could not be removed because browser storage is unavailable.', error);
    }
    restart();
    if (status) status.textContent = cleared ? 'Saved credentials cleared.' : 'Browser storage is unavailable, so nothing was saved.';
  };
  if (button) {
    button.hidden = false;
    button.addEventListener('click', onClick);
  }
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    current: () => generation,
    restart,
    dispose() {
      button?.removeEventListener('click', onClick);
      if (button) button.hidden = true;
      if (status) status.textContent = '';
      listeners.clear();
    },
  };
}
