import { DATA, markdownPath } from '../shared/index.ts';
import { usePage, useSite } from './SiteContext.tsx';

/**
 * "Copy page" beside a page's title: copies the page's Markdown twin, fetched on click
 * by a chunk the click loads (templates/client/copy-page.ts), never shipped in the page.
 * The menu is a <details>, so "View as Markdown" works without any script. A <nav>, so
 * search leaves its texts out of the page's content. `route` is the page's own route
 * where it is shown under another (the docs root shows the main doc).
 */
export function CopyPage({ route }: { route?: string }) {
  const site = useSite();
  const page = usePage();
  const href = markdownPath(route ?? page.route);
  const lang = site.contentLanguage && site.contentLanguage !== site.locale.code ? site.locale.code : undefined;
  return (
    <nav className="copy-page" aria-label={site.labels.pageActions} lang={lang} {...{ [DATA.copyPage]: href }}>
      <button type="button" className="copy-page__button">
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
          <path fill="currentColor" d="M4 1.5A1.5 1.5 0 0 1 5.5 0h7A1.5 1.5 0 0 1 14 1.5v9a1.5 1.5 0 0 1-1.5 1.5h-7A1.5 1.5 0 0 1 4 10.5zm1.5 0v9h7v-9zM2 4.5h1V14h7v1H2.5A1.5 1.5 0 0 1 1 13.5V5.5A1 1 0 0 1 2 4.5z" />
        </svg>
        <span className="copy-page__label">{site.labels.copyPage}</span>
      </button>
      <details className="copy-page__menu">
        <summary className="copy-page__toggle" aria-label={site.labels.moreActions} title={site.labels.moreActions}>
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M3.2 5.7 8 10.5l4.8-4.8 1 1L8 12.5 2.2 6.7z" />
          </svg>
        </summary>
        <ul className="copy-page__items">
          <li>
            <a href={href} type="text/markdown" {...{ [DATA.reload]: '' }}>
              {site.labels.viewAsMarkdown}
            </a>
          </li>
        </ul>
      </details>
      <span className="visually-hidden" role="status" data-copied={site.labels.copied} />
    </nav>
  );
}
