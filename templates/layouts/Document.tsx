import type { ReactNode } from 'react';
import { AnnouncementBar } from '../components/AnnouncementBar.tsx';
import { Footer } from '../components/Footer.tsx';
import { Navbar } from '../components/Navbar.tsx';
import { ThemeColorMeta, ThemeColors } from '../components/ThemeColors.tsx';
import { PageContext, SiteContext, type PageContextData, type SiteData } from '../components/SiteContext.tsx';
import { DATA, HEAD_DATA, IDS, type IslandManifest } from '../shared/index.ts';

export interface HeadData {
  /** Full <title>, already "Page | Site". */
  title: string;
  description: string;
  /** Absolute canonical URL. */
  canonical: string;
  ogType?: 'website' | 'article';
  noindex?: boolean;
  /** Front matter `keywords`. */
  keywords?: string[];
  /** Absolute URL of the link-preview image (front matter `image`). */
  image?: string;
  /** URL of the page's Markdown twin, when it has one. */
  markdown?: string;
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
  islands: IslandManifest;
  /** The blog's feeds; absent when the site has no blog. */
  feeds?: { rss: string; atom: string };
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
    <html lang={site.locale.code} dir={site.locale.direction} data-theme={site.colorMode.defaultMode} {...(site.announcementBar ? { [HEAD_DATA.announcementId]: site.announcementBar.id } : {})} {...(site.baseUrl === '/' ? {} : { [DATA.baseUrl]: site.baseUrl })}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        <link rel="canonical" href={head.canonical} />
        {head.noindex ? <meta name="robots" content="noindex" /> : null}
        {head.keywords?.length ? <meta name="keywords" content={head.keywords.join(', ')} /> : null}
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        <meta property="og:url" content={head.canonical} />
        <meta property="og:type" content={head.ogType ?? 'website'} />
        <meta property="og:site_name" content={site.title} />
        <meta property="og:locale" content={site.locale.code} />
        {head.image ? <meta property="og:image" content={head.image} /> : null}
        <meta name="twitter:card" content={head.image ? 'summary_large_image' : 'summary'} />
        {head.image ? <meta name="twitter:image" content={head.image} /> : null}
        <meta name="twitter:title" content={head.title} />
        <meta name="twitter:description" content={head.description} />
        <ThemeColorMeta theme={site.theme} />
        <link rel="icon" href={site.favicon} />
        {assets.feeds ? <link rel="alternate" type="application/rss+xml" href={assets.feeds.rss} title={`${site.title} RSS Feed`} /> : null}
        {assets.feeds ? <link rel="alternate" type="application/atom+xml" href={assets.feeds.atom} title={`${site.title} Atom Feed`} /> : null}
        {head.markdown ? <link rel="alternate" type="text/markdown" href={head.markdown} title={head.title} /> : null}
        {head.extra}
        <script dangerouslySetInnerHTML={{ __html: assets.themeInit }} />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        <ThemeColors theme={site.theme} />
        <script type="module" src={assets.script} />
        {assets.preload.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        <script id={IDS.islandsManifest} type="application/json" dangerouslySetInnerHTML={{ __html: JSON.stringify(assets.islands).replace(/</g, '\\u003c') }} />
      </head>
      <body>
        <SiteContext.Provider value={site}>
          <PageContext.Provider value={page}>
            <a className="skip-link" href={`#${IDS.mainContent}`}>
              Skip to main content
            </a>
            <BaseUrlWarning route={page.route} baseUrl={site.baseUrl} />
            <AnnouncementBar />
            <Navbar />
            <div className="main-wrapper" id={IDS.page}>
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
 * removes it) failed to load: the usual cause is a site served under another path than
 * its base URL. The inline script still runs then, and works out the path the site is
 * served under by taking this page's route off the address. The route and the base URL
 * come from attributes, so the script is the same on every page and every site.
 */
function BaseUrlWarning({ route, baseUrl }: { route: string; baseUrl: string }) {
  // String.raw keeps the regular expressions' backslashes for the browser.
  // The route comes from an attribute so the script is the same on every page: one hash in the Content-Security-Policy.
  const suggest = String.raw`(function(){var r=document.currentScript.getAttribute('data-route'),p=location.pathname.replace(/\/index\.html$/,'/').replace(/\.html$/,'').replace(/\/+$/,'')||'/',b;if(r==='/')b=p;else if(p.slice(-r.length)===r)b=p.slice(0,p.length-r.length);if(b===undefined)return;b=b.replace(/\/*$/,'/');document.getElementById('${IDS.baseUrlSuggestion}').textContent=b===(document.documentElement.getAttribute('${DATA.baseUrl}')||'/')?'The base URL looks right: check that the assets folder of the build was deployed next to the pages.':'We suggest trying baseUrl = '+b;})()`;
  return (
    <div id={IDS.baseUrlBanner} className="base-url-issue" role="alert" style={{ border: '3px solid #e00', background: '#fee', color: '#000', padding: '1rem', margin: '1rem', fontFamily: 'sans-serif' }}>
      <p style={{ fontWeight: 'bold', margin: 0 }}>Your site did not load properly.</p>
      <p>Its scripts and styles could not be loaded. A wrong base URL is the usual reason: the site is served under another path than the one it was built for.</p>
      <p>
        Current configured baseUrl = {baseUrl}
        {baseUrl === '/' ? ' (default value)' : ''} <span id={IDS.baseUrlSuggestion} style={{ fontWeight: 'bold' }} />
      </p>
      <script data-route={route} dangerouslySetInnerHTML={{ __html: suggest }} />
      <p>
        Set <code>baseUrl</code> in site.config.ts to the path the site is served under and build again, or serve the built folder under {baseUrl} (
        <code>docsgen serve</code> does).
      </p>
    </div>
  );
}
