/**
 * Highlights, in the table of contents, the section being read (the rule readers know
 * from Docusaurus: a heading in the top half of the screen, else the one above). On
 * narrow screens the same list is an "On this page" disclosure that closes when one of
 * its links is followed.
 */
const ACTIVE = 'toc__link--active';

let scheduled = false;

function tocLinks(): HTMLAnchorElement[] {
  return Array.from(document.querySelectorAll<HTMLAnchorElement>('.toc a.toc__link, .toc-mobile a.toc__link'));
}

function headingsOf(links: HTMLAnchorElement[]): HTMLElement[] {
  const seen = new Set<string>();
  const headings: HTMLElement[] = [];
  for (const link of links) {
    const id = decodeURIComponent(link.hash.slice(1));
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const heading = document.getElementById(id);
    if (heading) headings.push(heading);
  }
  return headings;
}

export function updateToc(): void {
  scheduled = false;
  const links = tocLinks();
  if (links.length === 0) return;
  const headings = headingsOf(links);
  const navbar = document.querySelector('.navbar')?.getBoundingClientRect().bottom ?? 0;
  // The first heading not yet scrolled under the navbar is being read when it sits in the
  // top half of the screen; otherwise the section before it is.
  const next = headings.find((heading) => heading.getBoundingClientRect().top >= navbar - 1);
  let active: HTMLElement | undefined;
  if (!next) active = headings[headings.length - 1];
  else if (next.getBoundingClientRect().top < window.innerHeight / 2) active = next;
  else active = headings[headings.indexOf(next) - 1];
  const id = active?.id;
  for (const link of links) {
    const on = decodeURIComponent(link.hash.slice(1)) === id;
    link.classList.toggle(ACTIVE, on);
    if (on) link.setAttribute('aria-current', 'location');
    else link.removeAttribute('aria-current');
  }
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(updateToc);
}

export function initToc(): void {
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule, { passive: true });
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('.toc-mobile a');
    const details = link?.closest('details');
    if (details) details.open = false;
  });
  schedule();
}
