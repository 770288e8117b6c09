export interface PaginatorLink {
  href: string;
  title?: string;
}

/** Previous/next at the foot of docs ("Previous"/"Next") and of blog lists ("Newer entries"/"Older entries"). */
export function Paginator({
  previous,
  next,
  label,
  previousLabel = 'Previous',
  nextLabel = 'Next',
}: {
  previous?: PaginatorLink;
  next?: PaginatorLink;
  label: string;
  previousLabel?: string;
  nextLabel?: string;
}) {
  if (!previous && !next) return null;
  return (
    <nav className="pagination-nav" aria-label={label}>
      {previous ? (
        <a className="pagination-nav__link pagination-nav__link--prev" href={previous.href}>
          <span className="pagination-nav__sublabel">{previousLabel}</span>
          {previous.title ? <span className="pagination-nav__label">« {previous.title}</span> : null}
        </a>
      ) : (
        <span />
      )}
      {next ? (
        <a className="pagination-nav__link pagination-nav__link--next" href={next.href}>
          <span className="pagination-nav__sublabel">{nextLabel}</span>
          {next.title ? <span className="pagination-nav__label">{next.title} »</span> : null}
        </a>
      ) : null}
    </nav>
  );
}
