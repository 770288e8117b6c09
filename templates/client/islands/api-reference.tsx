/**
 * The interactive API reference: Stoplight Elements, loaded only on the API reference
 * pages, on the reader's first interaction with the page or at once for a `#/` route
 * in the address (islands.ts, `data-island-start="interaction"`).
 *
 * The server-rendered summary of every operation stays what the reader sees until
 * Elements has rendered the document: Elements is laid out hidden, its big first
 * render runs as a transition so the page keeps answering input, and only then does
 * it take the summary's place. The summary stays in the HTML for search engines and
 * for readers without JavaScript.
 */
// @ts-expect-error -- Elements 9 ships index.d.ts, but its package.json "exports" hides it from NodeNext resolution; ElementsApiProps types what is used here.
import { API as UntypedApi } from '@stoplight/elements';
import { computeTheme, useThemeStore } from '@stoplight/mosaic';
import { startTransition, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ComponentType } from 'react';
import { EVENTS, type ColorMode } from '../../shared.ts';
import { mountReact } from '../island-root.tsx';
import '../../styles/api-reference.css';

/** The props of Elements' <API> this island passes (@stoplight/elements/containers/API.d.ts). */
interface ElementsApiProps {
  apiDescriptionDocument: object;
  apiDescriptionUrl: string;
  router: 'hash';
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
}

/**
 * Where Elements keeps the values typed into try-it's security fields (tokens,
 * client secrets), in plain text. Found in @stoplight/elements-core 9
 * (`persistAtom('TryIt_securitySchemeValues', …)`); the browser test checks that it
 * is still the key try-it writes.
 */
export const CREDENTIALS_STORAGE_KEY = 'TryIt_securitySchemeValues';

/**
 * Elements' palette, derived by its theme API from the site's colours
 * (templates/styles/main.css): the primary blue, and in dark mode the page background,
 * so the reference sits on the same canvas as the navbar and footer.
 */
const THEMES: Record<ColorMode, { colors: { primary: string; background?: string } }> = {
  light: { colors: { primary: '#0b5cd5' } },
  dark: { colors: { primary: '#6aa6ff', background: '#1b1b1d' } },
};
/** Hooks in the server markup of templates/layouts/ApiReference.tsx. */
const SUMMARY = '[data-api-summary]';
const CLEAR_CREDENTIALS = '[data-clear-credentials]';
const CREDENTIALS_STATUS = '[data-credentials-status]';
const SCOPE = '[data-island="api-reference"]';

export function mount(element: HTMLElement, rawProps: unknown): () => void {
  const props = readProps(rawProps);
  const page = element.closest('main') ?? document;
  const summary = page.querySelector<HTMLElement>(SUMMARY);
  const stopTheme = followColorMode();
  const credentials = credentialsControl(page);
  const stopRepair = repairAccessibility(element);
  let releaseScroll = () => {};

  const unmountReact = mountReact(
    element,
    <ApiReferenceApp
      props={props}
      generation={credentials}
      onReady={(routed) => {
        if (summary) setSummaryShown(summary, false);
        // The reader followed a link to an operation, or was reading the summary: bring them to it.
        if (routed) element.scrollIntoView({ block: 'start' });
        releaseScroll = holdScroll(window.scrollY, 1000);
      }}
      onGone={() => {
        if (summary) setSummaryShown(summary, true);
      }}
    />,
    { hydrate: false },
  );
  return () => {
    releaseScroll();
    unmountReact();
    credentials.dispose();
    stopRepair();
    stopTheme();
    if (summary) setSummaryShown(summary, true);
  };
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

/**
 * Keeps the page at `y` while Elements finishes starting: its sidebar scrolls the
 * current item into view from timers, which also scrolls the page. Any input from the
 * reader ends the hold at once.
 */
function holdScroll(y: number, ms: number): () => void {
  const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const restore = () => {
    if (Math.abs(window.scrollY - y) > 1) window.scrollTo(window.scrollX, y);
  };
  const release = () => {
    window.clearTimeout(timer);
    window.removeEventListener('scroll', restore);
    for (const type of inputs) window.removeEventListener(type, release, true);
  };
  const timer = window.setTimeout(release, ms);
  window.addEventListener('scroll', restore, { passive: true });
  for (const type of inputs) window.addEventListener(type, release, { capture: true, passive: true });
  return release;
}

/**
 * The summary's operations carry the ids Elements' routes use (`/operations/{id}`), so
 * deep links work without JavaScript. Once Elements shows them, those ids must go:
 * Elements scrolls to any element whose id equals the route, which would be the hidden
 * summary. They are kept in a data attribute and put back if Elements goes away.
 */
function setSummaryShown(summary: HTMLElement, shown: boolean): void {
  summary.hidden = !shown;
  if (shown) {
    for (const op of summary.querySelectorAll<HTMLElement>('[data-route-id]')) {
      op.id = op.dataset.routeId ?? '';
      delete op.dataset.routeId;
    }
  } else {
    for (const op of summary.querySelectorAll<HTMLElement>('[id^="/"]')) {
      op.dataset.routeId = op.id;
      op.removeAttribute('id');
    }
  }
}

function readProps(raw: unknown): ApiReferenceIslandProps {
  const value = (raw ?? {}) as Partial<Record<keyof ApiReferenceIslandProps, unknown>>;
  if (typeof value.specUrl !== 'string' || value.specUrl === '') {
    throw new Error('The API reference island needs a "specUrl" prop with the URL of the OpenAPI document; check data-island-props in the page.');
  }
  return {
    specUrl: value.specUrl,
    tryItServer: typeof value.tryItServer === 'string' ? value.tryItServer : '',
  };
}

type LoadState = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; document: Record<string, unknown>; routed: boolean };

