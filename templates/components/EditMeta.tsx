import { useSite } from './SiteContext.tsx';

/**
 * Under a doc's content: "Edit this page" (when the site has an edit URL) and "Last
 * updated on {date}", the date formatted by the render stage in the site's locale.
 */
export function EditMeta({ editUrl, lastUpdated }: { editUrl?: string; lastUpdated?: { iso: string; text: string } }) {
  const site = useSite();
  if (!editUrl && !lastUpdated) return null;
  const [before = '', after = ''] = site.labels.lastUpdated.split('{date}');
  return (
    <div className="edit-meta">
      {editUrl ? (
        <a className="edit-meta__edit" href={editUrl} target="_blank" rel="noopener noreferrer">
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M11.8 1.2a1.5 1.5 0 0 1 2.1 0l.9.9a1.5 1.5 0 0 1 0 2.1L6 13l-3.5 1 1-3.5zm-7 9.9-.4 1.5 1.5-.4 6.6-6.6-1.1-1.1z" />
          </svg>
          {site.labels.editThisPage}
        </a>
      ) : null}
      {lastUpdated ? (
        <p className="edit-meta__updated">
          {before}
          <time dateTime={lastUpdated.iso}>{lastUpdated.text}</time>
          {after}
        </p>
      ) : null}
    </div>
  );
}
