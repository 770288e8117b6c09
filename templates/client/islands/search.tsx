/**
 * The search dialog. The page script loads this module on the reader's first sign of
 * wanting search (focus or hover on the navbar button, Ctrl/Cmd+K, "/"); until then a
 * page pays nothing for search. The index is fetched when the dialog first opens: a
 * small page list, then only the shards for the words typed and the text of the
 * results on screen (see templates/shared/search-format.ts).
 *
 * Accessibility follows the WAI-ARIA combobox pattern with a listbox popup: the input
 * keeps focus, arrow keys move aria-activedescendant through the options, Enter opens
 * the active one. The dialog is a native modal <dialog> (the rest of the page is inert)
 * and Tab is kept inside it; closing returns focus where it was.
 *
 * It is written and typed against React but runs on preact/compat in the browser
 * (PREACT_ISLANDS in cli/stages/bundle.ts), which leaves most of the first results'
 * 60 KB budget to the index; what it uses of React must be what compat provides.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { SearchButtonControl } from '../../components/SearchButton.tsx';
import { mountReact } from '../island-root.tsx';
import { excerpt, highlight, normalizeQuery, openSearchEngine, type SearchEngine, type SearchResult, type Segment } from '../search/engine.ts';
import { SEARCH_KIND_LABELS, SEARCH_META_PATH, type SearchPassage } from '../../shared/search-format.ts';
import { isSearchShortcut } from '../search-shortcut.ts';
import { readStorage, writeStorage } from '../storage.ts';
import { DATA, IDS } from '../../shared/index.ts';
import { siteUrl } from '../base-url.ts';
import '../../styles/search.css';

const RECENT_KEY = 'docsgen.search.recent';
const MAX_RECENT = 5;
/** Results whose text is fetched before the list shows; the rest load as they scroll into view. */
const EAGER_PASSAGES = 4;
const DOCS_INDEX = siteUrl('/docs');
/** Typing pauses shorter than this do not start a search: fast typists fetch only for what they meant. */
const SEARCH_DELAY_MS = 90;
/** How long results must stay on screen before the text of the results below the first few is fetched. */
const LAZY_PASSAGES_DELAY_MS = 250;

// ------------------------------------------------------------------ loading

let engine: Promise<SearchEngine> | undefined;

async function loadJson(url: string): Promise<unknown> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

function loadEngine(): Promise<SearchEngine> {
  engine ??= openSearchEngine(loadJson, siteUrl(`/${SEARCH_META_PATH}`));
  // A failed load (offline, or a new deploy replaced the index folder) is retried on the next keystroke.
  engine.catch(() => {
    engine = undefined;
  });
  return engine;
}

// ------------------------------------------------------------------ recent searches

