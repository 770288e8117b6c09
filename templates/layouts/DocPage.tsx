import type { ReactNode } from 'react';
import { Breadcrumbs, type Crumb } from '../components/Breadcrumbs.tsx';
import { CopyPage } from '../components/CopyPage.tsx';
import { EditMeta } from '../components/EditMeta.tsx';
import { Paginator, type PaginatorLink } from '../components/Paginator.tsx';
import { Sidebar } from '../components/Sidebar.tsx';
import type { PageSidebar } from '../components/SiteContext.tsx';
import { Toc, TocCollapsible, type TocNode } from '../components/Toc.tsx';

export interface DocPageProps {
  title: string;
  route: string;
  sidebar?: PageSidebar;
  breadcrumbs: Crumb[];
  /** The headings the table of contents lists (the levels the doc's front matter asks for), nested. */
  toc: TocNode[];
  hideToc?: boolean;
  /**
   * The title is not shown at the top. 'visually' (`hide_title`) keeps it as the page's h1
   * for screen readers and search engines, hidden on screen; 'content' leaves the h1 to the
   * document, whose first heading is its own `# title` (with or without `hide_title`).
   */
  hideTitle?: 'visually' | 'content';
  previous?: PaginatorLink;
  next?: PaginatorLink;
  /** The version label to show as a badge; none on a site with one version, as in Docusaurus. */
  versionBadge?: string;
  tags?: string[];
  contentLanguage?: string;
  /** Where the doc's source can be edited (config `editUrl` + its path); none, no link. */
  editUrl?: string;
  /** The source's last change: its ISO date, and the date as the page shows it. */
  lastUpdated?: { iso: string; text: string };
  children: ReactNode;
}

/** A document: sidebar (when the doc is in one), breadcrumbs, body, prev/next and the TOC. */
export function DocPage(props: DocPageProps) {
  const showToc = !props.hideToc && props.toc.length > 0;
  return (
    <div className={`doc-layout${props.sidebar ? '' : ' doc-layout--no-sidebar'}`}>
      {props.sidebar ? <Sidebar sidebar={props.sidebar} /> : null}
      <main id="main-content" className="doc-main" tabIndex={-1}>
        <div className="doc-container">
          <article className="doc-article">
            <div className="doc-meta">
              <Breadcrumbs crumbs={props.breadcrumbs} />
              {props.versionBadge ? <span className="badge doc-version-badge">{`Version: ${props.versionBadge}`}</span> : null}
            </div>
            {showToc ? <TocCollapsible items={props.toc} /> : null}
            <div className="markdown" lang={props.contentLanguage}>
              {/* Before the header, not in it: the header then holds the button alone, which page-tools.css keeps on the right. */}
              {props.hideTitle === 'visually' ? <h1 className="visually-hidden">{props.title}</h1> : null}
              <header className="doc-header">
                {props.hideTitle ? null : <h1>{props.title}</h1>}
                <CopyPage route={props.route} />
              </header>
              {props.children}
            </div>
            {props.tags?.length ? (
              <footer className="doc-footer">
                <span className="doc-footer__label">Tags:</span>
                <ul className="tag-list">
                  {props.tags.map((tag) => (
                    <li key={tag} className="tag">
                      {tag}
                    </li>
                  ))}
                </ul>
              </footer>
            ) : null}
            <EditMeta editUrl={props.editUrl} lastUpdated={props.lastUpdated} />
            <Paginator label="Docs pages" previous={props.previous} next={props.next} />
          </article>
          {showToc ? (
            <div className="doc-toc">
              <Toc items={props.toc} />
            </div>
          ) : null}
        </div>
      </main>
    </div>
  );
}
