import { DATA } from '../shared/index.ts';
import { ColorModeToggle } from './ColorModeToggle.tsx';
import { SmartLink, isActive, isNavActive } from './Link.tsx';
import { SearchButton } from './SearchButton.tsx';
import { usePage, useSite, type NavItemData } from './SiteContext.tsx';

/** Fixed top bar (spec §2). At 996 px or less its items move into the mobile menu panel. */
export function Navbar() {
  const site = useSite();
  const page = usePage();
  return (
    <nav className="navbar" aria-label="Main">
      <div className="navbar__inner">
        <button type="button" className="navbar__toggle" aria-label="Toggle navigation bar" aria-expanded="false" aria-controls="mobile-menu" {...{ [DATA.menuToggle]: '' }}>
          <svg width="30" height="30" viewBox="0 0 30 30" aria-hidden="true" focusable="false">
            <path stroke="currentColor" strokeLinecap="round" strokeMiterlimit="10" strokeWidth="2" d="M4 7h22M4 15h22M4 23h22" />
          </svg>
        </button>
        <a className="navbar__brand" href="/">
          {site.navbar.logo ? <img className="navbar__logo" src={site.navbar.logo.src} alt={site.navbar.logo.alt} width="32" height="32" /> : null}
          <span className="navbar__title">{site.navbar.title}</span>
        </a>
        <ul className="navbar__items">
          {site.navbar.items.map((item) => (
            <NavbarItem key={item.label} item={item} current={page.route} />
          ))}
        </ul>
        <div className="navbar__items navbar__items--right">
          <VersionDropdown />
          <LocaleDropdown />
          {site.colorMode.disableSwitch ? null : <ColorModeToggle defaultMode={site.colorMode.defaultMode} />}
          <SearchButton />
        </div>
      </div>
      <MobileMenu />
    </nav>
  );
}

function NavbarItem({ item, current }: { item: NavItemData; current: string }) {
  const active = isNavActive(current, item) || (item.items ?? []).some((sub) => isNavActive(current, sub));
  if (item.items?.length) {
    return (
      <li className="navbar__item dropdown dropdown--link">
        <SmartLink link={item} className={`navbar__link${active ? ' navbar__link--active' : ''}`}>
          {item.label}
        </SmartLink>
        <ul className="dropdown__menu">
          {item.items.map((sub) => (
            <li key={sub.label}>
              <SmartLink
                link={sub}
                className={`dropdown__link${isNavActive(current, sub) ? ' dropdown__link--active' : ''}`}
                aria-current={isActive(current, sub.to, true) ? 'page' : undefined}
              />
            </li>
          ))}
        </ul>
      </li>
    );
  }
  return (
    <li className="navbar__item">
      <SmartLink link={item} className={`navbar__link${active ? ' navbar__link--active' : ''}`} aria-current={isActive(current, item.to, true) ? 'page' : undefined} />
    </li>
  );
}

/** The docs version dropdown shows on docs pages only, as in Docusaurus. */
function showsVersion(route: string, docsBase: string): boolean {
  return isActive(route, docsBase);
}

/** One docs version exists ('current', labelled 'Next'); the dropdown is kept for parity with the spec. */
function VersionDropdown() {
  const site = useSite();
  const page = usePage();
  if (!showsVersion(page.route, site.docs.routeBasePath)) return null;
  return (
    <div className="navbar__item dropdown dropdown--right" {...{ [DATA.versionDropdown]: site.docs.versionName }}>
      <button type="button" className="navbar__link dropdown__button" aria-expanded="false" aria-controls="docsgen-version-menu">
        <span className="visually-hidden">Docs version: </span>
        {site.docs.versionLabel}
      </button>
      <ul className="dropdown__menu" id="docsgen-version-menu">
        <li>
          <a className="dropdown__link dropdown__link--active" href={site.docs.routeBasePath} aria-current="true">
            {site.docs.versionLabel}
          </a>
        </li>
      </ul>
    </div>
  );
}

function LocaleIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" className="locale-icon">
      <path fill="currentColor" d="M12.87 15.07l-2.54-2.51.03-.03A17.52 17.52 0 0014.07 6H17V4h-7V2H8v2H1v1.99h11.17C11.5 7.92 10.44 9.75 9 11.35 8.07 10.32 7.3 9.19 6.69 8h-2c.73 1.63 1.73 3.17 2.98 4.56l-5.09 5.02L4 19l5-5 3.11 3.11.76-2.04zM18.5 10h-2L12 22h2l1.12-3h4.75L21 22h2l-4.5-12zm-2.62 7l1.62-4.33L19.12 17h-3.24z" />
    </svg>
  );
}

