import type { AnchorHTMLAttributes, ReactNode } from 'react';
import type { LinkData } from './SiteContext.tsx';

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
