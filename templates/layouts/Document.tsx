import type { ReactNode } from 'react';
import { AnnouncementBar } from '../components/AnnouncementBar.tsx';
import { Footer } from '../components/Footer.tsx';
import { Navbar } from '../components/Navbar.tsx';
import { PageContext, SiteContext, type PageContextData, type SiteData } from '../components/SiteContext.tsx';

export interface HeadData {
  /** Full <title>, already "Page | Site". */
  title: string;
  description: string;
  /** Absolute canonical URL. */
  canonical: string;
  ogType?: 'website' | 'article';
  noindex?: boolean;
  /** Extra <link rel=alternate> etc. */
  extra?: ReactNode;
}

export interface PageAssets {
  /** Stylesheets in order. */
  styles: string[];
  /** The router/behaviour module every page loads. */
  script: string;
  /** Modules to preload because the page will need them (island chunks). */
  preload: string[];
  /** Code inlined in <head> that applies the colour mode before first paint. */
  themeInit: string;
  /** island name -> its module and stylesheets; read by the client loader. */
  islands: Record<string, { js: string; css: string[] }>;
  feeds: { rss: string; atom: string };
}

/**
 * The HTML document around every page: head tags, chrome, and the hooks the client
 * script needs. It renders the same for every reader (no theme or storage reads here).
 */
export function Document({
  site,
  page,
  head,
  assets,
  children,
}: {
  site: SiteData;
  page: PageContextData;
  head: HeadData;
  assets: PageAssets;
  children: ReactNode;
}) {
  return (
    <html lang={site.locale.code} dir={site.locale.direction} data-theme={site.colorMode.defaultMode}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        <link rel="canonical" href={head.canonical} />
        {head.noindex ? <meta name="robots" content="noindex" /> : null}
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        <meta property="og:url" content={head.canonical} />
        <meta property="og:type" content={head.ogType ?? 'website'} />
        <meta property="og:site_name" content={site.title} />
        <meta property="og:locale" content={site.locale.code} />
        <meta name="twitter:card" content="summary" />
        <meta name="twitter:title" content={head.title} />
        <meta name="twitter:description" content={head.description} />
        <meta name="theme-color" content="#0b5cd5" />
        <link rel="icon" href={site.favicon} />
        <link rel="alternate" type="application/rss+xml" href={assets.feeds.rss} title={`${site.title} RSS Feed`} />
        <link rel="alternate" type="application/atom+xml" href={assets.feeds.atom} title={`${site.title} Atom Feed`} />
        {head.extra}
        <script dangerouslySetInnerHTML={{ __html: assets.themeInit }} />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        <script type="module" src={assets.script} />
        {assets.preload.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        <script id="docsgen-islands" type="application/json" dangerouslySetInnerHTML={{ __html: JSON.stringify(assets.islands).replace(/</g, '\\u003c') }} />
      </head>
      <body>
        <SiteContext.Provider value={site}>
          <PageContext.Provider value={page}>
            <a className="skip-link" href="#main-content">
              Skip to main content
            </a>
            <BaseUrlWarning />
            <AnnouncementBar />
            <Navbar />
            <div className="main-wrapper" id="docsgen-page">
              {children}
            </div>
            <Footer />
            <div className="progress-bar" role="progressbar" aria-label="Loading page" aria-hidden="true" hidden />
          </PageContext.Provider>
        </SiteContext.Provider>
      </body>
    </html>
  );
}

/**
 * Shown only when both the stylesheet (which hides it) and the client script (which
 * removes it) failed to load: the usual cause is a site served under another path.
 */
function BaseUrlWarning() {
  return (
    <div id="docsgen-base-url-issue-banner" className="base-url-issue" style={{ border: '3px solid #e00', background: '#fee', color: '#000', padding: '1rem', margin: '1rem' }}>
      <p style={{ fontWeight: 'bold', margin: 0 }}>Your site did not load properly.</p>
      <p>
        Its scripts and styles could not be loaded. A wrong base URL is the usual reason: this site expects to be served from the root of its host.
      </p>
      <p>
        Current configured baseUrl = / <span id="docsgen-base-url-suggestion" />
      </p>
      <p>Serve the built folder at the root of a host (for example with `docsgen serve`), or rebuild with the path it is served under.</p>
    </div>
  );
}
