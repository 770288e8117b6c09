import { DATA } from '../shared.ts';
import type { SidebarItemData } from './SiteContext.tsx';

function containsRoute(item: SidebarItemData, route: string): boolean {
  if (item.href === route) return true;
  return (item.items ?? []).some((child) => containsRoute(child, route));
}

/** The docs sidebar. Always visible on desktop (spec: it cannot be hidden). */
export function Sidebar({ items, current }: { items: SidebarItemData[]; current: string }) {
  return (
    <aside className="doc-sidebar">
      <nav className="doc-sidebar__nav" aria-label="Docs sidebar">
        <SidebarTree items={items} current={current} idPrefix="s-" />
      </nav>
    </aside>
  );
}

export function SidebarTree({ items, current, idPrefix }: { items: SidebarItemData[]; current: string; idPrefix: string }) {
  return (
    <ul className="menu__list">
      {items.map((item, index) => (
        <SidebarEntry key={`${item.label}-${index}`} item={item} current={current} id={`${idPrefix}${index}`} />
      ))}
    </ul>
  );
}

function SidebarEntry({ item, current, id }: { item: SidebarItemData; current: string; id: string }) {
  if (item.type === 'category') {
    // A category holding the current page is always open; others follow their config.
    const open = containsRoute(item, current) || !item.collapsed;
    const listId = `sidebar-${id}`;
    return (
      <li className={`menu__list-item menu__category${open ? '' : ' menu__category--collapsed'}`}>
        <button type="button" className="menu__caret" aria-expanded={open ? 'true' : 'false'} aria-controls={listId} {...{ [DATA.sidebarCategory]: '' }}>
          {item.label}
        </button>
        <ul className="menu__list" id={listId}>
          {(item.items ?? []).map((child, index) => (
            <SidebarEntry key={`${child.label}-${index}`} item={child} current={current} id={`${id}-${index}`} />
          ))}
        </ul>
      </li>
    );
  }
  const active = item.type === 'doc' && item.href === current;
  return (
    <li className="menu__list-item">
      <a className={`menu__link${active ? ' menu__link--active' : ''}`} href={item.href} aria-current={active ? 'page' : undefined}>
        {item.label}
      </a>
    </li>
  );
}
