import type { ReactNode } from 'react';

/** A stand-alone page (home, MDX pages): the chrome around free content. */
export function Page({ children, contentLanguage, className }: { children: ReactNode; contentLanguage?: string; className?: string }) {
  return (
    <main id="main-content" className={`page-main${className ? ` ${className}` : ''}`} tabIndex={-1} lang={contentLanguage}>
      {children}
    </main>
  );
}