function LocaleDropdown() {
  const site = useSite();
  const page = usePage();
  return (
    <div className="navbar__item dropdown dropdown--right">
      <button type="button" className="navbar__link dropdown__button" aria-expanded="false" aria-controls="docsgen-locale-menu">
        <LocaleIcon />
        <span className="visually-hidden">Language: </span>
        {site.locale.label}
      </button>
      <ul className="dropdown__menu" id="docsgen-locale-menu">
        <li>
          <a className="dropdown__link dropdown__link--active" href={page.route} lang={site.locale.code} aria-current="true">
            {site.locale.label}
          </a>
        </li>
      </ul>
    </div>
  );
}

/**
 * The version and language dropdowns in the phone menu, where Docusaurus lists them as groups
 * that open in place. <details> is a disclosure that needs no script: Enter or Space opens it,
 * and screen readers announce it expanded or collapsed. The version group keeps the attribute
 * the desktop dropdown has, so choosing the version here records it as the preferred one too.
 */
function MobileDropdowns() {
  const site = useSite();
  const page = usePage();
  return (
    <>
      {showsVersion(page.route, site.docs.routeBasePath) ? (
        <li className="menu__list-item" {...{ [DATA.versionDropdown]: site.docs.versionName }}>
          <details className="menu__group">
            <summary className="menu__caret">
              <span>
                <span className="visually-hidden">Docs version: </span>
                {site.docs.versionLabel}
              </span>
            </summary>
            <ul className="menu__list">
              <li className="menu__list-item">
                <a className="menu__link menu__link--active" href={site.docs.routeBasePath} aria-current="true">
                  {site.docs.versionLabel}
                </a>
              </li>
            </ul>
          </details>
        </li>
      ) : null}
      <li className="menu__list-item">
        <details className="menu__group">
          <summary className="menu__caret">
            <span className="menu__group-label">
              <LocaleIcon />
              <span className="visually-hidden">Language: </span>
              {site.locale.label}
            </span>
          </summary>
          <ul className="menu__list">
            <li className="menu__list-item">
              <a className="menu__link menu__link--active" href={page.route} lang={site.locale.code} aria-current="true">
                {site.locale.label}
              </a>
            </li>
          </ul>
        </details>
      </li>
    </>
  );
}

/**
 * The panel the menu button opens on narrow screens: primary navigation, and on doc and
 * blog pages their sidebar first (the page's own, moved in by the script while the menu is open).
 */
function MobileMenu() {
  const site = useSite();
  const page = usePage();
  return (
    <div className="mobile-menu" id="mobile-menu" role="dialog" aria-modal="true" aria-label="Navigation" hidden>
      <div className="mobile-menu__backdrop" {...{ [DATA.menuClose]: '' }} />
      <div className="mobile-menu__panel">
        <div className="mobile-menu__header">
          <a className="navbar__brand" href="/">
            {site.navbar.logo ? <img className="navbar__logo" src={site.navbar.logo.src} alt={site.navbar.logo.alt} width="32" height="32" /> : null}
            <span className="navbar__title">{site.navbar.title}</span>
          </a>
          {site.colorMode.disableSwitch ? null : <ColorModeToggle defaultMode={site.colorMode.defaultMode} />}
          <button type="button" className="mobile-menu__close" aria-label="Close navigation bar" {...{ [DATA.menuClose]: '' }}>
            <svg viewBox="0 0 15 15" width="21" height="21" aria-hidden="true" focusable="false">
              <g stroke="currentColor" strokeWidth="1.2">
                <path d="M.75.75l13.5 13.5M14.25.75L.75 14.25" />
              </g>
            </svg>
          </button>
        </div>
        <div className={`mobile-menu__items${page.menuSidebar ? ' mobile-menu__items--secondary' : ''}`}>
          <div className="mobile-menu__primary">
            <ul className="menu__list">
              {site.navbar.items.map((item) => (
                <li key={item.label} className="menu__list-item">
                  <SmartLink
                    link={item}
                    className={`menu__link${isNavActive(page.route, item) ? ' menu__link--active' : ''}`}
                    aria-current={!item.items?.length && isActive(page.route, item.to, true) ? 'page' : undefined}
                  />
                  {item.items?.length ? (
                    <ul className="menu__list">
                      {item.items.map((sub) => (
                        <li key={sub.label} className="menu__list-item">
                          <SmartLink
                            link={sub}
                            className={`menu__link${isNavActive(page.route, sub) ? ' menu__link--active' : ''}`}
                            aria-current={isActive(page.route, sub.to, true) ? 'page' : undefined}
                          />
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
              <MobileDropdowns />
            </ul>
          </div>
          {page.menuSidebar ? (
            <div className="mobile-menu__secondary">
              <button type="button" className="mobile-menu__back" {...{ [DATA.menuBack]: '' }}>
                ← Back to main menu
              </button>
              {/* The page's sidebar (docs or blog) moves in here while the menu is open: one tree for both. */}
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}
