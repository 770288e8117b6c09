import type { AnchorHTMLAttributes, ReactNode } from 'react';
import type { LinkData, NavLinkData } from './SiteContext.tsx';

/** External links open in a new tab with rel=noopener; internal ones are plain root-absolute links the router intercepts. */
export function SmartLink({ link, children, ...rest }: { link: LinkData; children?: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  if (link.href) {
    return (
      <a href={link.href} target="_blank" rel="noopener noreferrer" {...rest}>
        {children ?? link.label}
        <ExternalIcon />
      </a>
    );
  }
  return (
    <a href={link.to} {...rest}>
      {children ?? link.label}
    </a>
  );
}

export function ExternalIcon() {
  return (
    <svg className="icon-external" width="13" height="13" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M21 13v10h-21v-19h12v2h-10v15h17v-8h2zm3-12h-10.988l4.035 4-6.977 7.07 2.828 2.828 6.977-7.07 4.125 4.172v-11z" />
    </svg>
  );
}

/** Marks the link of the current page (and section) for styling and assistive tech. */
export function isActive(current: string, target: string | undefined, exact = false): boolean {
  if (!target) return false;
  if (exact || target === '/') return current === target;
  return current === target || current.startsWith(`${target}/`);
}

/**
 * Whether a navbar link is the current section. With `activeBasePath`, every page under that
 * path counts, as in Docusaurus, and so does the link's own page: in Docusaurus the base path
 * replaces that match, which leaves an item whose base path does not hold its target (an API
 * reference page attached to its guide's docs) unmarked on its own page. The base path ends
 * at a segment ('/docs/sdk' is not active on '/docs/sdk-legacy'), which Docusaurus's plain
 * prefix test does not check.
 */
export function isNavActive(current: string, link: NavLinkData): boolean {
  if (link.activeBasePath) return isActive(current, link.activeBasePath) || isActive(current, link.to, true);
  return isActive(current, link.to);
}
