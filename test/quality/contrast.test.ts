/**
 * Colour contrast of highlighted code, in both themes, for every token colour the site
 * uses, not only those on the pages axe visits: each colour of the built code stylesheet
 * meets WCAG AA (4.5:1) on the code background and on a highlighted line, read from the
 * built site stylesheet. axe (axe.test.ts) checks the rest of each page as rendered.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { builtSite } from '../helpers/site.ts';

const AA = 4.5;

type Rgba = [number, number, number, number];

/** #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba() with commas or spaces; alpha 0–1. */
export function parseColor(value: string): Rgba {
  const v = value.trim().toLowerCase();
  if (v === 'white') return [255, 255, 255, 1];
  if (v === 'black') return [0, 0, 0, 1];
  const hex = /^#([0-9a-f]{3,8})$/.exec(v)?.[1];
  if (hex && [3, 4, 6, 8].includes(hex.length)) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    const n = (i: number) => parseInt(full.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), full.length === 8 ? n(6) / 255 : 1];
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(v);
  if (fn) {
    const alpha = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? parseFloat(fn[4]) / 100 : parseFloat(fn[4]);
    return [Number(fn[1]), Number(fn[2]), Number(fn[3]), alpha];
  }
  throw new Error(`Cannot read the colour "${value}"; teach parseColor its syntax.`);
}

/** `top` painted over an opaque `bottom`. */
function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i]! * a + bottom[i]! * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The declarations of the first rule whose selector is exactly `selector` and that sets `property`. */
function customProperty(css: string, selector: RegExp, property: string): string {
  for (const rule of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    if (!selector.test(rule[1]!.trim())) continue;
    const value = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`).exec(rule[2]!)?.[1];
    if (value) return value.trim();
  }
  throw new Error(`The site stylesheet sets no ${property} under ${selector}; the contrast check reads the code background from there.`);
}

describe('contrast of highlighted code (WCAG AA)', () => {
  let siteCss: string;
  let codeCss: string;

  before(async () => {
    const dist = await builtSite();
    const html = await readFile(path.join(dist, 'docs/mdx/index.html'), 'utf8');
    const hrefs = Array.from(html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g), (m) => m[1]!);
    const read = (pattern: RegExp) => {
      const href = hrefs.find((h) => pattern.test(h));
      assert.ok(href, `the doc page links a stylesheet matching ${pattern}: ${hrefs.join(', ')}`);
      return readFile(path.join(dist, href.replace(/^\//, '')), 'utf8');
    };
    [siteCss, codeCss] = await Promise.all([read(/\/styles-[\w-]+\.css$/), read(/\/code-[\w-]+\.css$/)]);
  });

  it('parses the colour syntaxes the minifier writes', () => {
    assert.deepEqual(parseColor('#fff'), [255, 255, 255, 1]);
    assert.deepEqual(parseColor('#0b5cd50f'), [11, 92, 213, 15 / 255]);
    assert.deepEqual(parseColor('rgb(11 92 213 / 0.06)'), [11, 92, 213, 0.06]);
    assert.equal(contrast(parseColor('#767676'), parseColor('#fff')).toFixed(2), '4.54');
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`every token colour in ${theme} mode, on the code background and on highlighted lines`, () => {
      const selector = theme === 'light' ? /^:root$/ : /^html\[data-theme=["']?dark["']?\]$/;
      const page = parseColor(customProperty(siteCss, theme === 'light' ? /^:root$/ : selector, '--c-bg'));
      const background = over(parseColor(customProperty(siteCss, selector, '--c-code-bg')), page);
      const highlighted = over(parseColor(customProperty(siteCss, selector, '--c-highlight-line')), background);
      const property = theme === 'light' ? 'color' : '--shiki-dark';
      const colours = new Set(Array.from(codeCss.matchAll(new RegExp(`(?:^|[;{])${property}:([^;}]+)`, 'g')), (m) => m[1]!.trim()));
      assert.ok(colours.size >= 5, `the code stylesheet has the token colours of the ${theme} theme (found ${colours.size})`);
      const failing: string[] = [];
      for (const colour of colours) {
        const fg = parseColor(colour);
        for (const [where, bg] of [['code background', background], ['highlighted line', highlighted]] as const) {
          const ratio = contrast(over(fg, bg), bg);
          if (ratio < AA) failing.push(`${colour} on the ${where}: ${ratio.toFixed(2)}:1`);
        }
      }
      assert.deepEqual(failing, [], `token colours below ${AA}:1 in ${theme} mode (the Shiki themes are set in cli/stages/compile.ts, the backgrounds in templates/styles/main.css)`);
    });
  }
});
