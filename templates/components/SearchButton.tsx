import type { MouseEvent } from 'react';
import { DATA } from '../shared/index.ts';

/** The navbar's search slot. The dialog is an island loaded on first use, so pages do not pay for search up front. */
export function SearchButton() {
  return (
    <div className="navbar__search" {...{ [DATA.island]: 'search' }}>
      <SearchButtonControl />
    </div>
  );
}

/**
 * The button itself. The search island hydrates this same component, so the markup
 * the server sends and the one React expects can never drift apart.
 */
export function SearchButtonControl({ onClick, keys = 'Ctrl K' }: { onClick?: (event: MouseEvent<HTMLButtonElement>) => void; keys?: string }) {
  return (
    // Named by its text "Search" (out of sight but still read on narrow screens), so the name and the visible label agree.
    <button type="button" className="search-button" aria-keyshortcuts="Control+K Meta+K /" aria-haspopup="dialog" onClick={onClick}>
      <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <path d="M14.386 14.386l4.0877 4.0877-4.0877-4.0877c-2.9418 2.9419-7.7115 2.9419-10.6533 0-2.9419-2.9418-2.9419-7.7115 0-10.6533 2.9418-2.9419 7.7115-2.9419 10.6533 0 2.9419 2.9418 2.9419 7.7115 0 10.6533z" stroke="currentColor" fill="none" fillRule="evenodd" strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" />
      </svg>
      <span className="search-button__placeholder">Search</span>
      {/* Announced through aria-keyshortcuts instead, so the name stays "Search". */}
      <kbd className="search-button__keys" aria-hidden="true">
        {keys}
      </kbd>
    </button>
  );
}
