/**
 * The sidebar's behaviour beyond the first click, loaded after the page (see sidebar.ts):
 * categories open and close; items that are not in the page are made from the shared
 * sidebar JSON (loaded once per visit, on first need) in the markup the server renders
 * for them; client navigation keeps the sidebar the reader has in front of them.
 */
import { DATA, type SidebarEntry, type SidebarJson } from '../shared/index.ts';

const loading = new Map<string, Promise<SidebarJson>>();

function load(src: string): Promise<SidebarJson> {
  let json = loading.get(src);
  if (!json) {
    json = fetch(src).then((response) => {
      if (!response.ok) throw new Error(`${src} answered HTTP ${response.status}`);
      return response.json() as Promise<SidebarJson>;
    });
    // A failed load is tried again on the next click.
    json.catch(() => loading.delete(src));
    loading.set(src, json);
  }
  return json;
}

function parsePath(key: string | null): number[] {
  return key ? key.split('.').map(Number) : [];
}

/** The items of the list at `path` in the sidebar that `element` is part of. */
async function listAt(element: Element, path: number[]): Promise<SidebarEntry[]> {
  const [src, name = ''] = element.closest(`[${DATA.sidebarSrc}]`)?.getAttribute(DATA.sidebarSrc)?.split('#') ?? [];
  if (!src) throw new Error('the sidebar names no JSON to load its items from');
  let items = (await load(src))[decodeURIComponent(name)];
  for (const index of path) items = items?.[index]?.items;
  if (!items) throw new Error(`the sidebar JSON has no items at ${path.join('.')}`);
  return items;
}

function entry(item: SidebarEntry, path: number[]): HTMLLIElement {
  const li = document.createElement('li');
  li.className = item.className ? `menu__list-item ${item.className}` : 'menu__list-item';
  const link = document.createElement('a');
  link.textContent = item.label;
  // The build wrote the JSON's links under the base URL.
  if (item.href) link.setAttribute('href', item.href);
  if (item.type === 'category') {
    li.classList.add('menu__category', 'menu__category--collapsed');
    li.setAttribute(DATA.sidebarPath, path.join('.'));
    link.className = 'menu__caret';
    link.setAttribute('aria-expanded', 'false');
    link.setAttribute(DATA.sidebarCategory, '');
  } else {
    link.className = 'menu__link';
  }
  li.append(link);
  return li;
}

function setOpen(label: Element, item: Element, open: boolean): void {
  label.setAttribute('aria-expanded', open ? 'true' : 'false');
  item.classList.toggle('menu__category--collapsed', !open);
}

/**
 * What a click on a category's label or a "more" link does: the label toggles its
 * category, loading its list first when it is not in the page; a "more" link is replaced
 * by the items it stands for, keeping keyboard focus on the first.
 */
export async function show(link: HTMLAnchorElement): Promise<void> {
  const item = link.parentElement;
  if (!item) return;
  if (link.hasAttribute(DATA.sidebarCategory)) {
    if (!item.querySelector(':scope > ul')) {
      const path = parsePath(item.getAttribute(DATA.sidebarPath));
      const items = await listAt(item, path);
      // A second click while the items loaded already put them in.
      if (item.querySelector(':scope > ul')) return;
      const list = document.createElement('ul');
      list.className = 'menu__list';
      list.append(...items.flatMap((child, index) => (child.unlisted ? [] : [entry(child, [...path, index])])));
      item.append(list);
      setOpen(link, item, true);
      return;
    }
    setOpen(link, item, link.getAttribute('aria-expanded') !== 'true');
    return;
  }
  const [key = '', range = ''] = (link.getAttribute(DATA.sidebarMore) ?? '').split(':');
  const [from = 0, to = 0] = range.split('-').map(Number);
  const path = parsePath(key);
  const items = (await listAt(link, path)).slice(from, to).flatMap((child, offset) => (child.unlisted ? [] : [entry(child, [...path, from + offset])]));
  if (!item.isConnected) return;
  item.replaceWith(...items);
  items[0]?.querySelector('a')?.focus();
}

/**
 * When the next page shows the same docs sidebar, the one on screen stays: its scroll
 * position and the categories the reader opened, loaded or closed survive. The current
 * item moves and the categories around it open, as the server rendered them.
 */
export function keepSidebar(oldPage: Element, newPage: Element, same: (a: Element, b: Element) => boolean): void {
  const [from, to] = [oldPage, newPage].map((page) => page.querySelector('.doc-sidebar'));
  const current = to?.querySelector('[aria-current="page"]');
  if (!from || !to || !current || !same(from, to)) return;
  // A category's label links to its first doc: the current item is looked for among items of its own kind.
  const selector = `a.${current.classList[0]}[href="${CSS.escape(current.getAttribute('href') ?? '')}"]`;
  if (!from.querySelector(selector)) {
    // Not loaded here: the new page's open category goes where the old sidebar has it closed and unloaded.
    for (const item of to.querySelectorAll(`li[${DATA.sidebarPath}]:not(.menu__category--collapsed)`)) {
      const mine = from.querySelector(`li[${DATA.sidebarPath}="${item.getAttribute(DATA.sidebarPath)}"]`);
      if (!mine) break;
      if (!mine.querySelector(':scope > ul')) {
        mine.replaceWith(item);
        break;
      }
    }
  }
  const link = from.querySelector(selector);
  // Still not there (a long list's window the reader has not loaded): the new page's sidebar takes over.
  if (!link) return;
  const active = from.querySelector('[aria-current="page"]');
  active?.classList.remove('menu__link--active');
  active?.removeAttribute('aria-current');
  link.classList.add('menu__link--active');
  link.setAttribute('aria-current', 'page');
  for (let item = link.closest('.menu__category'); item; item = item.parentElement!.closest('.menu__category')) {
    const label = item.firstElementChild!;
    if (label !== link || item.querySelector(':scope > ul')) setOpen(label, item, true);
  }
  to.replaceWith(from);
}
