/**
 * The site's brand colours (`theme.colors` of the config) as CSS custom properties,
 * overriding the neutral defaults of templates/styles/main.css. Rendered after the
 * stylesheets in <head> (outside the site context, so it takes the colours as a prop),
 * so the same selectors win by order.
 */
export interface ThemeColorSetData {
  primary: string;
  primaryStrong?: string;
  primarySoft?: string;
  onPrimary?: string;
  link?: string;
}

export interface ThemeData {
  light: ThemeColorSetData;
  dark: ThemeColorSetData;
}

/** The declarations of one mode; colours left out are derived from primary (see cli/config-theme.ts). */
function declarations(set: ThemeColorSetData, mode: 'light' | 'dark'): string {
  const properties: [string, string][] = [
    ['--c-primary', set.primary],
    ['--c-primary-strong', set.primaryStrong ?? `color-mix(in srgb, ${set.primary} 80%, ${mode === 'light' ? '#000' : '#fff'})`],
    ['--c-primary-soft', set.primarySoft ?? `color-mix(in srgb, ${set.primary} 12%, var(--c-bg))`],
    ['--c-on-primary', set.onPrimary ?? (mode === 'light' ? '#ffffff' : '#000000')],
    ['--c-link', set.link ?? set.primary],
  ];
  return properties.map(([name, value]) => `${name}:${value}`).join(';');
}

export function themeCss(theme: ThemeData): string {
  return `:root{${declarations(theme.light, 'light')}}html[data-theme='dark']{${declarations(theme.dark, 'dark')}}`;
}

/** The <style> with the configured colours; nothing when the site keeps the defaults. */
export function ThemeColors({ theme }: { theme: ThemeData | undefined }) {
  if (!theme) return null;
  return <style data-theme-colors="" dangerouslySetInnerHTML={{ __html: themeCss(theme) }} />;
}

/** <meta name="theme-color"> for each colour mode, when the site has colours of its own. */
export function ThemeColorMeta({ theme }: { theme: ThemeData | undefined }) {
  if (!theme) return null;
  return (
    <>
      <meta name="theme-color" media="(prefers-color-scheme: light)" content={theme.light.primary} />
      <meta name="theme-color" media="(prefers-color-scheme: dark)" content={theme.dark.primary} />
    </>
  );
}