function readRecent(): string[] {
  try {
    const value: unknown = JSON.parse(readStorage(RECENT_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

function rememberSearch(query: string): void {
  const trimmed = query.trim();
  if (!trimmed) return;
  const key = normalizeQuery(trimmed);
  writeStorage(RECENT_KEY, JSON.stringify([trimmed, ...readRecent().filter((q) => normalizeQuery(q) !== key)].slice(0, MAX_RECENT)));
}

// ------------------------------------------------------------------ the island

function isMac(): boolean {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad/i.test(platform);
}

/** An option of the listbox: a search hit (a link) or a recent search. */
type Option = { kind: 'hit'; id: string; record: number; passage: number } | { kind: 'recent'; id: string; query: string };

interface Shown {
  result: SearchResult;
  options: Option[];
}

function Marked({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
    </>
  );
}

function SearchIsland({ element }: { element: HTMLElement }) {
  const [open, setOpen] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  /** Bumped by every shortcut or click, so one pressed while the dialog is open selects the query again. */
  const [openCount, setOpenCount] = useState(0);
  const [keys, setKeys] = useState('Ctrl K');
  const returnFocus = useRef<HTMLElement | null>(null);

  /**
   * Closing returns focus to what opened the dialog: the search button when it was clicked or
   * tapped, even if the browser did not focus it (Safari does not, so after a client navigation
   * focus would still be on <main>); for a shortcut, the element that had focus, where a
   * screen-reader user was. With nothing focused, the main content, where the router puts focus
   * after a navigation: the reader goes on in the page, not in the navbar.
   */
  const show = useCallback((opener?: HTMLElement) => {
    if (!document.querySelector('dialog.search-dialog[open]')) {
      const active = document.activeElement;
      returnFocus.current = opener ?? (active instanceof HTMLElement && active !== document.body ? active : null);
    }
    setEverOpened(true);
    setOpen(true);
    setOpenCount((n) => n + 1);
  }, []);

  const hide = useCallback((restore: boolean) => {
    setOpen(false);
    const target = returnFocus.current;
    returnFocus.current = null;
    if (!restore) return;
    // The page behind a modal dialog is inert and cannot take focus: close it now, not at the next render.
    // Its own closing would only return focus to what had it before, which is <main> or nothing when the
    // browser did not focus the clicked button.
    document.querySelector<HTMLDialogElement>('dialog.search-dialog[open]')?.close();
    if (target?.isConnected) {
      target.focus({ preventScroll: true });
      return;
    }
    const main = document.getElementById(IDS.mainContent);
    if (main && !main.hasAttribute('tabindex')) main.tabIndex = -1;
    (main ?? document.querySelector<HTMLElement>('.navbar__search .search-button'))?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    if (isMac()) setKeys('⌘ K');
    const onKey = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event)) return;
      event.preventDefault();
      show();
    };
    document.addEventListener('keydown', onKey);
    // From here on the button and the shortcuts are handled here; what came before, the page script kept.
    element.setAttribute(DATA.searchReady, '');
    if (element.hasAttribute(DATA.searchOpen)) {
      const byButton = element.getAttribute(DATA.searchOpen) === 'button';
      element.removeAttribute(DATA.searchOpen);
      show(byButton ? (element.querySelector<HTMLElement>('.search-button') ?? undefined) : undefined);
    }
    return () => {
      element.removeAttribute(DATA.searchReady);
      document.removeEventListener('keydown', onKey);
    };
  }, [element, show]);

  return (
    <>
      <SearchButtonControl onClick={(event) => show(event.currentTarget)} keys={keys} />
      {everOpened ? createPortal(<SearchDialog open={open} openCount={openCount} onClose={hide} />, document.body) : null}
    </>
  );
}

function SearchDialog({ open, openCount, onClose }: { open: boolean; openCount: number; onClose: (restoreFocus: boolean) => void }) {
  const id = useId().replace(/:/g, '');
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState<Shown | null>(null);
  /** Passages fetched so far, by 'record-passage'. */
  const [passages, setPassages] = useState<ReadonlyMap<string, SearchPassage>>(new Map());
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [recent, setRecent] = useState<string[]>([]);
  const sequence = useRef(0);
  const engineRef = useRef<SearchEngine | null>(null);

  // Open and close the native dialog with the prop; a shortcut pressed while it is open selects the query again.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!open) {
      if (dialog.open) dialog.close();
      return;
    }
    if (!dialog.open) {
      dialog.showModal();
      setRecent(readRecent());
      void loadEngine().then(
        (e) => {
          engineRef.current = e;
        },
        (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
      );
    }
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [open, openCount]);

  const addPassages = useCallback((loaded: [string, SearchPassage][]) => {
    if (loaded.length === 0) return;
    setPassages((previous) => {
      const next = new Map(previous);
      for (const [key, passage] of loaded) next.set(key, passage);
      return next;
    });
  }, []);

  // Search as the reader types. Results replace the previous ones only once the text of the first few is there, so the list never flickers.
  useEffect(() => {
    const run = ++sequence.current;
    if (!query.trim()) {
      setShown(null);
      setActive(0);
      return;
    }
    const timer = window.setTimeout(async () => {
      try {
        const e = await loadEngine();
        engineRef.current = e;
        const result = await e.search(query);
        const hits = result.pages.flatMap((page) => page.records);
        const options: Option[] = hits.map((hit) => ({ kind: 'hit', id: `${id}-r${hit.record}`, record: hit.record, passage: hit.passage }));
        const eager = await Promise.all(hits.slice(0, EAGER_PASSAGES).map(async (hit) => [`${hit.record}-${hit.passage}`, await e.passage(hit.record, hit.passage)] as [string, SearchPassage]));
        if (run !== sequence.current) return;
        // The later results whose text came with the files just fetched (other sections of the same pages) show it at once.
        const arrived = hits.slice(EAGER_PASSAGES).flatMap((hit): [string, SearchPassage][] => {
          const passage = e.loadedPassage(hit.record, hit.passage);
          return passage ? [[`${hit.record}-${hit.passage}`, passage]] : [];
        });
        addPassages([...eager, ...arrived]);
        setError(null);
        setShown({ result, options });
        setActive(0);
      } catch (e) {
        // A new deploy may have replaced the index folder: the next keystroke starts again from index.json.
        engine = undefined;
        if (run === sequence.current) setError(e instanceof Error ? e.message : String(e));
      }
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [query, id, addPassages]);

  // Later options fetch their text when they are scrolled into view, once the reader has paused: results that
  // flash by while the query is still being typed do not fetch theirs.
  useEffect(() => {
    const list = listRef.current;
    const root = bodyRef.current;
    const e = engineRef.current;
    if (!list || !root || !e || !shown || typeof IntersectionObserver !== 'function') return;
    let observer: IntersectionObserver | undefined;
    const timer = window.setTimeout(() => {
      observer = new IntersectionObserver(
        (entries) => {
          const visible = entries.filter((en) => en.isIntersecting).map((en) => en.target as HTMLElement);
          for (const target of visible) observer?.unobserve(target);
          void Promise.all(
            visible.map(async (target) => {
              const key = target.dataset.passage!;
              const [record, passage] = key.split('-').map(Number) as [number, number];
              return [key, await e.passage(record, passage)] as [string, SearchPassage];
            }),
          ).then(addPassages, () => undefined);
        },
        { root, rootMargin: '80px 0px' },
      );
      for (const el of list.querySelectorAll<HTMLElement>('[data-passage][data-pending]')) observer.observe(el);
    }, LAZY_PASSAGES_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      observer?.disconnect();
    };
  }, [shown, passages, addPassages]);

  const options: Option[] = query.trim() ? (shown?.options ?? []) : recent.map((q, i) => ({ kind: 'recent' as const, id: `${id}-q${i}`, query: q }));
  const activeOption = options[Math.min(active, options.length - 1)];

  useEffect(() => {
    if (!activeOption) return;
    document.getElementById(activeOption.id)?.scrollIntoView({ block: 'nearest' });
  }, [activeOption]);

  const choose = (option: Option, element: HTMLElement | null) => {
    if (option.kind === 'recent') {
      setQuery(option.query);
      inputRef.current?.focus();
      return;
    }
    // A click on the link does the navigating, through the router when the page has one.
    element?.click();
  };

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose(true);
      return;
    }
    if (event.key === 'Tab') {
      // Keep Tab inside the dialog: the page behind it is inert, but Tab could still leave for the browser's own controls.
      const focusables = Array.from(dialogRef.current?.querySelectorAll<HTMLElement>('input, button, a[href]:not([role="option"])') ?? []).filter((el) => !el.hidden);
      const first = focusables[0];
      const last = focusables[focusables.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
      return;
    }
    if (event.target !== inputRef.current || options.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (Math.min(i, options.length - 1) + step + options.length) % options.length);
    } else if (event.key === 'Enter' && activeOption) {
      event.preventDefault();
      choose(activeOption, document.getElementById(activeOption.id));
    }
  };

  const onHitClick = (event: ReactMouseEvent<HTMLAnchorElement>) => {
    // New-tab and download clicks leave the dialog as it is.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    rememberSearch(query);
    const url = new URL(event.currentTarget.href);
    onClose(url.pathname === location.pathname);
  };

  const onDialogClick = (event: ReactMouseEvent<HTMLDialogElement>) => {
    // A click on the backdrop lands on the <dialog> itself.
    if (event.target === dialogRef.current) onClose(true);
  };

  const result = shown?.result;
  const hasQuery = query.trim().length > 0;
  let status = '';
  if (error) status = 'Search is unavailable.';
  else if (hasQuery && result) status = result.pages.length === 0 ? `No results for “${query.trim()}”.` : `${result.pages.length} ${result.pages.length === 1 ? 'page' : 'pages'} found.`;

  let body: ReactNode;
  if (error) {
    body = (
      <div className="search-dialog__message">
        <p>Search could not load its index ({error}).</p>
        <p>
          Check your connection and type again, or browse the <a href={DOCS_INDEX}>documentation index</a>.
        </p>
      </div>
    );
  } else if (!hasQuery) {
    body = recent.length ? (
      <div className="search-results" role="listbox" id={`${id}-list`} aria-labelledby={`${id}-recent`} ref={listRef}>
        <div role="group" aria-labelledby={`${id}-recent`}>
          <div className="search-group__title" id={`${id}-recent`} role="presentation">
            Recent searches
          </div>
          {options.map((o) =>
            o.kind === 'recent' ? (
              <div key={o.id} id={o.id} role="option" aria-selected={o === activeOption} className="search-hit search-hit--recent" onClick={() => choose(o, null)} onMouseMove={() => setActive(options.indexOf(o))}>
                <span className="search-hit__heading">{o.query}</span>
              </div>
            ) : null,
          )}
        </div>
      </div>
    ) : (
      <p className="search-dialog__message">Search the documentation, the blog and the API reference.</p>
    );
  } else if (result && result.pages.length === 0) {
    body = (
      <div className="search-dialog__message" data-query={result.query}>
        <p>
          No results for <strong>“{result.query.trim()}”</strong>.
        </p>
        <p>
          Try fewer or other words, or browse the <a href={DOCS_INDEX}>documentation index</a>.
        </p>
      </div>
    );
  } else if (result) {
    body = (
      <div className="search-results" role="listbox" id={`${id}-list`} aria-label="Search results" ref={listRef} data-query={result.query}>
        {!result.complete ? <p className="search-results__note">No page has every word; showing pages with most of them.</p> : null}
        {result.pages.map((page) => (
          <div key={page.page} role="group" aria-labelledby={`${id}-p${page.page}`} className="search-group">
            <div className="search-group__title" id={`${id}-p${page.page}`} role="presentation">
              <span className={`search-kind search-kind--${page.kind}`}>{SEARCH_KIND_LABELS[page.kind]}</span>{' '}
              <span>
                {/* Where the page sits tells apart pages of the same title ("Começando" of two sidebars). */}
                {page.section ? <span className="search-group__section">{`${page.section} › `}</span> : null}
                {page.title}
              </span>
            </div>
            {page.records.map((hit) => {
              const option = options.find((o) => o.kind === 'hit' && o.record === hit.record)!;
              const key = `${hit.record}-${hit.passage}`;
              const passage = passages.get(key);
              const href = passage ? (engineRef.current?.url(hit.record, passage) ?? page.url) : page.url;
              return (
                <a
                  key={hit.record}
                  id={option.id}
                  role="option"
                  aria-selected={option === activeOption}
                  tabIndex={-1}
                  href={href}
                  className="search-hit"
                  data-passage={key}
                  data-pending={passage ? undefined : ''}
                  onClick={onHitClick}
                  onMouseMove={() => setActive(options.indexOf(option))}
                >
                  <span className="search-hit__heading">
                    <Marked segments={highlight(passage?.h || page.title, result.matched)} />
                  </span>
                  <span className="search-hit__excerpt">{passage ? <Marked segments={excerpt(passage.t, result.matched)} /> : '…'}</span>
                </a>
              );
            })}
          </div>
        ))}
      </div>
    );
  } else {
    body = <p className="search-dialog__message">Searching…</p>;
  }

  const listId = options.length > 0 ? `${id}-list` : undefined;
  return (
    <dialog
      ref={dialogRef}
      className="search-dialog"
      aria-labelledby={`${id}-title`}
      onKeyDown={onKeyDown}
      onClick={onDialogClick}
      onCancel={(e) => {
        e.preventDefault();
        onClose(true);
      }}
    >
      <div className="search-dialog__panel">
        <h2 className="visually-hidden" id={`${id}-title`}>
          Search
        </h2>
        <form className="search-dialog__form" role="search" onSubmit={(e) => e.preventDefault()}>
          <svg className="search-dialog__icon" width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path d="M14.386 14.386l4.0877 4.0877-4.0877-4.0877c-2.9418 2.9419-7.7115 2.9419-10.6533 0-2.9419-2.9418-2.9419-7.7115 0-10.6533 2.9418-2.9419 7.7115-2.9419 10.6533 0 2.9419 2.9418 2.9419 7.7115 0 10.6533z" stroke="currentColor" fill="none" strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" />
          </svg>
          <input
            ref={inputRef}
            className="search-dialog__input"
            type="search"
            role="combobox"
            aria-label="Search docs, blog and API"
            aria-autocomplete="list"
            aria-expanded={options.length > 0}
            aria-controls={listId}
            aria-activedescendant={activeOption?.id}
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="off"
            // A string: preact/compat leaves out a false attribute that has no DOM property under its name (the property is `spellcheck`).
            spellCheck="false"
            enterKeyHint="go"
            placeholder="Search docs, blog and API"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <button type="button" className="search-dialog__close" onClick={() => onClose(true)}>
            {/* Where a keyboard is likely, an Esc keycap named "Close search"; on touch and narrow screens a "Cancel"
                text button, named by what it shows (the style shows one of the two, so the name follows). */}
            <span className="search-dialog__close-key">
              <span className="visually-hidden">Close search</span>
              <kbd aria-hidden="true">Esc</kbd>
            </span>
            <span className="search-dialog__close-text">Cancel</span>
          </button>
        </form>
        <div className="search-dialog__body" ref={bodyRef}>
          {body}
        </div>
        <p className="visually-hidden" role="status">
          {status}
        </p>
        <footer className="search-dialog__footer" aria-hidden="true">
          <span>
            <kbd>↑</kbd> <kbd>↓</kbd> to move
          </span>
          <span>
            <kbd>Enter</kbd> to open
          </span>
          <span>
            <kbd>Esc</kbd> to close
          </span>
        </footer>
      </div>
    </dialog>
  );
}

export function mount(element: HTMLElement): () => void {
  return mountReact(element, <SearchIsland element={element} />);
}
