/**
 * The `theme` field of site.config.ts: the site's brand colours, for the light and the
 * dark colour mode. They are written into every page as CSS custom properties that
 * override the neutral defaults of templates/styles/main.css, so a site changes its
 * colours without touching the templates.
 */
import { z } from 'zod';

/**
 * A colour that can go into a <style> element as it is: hex (#rgb, #rrggbb, #rrggbbaa)
 * or a colour function such as rgb(…), hsl(…), oklch(…). Anything else (names with
 * punctuation, `;`, `}`) is refused, so a value can never end the declaration.
 */
const cssColor = z
  .string()
  .regex(/^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|[a-z]+\([0-9a-z.,%\s/+-]*\))$/, 'a CSS colour such as #0b5cd5 or rgb(11 92 213)');

/**
 * The brand colours of one colour mode. `primary` is required; a colour left out is
 * derived from it as described on each field. Text colours (`link`, `onPrimary`) should
 * keep a contrast of 4.5:1 with what they sit on (WCAG AA).
 */
const colorSet = z.strictObject({
  /** Buttons, active items, focus rings. @example '#0b5cd5' */
  primary: cssColor,
  /** Hover state of primary elements. Default: primary mixed with 20% black (light) or white (dark). @example '#0848a8' */
  primaryStrong: cssColor.optional(),
  /** Tinted backgrounds (active sidebar item, selection). Default: 12% of primary over the page background. @example '#e8f0fd' */
  primarySoft: cssColor.optional(),
  /** Text on a primary background. Default: #ffffff in light mode, #000000 in dark mode. @example '#ffffff' */
  onPrimary: cssColor.optional(),
  /** Links in text. Default: primary. @example '#0b5cd5' */
  link: cssColor.optional(),
});

export type ThemeColorSet = z.infer<typeof colorSet>;

/**
 * Brand colours of the site. Without it, the neutral indigo of templates/styles/main.css
 * (#3451b2 in light mode, #a8b1ff in dark mode) is used.
 * @example { colors: { light: { primary: '#0b5cd5' }, dark: { primary: '#6aa6ff' } } }
 */
export const themeSchema = z
  .strictObject({
    colors: z.strictObject({
      light: colorSet,
      dark: colorSet,
    }),
  })
  .optional();

export type ThemeConfig = z.infer<typeof themeSchema>;