function ApiReferenceApp({
  props,
  generation,
  onReady,
  onGone,
}: {
  props: ApiReferenceIslandProps;
  generation: CredentialsControl;
  onReady: (routed: boolean) => void;
  onGone: () => void;
}) {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [ready, setReady] = useState(false);
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
        const routed = routeToReadingPosition();
        // Elements' first render is large; as a transition it yields to input every few milliseconds.
        startTransition(() => setState({ status: 'loaded', document, routed }));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [props.specUrl, props.tryItServer]);

  useEffect(() => onGone, [onGone]);
  // After the commit that put Elements in the flow, so the page has its final height.
  const routed = state.status === 'loaded' && state.routed;
  useLayoutEffect(() => {
    if (ready) onReady(routed);
  }, [ready, routed, onReady]);

  if (state.status === 'failed') {
    return (
      <p className="api-elements__failed" role="status">
        The interactive reference could not load ({state.message}). The summary below lists every operation.
      </p>
    );
  }
  return (
    <div ref={host} className="api-elements" data-state={ready ? 'ready' : 'loading'}>
      {state.status === 'loaded' ? (
        <>
          <API
            key={remounts}
            apiDescriptionDocument={state.document}
            apiDescriptionUrl={props.specUrl}
            router="hash"
            layout="responsive"
            hideExport
            tryItCredentialsPolicy="omit"
          />
          {ready ? null : (
            <Rendered
              onRendered={() => {
                if (!host.current?.querySelector('.sl-elements-api')) {
                  setState({ status: 'failed', message: 'Elements could not read the OpenAPI document' });
                  return;
                }
                setReady(true);
              }}
            />
          )}
        </>
      ) : null}
    </div>
  );
}

/**
 * Calls back once the tree before it is in the DOM and has settled: Elements' sidebar
 * centres its active item from a timer that its own effects, which run before this
 * one, have started. While that runs Elements is still position: fixed (see the
 * stylesheet), so the browser does not scroll the page for it.
 */
function Rendered({ onRendered }: { onRendered: () => void }) {
  const callback = useRef(onRendered);
  callback.current = onRendered;
  useEffect(() => {
    const timer = window.setTimeout(() => callback.current(), 0);
    return () => window.clearTimeout(timer);
  }, []);
  return null;
}

/**
 * Opens in Elements the operation the reader was looking at: the one in the address
 * (a deep link, kept as is) or, when they had scrolled into the summary, the topmost
 * one on screen. Returns whether Elements will open a route rather than the overview.
 */
function routeToReadingPosition(): boolean {
  if (/^#\/(?:operations|webhooks|schemas)\//.test(window.location.hash)) return true;
  const summary = document.querySelector<HTMLElement>(SUMMARY);
  if (!summary || summary.getBoundingClientRect().top >= 0) return false;
  const navbar = document.querySelector('.navbar')?.getBoundingClientRect().bottom ?? 0;
  const onScreen = [...summary.querySelectorAll<HTMLElement>('[id^="/operations/"], [id^="/webhooks/"]')].find((op) => op.getBoundingClientRect().bottom > navbar);
  if (!onScreen) return false;
  history.replaceState(history.state, '', `#${onScreen.id}`);
  return true;
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
 * change. The palette comes from the same theme API (THEMES), and the variables it
 * computes are scoped to the island like the rest of Elements' styles.
 */
function followColorMode(): () => void {
  const style = document.createElement('style');
  style.setAttribute('data-api-reference-theme', '');
  style.textContent = [computeTheme(THEMES.light, 'light').css, computeTheme(THEMES.dark, 'dark').css].map(scopeThemeCss).join('\n');
  document.head.append(style);

  const apply = (mode: ColorMode) => {
    const { colorValues, invertedColorValues } = computeTheme(THEMES[mode], mode);
    useThemeStore.setState({ mode, theme: THEMES[mode], colorValues, invertedColorValues });
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
        if (!theme) return [`${SCOPE} ${s}`];
        const rest = s.slice(theme[0].length);
        return [`${theme[0]} ${SCOPE}${rest}`, `${SCOPE} ${s}`];
      });
    return `${scoped.join(',\n')} {`;
  });
}

interface CredentialsControl {
  subscribe: (listener: () => void) => () => void;
  current: () => number;
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
  const onClick = () => {
    let cleared = true;
    try {
      window.localStorage.removeItem(CREDENTIALS_STORAGE_KEY);
    } catch (error) {
      cleared = false;
      console.warn('docsgen: the saved try-it credentials could not be removed because browser storage is unavailable.', error);
    }
    generation++;
    for (const listener of listeners) listener();
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
    dispose() {
      button?.removeEventListener('click', onClick);
      if (button) button.hidden = true;
      if (status) status.textContent = '';
      listeners.clear();
    },
  };
}
