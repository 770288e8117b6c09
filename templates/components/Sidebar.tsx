import { DATA, SIDEBAR_WINDOW, type SidebarEntry } from '../shared/index.ts';
import type { PageSidebar } from './SiteContext.tsx';

/**
 * The docs sidebar, the one tree both desktop and the mobile menu show (the menu moves it
 * into its panel while open). Always visible on desktop (spec: it cannot be hidden).
 *
 * A page holds only the categories leading to it, open; every other category is a label
 * linking to its first doc, whose items the script loads from the shared sidebar JSON
 * when the reader expands it. Lists longer than SIDEBAR_WINDOW show a window around the
 * current item and "more" links. So a page's size does not grow with the site, and
 * without JavaScript every label still leads to a doc.
 */
export function Sidebar({ sidebar }: { sidebar: PageSidebar }) {
  return (
    <aside className="doc-sidebar" {...{ [DATA.menuSecondary]: '' }}>
      <nav className="doc-sidebar__nav" aria-label="Docs sidebar" {...{ [DATA.sidebarSrc]: `${sidebar.src}#${encodeURIComponent(sidebar.name)}` }}>
        <SidebarList items={sidebar.items} path={[]} current={sidebar.current} />
      </nav>
    </aside>
  );
}

/** The first and past-the-last index a page shows of a list, around the item at `center`. */
export function sidebarWindow(length: number, center: number): [number, number] {
  if (length <= SIDEBAR_WINDOW) return [0, length];
  const start = Math.min(Math.max(0, center - SIDEBAR_WINDOW / 2), length - SIDEBAR_WINDOW);
  return [start, start + SIDEBAR_WINDOW];
}

/** Where a "more" link leads without JavaScript: a page of the site whose window is next to this one. */
function moreHref(items: readonly SidebarEntry[], target: number, step: number): string | undefined {
  for (let i = target; i >= 0 && i < items.length; i += step) {
    const href = items[i]?.href;
    if (href?.startsWith('/')) return href;
  }
  return undefined;
}

function SidebarList({ items, path, current }: { items: readonly SidebarEntry[]; path: number[]; current: number[] }) {
  const level = path.length;
  const onPath = current.slice(0, level).every((index, i) => index === path[i]);
  const [start, end] = sidebarWindow(items.length, onPath ? current[level] ?? 0 : 0);
  const key = path.join('.');
  const half = SIDEBAR_WINDOW / 2;
  return (
    <ul className="menu__list">
      {start > 0 ? <More count={start} href={moreHref(items, Math.max(0, start - half), 1)} range={`${key}:0-${start}`} /> : null}
      {items.slice(start, end).map((item, offset) => {
        const index = start + offset;
        const itemPath = [...path, index];
        const isCurrent = onPath && current[level] === index;
        return <Entry key={index} item={item} path={itemPath} current={isCurrent ? current : undefined} />;
      })}
      {end < items.length ? <More count={items.length - end} href={moreHref(items, Math.min(items.length - 1, end + half), -1)} range={`${key}:${end}-${items.length}`} /> : null}
    </ul>
  );
}

function More({ count, href, range }: { count: number; href: string | undefined; range: string }) {
  return (
    <li className="menu__list-item">
      <a className="menu__more" href={href} {...{ [DATA.sidebarMore]: range }}>
        {`${count} more…`}
      </a>
    </li>
  );
}

/** One item; `current` is the current doc's path when this item is on it. */
function Entry({ item, path, current }: { item: SidebarEntry; path: number[]; current?: number[] }) {
  const active = current !== undefined && current.length === path.length;
  if (item.unlisted && !active) return null;
  if (item.type === 'category') {
    const open = current !== undefined;
    return (
      <li className={`menu__list-item menu__category${open ? '' : ' menu__category--collapsed'}`} {...{ [DATA.sidebarPath]: path.join('.') }}>
        <a
          className={`menu__caret${active ? ' menu__link--active' : ''}`}
          href={item.href}
          aria-expanded={open ? 'true' : 'false'}
          aria-current={active ? 'page' : undefined}
          {...{ [DATA.sidebarCategory]: '' }}
        >
          {item.label}
        </a>
        {open ? <SidebarList items={item.items ?? []} path={path} current={current} /> : null}
      </li>
    );
  }
  return (
    <li className={`menu__list-item${item.className ? ` ${item.className}` : ''}`}>
      <a className={`menu__link${active ? ' menu__link--active' : ''}`} href={item.href} aria-current={active ? 'page' : undefined}>
        {item.label}
      </a>
    </li>
  );
}
