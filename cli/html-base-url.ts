/**
 * Puts a rendered page under the base URL: every root-absolute URL in an attribute that
 * holds one (`href="/docs/x"`, `src="/img/a.svg"`, the sidebar's JSON, the Markdown twin)
 * gets the base URL in front (`/docs-portal/docs/x`), as Docusaurus resolves `/docs/x`
 * written in Markdown. Layouts, components, MDX and the config all write routes from the
 * site's root; this is the one place their pages learn the path the site is served under.
 *
 * The page is parsed (htmlparser2) and only attribute values are changed, in place, so text
 * that merely looks like an attribute (a code sample showing `href="/x"`) is left alone.
 */
import { Parser } from 'htmlparser2';
import { DATA } from '../templates/shared/index.ts';
import { withBase } from '../templates/shared/base-url.ts';

/** Attributes whose value is one URL. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'poster', 'action', 'formaction', 'data', 'xlink:href', DATA.sidebarSrc, DATA.copyPage]);
/** Attributes whose value is a list of "URL width" candidates. */
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);

export function htmlWithBaseUrl(html: string, baseUrl: string): string {
  if (baseUrl === '/') return html;
  /** [offset in html, raw value, its replacement] of each attribute value to change. */
  const edits: [number, string, string][] = [];
  const parser: Parser = new Parser(
    {
      onattribute(name, value, quote) {
        const kind = URL_ATTRIBUTES.has(name) ? 'url' : SRCSET_ATTRIBUTES.has(name) ? 'srcset' : undefined;
        if (!kind || !quote || !value.includes('/')) return;
        // The attribute as written: name, '=', the quoted value; from parser.startIndex to parser.endIndex.
        const raw = html.slice(parser.startIndex, parser.endIndex + 1);
        const open = raw.indexOf(quote);
        const close = raw.lastIndexOf(quote);
        if (open === -1 || close <= open) return;
        const written = raw.slice(open + 1, close);
        const replaced = kind === 'url' ? withBase(baseUrl, written) : written.replace(/(^|,)(\s*)(\/(?!\/))/g, (_all, comma: string, space: string) => `${comma}${space}${baseUrl}`);
        if (replaced !== written) edits.push([parser.startIndex + open + 1, written, replaced]);
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  if (edits.length === 0) return html;
  const parts: string[] = [];
  let at = 0;
  for (const [offset, written, replaced] of edits) {
    parts.push(html.slice(at, offset), replaced);
    at = offset + written.length;
  }
  parts.push(html.slice(at));
  return parts.join('');
}
