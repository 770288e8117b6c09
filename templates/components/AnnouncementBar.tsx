import { DATA, HEAD_DATA } from '../shared/index.ts';
import { useSite } from './SiteContext.tsx';

/** Hidden before first paint by the inline head script when this id was dismissed, so it never flashes; a new id shows it again. */
export function AnnouncementBar() {
  const bar = useSite().announcementBar;
  if (!bar) return null;
  return (
    <div className="announcement" role="region" aria-label="Announcement" {...{ [HEAD_DATA.announcementId]: bar.id }}>
      <p className="announcement__content">{bar.content}</p>
      {bar.dismissible ? (
        <button type="button" className="announcement__close" aria-label="Close" {...{ [DATA.announcementClose]: '' }}>
          <svg viewBox="0 0 15 15" width="14" height="14" aria-hidden="true" focusable="false">
            <g stroke="currentColor" strokeWidth="3.1">
              <path d="M.75.75l13.5 13.5M14.25.75L.75 14.25" />
            </g>
          </svg>
        </button>
      ) : null}
    </div>
  );
}
