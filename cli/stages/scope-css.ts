/**
 * Confines a third-party stylesheet to one element of the page. postcss parses the CSS
 * and postcss-prefix-selector visits every selector (inside @media, @supports and the
 * like, never inside @keyframes); what is ours is only the rule of what each selector
 * becomes, in scopeSelector.
 */
import postcss from 'postcss';
import prefixSelector from 'postcss-prefix-selector';

/**
 * Rewrites `css` so it applies only inside the elements matching `scope`:
 * - `html`, `:root` and `body x` become the scope (`body` itself is dropped: its
 *   margin and 100vh height are for a whole page);
 * - a rule for `[data-theme=…]` applies to the scope under that theme (the attribute
 *   is on <html>) and to themed elements inside it;
 * - selectors that need a class containing `sl-` match only Stoplight Elements' own
 *   markup and stay as they are; every other selector gets the scope in front.
 * The scope is wrapped in :where(), which adds no specificity, so every rule keeps the
 * weight it was written with and the sheet's own rules still override its resets.
 * `from` names the file in postcss' parse errors.
 */
export function scopeCss(css: string, scope: string, from?: string): string {
  const where = `:where(${scope})`;
  const result = postcss([
    prefixSelector({ prefix: where, transform: (_prefix, selector) => scopeSelector(selector, where).join(',') }),
    dropEmptySelectors(),
  ]).process(css, { from });
  return result.css;
}

function scopeSelector(selector: string, where: string): string[] {
  if (matchesOwnMarkupOnly(selector)) return [selector];
  const page = /^(html|:root|body)(?=$|[\s>+~])/i.exec(selector);
  if (page) {
    const rest = selector.slice(page[0].length);
    if (page[1]!.toLowerCase() === 'body' && rest.trim() === '') return [];
    return [`${where}${rest}`];
  }
  // The whole first compound selector, e.g. `[data-theme=dark]` or `[data-theme=dark].x`.
  const theme = /^\[data-theme\b(?:[^\]"']|"[^"]*"|'[^']*')*\][^\s>+~]*/.exec(selector);
  if (theme) return [`${theme[0]} ${where}${selector.slice(theme[0].length)}`, `${where} ${selector}`];
  return [`${where} ${selector}`];
}

/** True when the selector requires an element with a class containing `sl-` (outside :not()). */
function matchesOwnMarkupOnly(selector: string): boolean {
  const positive = selector.replace(/:not\((?:[^()]|\([^()]*\))*\)/g, '');
  return /\.(?:[\w-]|\\.)*sl-/.test(positive);
}

/** A selector the transform dropped (`body`) leaves an empty entry; a rule left with none goes. */
function dropEmptySelectors(): postcss.Plugin {
  return {
    postcssPlugin: 'docsgen-drop-empty-selectors',
    Rule(rule) {
      const kept = rule.selectors.filter((selector) => selector.trim() !== '');
      if (kept.length === 0) rule.remove();
      else if (kept.length !== rule.selectors.length) rule.selectors = kept;
    },
  };
}
