/**
 * llms.txt and llms-full.txt (https://llmstxt.org): the site's title as H1, a one-line
 * summary as a quote, then H2 sections of `- [name](url): notes` lines; the full file
 * is the twins themselves, one after the other.
 */
import type { RootContent } from 'mdast';
import { bulletList, link, writeMarkdown } from './write-markdown.ts';

export interface LlmsSection {
  title: string;
  links: { title: string; url: string; description: string }[];
}

export function llmsTxt(input: { title: string; summary: string; sections: readonly LlmsSection[] }): string {
  const children: RootContent[] = [{ type: 'heading', depth: 1, children: [{ type: 'text', value: input.title }] }];
  if (input.summary) children.push({ type: 'blockquote', children: [{ type: 'paragraph', children: [{ type: 'text', value: input.summary }] }] });
  for (const section of input.sections) {
    children.push({ type: 'heading', depth: 2, children: [{ type: 'text', value: section.title }] });
    children.push(
      bulletList(
        section.links.map((l) => [
          link(l.url, l.title),
          ...(l.description ? [{ type: 'text' as const, value: `: ${l.description.replace(/\s+/g, ' ').trim()}` }] : []),
        ]),
      ),
    );
  }
  return writeMarkdown({ type: 'root', children });
}

/**
 * Every twin, one after the other, as UTF-8, from the twins' own encoded bytes (each
 * without its trailing white space): joined as text first, the text of a 10,000-doc site
 * was a string of tens of megabytes held next to its encoded copy, and encoding the
 * twins again took most of the time of a save's Markdown stage in watch mode.
 */
export function llmsFullTxt(twins: readonly { text: string; bytes: Uint8Array }[]): Uint8Array {
  const parts = twins.map(({ text, bytes }) => bytes.subarray(0, bytes.byteLength - Buffer.byteLength(text.slice(text.trimEnd().length))));
  const separator = Buffer.from('\n\n');
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0) + separator.byteLength * Math.max(0, parts.length - 1) + 1);
  let at = 0;
  parts.forEach((part, i) => {
    if (i > 0) {
      out.set(separator, at);
      at += separator.byteLength;
    }
    out.set(part, at);
    at += part.byteLength;
  });
  out[at] = 0x0a;
  return out;
}
